-- MarginCriterion: loss = sum(max(0, margin - input * target)), divided by the
-- element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

-- (margin a0, the product and the difference in the element type; math.max(z,
-- 0) is z > 0 and z or 0: a NaN adds nothing, as in THNN)
local LOSS = checks.lossloop('margin loss', 'max(rd(rd(a0) - rd(x * y)), 0)', 'local max = math.max')
-- gradInput = norm * target where input * target < margin (not where it is
-- NaN), else 0; a0: norm (-1 or -1 / count), a1: margin, in the element type
local GRAD = checks.gradloop('margin gradient', 'rd(x * y) < a1 and rd(y * a0) or 0')

function K.MarginCriterion_updateOutput(state, input, target, output, sizeAverage, margin)
   checks.setloss(output, (checks.losssum(LOSS, input, target, sizeAverage, margin)))
end

function K.MarginCriterion_updateGradInput(state, input, target, gradInput, sizeAverage, margin)
   local real = checks.real
   checks.gradient(GRAD, input, target, gradInput, real(input, sizeAverage and -1 / input:nElement() or -1),
                   real(input, margin))
end

return K
