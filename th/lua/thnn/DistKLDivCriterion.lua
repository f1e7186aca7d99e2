-- DistKLDivCriterion: loss = sum over target > 0 of target * (log(target) -
-- input), divided by the element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

function K.DistKLDivCriterion_updateOutput(state, input, target, output, sizeAverage)
   checks.setloss(output, (checks.losssum(input, target, sizeAverage, function(x, y)
      return y > 0 and y * (math.log(y) - x) or 0
   end)))
end

-- gradInput = -target where target > 0 (not where it is NaN), divided by the
-- count when sizeAverage
function K.DistKLDivCriterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local norm = sizeAverage and -1 / input:nElement() or -1
   gradInput:resizeAs(input):copy(target):mul(norm):maskedFill(target:gt(0):eq(0), 0)
end

return K
