-- AbsCriterion: loss = sum(|input - target|), divided by the element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

function K.AbsCriterion_updateOutput(state, input, target, output, sizeAverage)
   checks.setloss(output, (checks.losssum(input, target, sizeAverage, function(x, y, rd)
      return math.abs(rd(x - y))
   end)))
end

-- gradInput = (input - target >= 0 and 1 or -1), divided by the count when
-- sizeAverage (inf - inf and NaN give -1, as THNN's test did)
function K.AbsCriterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local norm = sizeAverage and 1 / input:nElement() or 1
   local diff = input.new():resizeAs(input):copy(input):add(-1, target)
   gradInput:resizeAs(input):copy(diff:ge(0)):mul(2 * norm):add(-norm)
end

return K
