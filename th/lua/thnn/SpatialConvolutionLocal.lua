-- SpatialConvolutionLocal: a convolution with its own weights at every output
-- place (weight oH*oW x nOutputPlane x nInputPlane*kH*kW, bias nOutputPlane x
-- oH x oW).  The columns (finput, K x P an image, made in numpy) then, image
-- by image, one gemm per place as THNN's baddbmm made them: the forward on
-- a place's column of the columns and of the output image, in place (the
-- layout THNN's BLAS saw, whose sums give the last bits), the gradients on
-- contiguous rows (P x O and P x K scratch); the output starts at the bias,
-- the gradients add in image by image.
local torch = require 'torch'
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
   if gradOutput then S.checkgrad(gradOutput, sizes, nil, first) end
   return sizes, first == 2 and sizes[1] or nil
end

local function geom(kW, kH, dW, dH, padW, padH)
   return S.flat{k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}}
end

-- t, or a contiguous copy of it
local function dense(t)
   return t:isContiguous() and t or t:contiguous()
end

-- the images N (1 when not a batch), the planes O, the places P, the column
-- length K, and the weight as P x O x K (an error when its size is not that)
local function layout(input, sizes, weight, kW, kH, oW, oH)
   local batch = S.dims(input) == 4
   local N, O, P = batch and S.size(input, 1) or 1, sizes[#sizes - 2], oH * oW
   local Kc = S.size(input, batch and 2 or 1) * kH * kW
   if weight:nElement() ~= P * O * Kc then
      S.fail('SpatialConvolutionLocal: weight of %d x %d x %d elements expected, but got: %s', P, O, Kc,
             S.shape(weight))
   end
   return batch, N, O, P, Kc, dense(weight):view(P, O, Kc)
end

-- image n of t (all of t when not a batch) as rows x cols
local function image(t, batch, n, rows, cols)
   return (batch and t[n] or t):view(rows, cols)
end

-- v set to the rows x P matrix m as P x rows x 1, a place's column of m
-- per matrix (strides 1, P, rows * P), as THNN's views of its columns and
-- output read them: BLAS then reads each place as THNN's did, whose sums
-- (under OpenBLAS's AVX-512 kernels) differ from a contiguous copy's
local function places(v, m, P, rows)
   v:set(m:storage(), m:storageOffset(), torch.LongStorage{P, rows, 1}, torch.LongStorage{1, P, rows * P})
end

-- a columns buffer (N x) K x P, contiguous
local function columnsbuffer(cols, batch, N, Kc, P)
   S.resize(cols, batch and {N, Kc, P} or {Kc, P})
   if not cols:isContiguous() then cols:set(cols.new():resize(cols:size())) end
end

function K.SpatialConvolutionLocal_updateOutput(state, input, output, weight, bias, finput, fgradInput,
                                                kW, kH, dW, dH, padW, padH, iW, iH, oW, oH)
   local sizes = check(input, nil, weight, nil, iW, iH, oW, oH)
   if bias ~= nil then S.checkgrad(bias, {sizes[#sizes - 2], oH, oW}, 'bias') end
   S.resize(output, sizes)
   local batch, N, O, P, Kc, w = layout(input, sizes, weight, kW, kH, oW, oH)
   columnsbuffer(finput, batch, N, Kc, P)
   call(py.nn_columns, nd(finput), nd(input), geom(kW, kH, dW, dH, padW, padH), oH, oW)
   local out = dense(output)
   local b = bias and dense(bias):view(O, P)
   local r3, c3 = input.new(), input.new()
   for n = 1, N do
      local o = image(out, batch, n, O, P)
      if b then o:copy(b) else o:zero() end
      places(r3, o, P, O)
      places(c3, image(finput, batch, n, Kc, P), P, Kc)
      r3:baddbmm(w, c3)
   end
   if out ~= output then output:copy(out) end
end

function K.SpatialConvolutionLocal_updateGradInput(state, input, gradOutput, gradInput, weight, finput, fgradInput,
                                                   kW, kH, dW, dH, padW, padH, iW, iH, oW, oH)
   local sizes, batch = check(input, gradOutput, weight, nil, iW, iH, oW, oH)
   gradOutput = S.firstrows(gradOutput, batch)
   S.resizeas(gradInput, input)
   local batch, N, O, P, Kc, w = layout(input, sizes, weight, kW, kH, oW, oH)
   columnsbuffer(fgradInput, batch, N, Kc, P)
   local gout, wt = dense(gradOutput), w:transpose(2, 3)
   local g, f = input.new(P, O), input.new(P, Kc)
   local g3, f3 = g:view(P, O, 1), f:view(P, Kc, 1)
   for n = 1, N do
      g:copy(image(gout, batch, n, O, P):t())
      f3:baddbmm(0, f3, 1, wt, g3)
      image(fgradInput, batch, n, Kc, P):copy(f:t())
   end
   call(py.nn_columns_fold, nd(gradInput), nd(fgradInput), geom(kW, kH, dW, dH, padW, padH), oH, oW)
end

-- (the forward's columns when they still fit, as THNN used them; made again otherwise)
function K.SpatialConvolutionLocal_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput,
                                                     fgradInput, kW, kH, dW, dH, padW, padH, iW, iH, oW, oH, scale)
   local sizes, batch = check(input, gradOutput, gradWeight, nil, iW, iH, oW, oH)
   gradOutput = S.firstrows(gradOutput, batch)
   -- (gradBias checked as the forward's bias: th's view of it had failed in its own words)
   if gradBias ~= nil then S.checkgrad(gradBias, {sizes[#sizes - 2], oH, oW}, 'bias') end
   scale = scale or 1
   local batch, N, O, P, Kc = layout(input, sizes, gradWeight, kW, kH, oW, oH)
   if finput:nElement() ~= N * Kc * P or not finput:isContiguous() then
      columnsbuffer(finput, batch, N, Kc, P)
      call(py.nn_columns, nd(finput), nd(input), geom(kW, kH, dW, dH, padW, padH), oH, oW)
   end
   local gw, gb, gout = dense(gradWeight), gradBias and dense(gradBias), dense(gradOutput)
   local w3 = gw:view(P, O, Kc)
   local g, c = input.new(P, O), input.new(P, Kc)
   local g3, c3 = g:view(P, O, 1), c:view(P, 1, Kc)
   for n = 1, N do
      local gn = image(gout, batch, n, O, P)
      g:copy(gn:t())
      c:copy(image(finput, batch, n, Kc, P):t())
      w3:baddbmm(1, w3, scale, g3, c3)
      if gb then gb:view(O, P):add(scale, gn) end
   end
   if gw ~= gradWeight then gradWeight:copy(gw) end
   if gb and gb ~= gradBias then gradBias:copy(gb) end
end

return K
