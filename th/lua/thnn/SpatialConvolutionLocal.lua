-- SpatialConvolutionLocal: a convolution with its own weights at every output
-- place (weight oH*oW x nOutputPlane x nInputPlane*kH*kW, bias nOutputPlane x
-- oH x oW): im2col, then one small GEMM per place, batched.
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

local function check(input, gradOutput, weight, g, iW, iH, oW, oH)
   local first = S.checkinput(input, 2)
   if S.size(input, first + 1) ~= iH or S.size(input, first + 2) ~= iW then
      S.argerror(2, 'input image of size %dx%d expected, but got: %s', iH, iW, S.shape(input))
   end
   local nout = S.size(weight, S.dims(weight) - 1)
   local sizes = S.outshape(input, first, nout, {oH, oW})
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes
end

local function geom(kW, kH, dW, dH, padW, padH)
   return S.flat{k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}}
end

function K.SpatialConvolutionLocal_updateOutput(state, input, output, weight, bias, finput, fgradInput,
                                                kW, kH, dW, dH, padW, padH, iW, iH, oW, oH)
   local sizes = check(input, nil, weight, nil, iW, iH, oW, oH)
   if bias ~= nil then S.checkgrad(bias, {sizes[#sizes - 2], oH, oW}, 'bias') end
   S.resize(output, sizes)
   call(py.nn_convlocal_forward, nd(output), nd(input), nd(weight), nd(bias), geom(kW, kH, dW, dH, padW, padH))
end

function K.SpatialConvolutionLocal_updateGradInput(state, input, gradOutput, gradInput, weight, finput, fgradInput,
                                                   kW, kH, dW, dH, padW, padH, iW, iH, oW, oH)
   check(input, gradOutput, weight, nil, iW, iH, oW, oH)
   S.resizeas(gradInput, input)
   call(py.nn_convlocal_backward, nd(gradInput), nd(gradOutput), nd(weight), geom(kW, kH, dW, dH, padW, padH))
end

function K.SpatialConvolutionLocal_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput,
                                                     fgradInput, kW, kH, dW, dH, padW, padH, iW, iH, oW, oH, scale)
   check(input, gradOutput, gradWeight, nil, iW, iH, oW, oH)
   call(py.nn_convlocal_accgrad, nd(gradWeight), nd(gradBias), nd(input), nd(gradOutput),
        geom(kW, kH, dW, dH, padW, padH), scale or 1)
end

return K
