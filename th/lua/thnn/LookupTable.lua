-- LookupTable's kernels: the forward pass is nn's own (index); these add the
-- gradient into the weight rows and renormalise rows.
local fail = require('torch.internal').fail
local types = require 'torch.types'
local cblas = require 'torch.maths.cblas'
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local K = {}

-- byrows(idx, gradOutput, gradWeight, paddingValue, scale) -> true when done:
-- each gradOutput row added into its weight row in turn by the BLAS axpy
-- (one rounding an element, in the kernel's order, as the original's), for
-- contiguous Float/Double tensors; false: no BLAS or another layout
-- (byfreq: each row's scale divided by how often its index occurs, in the
-- element type, as THNN's scale_ /= count)
local function byrows(idx, gradOutput, gradWeight, paddingValue, scale, byfreq)
   local T = types[gradWeight:type():match('torch%.(%a+)Tensor')]
   local axpy = T and not T.integer and cblas.axpy(T)
   if not axpy or not gradWeight:isContiguous() or torch.type(gradOutput) ~= torch.type(gradWeight) then
      return false
   end
   local g = gradOutput:contiguous()
   local n, d = idx:nElement(), gradWeight:size(2)
   if g:nElement() ~= n * d then return false end
   local ip, gp, wp = idx:data(), g:data(), gradWeight:data()
   local counts, rd = {}, checks.rounding(gradWeight)
   if byfreq then
      for i = 0, n - 1 do local r = tonumber(ip[i]) counts[r] = (counts[r] or 0) + 1 end
   end
   scale = rd(scale)
   for i = 0, n - 1 do
      local r = tonumber(ip[i])
      if r ~= paddingValue then
         axpy(d, byfreq and rd(scale / counts[r]) or scale, gp + i * d, 1, wp + (r - 1) * d, 1)
      end
   end
   return true, g   -- (g: alive until the loop is done)
end

-- rows(w) -> the number of rows of a weight and the width of a row:
-- THNN took the rows from the first size and a row's width from the first
-- stride (so a 1-D weight has rows of one element, a 5x3x2 one rows of 6),
-- the size read after the contiguity checks; a 0-D weight fails there as
-- TH's size did
local function rows(w)
   if w:dim() == 0 then fail("bad argument #2 to 'v' (dimension 1 out of range of 0D tensor)") end
   return w:size(1), w:stride(1)
end

-- checkedindices(input, nIndex, noun) -> input seen flat, and its count, each index
-- checked against 1..nIndex in the input's order: THNN's range check reported
-- the first outside (its two kernels worded it apart: noun 'inputs', 'input')
local function checkedindices(input, nIndex, noun)
   local flat = input:view(-1)
   local n = flat:nElement()
   local p = flat:data()
   for i = 0, n - 1 do
      local v = tonumber(p[i])
      if v < 1 or v > nIndex then
         fail('%s need to be in the range 1 <= input < %d, but got input of value: %d', noun, nIndex + 1, v)
      end
   end
   return flat, n
end

-- gradWeight[input[i]] += scale * gradOutput[i] (divided by how often the
-- index occurs when scaleGradByFreq), skipping indices equal to paddingValue;
-- checked in THNN's order: gradWeight's memory, the input's, gradWeight's
-- rows, then each index in turn
function K.LookupTable_accGradParameters(state, input, gradOutput, gradWeight, count, sorted,
                                         indices, scaleGradByFreq, paddingValue, scale)
   if not gradWeight:isContiguous() then fail('gradWeight must be contiguous') end
   if not input:isContiguous() then fail('input must be contiguous') end
   local nIndex, width = rows(gradWeight)
   local idx, n = checkedindices(input, nIndex, 'inputs')
   if n == 0 then return end
   -- (THNN read the first n rows of the gradient's memory, whatever its
   -- shape; fewer elements than that, it read past them, or crashed on an
   -- empty one: th's error)
   local need = n * width
   if gradOutput:nElement() < need then
      fail('gradOutput has %d elements, fewer than the %d of %d rows', gradOutput:nElement(), need, n)
   elseif gradOutput:nElement() > need then
      gradOutput = gradOutput:contiguous():view(-1):narrow(1, 1, need)
   end
   gradWeight = gradWeight:view(nIndex, width)
   if byrows(idx, gradOutput, gradWeight, paddingValue, scale, scaleGradByFreq) then return end
   local rows = gradOutput:contiguous():view(n, -1):clone():mul(scale)
   local pad = idx:eq(paddingValue)
   if scaleGradByFreq then
      local freq = torch.histc(idx:double(), nIndex, 1, nIndex)
      local f = freq:index(1, idx):typeAs(rows)
      rows:cdiv(f:view(n, 1):expandAs(rows))
   end
   if pad:sum() > 0 then
      rows:maskedFill(pad:view(n, 1):expandAs(rows), 0)
   end
   gradWeight:indexAdd(1, idx, rows)
end

-- each unit a listed row p1[u] of a0 elements at p0: its a2-norm summed
-- element by element in the element type (|x|, x * x in that type, or
-- pow(|x|, a2) in double, each sum rounded), its root rounded; over a1, the
-- row scaled by a1 / (norm + 1e-7) (in double, rounded): the original's bits
local RENORM = shared.loop('lookuprenorm', [[
   for u = a, b - 1 do
      local row = p0 + (p1[u] - 1) * a0
      local norm = 0
      for j = 0, a0 - 1 do
         local v = row[j]
         if a2 == 1 then norm = rd(norm + abs(v))
         elseif a2 == 2 then norm = rd(norm + rd(v * v))
         else norm = rd(norm + C.pow(abs(v), a2)) end
      end
      norm = rd(C.pow(norm, 1 / a2))
      if norm > a1 then
         local factor = rd(a1 / (norm + 1e-7))
         for j = 0, a0 - 1 do row[j] = row[j] * factor end
      end
   end]], 65536, 16, {[1] = 'int64_t'}, 'local abs = math.abs')

-- rows of weight listed in idx whose normType-norm exceeds maxNorm are scaled
-- to maxNorm; each row once (maxNorm and normType as the weight's type holds
-- them). As THNN, idx is left sorted, its distinct values first (nn's
-- LookupTable keeps it in _input: {5, 1, 3, 1} becomes {1, 3, 5, 5}), and
-- a row is the first stride's width (see rows)
function K.LookupTable_renorm(state, idx, weight, maxNorm, normType)
   if not idx:isContiguous() then fail('input must be contiguous') end
   if not weight:isContiguous() then fail('weight must be contiguous') end
   local nIndex, width = rows(weight)
   local flat, n = checkedindices(idx, nIndex, 'input')
   if n == 0 then return end
   flat:copy((torch.sort(flat)))
   local keep = torch.ByteTensor(n):fill(1)
   if n > 1 then
      keep:narrow(1, 2, n - 1):copy(flat:narrow(1, 2, n - 1):ne(flat:narrow(1, 1, n - 1)))
   end
   local unique = flat[keep]:long()
   local k = unique:nElement()
   flat:narrow(1, 1, k):copy(unique)
   shared.run(RENORM, checks.ctype(weight), k, k * width, weight:data(),
              unique:data(), nil, nil, width, checks.real(weight, maxNorm), checks.real(weight, normType))
end

return K
