-- SoftMax over the feature dimension: the only one of a 1D or 3D input (C, or
-- C x H x W), the second of a 2D or 4D one (N x C, N x C x H x W).  1D and 2D
-- contiguous tensors loop in LuaJIT, one row at a time (thnn.shared: rows
-- of many elements shared with helper threads).
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local featuredim, data, rows = checks.featuredim, checks.data, checks.rows
local K = {}

-- rows of a0 elements: p1 = exp(p0 - max) / sum, as THNN: the exponentials
-- of x - max taken in the element type, times the reciprocal of the sum
local FORWARD = shared.loop('softmax', [[
   for r = a, b - 1 do
      local base = r * a0
      local max = -huge
      for i = base, base + a0 - 1 do if p0[i] > max then max = p0[i] end end
      local sum = 0
      for i = base, base + a0 - 1 do
         p1[i] = exp(rd(p0[i] - max))
         sum = sum + p1[i]
      end
      sum = 1 / sum
      for i = base, base + a0 - 1 do p1[i] = p1[i] * sum end
   end]], 1024, 1)

-- gradInput p2 = output p0 * (gradOutput p1 - sum(gradOutput * output))
local BACKWARD = shared.loop('softmaxgrad', [[
   for r = a, b - 1 do
      local base = r * a0
      local dot = 0
      for i = base, base + a0 - 1 do dot = dot + p1[i] * p0[i] end
      for i = base, base + a0 - 1 do p2[i] = p0[i] * (p1[i] - dot) end
   end]], 8192, 1)

function K.SoftMax_updateOutput(state, input, output)
   local dim = featuredim(input, 'SoftMax_updateOutput')
   output:resizeAs(input)
   local x, n = data(input)
   local y = data(output)
   local nrow, width = rows(input)
   if x and y and nrow then
      return shared.run(FORWARD, checks.ctype(input), nrow, n, x, y, nil, nil, width)
   end
   local max = input:max(dim)
   output:copy(input):add(-1, max:expandAs(input)):exp()
   output:cdiv(output:sum(dim):expandAs(input))
end

function K.SoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   local dim = featuredim(output, 'SoftMax_updateGradInput')
   gradInput:resizeAs(output)
   local y, n = data(output)
   local g, gn = data(gradOutput)
   local gi = data(gradInput)
   local nrow, width = rows(output)
   if y and g and gi and gn == n and nrow then
      return shared.run(BACKWARD, checks.ctype(output), nrow, n, y, g, gi, nil, width)
   end
   gradInput:cmul(gradOutput, output)
   local dot = gradInput:sum(dim)
   gradInput:copy(gradOutput):add(-1, dot:expandAs(output)):cmul(output)
end

return K
