-- Tanh: output = tanh(input); gradInput = gradOutput * (1 - output^2)
local checks = require 'thnn.checks'
local data, tanh = checks.data, math.tanh
local C = require 'torch.maths.libm'
local K = {}

-- (a FloatTensor's as THNN: tanhf, and the square of the output in float)

function K.Tanh_updateOutput(state, input, output)
   output:resizeAs(input)
   local x, n = data(input)
   local y = data(output)
   if x and y and input:type() == 'torch.FloatTensor' then
      for i = 0, n - 1 do y[i] = C.tanhf(x[i]) end
   elseif x and y then
      for i = 0, n - 1 do y[i] = tanh(x[i]) end
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
      local rd = checks.rounding(output)
      for i = 0, n - 1 do
         local t = y[i]
         gi[i] = g[i] * (1 - rd(t * t))
      end
   else
      gradInput:cmul(output, output):mul(-1):add(1):cmul(gradOutput)
   end
end

return K
