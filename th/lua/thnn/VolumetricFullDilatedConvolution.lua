-- VolumetricFullDilatedConvolution: the transposed dilated 3D convolution
-- (weight nInputPlane x nOutputPlane x kT x kH x kW).
local C = require 'thnn.conv'
local S = require 'thnn.spatial'

local K = {}

local function geom(weight, dT, dW, dH, pT, pW, pH, dilT, dilW, dilH)
   if S.dims(weight) ~= 5 then
      S.argerror(4, '5D weight tensor expected (nInputPlane x nOutputPlane x kT x kH x kW), but got: %s',
                 S.shape(weight))
   end
   return {k = {S.size(weight, 3), S.size(weight, 4), S.size(weight, 5)}, s = {dT, dH, dW}, pad = {pT, pH, pW},
           dil = {dilT, dilH, dilW}}
end

function K.VolumetricFullDilatedConvolution_updateOutput(state, input, output, weight, bias, finput, fgradInput,
                                                         dT, dW, dH, pT, pW, pH, dilT, dilW, dilH, aT, aW, aH)
   -- (finput, fgradInput: THNN's columns, and its ones for the bias gradient's gemv)
   C.fullforward(input, output, weight, bias, geom(weight, dT, dW, dH, pT, pW, pH, dilT, dilW, dilH), {aT, aH, aW},
                 finput, fgradInput)
end

function K.VolumetricFullDilatedConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, finput,
                                                            fgradInput, dT, dW, dH, pT, pW, pH, dilT, dilW, dilH,
                                                            aT, aW, aH)
   C.fullbackward(input, gradOutput, gradInput, weight, geom(weight, dT, dW, dH, pT, pW, pH, dilT, dilW, dilH),
                  {aT, aH, aW}, finput)
end

function K.VolumetricFullDilatedConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput,
                                                              fgradInput, dT, dW, dH, pT, pW, pH, dilT, dilW, dilH,
                                                              aT, aW, aH, scale)
   C.fullaccgrad(input, gradOutput, gradWeight, gradBias, geom(gradWeight, dT, dW, dH, pT, pW, pH, dilT, dilW, dilH),
                 {aT, aH, aW}, scale, finput, fgradInput)
end

return K
