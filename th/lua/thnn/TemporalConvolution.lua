-- TemporalConvolution: 1D convolution over the frames of (batches of)
-- nFrames x inputFrameSize sequences by a weight outputFrameSize x
-- kW*inputFrameSize (each window of kW frames seen as one row).
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

-- THNN's checks; returns the output's sizes
local function shapes(input, gradOutput, kW, dW, inputFrameSize, outputFrameSize)
   local n = S.dims(input)
   if n ~= 2 and n ~= 3 then
      S.argerror(2, '2D or 3D (batch mode) tensor expected for input, but got: %s', S.shape(input))
   end
   local frames = S.size(input, n - 1)
   if inputFrameSize and S.size(input, n) ~= inputFrameSize then
      S.argerror(2, 'invalid input frame size. Got: %d, Expected: %d', S.size(input, n), inputFrameSize)
   end
   if frames < kW then
      S.argerror(2, 'input sequence smaller than kernel size. Got: %d, Expected: %d', frames, kW)
   end
   local sizes = {math.floor((frames - kW) / dW) + 1, outputFrameSize}
   if n == 3 then table.insert(sizes, 1, S.size(input, 1)) end
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes
end

function K.TemporalConvolution_updateOutput(state, input, output, weight, bias, kW, dW, inputFrameSize,
                                            outputFrameSize)
   S.resize(output, shapes(input, nil, kW, dW, inputFrameSize, outputFrameSize))
   call(py.nn_temporal_conv_forward, nd(output), nd(input), nd(weight), nd(bias), kW, dW)
end

function K.TemporalConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, kW, dW)
   shapes(input, gradOutput, kW, dW, S.size(weight, 2) / kW, S.size(weight, 1))
   S.resizeas(gradInput, input)
   call(py.nn_temporal_conv_backward, nd(gradInput), nd(gradOutput), nd(weight), kW, dW)
end

function K.TemporalConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, kW, dW, scale)
   shapes(input, gradOutput, kW, dW, S.size(gradWeight, 2) / kW, S.size(gradWeight, 1))
   call(py.nn_temporal_conv_accgrad, nd(gradWeight), nd(gradBias), nd(input), nd(gradOutput), kW, dW, scale or 1)
end

return K
