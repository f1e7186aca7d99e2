-- SpatialDilatedConvolution: SpatialConvolution whose kernel taps are
-- dilation apart (weight nOutputPlane x nInputPlane x kH x kW).
local C = require 'thnn.conv'

local K = {}

local function geom(kW, kH, dW, dH, padW, padH, dilW, dilH)
   return {k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}, dil = {dilH, dilW}}
end

function K.SpatialDilatedConvolution_updateOutput(state, input, output, weight, bias, columns, ones,
                                                  kW, kH, dW, dH, padW, padH, dilW, dilH)
   C.forward(input, output, weight, bias, columns, geom(kW, kH, dW, dH, padW, padH, dilW, dilH), ones)
end

function K.SpatialDilatedConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, gradColumns,
                                                     kW, kH, dW, dH, padW, padH, dilW, dilH)
   -- (gradColumns: nn's finput, the forward's columns, as in THNN overwritten)
   C.backward(input, gradOutput, gradInput, weight, gradColumns, geom(kW, kH, dW, dH, padW, padH, dilW, dilH), true)
end

function K.SpatialDilatedConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, columns, ones,
                                                       kW, kH, dW, dH, padW, padH, dilW, dilH, scale)
   C.accgrad(input, gradOutput, gradWeight, gradBias, columns, geom(kW, kH, dW, dH, padW, padH, dilW, dilH), scale,
             ones)
end

return K
