-- SmoothL1Criterion: per element z = |input - target|, 0.5 z^2 below 1 and
-- z - 0.5 above; summed, divided by the element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

local LOSS = checks.lossloop('smoothl1 loss', 'smooth(abs(rd(x - y)))', [[
local abs = math.abs
local function smooth(z) return z < 1 and 0.5 * z * z or z - 0.5 end]])
-- gradInput = clamp(input - target, -1, 1) * norm, each step in the element
-- type (a NaN difference stays NaN); a0: norm in the element type
local GRAD = checks.gradloop('smoothl1 gradient', 'rd(max(-1, min(1, rd(x - y))) * a0)',
                             'local min, max = math.min, math.max')

function K.SmoothL1Criterion_updateOutput(state, input, target, output, sizeAverage)
   checks.setloss(output, (checks.losssum(LOSS, input, target, sizeAverage)))
end

function K.SmoothL1Criterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.gradient(GRAD, input, target, gradInput, checks.real(input, sizeAverage and 1 / input:nElement() or 1))
end

return K
