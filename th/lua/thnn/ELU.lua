-- ELU: output = input > 0 ? input : alpha * (exp(input) - 1); gradInput =
-- gradOutput where output > 0, gradOutput * (output + alpha) elsewhere.  In
-- place, input becomes the output and gradOutput the gradInput.  A
-- FloatTensor's as THNN rounded it (recorded from the original): the
-- output exp(x) * alpha - alpha in double with alpha a float, rounded once;
-- the gradient in float steps.
local checks = require 'thnn.checks'
local f32 = require('torch.maths.kernels').f32
local C = require 'torch.maths.libm'
local K = {}

local function forward(y, x, n, alpha, float)
   if float then
      local a = f32(alpha)
      for i = 0, n - 1 do
         local v = x[i]
         if v <= 0 then y[i] = f32(C.exp(v) * a - a) else y[i] = v end
      end
   else
      for i = 0, n - 1 do
         local v = x[i]
         if v <= 0 then y[i] = (C.exp(v) - 1) * alpha else y[i] = v end
      end
   end
end

local function backward(gi, g, y, n, alpha, float)
   if float then
      local a = f32(alpha)
      for i = 0, n - 1 do
         local o = y[i]
         if o <= 0 then gi[i] = f32(g[i] * f32(o + a)) else gi[i] = g[i] end
      end
   else
      for i = 0, n - 1 do
         local o = y[i]
         if o <= 0 then gi[i] = g[i] * (o + alpha) else gi[i] = g[i] end
      end
   end
end

function K.ELU_updateOutput(state, input, output, alpha, inplace)
   local x = input:contiguous()
   local float = input:type() == 'torch.FloatTensor'
   checks.into(inplace and input or output:resizeAs(input), function(y)
      forward(checks.ptr(y), checks.ptr(x), x:nElement(), alpha, float)
   end)
   if inplace then output:set(input) end
end

function K.ELU_updateGradInput(state, input, gradOutput, gradInput, output, alpha, inplace)
   checks.samecount(output, gradOutput, 'output', 'gradOutput')
   local y, g = output:contiguous(), gradOutput:contiguous()
   local float = output:type() == 'torch.FloatTensor'
   checks.into(inplace and gradOutput or gradInput:resizeAs(output), function(gi)
      backward(checks.ptr(gi), checks.ptr(g), checks.ptr(y), y:nElement(), alpha, float)
   end)
   if inplace then gradInput:set(gradOutput) end
end

return K
