-- SoftMarginCriterion: loss = sum(log(1 + exp(-target * input))), divided by
-- the element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

function K.SoftMarginCriterion_updateOutput(state, input, target, output, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local loss = input.new():resizeAs(input):cmul(input, target):mul(-1):exp():log1p():sum()
   if sizeAverage then loss = loss / input:nElement() end
   checks.setloss(output, loss)
end

-- gradInput = -target * e / (1 + e), e = exp(-target * input)
function K.SoftMarginCriterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local norm = sizeAverage and -1 / input:nElement() or -1
   local e = input.new():resizeAs(input):cmul(input, target):mul(-1):exp()
   gradInput:resizeAs(input):copy(e):add(1):cdiv(e, gradInput):cmul(target):mul(norm)
end

return K
