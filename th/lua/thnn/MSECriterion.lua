-- MSECriterion: loss = sum((input - target)^2), divided by the element count when sizeAverage
local checks = require 'thnn.checks'
local data = checks.data
local K = {}

function K.MSECriterion_updateOutput(state, input, target, output, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   -- (views read through contiguous copies: THNN summed their elements in
   -- the same order, in the element type; a dot product sums otherwise)
   local xc, tc = input:contiguous(), target:contiguous()   -- (kept: their memory is read below)
   local x, n = data(xc)
   local t = data(tc)
   local loss = 0
   if x and t then
      local rd = checks.rounding(input)   -- (THNN: every step in the element type)
      for i = 0, n - 1 do
         local d = rd(x[i] - t[i])
         loss = rd(loss + rd(d * d))
      end
   else
      local d = input.new():resizeAs(input):copy(input):add(-1, target)
      loss = d:dot(d)
   end
   if sizeAverage then loss = checks.rounding(input)(loss / input:nElement()) end
   checks.setloss(output, loss)
end

function K.MSECriterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local norm = checks.rounding(input)(sizeAverage and 2 / input:nElement() or 2)
   gradInput:resizeAs(input)
   local x, n = data(input)
   local t = data(target)
   local gi = data(gradInput)
   if x and t and gi then
      local rd = checks.rounding(input)
      for i = 0, n - 1 do gi[i] = norm * rd(x[i] - t[i]) end
   else
      gradInput:copy(input):add(-1, target):mul(norm)
   end
end

return K
