-- TemporalSubSampling: per feature f, weight[f] times the sum over each
-- window of kW frames, plus bias[f].
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

local function shapes(input, gradOutput, kW, dW, frameSize)
   local n = S.dims(input)
   if n ~= 2 then    -- THNN took no batch here
      S.argerror(2, '2D or 3D (batch mode) tensor expected for input, but got: %s', S.shape(input))
   end
   if frameSize and S.size(input, n) ~= frameSize then
      S.argerror(2, 'invalid input frame size.  Got: %d, Expected: %d', S.size(input, n), frameSize)
   end
   local frames = S.size(input, n - 1)
   if frames < kW then
      S.argerror(2, 'input sequence smaller than kernel size.  Got %d, Expected: %d', frames, kW)
   end
   local sizes = {math.floor((frames - kW) / dW) + 1, S.size(input, n)}
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes, n
end

local function planes(t, n)
   return nd(t:transpose(n - 1, n))
end

local function geom(kW, dW)
   return S.flat{k = {kW}, s = {dW}, pad = {0}}
end

function K.TemporalSubSampling_updateOutput(state, input, output, weight, bias, kW, dW, inputFrameSize)
   local sizes, n = shapes(input, nil, kW, dW, inputFrameSize)
   S.resize(output, sizes)
   call(py.nn_subsampling_forward, planes(output, n), planes(input, n), nd(weight), nd(bias), geom(kW, dW), 1)
end

function K.TemporalSubSampling_updateGradInput(state, input, gradOutput, gradInput, weight, kW, dW)
   local _, n = shapes(input, gradOutput, kW, dW, S.size(weight, 1))
   S.resizeas(gradInput, input)
   call(py.nn_subsampling_backward, planes(gradInput, n), planes(gradOutput, n), nd(weight), geom(kW, dW), 1)
end

function K.TemporalSubSampling_accGradParameters(state, input, gradOutput, gradWeight, gradBias, kW, dW, scale)
   local _, n = shapes(input, gradOutput, kW, dW, S.size(gradWeight, 1))
   call(py.nn_subsampling_accgrad, nd(gradWeight), nd(gradBias), planes(input, n), planes(gradOutput, n),
        geom(kW, dW), 1, scale or 1)
end

return K
