-- SpatialConvolutionMM: 2D convolution of (batches of) nInputPlane x H x W
-- images by a weight nOutputPlane x nInputPlane*kH*kW (or its 4D view), the
-- columns kept in finput as THNN did (im2col + GEMM, th/lua/thnn/conv.lua).
local C = require 'thnn.conv'

local K = {}

local function geom(kW, kH, dW, dH, padW, padH)
   return {k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}}
end

function K.SpatialConvolutionMM_updateOutput(state, input, output, weight, bias, finput, fgradInput,
                                             kW, kH, dW, dH, padW, padH)
   C.forward(input, output, weight, bias, finput, geom(kW, kH, dW, dH, padW, padH))
end

function K.SpatialConvolutionMM_updateGradInput(state, input, gradOutput, gradInput, weight, finput, fgradInput,
                                                kW, kH, dW, dH, padW, padH)
   C.backward(input, gradOutput, gradInput, weight, fgradInput, geom(kW, kH, dW, dH, padW, padH))
end

function K.SpatialConvolutionMM_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput, fgradInput,
                                                  kW, kH, dW, dH, padW, padH, scale)
   C.accgrad(input, gradOutput, gradWeight, gradBias, finput, geom(kW, kH, dW, dH, padW, padH), scale)
end

return K
