-- SoftShrink: output = input - lambda above lambda, input + lambda below
-- -lambda, 0 between (NaN too, as THNN's comparisons gave); the gradient
-- passes where input > lambda or input < -lambda.  LuaJIT loops over
-- contiguous copies (thnn.shared: large ones shared with helper threads).
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local K = {}

-- p1 = shrink(p0) by lambda a0 (of the element type)
local FORWARD = shared.loop('softshrink', [[
   for i = a, b - 1 do
      local v = p0[i]
      if v > a0 then p1[i] = rd(v - a0) elseif v < -a0 then p1[i] = rd(v + a0) else p1[i] = 0 end
   end]], 16384)

-- gradInput p2 = gradOutput p1 where input p0 is beyond lambda a0, else 0
local BACKWARD = shared.loop('softshrinkgrad', [[
   for i = a, b - 1 do
      local v = p0[i]
      if v > a0 or v < -a0 then p2[i] = p1[i] else p2[i] = 0 end
   end]], 16384)

function K.SoftShrink_updateOutput(state, input, output, lambda)
   local x = input:contiguous()
   local y = checks.writable(output:resizeAs(input))
   local n = x:nElement()
   if n > 0 then
      shared.run(FORWARD, checks.ctype(x), n, n, x:data(), y:data(), nil, nil, checks.real(x, lambda))
   end
   checks.settle(output, y)
end

function K.SoftShrink_updateGradInput(state, input, gradOutput, gradInput, lambda)
   checks.samecount(input, gradOutput, 'input', 'gradOutput')
   local x, g = input:contiguous(), gradOutput:contiguous()
   local gi = checks.writable(gradInput:resizeAs(input))
   local n = x:nElement()
   if n > 0 then
      shared.run(BACKWARD, checks.ctype(x), n, n, x:data(), g:data(), gi:data(), nil, checks.real(x, lambda))
   end
   checks.settle(gradInput, gi)
end

return K
