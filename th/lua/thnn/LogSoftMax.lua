-- LogSoftMax over the feature dimension (as SoftMax): output = input - logsumexp(input)
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local featuredim, data, rows = checks.featuredim, checks.data, checks.rows
local K = {}

-- rows of a0 elements: p1 = p0 - (max + log(sum(exp(p0 - max)))), as THNN:
-- x - max in the element type, the rest in double
local FORWARD = shared.loop('logsoftmax', [[
   for r = a, b - 1 do
      local base = r * a0
      local max = -huge
      for i = base, base + a0 - 1 do if p0[i] > max then max = p0[i] end end
      local sum = 0
      for i = base, base + a0 - 1 do sum = sum + exp(rd(p0[i] - max)) end
      local shift = max + log(sum)
      for i = base, base + a0 - 1 do p1[i] = p0[i] - shift end
   end]], 1024, 1)

-- gradInput p2 = gradOutput p1 - exp(output p0) * sum(gradOutput)
local BACKWARD = shared.loop('logsoftmaxgrad', [[
   for r = a, b - 1 do
      local base = r * a0
      local sum = 0
      for i = base, base + a0 - 1 do sum = sum + p1[i] end
      for i = base, base + a0 - 1 do p2[i] = p1[i] - exp(p0[i]) * sum end
   end]], 1024, 1)

function K.LogSoftMax_updateOutput(state, input, output)
   local dim = featuredim(input, 'LogSoftMax_updateOutput')
   output:resizeAs(input)
   local x, n = data(input)
   local y = data(output)
   local nrow, width = rows(input)
   if x and y and nrow then
      return shared.run(FORWARD, checks.ctype(input), nrow, n, x, y, nil, nil, width)
   end
   local max = input:max(dim)
   output:resizeAs(input):copy(input):add(-1, max:expandAs(input))
   local logsum = output.new():exp(output):sum(dim):log()
   output:add(-1, logsum:expandAs(input))
end

function K.LogSoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   local dim = featuredim(output, 'LogSoftMax_updateGradInput')
   gradInput:resizeAs(output)
   local y, n = data(output)
   local g, gn = data(gradOutput)
   local gi = data(gradInput)
   local nrow, width = rows(output)
   if y and g and gi and gn == n and nrow then
      return shared.run(BACKWARD, checks.ctype(output), nrow, n, y, g, gi, nil, width)
   end
   local sum = gradOutput:sum(dim)
   gradInput:resizeAs(output):exp(output):cmul(sum:expandAs(output)):mul(-1):add(gradOutput)
end

return K
