-- AbsCriterion: loss = sum(|input - target|), divided by the element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

function K.AbsCriterion_updateOutput(state, input, target, output, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local loss = input.new():resizeAs(input):copy(input):add(-1, target):abs():sum()
   if sizeAverage then loss = loss / input:nElement() end
   checks.setloss(output, loss)
end

-- gradInput = (input >= target and 1 or -1), divided by the count when sizeAverage
function K.AbsCriterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local norm = sizeAverage and 1 / input:nElement() or 1
   gradInput:resizeAs(input):copy(input:ge(target)):mul(2 * norm):add(-norm)
end

return K
