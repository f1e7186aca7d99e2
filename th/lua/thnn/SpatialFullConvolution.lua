-- SpatialFullConvolution: the transposed convolution (weight nInputPlane x
-- nOutputPlane x kH x kW); output size (in - 1) * d - 2 * pad + k + adj.
local C = require 'thnn.conv'

local K = {}

local function geom(kW, kH, dW, dH, padW, padH)
   return {k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}}
end

function K.SpatialFullConvolution_updateOutput(state, input, output, weight, bias, columns, ones,
                                               kW, kH, dW, dH, padW, padH, adjW, adjH)
   C.fullforward(input, output, weight, bias, geom(kW, kH, dW, dH, padW, padH), {adjH, adjW}, columns, ones)
end

function K.SpatialFullConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, gradColumns,
                                                  kW, kH, dW, dH, padW, padH, adjW, adjH)
   C.fullbackward(input, gradOutput, gradInput, weight, geom(kW, kH, dW, dH, padW, padH), {adjH, adjW},
                  gradColumns)
end

function K.SpatialFullConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, columns, ones,
                                                    kW, kH, dW, dH, padW, padH, adjW, adjH, scale)
   C.fullaccgrad(input, gradOutput, gradWeight, gradBias, geom(kW, kH, dW, dH, padW, padH), {adjH, adjW}, scale,
                 columns, ones)
end

return K
