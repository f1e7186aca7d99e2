-- SoftMax over the feature dimension: the only one of a 1D or 3D input (C, or
-- C x H x W), the second of a 2D or 4D one (N x C, N x C x H x W).
-- LuaJIT loops, one line of features at a time (thnn.shared: many shared
-- with helper threads).
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local featuredim, lines, writable, settle = checks.featuredim, checks.lines, checks.writable, checks.settle
local K = {}

-- lines of a0 features a1 apart (line r: batch floor(r / a1), place r % a1):
-- p1 = exp(p0 - max) / sum, as THNN: the exponentials of x - max taken in
-- the element type, times the reciprocal of the sum
local FORWARD = shared.loop('softmax', [[
   for r = a, b - 1 do
      local batch = floor(r / a1)
      local first = batch * a0 * a1 + (r - batch * a1)
      local last = first + (a0 - 1) * a1
      local max = -huge
      for i = first, last, a1 do if p0[i] > max then max = p0[i] end end
      local sum = 0
      for i = first, last, a1 do
         p1[i] = exp(rd(p0[i] - max))
         sum = sum + p1[i]
      end
      sum = 1 / sum
      for i = first, last, a1 do p1[i] = p1[i] * sum end
   end]], 1024, 1)

-- gradInput p2 = output p0 * (gradOutput p1 - sum(gradOutput * output))
local BACKWARD = shared.loop('softmaxgrad', [[
   for r = a, b - 1 do
      local batch = floor(r / a1)
      local first = batch * a0 * a1 + (r - batch * a1)
      local last = first + (a0 - 1) * a1
      local dot = 0
      for i = first, last, a1 do dot = dot + p1[i] * p0[i] end
      for i = first, last, a1 do p2[i] = p0[i] * (p1[i] - dot) end
   end]], 8192, 1)

-- (non-contiguous tensors through contiguous copies)
function K.SoftMax_updateOutput(state, input, output)
   featuredim(input, 'SoftMax_updateOutput')
   if input:nElement() == 0 then return output:resizeAs(input) end
   local x = input:contiguous()
   local count, width, stride = lines(x)
   local y = writable(output:resizeAs(input))
   shared.run(FORWARD, checks.ctype(x), count, x:nElement(), x:data(), y:data(), nil, nil, width, stride)
   settle(output, y)
end

function K.SoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   featuredim(output, 'SoftMax_updateGradInput')
   checks.samecount(output, gradOutput, 'output', 'gradOutput')
   if output:nElement() == 0 then return gradInput:resizeAs(output) end
   local y, g = output:contiguous(), gradOutput:contiguous()
   local count, width, stride = lines(y)
   local gi = writable(gradInput:resizeAs(output))
   shared.run(BACKWARD, checks.ctype(y), count, y:nElement(), y:data(), g:data(), gi:data(), nil, width, stride)
   settle(gradInput, gi)
end

return K
