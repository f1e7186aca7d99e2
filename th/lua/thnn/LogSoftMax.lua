-- LogSoftMax over the feature dimension (as SoftMax): output = input -
-- logsumexp(input).  LuaJIT loops, one line of features at a time
-- (checks.lines; thnn.shared: many shared with helper threads).
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local K = {}

-- p1 = p0 - (max + log(sum(exp(p0 - max)))) along each line of a0 features
-- a1 apart, as THNN: x - max in the element type, the rest in double
local FORWARD = shared.loop('logsoftmax', [[
   for r = a, b - 1 do
      local first, last = line(r, a0, a1)
      local max = -huge
      for i = first, last, a1 do if p0[i] > max then max = p0[i] end end
      local sum = 0
      for i = first, last, a1 do sum = sum + exp(rd(p0[i] - max)) end
      local shift = max + log(sum)
      for i = first, last, a1 do p1[i] = p0[i] - shift end
   end]], 1024, 1, nil, checks.LINE)

-- gradInput p2 = gradOutput p1 - exp(output p0) * sum(gradOutput)
local BACKWARD = shared.loop('logsoftmaxgrad', [[
   for r = a, b - 1 do
      local first, last = line(r, a0, a1)
      local sum = 0
      for i = first, last, a1 do sum = sum + p1[i] end
      for i = first, last, a1 do p2[i] = p1[i] - exp(p0[i]) * sum end
   end]], 1024, 1, nil, checks.LINE)

function K.LogSoftMax_updateOutput(state, input, output)
   checks.linesforward(FORWARD, 'LogSoftMax_updateOutput', input, output)
end

function K.LogSoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   -- (the shapes, not only the counts: THNN's check)
   if not input:isSameSizeAs(gradOutput) then
      checks.fail('input and gradOutput shapes do not match: input %s, gradOutput %s',
                  checks.sizes(input), checks.sizes(gradOutput))
   end
   checks.linesbackward(BACKWARD, 'LogSoftMax_updateGradInput', output, gradOutput, gradInput)
end

return K
