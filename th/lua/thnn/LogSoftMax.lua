-- LogSoftMax over the feature dimension (as SoftMax): output = input - logsumexp(input)
local checks = require 'thnn.checks'
local featuredim, data, rows, exp, log = checks.featuredim, checks.data, checks.rows, math.exp, math.log
local K = {}

function K.LogSoftMax_updateOutput(state, input, output)
   local dim = featuredim(input, 'LogSoftMax_updateOutput')
   output:resizeAs(input)
   local x = data(input)
   local y = data(output)
   local nrow, width = rows(input)
   if x and y and nrow then
      local rd = checks.rounding(input)   -- (THNN: x - max in the element type, the rest in double)
      for r = 0, nrow - 1 do
         local base = r * width
         local max = -math.huge
         for i = base, base + width - 1 do if x[i] > max then max = x[i] end end
         local sum = 0
         for i = base, base + width - 1 do sum = sum + exp(rd(x[i] - max)) end
         local shift = max + log(sum)
         for i = base, base + width - 1 do y[i] = x[i] - shift end
      end
      return
   end
   local max = input:max(dim)
   output:resizeAs(input):copy(input):add(-1, max:expandAs(input))
   local logsum = output.new():exp(output):sum(dim):log()
   output:add(-1, logsum:expandAs(input))
end

-- gradInput = gradOutput - exp(output) * sum(gradOutput)
function K.LogSoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   local dim = featuredim(output, 'LogSoftMax_updateGradInput')
   gradInput:resizeAs(output)
   local y, n = data(output)
   local g, gn = data(gradOutput)
   local gi = data(gradInput)
   local nrow, width = rows(output)
   if y and g and gi and gn == n and nrow then
      for r = 0, nrow - 1 do
         local base = r * width
         local sum = 0
         for i = base, base + width - 1 do sum = sum + g[i] end
         for i = base, base + width - 1 do gi[i] = g[i] - exp(y[i]) * sum end
      end
      return
   end
   local sum = gradOutput:sum(dim)
   gradInput:resizeAs(output):exp(output):cmul(sum:expandAs(output)):mul(-1):add(gradOutput)
end

return K
