-- SpatialFullDilatedConvolution: the transposed dilated convolution (weight
-- nInputPlane x nOutputPlane x kH x kW).
local C = require 'thnn.conv'

local K = {}

local function geom(kW, kH, dW, dH, padW, padH, dilW, dilH)
   return {k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}, dil = {dilH, dilW}}
end

function K.SpatialFullDilatedConvolution_updateOutput(state, input, output, weight, bias, columns, ones,
                                                      kW, kH, dW, dH, padW, padH, dilW, dilH, adjW, adjH)
   C.fullforward(input, output, weight, bias, geom(kW, kH, dW, dH, padW, padH, dilW, dilH), {adjH, adjW}, columns,
                 ones)
end

function K.SpatialFullDilatedConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, gradColumns,
                                                         kW, kH, dW, dH, padW, padH, dilW, dilH, adjW, adjH)
   C.fullbackward(input, gradOutput, gradInput, weight, geom(kW, kH, dW, dH, padW, padH, dilW, dilH), {adjH, adjW},
                  gradColumns)
end

function K.SpatialFullDilatedConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, columns,
                                                           ones, kW, kH, dW, dH, padW, padH, dilW, dilH, adjW, adjH,
                                                           scale)
   C.fullaccgrad(input, gradOutput, gradWeight, gradBias, geom(kW, kH, dW, dH, padW, padH, dilW, dilH),
                 {adjH, adjW}, scale, columns, ones)
end

return K
