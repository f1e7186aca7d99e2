-- VolumetricConvolutionMM: 3D convolution by a weight nOutputPlane x
-- nInputPlane x kT x kH x kW (or its 2D view), the columns kept in finput.
local C = require 'thnn.conv'

local K = {}

-- (unchecked: THNN did not check the input's planes against a 5D weight,
-- nn.VolumetricConvolution's; its product failed)
local function geom(kT, kW, kH, dT, dW, dH, pT, pW, pH, weight)
   return {k = {kT, kH, kW}, s = {dT, dH, dW}, pad = {pT, pH, pW}, unchecked = weight ~= nil and weight:dim() == 5}
end

function K.VolumetricConvolutionMM_updateOutput(state, input, output, weight, bias, finput,
                                                kT, kW, kH, dT, dW, dH, pT, pW, pH)
   C.forward(input, output, weight, bias, finput, geom(kT, kW, kH, dT, dW, dH, pT, pW, pH, weight))
end

function K.VolumetricConvolutionMM_updateGradInput(state, input, gradOutput, gradInput, weight, finput, fgradInput,
                                                   kT, kW, kH, dT, dW, dH, pT, pW, pH)
   C.backward(input, gradOutput, gradInput, weight, fgradInput, geom(kT, kW, kH, dT, dW, dH, pT, pW, pH))
end

function K.VolumetricConvolutionMM_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput,
                                                     kT, kW, kH, dT, dW, dH, pT, pW, pH, scale)
   C.accgrad(input, gradOutput, gradWeight, gradBias, finput, geom(kT, kW, kH, dT, dW, dH, pT, pW, pH), scale)
end

return K
