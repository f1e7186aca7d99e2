-- LogSoftMax over the feature dimension (as SoftMax): output = input - logsumexp(input)
local featuredim = require('thnn.checks').featuredim
local K = {}

function K.LogSoftMax_updateOutput(state, input, output)
   local dim = featuredim(input, 'LogSoftMax_updateOutput')
   local max = input:max(dim)
   output:resizeAs(input):copy(input):add(-1, max:expandAs(input))
   local logsum = output.new():exp(output):sum(dim):log()
   output:add(-1, logsum:expandAs(input))
end

-- gradInput = gradOutput - exp(output) * sum(gradOutput)
function K.LogSoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   local dim = featuredim(output, 'LogSoftMax_updateGradInput')
   local sum = gradOutput:sum(dim)
   gradInput:resizeAs(output):exp(output):cmul(sum:expandAs(output)):mul(-1):add(gradOutput)
end

return K
