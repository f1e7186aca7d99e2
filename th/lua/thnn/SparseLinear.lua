-- SparseLinear: input rows (batch index, feature index, value), 1-based;
-- output[b] = bias + sum of value * weight[:, feature] over b's rows.  The
-- legacy kernels take batch x nnz x 2 (feature, value) inputs instead.
local types = require 'torch.types'
local cblas = require 'torch.maths.cblas'
local K = {}

-- -> batch indices, feature indices (LongTensors), values, of an nnz x 3 input
local function columns(input)
   local long = input:contiguous()
   return long:select(2, 1):long(), long:select(2, 2):long(), long:select(2, 3):clone()
end

-- a legacy batch x nnz x 2 input as nnz x 3 rows (THNN's check of its sizes first)
local function formatted(input)
   if input:dim() ~= 3 or input:size(3) ~= 2 then
      require('thnn.checks').fail("bad argument #2 to 'v' (input size must be batchsize x nnz x 2)")
   end
   local batch, nnz = input:size(1), input:size(2)
   local rows = input.new(batch * nnz, 3)
   local b = torch.range(1, batch):typeAs(input):view(batch, 1):expand(batch, nnz)
   rows:select(2, 1):copy(b)
   rows:narrow(2, 2, 2):copy(input:contiguous():view(batch * nnz, 2))
   return rows, batch
end

-- THNN's check of the feature indices, the first one out of range named
local function checkfeatures(f, size)
   if f:nElement() == 0 or (f:min() >= 1 and f:max() <= size) then return end
   local fp = f:contiguous():data()
   for i = 0, f:nElement() - 1 do
      local k = tonumber(fp[i])
      if k < 1 or k > size then
         require('thnn.checks').fail('index out of bound. updateOutput: %d not between 1 and %d', k, size)
      end
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
   output:add(bias:view(1, -1):expandAs(output))
end

local function updateOutput(rows, nbatch, output, weight, bias)
   local b, f, v = columns(rows)
   checkfeatures(f, weight:size(2))
   output:resize(nbatch, weight:size(1))
   local axpy = blasaxpy(weight)
   if axpy and output:isContiguous() and torch.type(v) == torch.type(weight) then
      return axpyrows(axpy, b:contiguous(), f:contiguous(), v, output, weight, bias)
   end
   output:copy(bias:view(1, -1):expandAs(output))
   local contrib = weight:index(2, f):cmul(v:view(1, -1):expand(weight:size(1), v:size(1)))
   output:indexAdd(1, b, contrib:t():contiguous())
end

function K.SparseLinear_updateOutput(state, input, output, weight, bias)
   updateOutput(input, output:size(1), output, weight, bias)
end

function K.SparseLinear_legacyUpdateOutput(state, input, output, weight, bias)
   local rows, batch = formatted(input)
   updateOutput(rows, batch, output, weight, bias)
end

local function accGradParameters(rows, gradOutput, gradWeight, gradBias, weight, weightDecay, scale, legacy)
   local b, f, v = columns(rows)
   local g = gradOutput:dim() == 1 and gradOutput:view(1, -1) or gradOutput
   local axpy = blasaxpy(gradWeight)
   if axpy and torch.type(g) == torch.type(gradWeight) and torch.type(v) == torch.type(gradWeight) then
      -- gradWeight[:, feature] += (scale * value) * gradOutput[b], row by
      -- row by BLAS axpy, the factor rounded to the type first (THNN's)
      local gc, O = g:contiguous(), gradWeight:size(1)
      local sv = v:clone():mul(scale)
      local bp, fp, vp = b:contiguous():data(), f:contiguous():data(), sv:data()
      local gp, wp, ws1, ws2 = gc:data(), gradWeight:data(), gradWeight:stride(1), gradWeight:stride(2)
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
   accGradParameters(formatted(input), gradOutput, gradWeight, gradBias, weight, weightDecay, scale, true)
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

local function zeroGradParameters(rows, gradWeight, gradBias)
   gradBias:zero()
   local cols = touched(rows)
   if cols:nElement() > 0 then gradWeight:indexFill(2, cols, 0) end
end

function K.SparseLinear_zeroGradParameters(state, gradWeight, gradBias, lastInput)
   zeroGradParameters(lastInput, gradWeight, gradBias)
end

function K.SparseLinear_legacyZeroGradParameters(state, gradWeight, gradBias, lastInput)
   zeroGradParameters(formatted(lastInput), gradWeight, gradBias)
end

local function updateParameters(rows, weight, bias, gradWeight, gradBias, learningRate)
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
   updateParameters(lastInput, weight, bias, gradWeight, gradBias, learningRate)
end

function K.SparseLinear_legacyUpdateParameters(state, weight, bias, gradWeight, gradBias, lastInput, learningRate)
   updateParameters(formatted(lastInput), weight, bias, gradWeight, gradBias, learningRate)
end

return K
