-- SpatialConvolutionMM: 2D convolution of (batches of) nInputPlane x H x W
-- images by a weight nOutputPlane x nInputPlane*kH*kW (or its 4D view), the
-- columns kept in finput as THNN did (im2col + GEMM, th/lua/thnn/conv.lua).
local C = require 'thnn.conv'

local K = {}

-- the geometry tables, made once per set of arguments (a training step
-- calls the kernels thousands of times with the same ones), found through
-- nested tables (a string key would be garbage at each call)
local cache = {}
local function geom(kW, kH, dW, dH, padW, padH)
   local t = cache
   t = t[kW] or rawset(t, kW, {})[kW]
   t = t[kH] or rawset(t, kH, {})[kH]
   t = t[dW] or rawset(t, dW, {})[dW]
   t = t[dH] or rawset(t, dH, {})[dH]
   t = t[padW] or rawset(t, padW, {})[padW]
   local g = t[padH]
   if not g then
      g = {k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}}
      t[padH] = g
   end
   return g
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
