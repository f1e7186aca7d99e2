-- LogSoftMax over the feature dimension (as SoftMax): output = input -
-- logsumexp(input).  LuaJIT loops, one line of features at a time
-- (thnn.shared: many shared with helper threads).
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local featuredim, lines, writable, settle = checks.featuredim, checks.lines, checks.writable, checks.settle
local K = {}

-- lines of a0 features a1 apart (as SoftMax's): p1 = p0 - (max +
-- log(sum(exp(p0 - max)))), as THNN: x - max in the element type, the rest
-- in double
local FORWARD = shared.loop('logsoftmax', [[
   for r = a, b - 1 do
      local batch = floor(r / a1)
      local first = batch * a0 * a1 + (r - batch * a1)
      local last = first + (a0 - 1) * a1
      local max = -huge
      for i = first, last, a1 do if p0[i] > max then max = p0[i] end end
      local sum = 0
      for i = first, last, a1 do sum = sum + exp(rd(p0[i] - max)) end
      local shift = max + log(sum)
      for i = first, last, a1 do p1[i] = p0[i] - shift end
   end]], 1024, 1)

-- gradInput p2 = gradOutput p1 - exp(output p0) * sum(gradOutput)
local BACKWARD = shared.loop('logsoftmaxgrad', [[
   for r = a, b - 1 do
      local batch = floor(r / a1)
      local first = batch * a0 * a1 + (r - batch * a1)
      local last = first + (a0 - 1) * a1
      local sum = 0
      for i = first, last, a1 do sum = sum + p1[i] end
      for i = first, last, a1 do p2[i] = p1[i] - exp(p0[i]) * sum end
   end]], 1024, 1)

-- (non-contiguous tensors through contiguous copies)
function K.LogSoftMax_updateOutput(state, input, output)
   featuredim(input, 'LogSoftMax_updateOutput')
   if input:nElement() == 0 then return output:resizeAs(input) end
   local x = input:contiguous()
   local count, width, stride = lines(x)
   local y = writable(output:resizeAs(input))
   shared.run(FORWARD, checks.ctype(x), count, x:nElement(), x:data(), y:data(), nil, nil, width, stride)
   settle(output, y)
end

function K.LogSoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   featuredim(output, 'LogSoftMax_updateGradInput')
   checks.samecount(output, gradOutput, 'output', 'gradOutput')
   if output:nElement() == 0 then return gradInput:resizeAs(output) end
   local y, g = output:contiguous(), gradOutput:contiguous()
   local count, width, stride = lines(y)
   local gi = writable(gradInput:resizeAs(output))
   shared.run(BACKWARD, checks.ctype(y), count, y:nElement(), y:data(), g:data(), gi:data(), nil, width, stride)
   settle(gradInput, gi)
end

return K
