-- SpatialDepthWiseConvolution: each input plane j convolved with its own
-- kernels [i][j] (weight nOutputPlane x nInputPlane*kH*kW, bias nOutputPlane
-- x nInputPlane), giving nInputPlane*nOutputPlane output planes (plane
-- (j-1)*nOutputPlane + i, as nn's test builds it from SpatialConvolutions).
local torch = require 'torch'
local cblas = require 'torch.maths.cblas'
local S = require 'thnn.spatial'
local conv = require 'thnn.conv'

local py, nd, call = S.py, S.nd, S.call
local floor = math.floor

local K = {}

-- weight4d(weight, kW, kH): THNN resized a 2D weight (or gradWeight) in
-- place to nOutputPlane x nInputPlane x kH x kW, its planes the row's length
-- divided by kH*kW (C's division), and left it so: after a forward the
-- module's weight is 4D (th's had stayed 2D). The resize is TH's: the same
-- storage and offset with contiguous strides (a transposed or narrowed
-- weight read in its memory's order), a size 0 ending the dimensions there
-- (a row shorter than one kernel: the weight became 1D). A weight that is
-- then not 4D is refused, the resized one shown (th had taken any weight
-- and divided its elements by the planes). Returns nOutputPlane,
-- nInputPlane and the weight's own kernel's size.
local function weight4d(weight, kW, kH)
   if S.dims(weight) == 2 then
      local nout, row = S.size(weight, 1), S.size(weight, 2)
      weight:resize(nout, floor(row / (kW * kH)), kH, kW)
   end
   if S.dims(weight) ~= 4 then
      S.argerror(5, '2D or 4D weight tensor expected, but got: %s', S.shape(weight))
   end
   return S.size(weight, 1), S.size(weight, 2), S.size(weight, 3) * S.size(weight, 4)
end

-- (bias: the forward's bias or accGradParameters' gradBias, which THNN
-- checked before the input; th's numpy failed in its own words)
local function shapes(input, gradOutput, nout, nin, g, bias)
   if bias then S.checkgrad(bias, {nout, nin}, 'bias') end
   local first = S.checkinput(input, 2)
   S.checkplanes(input, first, nin)
   local osz = S.outsizes(input, first, g.k, g.s, g.pad, nil, 'c', nout * nin)
   local sizes = S.outshape(input, first, nout * nin, osz)
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes, osz[1] * osz[2], osz
end

-- a weight of another kernel than the module's (its kernel's elements wk,
-- the module's kk = kH*kW) passed THNN's checks and failed in the addmm of
-- each plane's kernels by the input's columns (kk x the output's elements
-- p), in addmm's words: the forward's product, the gradInput's (the kernels
-- transposed, into the columns) or the gradWeight's (into the kernels)
local function kernelcheck(pass, nout, wk, kk, p)
   if wk == kk then return end
   if pass == 'forward' then
      S.fail('size mismatch, m1: [%d x %d], m2: [%d x %d]', nout, wk, kk, p)
   elseif pass == 'gradInput' then
      S.fail('size mismatch, t: [%d x %d], m1: [%d x %d], m2: [%d x %d]', kk, p, wk, nout, nout, p)
   end
   S.fail('size mismatch, t: [%d x %d], m1: [%d x %d], m2: [%d x %d]', nout, wk, nout, p, p, kk)
end

-- THNN's accGradParameters left gradWeight and gradBias over their memory
-- plane by plane: nInputPlane blocks of nOutputPlane kernels (gradWeight's
-- strides kH*kW, nOutputPlane*kH*kW, kW, 1, gradBias's 1, nOutputPlane;
-- their values kept), so that getParameters' flat gradient holds them in
-- that order, not the weight's and bias's (th's stayed in theirs, and
-- training with a flat gradient came out otherwise)
local function planesfirst(t, sizes, strides)
   local values = t:clone()
   t:set(t:storage(), t:storageOffset(), torch.LongStorage(sizes), torch.LongStorage(strides))
   t:copy(values)
end

local function gradplanesfirst(gradWeight, gradBias)
   local nout, nin, kh, kw = S.size(gradWeight, 1), S.size(gradWeight, 2), S.size(gradWeight, 3),
                             S.size(gradWeight, 4)
   planesfirst(gradWeight, {nout, nin, kh, kw}, {kh * kw, nout * kh * kw, kw, 1})
   if gradBias then planesfirst(gradBias, {nout, nin}, {1, nout}) end
end

-- THNN kept each plane's columns in finput ((batch x) nInputPlane x kH*kW x
-- the output's places), made by the forward and used as they are by
-- accGradParameters (resized, not made again: a gradient after another
-- input's forward is that forward's), and the gradient's columns in
-- fgradInput; th's stayed empty, and a saved module had other bytes
local function colsbuffer(t, input, nin, kk, p)
   if S.dims(input) == 4 then
      S.resize(t, {S.size(input, 1), nin, kk, p})
   else
      S.resize(t, {nin, kk, p})
   end
   return t
end

-- THNN's gradients of the kernels and biases, image by image and plane by
-- plane: plane j's kernels (nOutputPlane x kH*kW, a block of gradWeight's
-- memory once planesfirst laid it out) += scale * that plane's gradOutput
-- (nOutputPlane x the places) times its columns transposed, through the
-- BLAS Torch7's addmm called; the biases the sums of each gradOutput plane
-- in order (numpy's einsum and pairwise sums had other last bits). False
-- when BLAS does not take the tensors.
local R, A, B = S.descriptor(), S.descriptor(), S.descriptor()
local function accgradblas(input, gradOutput, gradWeight, gradBias, cols, g, nout, nin, osz, scale)
   local T = torch.type(input)
   if (T ~= 'torch.DoubleTensor' and T ~= 'torch.FloatTensor') or not gradOutput:isContiguous() then
      return false
   end
   local batch = S.dims(input) == 4
   local N, kk, P = batch and S.size(input, 1) or 1, g.k[1] * g.k[2], osz[1] * osz[2]
   if not cols:isContiguous() or torch.type(cols) ~= T then return false end
   local r = S.matrix(R, gradWeight, nout, kk, kk, 1)
   local a = S.matrix(A, gradOutput, nout, P, P, 1)
   local b = S.matrix(B, cols, P, kk, 1, P)
   if not cblas.usable(r, a, b) then return false end
   local r0, a0, b0 = r.off, a.off, b.off
   for n = 0, N - 1 do
      for j = 0, nin - 1 do
         r.off, a.off, b.off = r0 + j * nout * kk, a0 + (n * nin + j) * nout * P, b0 + (n * nin + j) * kk * P
         if not cblas.product('addmm', r, 1, scale, a, b) then return false end
      end
   end
   if gradBias then conv.biasgrad(gradBias, gradOutput, N, nin * nout, P, scale) end
   return true
end

local function geom(kW, kH, dW, dH, padW, padH)
   return {k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}}
end

function K.SpatialDepthWiseConvolution_updateOutput(state, input, output, weight, bias, finput, fgradInput,
                                                    kW, kH, dW, dH, padW, padH)
   local g = geom(kW, kH, dW, dH, padW, padH)
   local nout, nin, wk = weight4d(weight, kW, kH)
   local sizes, p, osz = shapes(input, nil, nout, nin, g, bias)
   S.resize(output, sizes)
   kernelcheck('forward', nout, wk, kW * kH, p)
   colsbuffer(finput, input, nin, kW * kH, p)
   call(py.nn_depthwise_columns, nd(finput), nd(input), S.flat(g), osz[1], osz[2])
   call(py.nn_depthwise_forward, nd(output), nd(input), nd(weight), nd(bias), S.flat(g))
end

function K.SpatialDepthWiseConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, finput,
                                                       fgradInput, kW, kH, dW, dH, padW, padH)
   local g = geom(kW, kH, dW, dH, padW, padH)
   local nout, nin, wk = weight4d(weight, kW, kH)
   local _, p = shapes(input, gradOutput, nout, nin, g)
   S.resizeas(gradInput, input)
   kernelcheck('gradInput', nout, wk, kW * kH, p)
   colsbuffer(fgradInput, input, nin, kW * kH, p)
   call(py.nn_depthwise_backward, nd(gradInput), nd(gradOutput), nd(weight), S.flat(g), nd(fgradInput))
end

function K.SpatialDepthWiseConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput,
                                                         fgradInput, kW, kH, dW, dH, padW, padH, scale)
   local g = geom(kW, kH, dW, dH, padW, padH)
   local nout, nin, wk = weight4d(gradWeight, kW, kH)
   local _, p, osz = shapes(input, gradOutput, nout, nin, g, gradBias)
   gradplanesfirst(gradWeight, gradBias)
   kernelcheck('gradWeight', nout, wk, kW * kH, p)
   scale = scale or 1
   colsbuffer(finput, input, nin, kW * kH, p)
   if not accgradblas(input, gradOutput, gradWeight, gradBias, finput, g, nout, nin, osz, scale) then
      call(py.nn_depthwise_accgrad, nd(gradWeight), nd(gradBias), nd(input), nd(gradOutput), S.flat(g), scale,
           nd(finput))
   end
end

return K
