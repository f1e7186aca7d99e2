-- SoftMax over the feature dimension: the only one of a 1D or 3D input (C, or
-- C x H x W), the second of a 2D or 4D one (N x C, N x C x H x W).
-- LuaJIT loops, one line of features at a time (checks.lines; thnn.shared:
-- many shared with helper threads).
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local K = {}

-- p1 = exp(p0 - max) / sum along each line of a0 features a1 apart, as
-- THNN: the exponentials of x - max taken in the element type, times the
-- reciprocal of the sum
local FORWARD = shared.loop('softmax', [[
   for r = a, b - 1 do
      local first, last = line(r, a0, a1)
      local max = -huge
      for i = first, last, a1 do if p0[i] > max then max = p0[i] end end
      local sum = 0
      for i = first, last, a1 do
         p1[i] = exp(rd(p0[i] - max))
         sum = sum + p1[i]
      end
      sum = 1 / sum
      for i = first, last, a1 do p1[i] = p1[i] * sum end
   end]], 1024, 1, nil, checks.LINE)

-- gradInput p2 = output p0 * (gradOutput p1 - sum(gradOutput * output))
local BACKWARD = shared.loop('softmaxgrad', [[
   for r = a, b - 1 do
      local first, last = line(r, a0, a1)
      local dot = 0
      for i = first, last, a1 do dot = dot + p1[i] * p0[i] end
      for i = first, last, a1 do p2[i] = p0[i] * (p1[i] - dot) end
   end]], 8192, 1, nil, checks.LINE)

function K.SoftMax_updateOutput(state, input, output)
   checks.linesforward(FORWARD, 'SoftMax_updateOutput', input, output)
end

function K.SoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   checks.linesbackward(BACKWARD, 'SoftMax_updateGradInput', output, gradOutput, gradInput)
end

return K
