-- Threshold (and ReLU): output = input > threshold ? input : val; the gradient
-- passes where input > threshold.  In place, input becomes the output and
-- gradOutput the gradInput, and the test is the original's in-place one,
-- input <= threshold: a NaN input stays NaN and passes its gradient (out of
-- place, it becomes val and stops it).
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local data, real = checks.data, checks.real
local K = {}

-- the mask of the elements a kernel replaces: x <= t in place, not (x > t) out of place
local function replaced(input, threshold, inplace)
   if inplace then return input:le(threshold) end
   return input:gt(threshold):eq(0)
end

-- Forward loops (thnn.shared: large tensors shared with helper threads):
-- output p1 of input p0 (p1 is p0 in place), threshold a0, val a1.
-- ReLU (val = threshold, out of place): max(x, t), branch-free, and t for
-- a NaN, as the original gave val
local RELU = shared.loop('relu', 'local max = math.max\nfor i = a, b - 1 do p1[i] = max(p0[i], a0) end', 16384)

-- Otherwise finite inputs without a branch on the data (a branch taken at
-- random cost a side exit: 1 ms for 131072 elements): m = 1 where x > t (a
-- positive difference times 2^1200 is >= 1), 0 (or -0) where not, and y =
-- m x + (1 - m) val for a negative val, m x - (m - 1) val for another:
-- where m = 1 the zero added is -0 (subtracted +0), x kept with its sign;
-- where m = 0 the zero m x leaves val.  Infinite and NaN inputs, and all
-- of them when a2 is NaN (val -0, which a sum cannot give), take the
-- comparison: out of place not (x > t), in place (a3 = 1) x <= t, which
-- keeps a NaN
local function formula(name, form)
   return shared.loop(name, ([[
   local min, max, BIG = math.min, math.max, 2 ^ 600
   for i = a, b - 1 do
      local v = p0[i]
      if v * a2 == 0 then
         local m = min(1, max(0, (v - a0) * BIG * BIG))
         p1[i] = m * v FORM
      elseif v <= a0 or a3 == 0 and not (v > a0) then
         p1[i] = a1
      else
         p1[i] = v
      end
   end]]):gsub('FORM', form), 16384)
end
local NEGATIVE = formula('threshold', '+ (1 - m) * a1')
local POSITIVE = formula('thresholdp', '- (m - 1) * a1')

function K.Threshold_updateOutput(state, input, output, threshold, val, inplace)
   local n = input:nElement()
   local x = input:contiguous()
   local y = inplace and x or checks.writable(output:resizeAs(input))
   if n > 0 then
      local ctype, t, v = checks.ctype(x), real(input, threshold), real(input, val)
      if not inplace and v == t then
         shared.run(RELU, ctype, n, n, x:data(), y:data(), nil, nil, t)
      else
         local negative = v < 0 or v == 0 and 1 / v < 0
         shared.run(negative and NEGATIVE or POSITIVE, ctype, n, n, x:data(), y:data(), nil, nil, t, v,
                    v == 0 and negative and 0 / 0 or 0, inplace and 1 or 0)
      end
   end
   if inplace then
      checks.settle(input, x)
      output:set(input)
   else
      checks.settle(output, y)
   end
end

-- gi = g where the input passes (x > t, or in place not x <= t), +0
-- elsewhere, without a branch on the data (LuaJIT compiles unpredictable
-- branches into side exits costing ns each): m = 1 where passing, 0 where
-- not (a positive difference times 2^1200 is >= 1), gi = m g + (0 - m) 0,
-- whose added zero is -0 where m = 1 (g kept, -0 included) and +0 where m
-- = 0.  An infinite or NaN input or gradient takes the comparison.
local BIG = 2 ^ 600
local fmax, fmin = math.max, math.min

local function gradloop(gi, x, g, n, t, inplace)
   for i = 0, n - 1 do
      local d, v = x[i] - t, g[i]
      if (d + v) * 0 == 0 then
         local m = fmin(1, fmax(0, d * BIG * BIG))
         gi[i] = m * v + (0 - m) * 0
      elseif inplace then
         if x[i] <= t then gi[i] = 0 end
      else
         gi[i] = x[i] > t and v or 0
      end
   end
end

local GRADLOOP = checks.pertype(gradloop)

function K.Threshold_updateGradInput(state, input, gradOutput, gradInput, threshold, val, inplace)
   checks.samecount(input, gradOutput, 'input', 'gradOutput')
   if inplace then gradInput:set(gradOutput) else gradInput:resizeAs(input) end
   local x, n = data(input)
   local g, gn = data(gradOutput)
   local gi = data(gradInput)
   if x and g and gi and gn == n then
      GRADLOOP(input:type())(gi, x, g, n, real(input, threshold), inplace)
   elseif inplace then
      gradOutput:maskedFill(replaced(input, threshold, true), 0)
   else
      gradInput:copy(gradOutput):maskedFill(replaced(input, threshold, false), 0)
   end
end

return K
