-- SoftPlus: output = log(1 + exp(beta * input)) / beta, or input itself where
-- beta * input > threshold (linear there, as the original); gradInput =
-- gradOutput * (z - 1) / z with z = exp(beta * output), gradOutput where
-- linear.  A FloatTensor's as THNN rounded it (recorded from the original):
-- beta * x in float, exp and log1p in double, z rounded to float, each
-- result rounded once.
local checks = require 'thnn.checks'
local f32 = require('torch.maths.kernels').f32
local C = require 'torch.maths.libm'
local K = {}

local function forward(y, x, n, beta, threshold, float)
   local rd = float and f32 or function(v) return v end
   local b, t = rd(beta), rd(threshold)
   for i = 0, n - 1 do
      local v = x[i]
      local p = rd(v * b)
      if p > t then y[i] = v else y[i] = rd(C.log1p(C.exp(p)) / b) end
   end
end

local function backward(gi, g, y, n, beta, threshold, float)
   local rd = float and f32 or function(v) return v end
   local b, t = rd(beta), rd(threshold)
   for i = 0, n - 1 do
      local p = rd(y[i] * b)
      if p > t then
         gi[i] = g[i]
      else
         local z = rd(C.exp(p))
         gi[i] = rd(g[i] * (z - 1) / z)
      end
   end
end

-- one copy of the loops per element type (checks.pertype)
local FORWARD = checks.pertype(forward)

function K.SoftPlus_updateOutput(state, input, output, beta, threshold)
   local x = input:contiguous()
   checks.into(output:resizeAs(input), function(y)
      FORWARD(input:type())(checks.ptr(y), checks.ptr(x), x:nElement(), beta, threshold, input:type() == 'torch.FloatTensor')
   end)
end

local BACKWARD = checks.pertype(backward)

function K.SoftPlus_updateGradInput(state, input, gradOutput, gradInput, output, beta, threshold)
   checks.samecount(input, gradOutput, 'input', 'gradOutput')
   local y, g = output:contiguous(), gradOutput:contiguous()
   checks.into(gradInput:resizeAs(output), function(gi)
      BACKWARD(input:type())(checks.ptr(gi), checks.ptr(g), checks.ptr(y), y:nElement(), beta, threshold,
               output:type() == 'torch.FloatTensor')
   end)
end

return K
