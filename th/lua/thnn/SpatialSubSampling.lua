-- SpatialSubSampling: per plane p, weight[p] times the sum over each kH x kW
-- window, plus bias[p].
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

-- the output's sizes (THNN checked no gradient against them: S.asoutput)
local function shapes(input, weight, g)
   local first = S.checkinput(input, 2)
   local nplanes = weight:nElement()
   if S.size(input, first) ~= nplanes then
      S.argerror(2, 'invalid number of input planes')
   end
   for i = 1, 2 do
      if S.size(input, first + i) < g.k[i] then
         S.argerror(2, 'input image smaller than kernel size')
      end
   end
   local sizes = S.outshape(input, first, nplanes, S.outsizes(input, first, g.k, g.s, g.pad))
   return sizes
end

local function geom(kW, kH, dW, dH)
   return {k = {kH, kW}, s = {dH, dW}, pad = {0, 0}}
end

function K.SpatialSubSampling_updateOutput(state, input, output, weight, bias, kW, kH, dW, dH)
   local g = geom(kW, kH, dW, dH)
   S.resize(output, shapes(input, weight, g))
   call(py.nn_subsampling_forward, nd(output), nd(input), nd(weight), nd(bias), S.flat(g), 2)
end

function K.SpatialSubSampling_updateGradInput(state, input, gradOutput, gradInput, weight, kW, kH, dW, dH)
   local g = geom(kW, kH, dW, dH)
   gradOutput = S.asoutput(gradOutput, shapes(input, weight, g))
   S.resizeas(gradInput, input)
   call(py.nn_subsampling_backward, nd(gradInput), nd(gradOutput), nd(weight), S.flat(g), 2)
end

function K.SpatialSubSampling_accGradParameters(state, input, gradOutput, gradWeight, gradBias, kW, kH, dW, dH,
                                                scale)
   local g = geom(kW, kH, dW, dH)
   gradOutput = S.asoutput(gradOutput, shapes(input, gradWeight, g))
   call(py.nn_subsampling_accgrad, nd(gradWeight), nd(gradBias), nd(input), nd(gradOutput), S.flat(g), 2,
        scale or 1)
end

return K
