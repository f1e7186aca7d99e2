-- BCECriterion: loss = -sum(w * (t * log(x + eps) + (1 - t) * log(1 - x + eps))),
-- eps = 1e-12, divided by the element count when sizeAverage; w (optional)
-- has the input's size (nn expands it).  LuaJIT loops, each step in double
-- in THNN's order whatever the element type; an input outside [0, 1] (or
-- NaN) is THNN's assertion error.
local ffi = require 'ffi'
local checks = require 'thnn.checks'
local log = math.log
local K = {}
local EPS = 1e-12

-- x as C's printf("%f") wrote it (a NaN with its sign bit: -nan)
local bits = ffi.new('union { double d; uint64_t u; }')
local function cformat(x)
   if x ~= x then
      bits.d = x
      return bits.u >= 0x8000000000000000ULL and '-nan' or 'nan'
   end
   return string.format('%f', x)
end

-- the contiguous data of input, target and weights (nil), their count, and
-- the tensors behind the data (each kernel returns them: alive until its
-- loops are done)
local function operands(input, target, weights)
   checks.samecount(input, target, 'input', 'target')
   if weights then checks.samecount(input, weights, 'input', 'weights') end
   local x, t = input:contiguous(), target:contiguous()
   local w = weights and weights:contiguous()
   return x:data(), t:data(), w and w:data(), input:nElement(), {x, t, w}
end

function K.BCECriterion_updateOutput(state, input, target, output, sizeAverage, weights)
   local xp, tp, wp, n, keep = operands(input, target, weights)
   local rd = checks.rounding(input)   -- (THNN's sum was of the element type)
   local sum = 0
   for i = 0, n - 1 do
      local x, y = xp[i], tp[i]
      if not (x >= 0 and x <= 1) then
         checks.fail("Assertion `x >= 0. && x <= 1.' failed. input value should be between 0~1, but got %s",
                     cformat(x))
      end
      sum = rd(sum - (log(x + EPS) * y + log(1 - x + EPS) * (1 - y)) * (wp and wp[i] or 1))
   end
   if sizeAverage then sum = rd(sum / n) end
   checks.setloss(output, sum)
   return keep
end

-- gradInput = -norm * (t - x) / ((1 - x + eps) * (x + eps)), then times w:
-- norm, t - x, the numerator and the product by w in the element type, the
-- denominator in double (as recorded from the original)
function K.BCECriterion_updateGradInput(state, input, target, gradInput, sizeAverage, weights)
   local xp, tp, wp, n, keep = operands(input, target, weights)
   local rd = checks.rounding(input)
   local norm = sizeAverage and rd(1 / n) or 1
   local g = gradInput:resizeAs(input):isContiguous() and gradInput or input.new():resizeAs(input)
   local gp = g:data()
   for i = 0, n - 1 do
      local x = xp[i]
      gp[i] = rd(-norm * rd(tp[i] - x)) / ((1 - x + EPS) * (x + EPS))
   end
   if wp then
      for i = 0, n - 1 do gp[i] = rd(gp[i] * wp[i]) end
   end
   if g ~= gradInput then gradInput:copy(g) end
   return keep
end

return K
