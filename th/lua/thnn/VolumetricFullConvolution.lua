-- VolumetricFullConvolution: the transposed 3D convolution (weight
-- nInputPlane x nOutputPlane x kT x kH x kW, the kernel size is the weight's).
local C = require 'thnn.conv'
local S = require 'thnn.spatial'

local K = {}

local function geom(weight, dT, dW, dH, pT, pW, pH)
   if S.dims(weight) ~= 5 then
      -- (THNN's words, its planes named in the direct convolution's order)
      S.argerror(4, '5D (nOutputPlane x nInputPlane x kT x kH x kW) tensor expected for weight, but got: %s',
                 S.shape(weight))
   end
   return {k = {S.size(weight, 3), S.size(weight, 4), S.size(weight, 5)}, s = {dT, dH, dW}, pad = {pT, pH, pW}}
end

function K.VolumetricFullConvolution_updateOutput(state, input, output, weight, bias, finput, fgradInput,
                                                  dT, dW, dH, pT, pW, pH, aT, aW, aH)
   -- (finput, fgradInput: THNN's columns, and its ones for the bias gradient's gemv)
   C.fullforward(input, output, weight, bias, geom(weight, dT, dW, dH, pT, pW, pH), {aT, aH, aW}, finput, fgradInput)
end

function K.VolumetricFullConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, finput, fgradInput,
                                                     dT, dW, dH, pT, pW, pH, aT, aW, aH)
   C.fullbackward(input, gradOutput, gradInput, weight, geom(weight, dT, dW, dH, pT, pW, pH), {aT, aH, aW},
                  finput)
end

function K.VolumetricFullConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput,
                                                       fgradInput, dT, dW, dH, pT, pW, pH, aT, aW, aH, scale)
   C.fullaccgrad(input, gradOutput, gradWeight, gradBias, geom(gradWeight, dT, dW, dH, pT, pW, pH), {aT, aH, aW},
                 scale, finput, fgradInput)
end

return K
