-- HardTanh: output = clamp(input, min_val, max_val); the gradient passes
-- strictly inside (min_val, max_val).  In place, input becomes the output and
-- gradOutput the gradInput.
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local data = checks.data
local K = {}

-- output p1 = p0 clamped to [min a0, max a1] as THNN did: a NaN input gives
-- max (torch.clamp keeps it).  Branch free where it can (a branch taken one
-- time in two made a compiled loop ten times slower), through min and max
-- as LuaJIT runs them (SSE's): math.min(x, y) is x < y and x or y, math.max(x,
-- y) x > y and x or y, with NaN.  Here a bound equal to the input gives the
-- same bits unless both are zeros: zero bounds take the branches.
local FORWARD = shared.loop('hardtanh', [[
   if a0 ~= 0 and a1 ~= 0 then
      local min, max = math.min, math.max
      for i = a, b - 1 do p1[i] = max(min(p0[i], a1), a0) end
      return
   end
   for i = a, b - 1 do
      local v = p0[i]
      if v < a0 then p1[i] = a0 elseif v <= a1 then p1[i] = v else p1[i] = a1 end
   end]], 16384)
-- In place on a contiguous tensor of 2 or more dimensions, THNN clamped in
-- a loop of its own, which kept NaN (and an input equal to a bound)
local INPLACE = shared.loop('hardtanhinplace', [[
   local min, max = math.min, math.max
   for i = a, b - 1 do p0[i] = min(a1, max(a0, p0[i])) end]], 16384)

-- gradInput p2 = gradOutput p1 where input p0 is strictly inside (min a0,
-- max a1) or NaN, +0 elsewhere (p2 is p1 in place), without a branch on
-- the data (as Threshold's gradient: a branch taken at random compiles
-- into side exits): m = 1 where both differences to the bounds are
-- positive (the least times 2^1200, >= 1), 0 (or -0) where not, and gi = m g
-- + (0 - m) 0, whose zero added is -0 where m = 1 (g kept, -0 included)
-- and +0 where m = 0.  Infinite or NaN inputs, gradients or bounds take
-- THNN's comparisons.
local BACKWARD = shared.loop('hardtanhgrad', [[
   local min, max, BIG = math.min, math.max, 2 ^ 600
   for i = a, b - 1 do
      local x, g = p0[i], p1[i]
      local below, above = x - a0, a1 - x
      if (below + above + g) * 0 == 0 then
         local m = min(1, max(0, min(below, above) * BIG * BIG))
         p2[i] = m * g + (0 - m) * 0
      elseif x <= a0 or x >= a1 then
         p2[i] = 0
      else
         p2[i] = g
      end
   end]], 16384)

function K.HardTanh_updateOutput(state, input, output, min_val, max_val, inplace)
   local result = inplace and input or output:resizeAs(input)
   local x, n = data(input)
   local y = data(result)
   if x and y then
      local real = checks.real
      local loop = inplace and input:dim() > 1 and INPLACE or FORWARD
      shared.run(loop, checks.ctype(input), n, n, x, y, nil, nil, real(input, min_val), real(input, max_val))
   else
      local nan = input:ne(input)
      result:clamp(input, min_val, max_val)
      result:maskedFill(nan, max_val)
   end
   if inplace then output:set(input) end
end

function K.HardTanh_updateGradInput(state, input, gradOutput, gradInput, min_val, max_val, inplace)
   checks.samecount(input, gradOutput, 'input', 'gradOutput')
   local n = input:nElement()
   local x, g = input:contiguous(), gradOutput:contiguous()
   -- (in place the loop writes into gradOutput, or its contiguous copy)
   local gi = inplace and g or checks.writable(gradInput:resizeAs(input))
   if n > 0 then
      local real = checks.real
      shared.run(BACKWARD, checks.ctype(x), n, n, x:data(), g:data(), gi:data(), nil,
                 real(input, min_val), real(input, max_val))
   end
   if inplace then
      checks.settle(gradOutput, g)
      gradInput:set(gradOutput)
   else
      checks.settle(gradInput, gi)
   end
end

return K
