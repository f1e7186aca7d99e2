-- SoftMax over the feature dimension: the only one of a 1D or 3D input (C, or
-- C x H x W), the second of a 2D or 4D one (N x C, N x C x H x W).  1D and 2D
-- contiguous tensors run thnn.softmaxrows's loops, one row at a time.
local checks = require 'thnn.checks'
local softmaxrows = require 'thnn.softmaxrows'
local featuredim, data, rows = checks.featuredim, checks.data, checks.rows
local K = {}

function K.SoftMax_updateOutput(state, input, output)
   local dim = featuredim(input, 'SoftMax_updateOutput')
   output:resizeAs(input)
   local x = data(input)
   local y = data(output)
   local nrow, width = rows(input)
   if x and y and nrow then
      return softmaxrows.run('softmax', checks.ctype(input), x, y, nil, nrow, width)
   end
   local max = input:max(dim)
   output:copy(input):add(-1, max:expandAs(input)):exp()
   output:cdiv(output:sum(dim):expandAs(input))
end

-- gradInput = output * (gradOutput - sum(gradOutput * output))
function K.SoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   local dim = featuredim(output, 'SoftMax_updateGradInput')
   gradInput:resizeAs(output)
   local y, n = data(output)
   local g, gn = data(gradOutput)
   local gi = data(gradInput)
   local nrow, width = rows(output)
   if y and g and gi and gn == n and nrow then
      return softmaxrows.run('softmaxgrad', checks.ctype(output), y, g, gi, nrow, width)
   end
   gradInput:cmul(gradOutput, output)
   local dot = gradInput:sum(dim)
   gradInput:copy(gradOutput):add(-1, dot:expandAs(output)):cmul(output)
end

return K
