-- Sqrt: output = sqrt(input); gradInput = 0.5 * (gradOutput / output), 0
-- where output is 0 (a FloatTensor's quotient in float, then halved in
-- double and rounded).  (nn passes its eps, which THNN did not use: the
-- original's nn.Sqrt(b, eps) took square roots of the input itself, -0
-- included.)  The gradient loops in LuaJIT over contiguous tensors
-- (thnn.shared: large ones shared with helper threads), strided ones
-- through contiguous copies (numpy's SIMD division, with a minimum to
-- rule out zeros and the halving, took longer: 131072 doubles 120 us
-- against 100).
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local K = {}

-- gradInput p2 from output p0 and gradOutput p1
local BACKWARD = shared.loop('sqrtgrad', {
   float = [[
   for i = a, b - 1 do
      local o = p0[i]
      if o == 0 then p2[i] = 0 else p2[i] = 0.5 * rd(p1[i] / o) end
   end]],
   double = [[
   for i = a, b - 1 do
      local o = p0[i]
      if o == 0 then p2[i] = 0 else p2[i] = 0.5 * (p1[i] / o) end
   end]]}, 8192)

function K.Sqrt_updateOutput(state, input, output, eps)
   output:resizeAs(input):copy(input):sqrt()
end

function K.Sqrt_updateGradInput(state, input, gradOutput, gradInput, output)
   if not output:isSameSizeAs(gradOutput) then
      checks.fail('output and gradOutput shapes do not match: output %s, gradOutput %s',
                  checks.sizes(output), checks.sizes(gradOutput))
   end
   checks.samecount(input, output, 'input', 'output')   -- (the original read past one)
   local n = output:nElement()
   local gi = checks.writable(gradInput:resizeAs(input))
   if n > 0 then
      local y, g = output:contiguous(), gradOutput:contiguous()
      shared.run(BACKWARD, checks.ctype(y), n, n, y:data(), g:data(), gi:data())
   end
   checks.settle(gradInput, gi)
end

return K
