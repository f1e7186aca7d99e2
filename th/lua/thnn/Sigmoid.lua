-- Sigmoid: output = 1 / (1 + exp(-input)); gradInput = gradOutput * (1 - output) * output
local checks = require 'thnn.checks'
local data, exp = checks.data, math.exp
local f32 = require('torch.maths.kernels').f32
local C = require 'torch.maths.libm'
local K = {}

function K.Sigmoid_updateOutput(state, input, output)
   output:resizeAs(input)
   local x, n = data(input)
   local y = data(output)
   if x and y and input:type() == 'torch.FloatTensor' then
      -- as THNN: expf, and the denominator in float
      for i = 0, n - 1 do y[i] = 1 / f32(1 + C.expf(-x[i])) end
   elseif x and y then
      for i = 0, n - 1 do y[i] = 1 / (1 + exp(-x[i])) end
   else
      output:sigmoid(input)
   end
end

function K.Sigmoid_updateGradInput(state, input, gradOutput, gradInput, output)
   gradInput:resizeAs(output)
   local y, n = data(output)
   local g, gn = data(gradOutput)
   local gi = data(gradInput)
   if y and g and gi and gn == n then
      for i = 0, n - 1 do
         local s = y[i]
         gi[i] = g[i] * (1 - s) * s
      end
   else
      gradInput:fill(1):add(-1, output):cmul(output):cmul(gradOutput)
   end
end

return K
