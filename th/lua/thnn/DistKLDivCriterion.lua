-- DistKLDivCriterion: loss = sum over target > 0 of target * (log(target) -
-- input), divided by the element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

function K.DistKLDivCriterion_updateOutput(state, input, target, output, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local pos = target:gt(0)
   local t = target[pos]
   local loss = t.new():resizeAs(t):copy(t):log():add(-1, input[pos]):dot(t)
   if sizeAverage then loss = loss / input:nElement() end
   checks.setloss(output, loss)
end

-- gradInput = -target where target > 0 (not where it is NaN), divided by the
-- count when sizeAverage
function K.DistKLDivCriterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local norm = sizeAverage and -1 / input:nElement() or -1
   gradInput:resizeAs(input):copy(target):mul(norm):maskedFill(target:gt(0):eq(0), 0)
end

return K
