-- TemporalRowConvolution: each feature f convolved along the frames with its
-- own kernel (weight inputFrameSize x 1 x kW, bias inputFrameSize); frames x
-- features, or features x frames when featFirst.
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

-- checks; returns the output's sizes and the features x frames view maker
local function shapes(input, gradOutput, weight, kW, dW, padW, featFirst)
   local n = S.dims(input)
   if n ~= 2 and n ~= 3 then
      S.argerror(2, '2D or 3D (batch mode) tensor expected for input, but got: %s', S.shape(input))
   end
   local fdim, tdim = n, n - 1
   if featFirst then fdim, tdim = n - 1, n end
   local features = S.size(input, fdim)
   if features ~= S.size(weight, 1) then
      S.argerror(2, 'invalid input frame size. Got: %d, Expected: %d', features, S.size(weight, 1))
   end
   local frames = S.size(input, tdim)
   local nout = S.cdiv(frames + 2 * padW - kW, dW) + 1
   if nout < 1 then
      S.fail('Given input size: (%d x %d). Calculated output size: (%d x %d). Output size is too small',
             features, frames, features, nout)
   end
   local sizes = S.sizes(input)
   sizes[tdim] = nout
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   local function planes(t)
      return nd(featFirst and t or t:transpose(n - 1, n))
   end
   return sizes, planes
end

function K.TemporalRowConvolution_updateOutput(state, input, output, weight, bias, finput, fgradInput,
                                               kW, dW, padW, featFirst)
   local sizes, planes = shapes(input, nil, weight, kW, dW, padW, featFirst)
   S.resize(output, sizes)
   call(py.nn_rowconv_forward, planes(output), planes(input), nd(weight), nd(bias), kW, dW, padW)
end

function K.TemporalRowConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, finput, fgradInput,
                                                  kW, dW, padW, featFirst)
   local _, planes = shapes(input, gradOutput, weight, kW, dW, padW, featFirst)
   S.resizeas(gradInput, input)
   call(py.nn_rowconv_backward, planes(gradInput), planes(gradOutput), nd(weight), kW, dW, padW)
end

function K.TemporalRowConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput,
                                                    fgradInput, kW, dW, padW, featFirst, scale)
   local _, planes = shapes(input, gradOutput, gradWeight, kW, dW, padW, featFirst)
   call(py.nn_rowconv_accgrad, nd(gradWeight), nd(gradBias), planes(input), planes(gradOutput), kW, dW, padW,
        scale or 1)
end

return K
