-- Tanh: output = tanh(input); gradInput = gradOutput * (1 - output^2).
-- Contiguous tensors loop in LuaJIT (thnn.shared: large ones shared with
-- helper threads), the gradient's strided ones through contiguous copies
-- (tensor operations took the product in float); a FloatTensor's as THNN:
-- tanhf, and the square of the output in float, the rest in double.
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local data = checks.data
local K = {}

-- p1 = tanh(p0)
local FORWARD = shared.loop('tanh', {
   float = 'for i = a, b - 1 do p1[i] = C.tanhf(p0[i]) end',
   double = 'for i = a, b - 1 do p1[i] = C.tanh(p0[i]) end'}, 2048, 512)

-- gradInput p2 = gradOutput p1 * (1 - output p0 ^ 2), two elements a
-- step (a loop of one: 39 us for 65536 doubles in the cache, against 31;
-- the original's SIMD loop 25).  Where both factors are NaN, THNN's two
-- loops kept different ones (below), and LuaJIT's product either: a0 = 1,
-- the NaN of 1 - y^2 (y's), else gradOutput's.
local BACKWARD = shared.loop('tanhgrad', [[
   local m = a + floor((b - a) / 2) * 2
   for i = a, m - 1, 2 do
      local t, u = p0[i], p0[i + 1]
      local d, e = 1 - rd(t * t), 1 - rd(u * u)
      if d == d and e == e then
         p2[i], p2[i + 1] = p1[i] * d, p1[i + 1] * e
      else
         p2[i], p2[i + 1] = product(p1[i], d, a0), product(p1[i + 1], e, a0)
      end
   end
   if m < b then
      local t = p0[m]
      p2[m] = product(p1[m], 1 - rd(t * t), a0)
   end]], 16384, nil, nil, [[
local function product(g, d, dwins)
   if d ~= d and (dwins ~= 0 or g == g) then return d end
   if g ~= g then return g + 0 end
   return g * d
end]])

-- which NaN THNN's gradient kept where both factors were: its loop over
-- contiguous tensors of 2 or more dimensions kept a double gradOutput's
-- and a float 1 - y^2's, its general loop (TH_TENSOR_APPLY) the others
local function factorwins(output, gradOutput, gradInput)
   local flat = output:dim() ~= 1 and output:isContiguous() and gradOutput:isContiguous()
                and gradInput:isContiguous()
   return (checks.ctype(output) == 'float') == flat
end

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
   if not output:isSameSizeAs(gradOutput) then
      checks.fail('output and gradOutput shapes do not match: output %s, gradOutput %s',
                  checks.sizes(output), checks.sizes(gradOutput))
   end
   gradInput:resizeAs(output)
   local n = output:nElement()
   local dwins = factorwins(output, gradOutput, gradInput) and 1 or 0
   local gi = checks.writable(gradInput)
   if n > 0 then
      local y, g = output:contiguous(), gradOutput:contiguous()
      shared.run(BACKWARD, checks.ctype(y), n, n, y:data(), g:data(), gi:data(), nil, dwins)
   end
   checks.settle(gradInput, gi)
end

return K
