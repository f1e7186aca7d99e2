-- SmoothL1Criterion: per element z = |input - target|, 0.5 z^2 below 1 and
-- z - 0.5 above; summed, divided by the element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

function K.SmoothL1Criterion_updateOutput(state, input, target, output, sizeAverage)
   checks.setloss(output, (checks.losssum(input, target, sizeAverage, function(x, y, rd)
      local z = math.abs(rd(x - y))
      return z < 1 and 0.5 * z * z or z - 0.5
   end)))
end

-- gradInput = clamp(input - target, -1, 1), divided by the count when sizeAverage
function K.SmoothL1Criterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local norm = sizeAverage and 1 / input:nElement() or 1
   gradInput:resizeAs(input):copy(input):add(-1, target):clamp(-1, 1):mul(norm)
end

return K
