-- LogSigmoid: output = -log(1 + exp(-input)), computed without overflow as
-- -(m + log(z)) with m = max(0, -input), z = exp(-m) + exp(-input - m), z
-- kept in buffer; gradInput = gradOutput * sigmoid(-input), as d - s (z - 1) / z
-- (d, s = 1, 1 for a negative input, 0, -1 otherwise).  A FloatTensor's as
-- THNN rounded it (recorded from the original): exp and log in double, z
-- and the output rounded once, the gradient's factor rounded, then
-- multiplied in float.
local checks = require 'thnn.checks'
local f32 = require('torch.maths.kernels').f32
local C = require 'torch.maths.libm'
local K = {}

local function same(v) return v end

local function forward(y, z, x, n, rd)
   for i = 0, n - 1 do
      local v = x[i]
      local m = -v > 0 and -v or 0     -- fmax(0, -x): 0 for a NaN
      local s = rd(C.exp(-m) + C.exp(-v - m))
      z[i] = s
      y[i] = rd(-(m + C.log(s)))
   end
end

local function backward(gi, g, x, z, n, rd)
   for i = 0, n - 1 do
      local s = z[i]
      local f
      if x[i] < 0 then f = 1 - (s - 1) / s else f = (s - 1) / s end
      gi[i] = rd(g[i] * rd(f))
   end
end

-- one copy of the loops per element type (checks.pertype)
local FORWARD = checks.pertype(forward)

function K.LogSigmoid_updateOutput(state, input, output, buffer)
   local x = input:contiguous()
   local rd = input:type() == 'torch.FloatTensor' and f32 or same
   buffer:resizeAs(input)
   local z = buffer:isContiguous() and buffer or buffer.new():resizeAs(input)
   checks.into(output:resizeAs(input), function(y)
      FORWARD(input:type())(checks.ptr(y), checks.ptr(z), checks.ptr(x), x:nElement(), rd)
   end)
   if z ~= buffer then buffer:copy(z) end
end

local BACKWARD = checks.pertype(backward)

function K.LogSigmoid_updateGradInput(state, input, gradOutput, gradInput, buffer)
   checks.samecount(input, gradOutput, 'input', 'gradOutput')
   local x, g, z = input:contiguous(), gradOutput:contiguous(), buffer:contiguous()
   local rd = input:type() == 'torch.FloatTensor' and f32 or same
   checks.into(gradInput:resizeAs(input), function(gi)
      BACKWARD(input:type())(checks.ptr(gi), checks.ptr(g), checks.ptr(x), checks.ptr(z), x:nElement(), rd)
   end)
end

return K
