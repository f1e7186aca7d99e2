-- AbsCriterion: loss = sum(|input - target|), divided by the element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

local LOSS = checks.lossloop('abs loss', 'abs(rd(x - y))', 'local abs = math.abs')
-- gradInput = norm where input - target >= 0, else -norm (inf - inf and NaN
-- too, as THNN's test did); a0: norm in the element type
local GRAD = checks.gradloop('abs gradient', 'rd(x - y) >= 0 and a0 or -a0')

function K.AbsCriterion_updateOutput(state, input, target, output, sizeAverage)
   checks.setloss(output, (checks.losssum(LOSS, input, target, sizeAverage)))
end

function K.AbsCriterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.gradient(GRAD, input, target, gradInput, checks.real(input, sizeAverage and 1 / input:nElement() or 1))
end

return K
