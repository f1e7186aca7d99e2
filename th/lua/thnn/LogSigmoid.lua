-- LogSigmoid: output = -log(1 + exp(-input)), computed without overflow as
-- -(m + log(z)) with m = max(0, -input), z = exp(-m) + exp(-input - m), z
-- kept in buffer; gradInput = gradOutput * sigmoid(-input), as 1 - (z - 1) / z
-- for a negative input, (z - 1) / z otherwise.  A FloatTensor's as THNN
-- rounded it (recorded from the original): exp and log in double, z and the
-- output rounded once, the gradient's factor rounded, then multiplied in
-- float.  Contiguous tensors loop in LuaJIT (thnn.shared: large ones shared
-- with helper threads), strided ones through contiguous copies.
--
-- NaN and -inf inputs (z NaN) take a branch of their own, which gives the
-- NaNs' signs as x86 gave THNN's C: LuaJIT may reorder the operations that
-- carry a NaN, or swap the operands of a sum of two.
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local K = {}

-- NAN: x86's default NaN (sign bit set), the one -inf + inf gave
local PRELUDE = [[
local max, min, abs = math.max, math.min, math.abs
local NAN = ffi.cast('double *', ffi.new('uint64_t[1]', 0xfff8000000000000ULL))[0]
local BIG = 2 ^ 600]]

-- output p1 and buffer p2 from input p0.  exp(-m) and exp(-x - m) are 1
-- and exp(-|x|), in either order (m: 0 for a NaN, as C's fmax)
local FORWARD = shared.loop('logsigmoid', [[
   for i = a, b - 1 do
      local v = p0[i]
      if v == v and v ~= -huge then
         local z = rd(1 + C.exp(-abs(v)))
         p2[i] = z
         p1[i] = -(max(-v, 0) + C.log(z))
      else
         -- exp(-x - m) was x's NaN of the other sign, or the default NaN
         local z = v == v and NAN or -v
         p2[i] = z
         p1[i] = -z
      end
   end]], 1024, 256, nil, PRELUDE)

-- gradInput p3 from gradOutput p0, input p1 and buffer p2.  The factor
-- without a branch on the input's sign (random signs made side exits): r =
-- (z - 1) / z is in [0, 1/2], 1 - r in [1/2, 1], and k is 0 for an input
-- from 0 on, 2^1200 times -input (>= 2^126) below: max(r, min(1 - r, k))
-- is r or 1 - r, the bits as chosen.  A NaN z made THNN's factor that NaN
-- (a NaN gradOutput kept its own)
local BACKWARD = shared.loop('logsigmoidgrad', [[
   for i = a, b - 1 do
      local g, z = p0[i], p2[i]
      if z == z then
         local r = (z - 1) / z
         local k = max(-p1[i], 0) * BIG * BIG
         p3[i] = g * rd(max(r, min(1 - r, k)))
      elseif g == g then
         p3[i] = z
      else
         p3[i] = g
      end
   end]], 8192, 2048, nil, PRELUDE)

function K.LogSigmoid_updateOutput(state, input, output, buffer)
   local n = input:nElement()
   local x = input:contiguous()
   local y = checks.writable(output:resizeAs(input))
   local z = checks.writable(buffer:resizeAs(input))
   if n > 0 then shared.run(FORWARD, checks.ctype(x), n, n, x:data(), y:data(), z:data()) end
   checks.settle(output, y)
   checks.settle(buffer, z)
end

function K.LogSigmoid_updateGradInput(state, input, gradOutput, gradInput, buffer)
   checks.samecount(input, gradOutput, 'input', 'gradOutput')
   local n = input:nElement()
   if buffer:nElement() ~= n then
      gradInput:resizeAs(buffer)
      checks.fail('inconsistent tensor size, expected input %s, gradInput %s and buffer %s to have the same '
                  .. 'number of elements, but got %d, %d and %d elements respectively', checks.sizes(input),
                  checks.sizes(gradInput), checks.sizes(buffer), n, gradInput:nElement(), buffer:nElement())
   end
   local g, x, z = gradOutput:contiguous(), input:contiguous(), buffer:contiguous()
   -- (the gradient's shape, as THNN resized it)
   local gi = checks.writable(gradInput:resizeAs(gradOutput))
   if n > 0 then shared.run(BACKWARD, checks.ctype(x), n, n, g:data(), x:data(), z:data(), gi:data()) end
   checks.settle(gradInput, gi)
end

return K
