-- MSECriterion: loss = sum((input - target)^2), divided by the element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

function K.MSECriterion_updateOutput(state, input, target, output, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local d = input.new():resizeAs(input):copy(input):add(-1, target)
   local loss = d:dot(d)
   if sizeAverage then loss = loss / input:nElement() end
   checks.setloss(output, loss)
end

function K.MSECriterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local norm = sizeAverage and 2 / input:nElement() or 2
   gradInput:resizeAs(input):copy(input):add(-1, target):mul(norm)
end

return K
