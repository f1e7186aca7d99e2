-- VolumetricConvolution: 3D convolution by a weight nOutputPlane x
-- nInputPlane x kT x kH x kW (the kernel size is the weight's).
local C = require 'thnn.conv'
local S = require 'thnn.spatial'

local K = {}

local function geom(weight, dT, dW, dH, pT, pW, pH)
   if S.dims(weight) ~= 5 then
      S.argerror(4, '5D weight tensor expected (nOutputPlane x nInputPlane x kT x kH x kW), but got: %s',
                 S.shape(weight))
   end
   return {k = {S.size(weight, 3), S.size(weight, 4), S.size(weight, 5)}, s = {dT, dH, dW}, pad = {pT, pH, pW}}
end

function K.VolumetricConvolution_updateOutput(state, input, output, weight, bias, finput, fgradInput,
                                              dT, dW, dH, pT, pW, pH)
   C.forward(input, output, weight, bias, finput, geom(weight, dT, dW, dH, pT, pW, pH))
end

function K.VolumetricConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, finput,
                                                 dT, dW, dH, pT, pW, pH)
   C.backward(input, gradOutput, gradInput, weight, nil, geom(weight, dT, dW, dH, pT, pW, pH))
end

function K.VolumetricConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput, fgradInput,
                                                   dT, dW, dH, pT, pW, pH, scale)
   C.accgrad(input, gradOutput, gradWeight, gradBias, finput, geom(gradWeight, dT, dW, dH, pT, pW, pH), scale)
end

return K
