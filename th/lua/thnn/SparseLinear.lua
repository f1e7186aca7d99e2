-- SparseLinear: input rows (batch index, feature index, value), 1-based;
-- output[b] = bias + sum of value * weight[:, feature] over b's rows.  The
-- legacy kernels take batch x nnz x 2 (feature, value) inputs instead.
local types = require 'torch.types'
local cblas = require 'torch.maths.cblas'
local K = {}

local fail = require('thnn.checks').fail

-- THNN's argument errors, numbered by the kernel's arguments
local function argerror(n, msg)
   fail("bad argument #%d to 'v' (%s)", n, msg)
end

-- -> batch indices, feature indices (LongTensors), values, of an nnz x 3 input
local function columns(input)
   local long = input:contiguous()
   return long:select(2, 1):long(), long:select(2, 2):long(), long:select(2, 3):clone()
end

-- THNN's checks of an input, by the kernel's argument number: nnz x 3 rows
-- (batch index, feature, value), or the legacy batch x nnz x 2
local function checkrows(input, argn)
   if input:dim() ~= 2 or input:size(2) ~= 3 then argerror(argn, 'input must be in coo format, nnz x 3') end
end
local function checklegacy(input, argn)
   if input:dim() ~= 3 or input:size(3) ~= 2 then argerror(argn, 'input size must be batchsize x nnz x 2') end
end

-- a legacy batch x nnz x 2 input (checked) as nnz x 3 rows
local function formatted(input, argn)
   checklegacy(input, argn or 2)
   local batch, nnz = input:size(1), input:size(2)
   local rows = input.new(batch * nnz, 3)
   local b = torch.range(1, batch):typeAs(input):view(batch, 1):expand(batch, nnz)
   rows:select(2, 1):copy(b)
   rows:narrow(2, 2, 2):copy(input:contiguous():view(batch * nnz, 2))
   return rows, batch
end

-- the weight's outputs and inputs: the forward and the gradient asked TH
-- for both sizes (a weight of fewer dimensions: TH's size error, as
-- argument #2); updateParameters and zeroGradParameters read them as they
-- were (a missing size: 0 here)
local function sizes(weight)
   if weight:dim() < 2 then
      argerror(2, string.format('dimension 2 out of range of %dD tensor', weight:dim()))
   end
   return weight:size(1), weight:size(2)
end
local function rawsizes(weight)
   return weight:dim() >= 1 and weight:size(1) or 0, weight:dim() >= 2 and weight:size(2) or 0
end

-- THNN's size checks of the parameters: a bias (or gradBias) of outDim
-- elements, a gradWeight outDim x inDim, whatever their strides
local function checkvector(t, n, argn, name)
   if t:dim() ~= 1 or t:size(1) ~= n then argerror(argn, name .. ' size wrong') end
end
local function checkmatrix(t, n, m, argn, name)
   if t:dim() ~= 2 or t:size(1) ~= n or t:size(2) ~= m then argerror(argn, name .. ' size wrong') end
end

-- THNN's check of the feature indices, the first one out of range named
-- (the legacy updateParameters and zeroGradParameters let 0 and below
-- through, and wrote before the weight's columns: th fails there too)
local function checkfeatures(f, size, where)
   if f:nElement() == 0 or (f:min() >= 1 and f:max() <= size) then return end
   local fp = f:contiguous():data()
   for i = 0, f:nElement() - 1 do
      local k = tonumber(fp[i])
      if k < 1 or k > size then
         fail('index out of bound. %s: %d not between 1 and %d', where, k, size)
      end
   end
end

-- batch indices beyond the rows of the output or gradient: THNN wrote or
-- read past them (nn never makes such rows); th's error
local function checkbatches(b, nrows, what)
   if b:nElement() == 0 then return end
   local lo, hi = b:min(), b:max()
   if lo < 1 or hi > nrows then
      fail('SparseLinear: batch index %d out of the %d rows of %s', lo < 1 and lo or hi, nrows, what)
   end
end

-- the BLAS axpy of weight's type, when weight is a Float or Double tensor
local function blasaxpy(weight)
   local T = types[weight:type():match('torch%.(%a+)Tensor') or '']
   return T and not T.integer and cblas.axpy(T) or nil
end

-- output[b] += value * weight[:, feature] for each row in turn by BLAS
-- axpy (one rounding, or a fused one, per element, as the library's kernel
-- gives: the original's bits), then bias + output[b], as THNN added them
local function axpyrows(axpy, b, f, v, output, weight, bias)
   output:zero()
   local O = weight:size(1)
   local bp, fp, vp = b:data(), f:data(), v:contiguous():data()
   local wp, op = weight:data(), output:data()
   local ws1, ws2 = weight:stride(1), weight:stride(2)
   for i = 0, v:nElement() - 1 do
      local val = vp[i]
      if val ~= 0 then
         axpy(O, val, wp + (tonumber(fp[i]) - 1) * ws2, ws1, op + (tonumber(bp[i]) - 1) * O, 1)
      end
   end
   output:add(bias:contiguous():view(1, -1):expandAs(output))
end

-- (a bias of any strides, as THNN read it)
local function updateOutput(rows, nbatch, output, weight, bias)
   local b, f, v = columns(rows)
   local outDim, inDim = weight:size(1), weight:size(2)
   checkvector(bias, outDim, 5, 'bias')
   checkfeatures(f, inDim, 'updateOutput')
   checkbatches(b, nbatch, 'the output')
   output:resize(nbatch, outDim)
   local axpy = blasaxpy(weight)
   if axpy and output:isContiguous() and torch.type(v) == torch.type(weight) then
      return axpyrows(axpy, b:contiguous(), f:contiguous(), v, output, weight, bias)
   end
   output:copy(bias:contiguous():view(1, -1):expandAs(output))
   local contrib = weight:index(2, f):cmul(v:view(1, -1):expand(outDim, v:size(1)))
   output:indexAdd(1, b, contrib:t():contiguous())
end

function K.SparseLinear_updateOutput(state, input, output, weight, bias)
   sizes(weight)
   checkrows(input, 2)
   updateOutput(input, output:size(1), output, weight, bias)
end

function K.SparseLinear_legacyUpdateOutput(state, input, output, weight, bias)
   sizes(weight)
   local rows, batch = formatted(input)
   updateOutput(rows, batch, output, weight, bias)
end

-- THNN's checks in its order: the weight's sizes, the input, gradWeight and
-- gradBias by the weight's sizes, gradOutput's memory, the features
local function accchecks(input, gradOutput, gradWeight, gradBias, weight, legacy)
   local outDim, inDim = sizes(weight)
   local rows, batch
   if legacy then rows, batch = formatted(input) else checkrows(input, 2) rows = input end
   checkmatrix(gradWeight, outDim, inDim, 4, 'gradWeight')
   checkvector(gradBias, outDim, 5, 'gradBias')
   if not gradOutput:isContiguous() then argerror(1, 'gradOutput must be contiguous') end
   local b, f, v = columns(rows)
   checkfeatures(f, inDim, 'accGradParameters')
   return b, f, v, outDim, batch
end

local function accGradParameters(input, gradOutput, gradWeight, gradBias, weight, weightDecay, scale, legacy)
   local b, f, v, O, batch = accchecks(input, gradOutput, gradWeight, gradBias, weight, legacy)
   local g
   if legacy then
      -- (the legacy kernel read gradOutput's memory as batch rows of
      -- outDim, whatever its shape; fewer elements than that, it read past
      -- them: th's error)
      local need = batch * O
      if gradOutput:nElement() < need then
         fail('gradOutput has %d elements, fewer than the %d of %d rows', gradOutput:nElement(), need, batch)
      end
      g = gradOutput:view(-1):narrow(1, 1, need):view(batch, O)
   else
      -- gradBias takes the sum of gradOutput's rows, TH's cadd refusing
      -- another count of elements (its message names the sum's sizes)
      local sum = gradOutput:sum(1)
      if sum:nElement() ~= O then gradBias:add(scale, sum) end
      g = gradOutput:dim() == 2 and gradOutput or gradOutput:view(-1, 1)
      checkbatches(b, g:size(1), 'gradOutput')
   end
   local axpy = blasaxpy(gradWeight)
   if axpy and torch.type(g) == torch.type(gradWeight) and torch.type(v) == torch.type(gradWeight) then
      -- gradWeight[:, feature] += (scale * value) * gradOutput[b], row by
      -- row by BLAS axpy, the factor rounded to the type first (THNN's)
      local sv = v:clone():mul(scale)
      local bp, fp, vp = b:contiguous():data(), f:contiguous():data(), sv:data()
      local gp, wp, ws1, ws2 = g:data(), gradWeight:data(), gradWeight:stride(1), gradWeight:stride(2)
      for i = 0, sv:nElement() - 1 do
         axpy(O, vp[i], gp + (tonumber(bp[i]) - 1) * O, 1, wp + (tonumber(fp[i]) - 1) * ws2, ws1)
      end
   else
      local contrib = g:index(1, b):cmul(v:view(-1, 1):expandAs(g:index(1, b))):mul(scale)
      gradWeight:indexAdd(2, f, contrib:t():contiguous())
   end
   if legacy then
      -- (the legacy kernel added each row's gradient in turn)
      for h = 1, g:size(1) do gradBias:add(scale, g[h]) end
   else
      gradBias:add(scale, g:sum(1):view(-1))
   end
   if weightDecay ~= 0 then gradWeight:add(weightDecay, weight) end
end

function K.SparseLinear_accGradParameters(state, input, gradOutput, gradWeight, gradBias,
                                          weight, bias, weightDecay, scale)
   accGradParameters(input, gradOutput, gradWeight, gradBias, weight, weightDecay, scale)
end

function K.SparseLinear_legacyAccGradParameters(state, input, gradOutput, gradWeight, gradBias,
                                                weight, bias, weightDecay, scale)
   accGradParameters(input, gradOutput, gradWeight, gradBias, weight, weightDecay, scale, true)
end

-- the distinct feature columns of the last input
local function touched(rows)
   local _, f = columns(rows)
   local sorted = torch.sort(f)
   local n = sorted:nElement()
   if n <= 1 then return sorted end
   local keep = torch.ByteTensor(n):fill(1)
   keep:narrow(1, 2, n - 1):copy(sorted:narrow(1, 2, n - 1):ne(sorted:narrow(1, 1, n - 1)))
   return sorted[keep]
end

-- zeroGradParameters' checks: gradBias by gradWeight's outputs (#3), the
-- last input (#4), its features by gradWeight's inputs
local function zeroGradParameters(rows, gradWeight, gradBias)
   local _, f = columns(rows)
   checkfeatures(f, select(2, rawsizes(gradWeight)), 'zeroGradParameters')
   gradBias:zero()
   local cols = touched(rows)
   if cols:nElement() > 0 then gradWeight:indexFill(2, cols, 0) end
end

function K.SparseLinear_zeroGradParameters(state, gradWeight, gradBias, lastInput)
   checkvector(gradBias, (rawsizes(gradWeight)), 3, 'gradBias')
   checkrows(lastInput, 4)
   zeroGradParameters(lastInput, gradWeight, gradBias)
end

function K.SparseLinear_legacyZeroGradParameters(state, gradWeight, gradBias, lastInput)
   checkvector(gradBias, (rawsizes(gradWeight)), 3, 'gradBias')
   zeroGradParameters(formatted(lastInput, 4), gradWeight, gradBias)
end

-- updateParameters' checks: gradWeight by the weight's sizes (#4), then
-- the bias (#3) and gradBias (#5) by its outputs, the last input (#6)
local function updatechecks(weight, bias, gradWeight, gradBias)
   local outDim, inDim = rawsizes(weight)
   checkmatrix(gradWeight, outDim, inDim, 4, 'gradWeight')
   checkvector(bias, outDim, 3, 'bias')
   checkvector(gradBias, outDim, 5, 'gradBias')
   return inDim
end

local function updateParameters(rows, inDim, weight, bias, gradWeight, gradBias, learningRate)
   local _, f = columns(rows)
   checkfeatures(f, inDim, 'updateParameters')
   bias:add(-learningRate, gradBias)
   local cols = touched(rows)
   if cols:nElement() == 0 then return end
   local axpy = blasaxpy(weight)
   if axpy and torch.type(gradWeight) == torch.type(weight) then
      -- weight[:, c] -= learningRate * gradWeight[:, c] by BLAS axpy, as THNN
      local O, cp = weight:size(1), cols:data()
      local wp, gp = weight:data(), gradWeight:data()
      for i = 0, cols:nElement() - 1 do
         local c = tonumber(cp[i]) - 1
         axpy(O, -learningRate, gp + c * gradWeight:stride(2), gradWeight:stride(1), wp + c * weight:stride(2),
              weight:stride(1))
      end
      return
   end
   local w = weight:index(2, cols):add(-learningRate, gradWeight:index(2, cols))
   weight:indexCopy(2, cols, w)
end

function K.SparseLinear_updateParameters(state, weight, bias, gradWeight, gradBias, lastInput, learningRate)
   local inDim = updatechecks(weight, bias, gradWeight, gradBias)
   checkrows(lastInput, 6)
   updateParameters(lastInput, inDim, weight, bias, gradWeight, gradBias, learningRate)
end

function K.SparseLinear_legacyUpdateParameters(state, weight, bias, gradWeight, gradBias, lastInput, learningRate)
   local inDim = updatechecks(weight, bias, gradWeight, gradBias)
   updateParameters(formatted(lastInput, 6), inDim, weight, bias, gradWeight, gradBias, learningRate)
end

return K
