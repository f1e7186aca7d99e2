-- DistKLDivCriterion: loss = sum over target > 0 of target * (log(target) -
-- input), divided by the element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

local LOSS = checks.lossloop('kl loss', 'kl(x, y)', [[
local function kl(x, y) return y > 0 and y * (log(y) - x) or 0 end]])
-- gradInput = norm * target where target > 0 (not where it is NaN), else 0;
-- a0: norm (-1 or -1 / count) in the element type
local GRAD = checks.gradloop('kl gradient', 'y > 0 and rd(y * a0) or 0')

function K.DistKLDivCriterion_updateOutput(state, input, target, output, sizeAverage)
   checks.setloss(output, (checks.losssum(LOSS, input, target, sizeAverage)))
end

function K.DistKLDivCriterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.gradient(GRAD, input, target, gradInput, checks.real(input, sizeAverage and -1 / input:nElement() or -1))
end

return K
