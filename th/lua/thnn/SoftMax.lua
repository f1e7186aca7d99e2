-- SoftMax over the feature dimension: the only one of a 1D or 3D input (C, or
-- C x H x W), the second of a 2D or 4D one (N x C, N x C x H x W).
local featuredim = require('thnn.checks').featuredim
local K = {}

function K.SoftMax_updateOutput(state, input, output)
   local dim = featuredim(input, 'SoftMax_updateOutput')
   local max = input:max(dim)
   output:resizeAs(input):copy(input):add(-1, max:expandAs(input)):exp()
   output:cdiv(output:sum(dim):expandAs(input))
end

-- gradInput = output * (gradOutput - sum(gradOutput * output))
function K.SoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   local dim = featuredim(output, 'SoftMax_updateGradInput')
   gradInput:resizeAs(output):cmul(gradOutput, output)
   local dot = gradInput:sum(dim)
   gradInput:copy(gradOutput):add(-1, dot:expandAs(output)):cmul(output)
end

return K
