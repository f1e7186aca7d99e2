-- LogSoftMax over the feature dimension (as SoftMax): output = input - logsumexp(input)
local checks = require 'thnn.checks'
local softmaxrows = require 'thnn.softmaxrows'
local featuredim, data, rows = checks.featuredim, checks.data, checks.rows
local K = {}

function K.LogSoftMax_updateOutput(state, input, output)
   local dim = featuredim(input, 'LogSoftMax_updateOutput')
   output:resizeAs(input)
   local x = data(input)
   local y = data(output)
   local nrow, width = rows(input)
   if x and y and nrow then
      return softmaxrows.run('logsoftmax', checks.ctype(input), x, y, nil, nrow, width)
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
      return softmaxrows.run('logsoftmaxgrad', checks.ctype(output), y, g, gi, nrow, width)
   end
   local sum = gradOutput:sum(dim)
   gradInput:resizeAs(output):exp(output):cmul(sum:expandAs(output)):mul(-1):add(gradOutput)
end

return K
