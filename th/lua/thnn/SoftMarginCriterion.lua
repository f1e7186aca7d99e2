-- SoftMarginCriterion: loss = sum(log(1 + exp(-target * input))), divided by
-- the element count when sizeAverage; in THNN's steps (recorded from the
-- original): the sum in the element type, each term rounded to it before
-- it is added (fuzz_nn: 0.81039 for the original's 0.81038 on a FloatTensor
-- of 4), the product -target * input and the exponential of the gradient too
local checks = require 'thnn.checks'
local K = {}

local LOSS = checks.lossloop('softmargin loss', 'rd(log(1 + exp(rd(-y * x))))')
-- gradInput = -norm * target * z / (1 + z), z = exp(-target * input); a0:
-- norm in the element type
local GRAD = checks.gradloop('softmargin gradient', 'softgrad(x, y, a0)', [[
local function softgrad(x, y, norm)
   local z = rd(exp(rd(-y * x)))
   return rd(-norm * y * z) / (1 + z)
end]])

function K.SoftMarginCriterion_updateOutput(state, input, target, output, sizeAverage)
   checks.setloss(output, (checks.losssum(LOSS, input, target, sizeAverage)))
end

function K.SoftMarginCriterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.gradient(GRAD, input, target, gradInput, checks.real(input, sizeAverage and 1 / input:nElement() or 1))
end

return K
