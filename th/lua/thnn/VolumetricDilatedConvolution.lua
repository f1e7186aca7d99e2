-- VolumetricDilatedConvolution: VolumetricConvolution whose kernel taps are
-- dilation apart.
local C = require 'thnn.conv'

local K = {}

local function geom(kT, kW, kH, dT, dW, dH, padT, padW, padH, dilT, dilW, dilH)
   return {k = {kT, kH, kW}, s = {dT, dH, dW}, pad = {padT, padH, padW}, dil = {dilT, dilH, dilW}}
end

function K.VolumetricDilatedConvolution_updateOutput(state, input, output, weight, bias, columns, ones,
                                                     kT, kW, kH, dT, dW, dH, padT, padW, padH, dilT, dilW, dilH)
   C.forward(input, output, weight, bias, nil, geom(kT, kW, kH, dT, dW, dH, padT, padW, padH, dilT, dilW, dilH),
             ones)
end

function K.VolumetricDilatedConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, gradColumns,
                                                        kT, kW, kH, dT, dW, dH, padT, padW, padH, dilT, dilW, dilH)
   C.backward(input, gradOutput, gradInput, weight, nil,
              geom(kT, kW, kH, dT, dW, dH, padT, padW, padH, dilT, dilW, dilH))
end

function K.VolumetricDilatedConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, columns,
                                                          ones, kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                          dilT, dilW, dilH, scale)
   C.accgrad(input, gradOutput, gradWeight, gradBias, columns,
             geom(kT, kW, kH, dT, dW, dH, padT, padW, padH, dilT, dilW, dilH), scale, ones)
end

return K
