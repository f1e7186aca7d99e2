-- ELU: output = input > 0 ? input : alpha * (exp(input) - 1); gradInput =
-- gradOutput where output > 0, gradOutput * (output + alpha) elsewhere.  In
-- place, input becomes the output and gradOutput the gradInput.  A
-- FloatTensor's as THNN rounded it (recorded from the original): the
-- output exp(x) * alpha - alpha in double with alpha a float, rounded once;
-- the gradient in float steps.
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local f32 = require('torch.maths.kernels').f32
local K = {}

-- p1 = ELU(p0), alpha a0 (large tensors shared with helper threads)
local FORWARD = shared.loop('elu', {
   float = [[
   for i = a, b - 1 do
      local v = p0[i]
      if v <= 0 then p1[i] = rd(C.exp(v) * a0 - a0) else p1[i] = v end
   end]],
   double = [[
   for i = a, b - 1 do
      local v = p0[i]
      if v <= 0 then p1[i] = (C.exp(v) - 1) * a0 else p1[i] = v end
   end]]}, 2048, 512)

-- gradInput p2 from gradOutput p1 and output p0, alpha a0
local BACKWARD = shared.loop('elugrad', {
   float = [[
   for i = a, b - 1 do
      local o = p0[i]
      if o <= 0 then p2[i] = rd(p1[i] * rd(o + a0)) else p2[i] = p1[i] end
   end]],
   double = [[
   for i = a, b - 1 do
      local o = p0[i]
      if o <= 0 then p2[i] = p1[i] * (o + a0) else p2[i] = p1[i] end
   end]]}, 16384)

-- alpha as the element type holds it (THNN's real)
local function real(alpha, float)
   return float and f32(alpha) or alpha
end

function K.ELU_updateOutput(state, input, output, alpha, inplace)
   local x = input:contiguous()
   local float = input:type() == 'torch.FloatTensor'
   checks.into(inplace and input or output:resizeAs(input), function(y)
      local n = x:nElement()
      if n > 0 then shared.run(FORWARD, checks.ctype(x), n, n, x:data(), y:data(), nil, nil, real(alpha, float)) end
   end)
   if inplace then output:set(input) end
end

function K.ELU_updateGradInput(state, input, gradOutput, gradInput, output, alpha, inplace)
   checks.samecount(input, gradOutput, 'input', 'gradOutput')   -- (THNN's words: the input's count)
   local y, g = output:contiguous(), gradOutput:contiguous()
   local float = output:type() == 'torch.FloatTensor'
   checks.into(inplace and gradOutput or gradInput:resizeAs(output), function(gi)
      local n = y:nElement()
      if n > 0 then shared.run(BACKWARD, checks.ctype(y), n, n, y:data(), g:data(), gi:data(), nil, real(alpha, float)) end
   end)
   if inplace then gradInput:set(gradOutput) end
end

return K
