-- unfolded_copy / unfolded_acc: the im2col of one nInputPlane x H x W image
-- into finput (nInputPlane*kH*kW x outputHeight*outputWidth), and its adjoint
-- (the columns added back into the image).  THNN.h gives them no state
-- argument; th's binding passes nil first all the same (the `_`).
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

local function geom(kW, kH, dW, dH, padW, padH)
   return S.flat{k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}}
end

function K.unfolded_copy(_, finput, input, kW, kH, dW, dH, padW, padH, nInputPlane, inputWidth, inputHeight,
                         outputWidth, outputHeight)
   S.resize(finput, {nInputPlane * kH * kW, outputHeight * outputWidth})
   call(py.nn_unfolded_copy, nd(finput), nd(input:view(nInputPlane, inputHeight, inputWidth)),
        geom(kW, kH, dW, dH, padW, padH))
end

function K.unfolded_acc(_, finput, input, kW, kH, dW, dH, padW, padH, nInputPlane, inputWidth, inputHeight,
                        outputWidth, outputHeight)
   call(py.nn_unfolded_acc, nd(finput), nd(input:view(nInputPlane, inputHeight, inputWidth)),
        geom(kW, kH, dW, dH, padW, padH))
end

return K
