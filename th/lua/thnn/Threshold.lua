-- Threshold (and ReLU): output = input > threshold ? input : val; the gradient
-- passes where input > threshold.  In place, input becomes the output and
-- gradOutput the gradInput, and the test is the original's in-place one,
-- input <= threshold: a NaN input stays NaN and passes its gradient (out of
-- place, it becomes val and stops it).
local checks = require 'thnn.checks'
local data, real, max = checks.data, checks.real, math.max
local K = {}

-- the mask of the elements a kernel replaces: x <= t in place, not (x > t) out of place
local function replaced(input, threshold, inplace)
   if inplace then return input:le(threshold) end
   return input:gt(threshold):eq(0)
end

-- y = the output of x (n elements; y is x in place)
local function forward(y, x, n, threshold, val, inplace)
   if inplace then
      for i = 0, n - 1 do
         if x[i] <= threshold then x[i] = val end
      end
   elseif val == threshold then
      -- ReLU: branch-free (max(NaN, t) is t, compiled or not, as the original gave val)
      for i = 0, n - 1 do y[i] = max(x[i], threshold) end
   else
      for i = 0, n - 1 do
         local v = x[i]
         y[i] = v > threshold and v or val
      end
   end
end
local FORWARD = checks.pertype(forward)

function K.Threshold_updateOutput(state, input, output, threshold, val, inplace)
   if inplace then output:set(input) else output:resizeAs(input) end
   local x, n = data(input)
   local y = data(output)
   if x and y then
      FORWARD(input:type())(y, x, n, real(input, threshold), val, inplace)
   elseif inplace then
      input:maskedFill(replaced(input, threshold, true), val)
   else
      output:copy(input):maskedFill(replaced(input, threshold, false), val)
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
