-- MarginCriterion: loss = sum(max(0, margin - input * target)), divided by the
-- element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

function K.MarginCriterion_updateOutput(state, input, target, output, sizeAverage, margin)
   checks.setloss(output, (checks.losssum(input, target, sizeAverage, function(x, y, rd)
      local z = rd(rd(margin) - rd(x * y))   -- (margin, product and difference in the element type)
      return z > 0 and z or 0   -- (a NaN adds nothing, as in THNN)
   end)))
end

-- gradInput = -target where input * target < margin (not where it is NaN),
-- divided by the count when sizeAverage
function K.MarginCriterion_updateGradInput(state, input, target, gradInput, sizeAverage, margin)
   checks.samecount(input, target, 'input', 'target')
   local norm = sizeAverage and -1 / input:nElement() or -1
   local below = input.new():resizeAs(input):cmul(input, target):lt(margin)
   gradInput:resizeAs(input):copy(target):mul(norm):maskedFill(below:eq(0), 0)
end

return K
