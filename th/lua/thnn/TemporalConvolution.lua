-- TemporalConvolution: 1D convolution over the frames of (batches of)
-- nFrames x inputFrameSize sequences by a weight outputFrameSize x
-- kW*inputFrameSize (each window of kW frames seen as one row).
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

-- THNN's checks; returns the output's sizes
local function shapes(input, gradOutput, kW, dW, inputFrameSize, outputFrameSize)
   -- (THNN's THArgCheck of the step first: th's sizes had divided by it)
   if dW <= 0 then S.argerror(11, 'stride should be greater than zero, but got dW: %d', dW) end
   local n = S.dims(input)
   if n ~= 2 and n ~= 3 then
      S.argerror(2, '2D or 3D (batch mode) tensor expected for input, but got: %s', S.shape(input))
   end
   local frames = S.size(input, n - 1)
   if inputFrameSize and S.size(input, n) ~= inputFrameSize then
      S.argerror(2, 'invalid input frame size. Got: %d, Expected: %d', S.size(input, n), inputFrameSize)
   end
   if frames < kW then
      S.argerror(2, 'input sequence smaller than kernel size. Got: %d, Expected: %d', frames, kW)
   end
   local sizes = {math.floor((frames - kW) / dW) + 1, outputFrameSize}
   if n == 3 then table.insert(sizes, 1, S.size(input, 1)) end
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes
end

-- The products go to the BLAS Torch7 called, as THNN made them (the same
-- bits, recorded from the original): sample by sample, the output frames in
-- `step` groups whose input windows do not overlap (frames k, k + step, ...:
-- a group's windows are the rows of one matrix over the input's memory,
-- which BLAS takes in place), one product a group.  (numpy's otherwise.)
local cblas = require 'torch.maths.cblas'
local types = require 'torch.types'
local fused = require 'torch.maths.fused'
local TD = require('torch.internal').tensors
local R, A, B = S.descriptor(), S.descriptor(), S.descriptor()
local matrix = S.matrix

-- the geometry of a (batch of) sequence(s): samples, input frames, output
-- frames, the groups (none empty: fewer output frames than groups) and the
-- frames of group k
local function frames(input, output, kW, dW)
   local n = S.dims(input)
   local N, F = n == 3 and S.size(input, 1) or 1, S.size(output, n - 1)
   return N, S.size(input, n - 1), F, math.min(math.floor((kW - 1) / dW) + 1, F)
end
local function groupframes(F, step, k)
   return math.floor((F - 1 - k) / step) + 1
end

-- whether the loops below take these: the BLAS Torch7 called, contiguous
-- Float or Double tensors, a weight of outF x kW * inF elements and a bias
-- (gradBias) of outF when given (else the numpy path: errors and all)
local function blasable(weight, bias, kW, inF, outF, ...)
   local T = TD[weight].T
   if not cblas.isexact() or (T ~= types.Float and T ~= types.Double) or weight:nElement() ~= outF * kW * inF
      or bias ~= nil and bias:nElement() ~= outF then
      return false
   end
   for i = 1, select('#', ...) do
      local t = select(i, ...)
      if TD[t].T ~= T or not t:isContiguous() then return false end
   end
   return weight:isContiguous() and (bias == nil or bias:isContiguous())
end

-- product('addmm', ...) of descriptors this file sets (BLAS takes each)
local function product(r, beta, alpha, a, b)
   assert(cblas.product('addmm', r, beta, alpha, a, b))
end

-- output frames = bias, then += each group's input windows x weight^T
local function forward(input, output, weight, bias, kW, dW, inF, outF)
   local N, T, F, step = frames(input, output, kW, dW)
   local yp, bp = output:data(), bias and bias:data()
   for f = 0, N * F - 1 do
      for o = 0, outF - 1 do yp[f * outF + o] = bp and bp[o] or 0 end
   end
   local K = kW * inF
   local r, a, b = matrix(R, output, 0, outF, 0, 1), matrix(A, input, 0, K, 0, 1), matrix(B, weight, K, outF, 1, K)
   local r0, a0 = r.off, a.off
   for n = 0, N - 1 do
      for k = 0, step - 1 do
         local nf = groupframes(F, step, k)
         r.off, r.sz[1], r.str[1] = r0 + (n * F + k) * outF, nf, step * outF
         a.off, a.sz[1], a.str[1] = a0 + n * T * inF + k * dW * inF, nf, step * dW * inF
         product(r, 1, 1, a, b)
      end
   end
end

-- gradInput = 0, then each group's windows += gradOutput frames x weight
local function backward(gradInput, gradOutput, weight, kW, dW, inF, outF)
   local N, T, F, step = frames(gradInput, gradOutput, kW, dW)
   gradInput:zero()
   local K = kW * inF
   local r, a, b = matrix(R, gradInput, 0, K, 0, 1), matrix(A, gradOutput, 0, outF, 0, 1), matrix(B, weight, outF, K, K, 1)
   local r0, a0 = r.off, a.off
   for n = 0, N - 1 do
      for k = 0, step - 1 do
         local nf = groupframes(F, step, k)
         r.off, r.sz[1], r.str[1] = r0 + n * T * inF + k * dW * inF, nf, step * dW * inF
         a.off, a.sz[1], a.str[1] = a0 + (n * F + k) * outF, nf, step * outF
         product(r, 1, 1, a, b)
      end
   end
end

-- gradWeight += scale gradOutput frames^T x windows, group by group;
-- gradBias += scale each gradOutput frame, frame by frame (the in-place
-- add's BLAS axpy, as Torch7's)
local function accgrad(input, gradOutput, gradWeight, gradBias, kW, dW, scale, inF, outF)
   local N, T, F, step = frames(input, gradOutput, kW, dW)
   local K = kW * inF
   local r, a, b = matrix(R, gradWeight, outF, K, K, 1), matrix(A, gradOutput, outF, 0, 1, 0), matrix(B, input, 0, K, 0, 1)
   local a0, b0 = a.off, b.off
   local E, gbp, gp = TD[gradOutput].T, gradBias and gradBias:data(), gradOutput:data()
   for n = 0, N - 1 do
      for k = 0, step - 1 do
         local nf = groupframes(F, step, k)
         a.off, a.sz[2], a.str[2] = a0 + (n * F + k) * outF, nf, step * outF
         b.off, b.sz[1], b.str[1] = b0 + n * T * inF + k * dW * inF, nf, step * dW * inF
         product(r, 1, scale, a, b)
      end
      for f = 0, gbp and F - 1 or -1 do fused.axpy(E, gbp, gbp, gp + (n * F + f) * outF, outF, scale, true) end
   end
end

-- THNN's own loop over th's tensors, for a weight or bias of other shapes
-- than the module's sizes (one set by hand): its errors those of the copy
-- and addmm THNN called (th's numpy path had failed in numpy's words).
-- Sample by sample (the samples of the tensor `by`, the gradOutput in
-- updateGradInput as THNN went by it): the output frames in groups whose
-- windows do not overlap, each group's rows a view of the storage; each
-- group f(outwindow, inwindow)
local function groups(input, output, by, kW, dW, f)
   local batch = S.dims(by) == 3
   for n = 1, batch and S.size(by, 1) or 1 do
      local x, y = input, output
      if batch then x, y = input:select(1, n), output:select(1, n) end
      local T, inF, F, outF = x:size(1), x:size(2), y:size(1), y:size(2)
      local stride = math.floor((kW - 1) / dW) + 1
      local k, left = 0, F
      while left > 0 do
         local nf = math.floor((T - k * dW - kW) / (stride * dW)) + 1
         left = left - nf
         local xw = x.new():set(x:storage(), x:storageOffset() + k * dW * inF,
                                torch.LongStorage{nf, kW * inF}, torch.LongStorage{stride * dW * inF, 1})
         local yw = y.new():set(y:storage(), y:storageOffset() + k * outF,
                                torch.LongStorage{nf, outF}, torch.LongStorage{stride * outF, 1})
         f(yw, xw)
         k = k + 1
      end
   end
end

-- whether a weight (gradWeight) and bias (gradBias) have the module's
-- shapes: outF x kW * inF, and outF elements
local function wellformed(weight, bias, kW, inF, outF)
   return S.dims(weight) == 2 and S.size(weight, 1) == outF and S.size(weight, 2) == kW * inF
          and (bias == nil or bias:nElement() == outF)
end

-- THNN's check of the input alone (updateGradInput's and accGradParameters'
-- took the frame size from nothing)
local function inputcheck(input, kW, dW)
   shapes(input, nil, kW, dW)
end

-- the transposed weight THNN multiplied by (its transpose of a vector failed)
local function transposed(weight)
   if S.dims(weight) < 2 then S.argerror(2, 'out of range') end
   return weight:transpose(1, 2)
end

-- r += scale m1 m2, with TH's addmm's checks in its order and words
local function addmm(r, scale, m1, m2)
   if S.dims(m1) ~= 2 or S.dims(m2) ~= 2 then
      S.fail('matrices expected, got %dD, %dD tensors', S.dims(m1), S.dims(m2))
   end
   if S.size(m1, 2) ~= S.size(m2, 1) then
      S.fail('size mismatch, m1: %s, m2: %s', S.shape(m1), S.shape(m2))
   end
   if S.dims(r) ~= 2 then S.fail('matrix expected, got %dD tensor for t', S.dims(r)) end
   if S.size(r, 1) ~= S.size(m1, 1) or S.size(r, 2) ~= S.size(m2, 2) then
      S.fail('size mismatch, t: %s, m1: %s, m2: %s', S.shape(r), S.shape(m1), S.shape(m2))
   end
   r:addmm(1, r, scale, m1, m2)
end

-- THNN's first checks, of the parameters' memory
local function contiguous(weight, bias)
   if not weight:isContiguous() then S.argerror(4, 'weight must be contiguous') end
   if bias and not bias:isContiguous() then S.argerror(5, 'bias must be contiguous') end
end

function K.TemporalConvolution_updateOutput(state, input, output, weight, bias, kW, dW, inputFrameSize,
                                            outputFrameSize)
   contiguous(weight, bias)
   S.resize(output, shapes(input, nil, kW, dW, inputFrameSize, outputFrameSize))
   local x = input:contiguous()   -- (as THNN took it)
   if not wellformed(weight, bias, kW, inputFrameSize, outputFrameSize) then
      local frames = S.dims(output) == 3 and output:view(-1, outputFrameSize) or output
      for f = 1, frames:size(1) do frames:select(1, f):copy(bias) end
      return groups(x, output, output, kW, dW, function(yw, xw) addmm(yw, 1, xw, transposed(weight)) end)
   end
   if blasable(weight, bias, kW, inputFrameSize, outputFrameSize, output, x) then
      return forward(x, output, weight, bias, kW, dW, inputFrameSize, outputFrameSize)
   end
   call(py.nn_temporal_conv_forward, nd(output), nd(input), nd(weight), nd(bias), kW, dW)
end

function K.TemporalConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, kW, dW)
   contiguous(weight)
   local n = S.dims(input)
   local inF, outF = n >= 2 and S.size(input, n), S.dims(gradOutput) >= 2 and S.size(gradOutput, S.dims(gradOutput))
   if inF and outF and not wellformed(weight, nil, kW, inF, outF) then
      inputcheck(input, kW, dW)
      S.resizeas(gradInput, input)
      gradInput:zero()
      return groups(gradInput, gradOutput, gradOutput, kW, dW, function(ow, gw) addmm(gw, 1, ow, weight) end)
   end
   inF, outF = S.size(weight, 2) / kW, S.size(weight, 1)
   shapes(input, gradOutput, kW, dW, inF, outF)
   S.resizeas(gradInput, input)
   local g = gradOutput:contiguous()
   if blasable(weight, nil, kW, inF, outF, gradInput, g) then
      return backward(gradInput, g, weight, kW, dW, inF, outF)
   end
   call(py.nn_temporal_conv_backward, nd(gradInput), nd(gradOutput), nd(weight), kW, dW)
end

function K.TemporalConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, kW, dW, scale)
   local n = S.dims(input)
   local inF, outF = n >= 2 and S.size(input, n), S.dims(gradOutput) >= 2 and S.size(gradOutput, S.dims(gradOutput))
   if inF and outF and not wellformed(gradWeight, gradBias, kW, inF, outF) then
      inputcheck(input, kW, dW)
      local x = input:contiguous()
      -- (per sample: the bias's sums first, then the weight's)
      local frames = S.dims(gradOutput) == 3 and gradOutput:view(-1, outF) or gradOutput
      for f = 1, frames:size(1) do gradBias:add(scale or 1, frames:select(1, f)) end
      return groups(x, gradOutput, gradOutput, kW, dW, function(ow, xw)
         addmm(gradWeight, scale or 1, ow:t(), xw)
      end)
   end
   inF, outF = S.size(gradWeight, 2) / kW, S.size(gradWeight, 1)
   shapes(input, gradOutput, kW, dW, inF, outF)
   local x, g = input:contiguous(), gradOutput:contiguous()
   if blasable(gradWeight, gradBias, kW, inF, outF, g, x) then
      return accgrad(x, g, gradWeight, gradBias, kW, dW, scale or 1, inF, outF)
   end
   call(py.nn_temporal_conv_accgrad, nd(gradWeight), nd(gradBias), nd(input), nd(gradOutput), kW, dW, scale or 1)
end

return K
