-- SpatialDepthWiseConvolution: each input plane j convolved with its own
-- kernels [i][j] (weight nOutputPlane x nInputPlane*kH*kW, bias nOutputPlane
-- x nInputPlane), giving nInputPlane*nOutputPlane output planes (plane
-- (j-1)*nOutputPlane + i, as nn's test builds it from SpatialConvolutions).
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

-- (bias: the forward's bias or accGradParameters' gradBias, which THNN
-- checked before the input; th's numpy failed in its own words)
local function shapes(input, gradOutput, weight, g, bias)
   local nout = S.size(weight, 1)
   local nin = weight:nElement() / nout / (g.k[1] * g.k[2])
   if bias then S.checkgrad(bias, {nout, nin}, 'bias') end
   local first = S.checkinput(input, 2)
   S.checkplanes(input, first, nin)
   local osz = S.outsizes(input, first, g.k, g.s, g.pad, nil, 'c', nout * nin)
   local sizes = S.outshape(input, first, nout * nin, osz)
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes
end

local function geom(kW, kH, dW, dH, padW, padH)
   return {k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}}
end

function K.SpatialDepthWiseConvolution_updateOutput(state, input, output, weight, bias, finput, fgradInput,
                                                    kW, kH, dW, dH, padW, padH)
   local g = geom(kW, kH, dW, dH, padW, padH)
   S.resize(output, shapes(input, nil, weight, g, bias))
   call(py.nn_depthwise_forward, nd(output), nd(input), nd(weight), nd(bias), S.flat(g))
end

function K.SpatialDepthWiseConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, finput,
                                                       fgradInput, kW, kH, dW, dH, padW, padH)
   local g = geom(kW, kH, dW, dH, padW, padH)
   shapes(input, gradOutput, weight, g)
   S.resizeas(gradInput, input)
   call(py.nn_depthwise_backward, nd(gradInput), nd(gradOutput), nd(weight), S.flat(g))
end

function K.SpatialDepthWiseConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput,
                                                         fgradInput, kW, kH, dW, dH, padW, padH, scale)
   local g = geom(kW, kH, dW, dH, padW, padH)
   shapes(input, gradOutput, gradWeight, g, gradBias)
   call(py.nn_depthwise_accgrad, nd(gradWeight), nd(gradBias), nd(input), nd(gradOutput), S.flat(g), scale or 1)
end

return K
