-- Tanh: output = tanh(input); gradInput = gradOutput * (1 - output^2).
-- Contiguous tensors loop in LuaJIT (thnn.shared: large ones shared with
-- helper threads); a FloatTensor's as THNN: tanhf, and the square of the
-- output in float.
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local data = checks.data
local K = {}

-- p1 = tanh(p0)
local FORWARD = shared.loop('tanh', {
   float = 'for i = a, b - 1 do p1[i] = C.tanhf(p0[i]) end',
   double = 'for i = a, b - 1 do p1[i] = C.tanh(p0[i]) end'}, 2048, 512)

-- gradInput p2 = gradOutput p1 * (1 - output p0 ^ 2)
local BACKWARD = shared.loop('tanhgrad', [[
   for i = a, b - 1 do
      local t = p0[i]
      p2[i] = p1[i] * (1 - rd(t * t))
   end]], 16384)

function K.Tanh_updateOutput(state, input, output)
   output:resizeAs(input)
   local x, n = data(input)
   local y = data(output)
   if x and y then
      shared.run(FORWARD, checks.ctype(input), n, n, x, y)
   else
      output:tanh(input)
   end
end

function K.Tanh_updateGradInput(state, input, gradOutput, gradInput, output)
   gradInput:resizeAs(output)
   local y, n = data(output)
   local g, gn = data(gradOutput)
   local gi = data(gradInput)
   if y and g and gi and gn == n then
      shared.run(BACKWARD, checks.ctype(output), n, n, y, g, gi)
   else
      gradInput:cmul(output, output):mul(-1):add(1):cmul(gradOutput)
   end
end

return K
