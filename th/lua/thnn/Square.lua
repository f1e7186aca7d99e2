-- Square: output = input^2; gradInput = 2 * gradOutput * input, in THNN's
-- order (2 * DBL_MAX * 0.5 is inf; a subnormal g * x rounds before the
-- doubling) and, a FloatTensor's, in double, rounded once.  Tensor
-- operations take the two products (numpy's SIMD loops when large: 131072
-- doubles 40 us, a LuaJIT loop of both 50, of floats 90) but where a
-- FloatTensor's gradOutput holds NaN or numbers from 2^127 on: 2 g in
-- float would overflow, and numpy's float loops give a NaN times a NaN the
-- second operand's sign; those go through a LuaJIT loop over contiguous
-- tensors (thnn.shared: large ones shared with helper threads).
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local K = {}

-- gradInput p2 from input p0 and gradOutput p1; an input NaN times a
-- gradient NaN is the gradient's, the first operand's on x86 (LuaJIT might
-- swap the operands)
local BACKWARD = shared.loop('squaregrad', [[
   for i = a, b - 1 do
      local x, g = p0[i], p1[i]
      if x == x or g == g then p2[i] = 2 * g * x else p2[i] = g end
   end]], 16384)

function K.Square_updateOutput(state, input, output)
   output:resizeAs(input):cmul(input, input)
end

-- whether tensor operations give gradOutput g's gradient
local function operations(g)
   if checks.ctype(g) == 'double' or g:nElement() == 0 then return true end
   local big = 2 ^ 127
   return g:max() < big and g:min() > -big
end

function K.Square_updateGradInput(state, input, gradOutput, gradInput)
   if not input:isSameSizeAs(gradOutput) then
      checks.fail('input and gradOutput shapes do not match: input %s, gradOutput %s',
                  checks.sizes(input), checks.sizes(gradOutput))
   end
   if operations(gradOutput) then
      gradInput:resizeAs(input):mul(gradOutput, 2):cmul(input)
      return
   end
   local n = input:nElement()
   local x, g = input:contiguous(), gradOutput:contiguous()
   local gi = checks.writable(gradInput:resizeAs(input))
   shared.run(BACKWARD, 'float', n, n, x:data(), g:data(), gi:data())
   checks.settle(gradInput, gi)
end

return K
