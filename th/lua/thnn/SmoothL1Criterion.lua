-- SmoothL1Criterion: per element z = |input - target|, 0.5 z^2 below 1 and
-- z - 0.5 above; summed, divided by the element count when sizeAverage
local checks = require 'thnn.checks'
local K = {}

function K.SmoothL1Criterion_updateOutput(state, input, target, output, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local z = input.new():resizeAs(input):copy(input):add(-1, target):abs()
   local small = z:lt(1)
   local quad, lin = z[small], z[small:eq(0)]
   local loss = 0.5 * quad:dot(quad) + lin:sum() - 0.5 * lin:nElement()
   if sizeAverage then loss = loss / input:nElement() end
   checks.setloss(output, loss)
end

-- gradInput = clamp(input - target, -1, 1), divided by the count when sizeAverage
function K.SmoothL1Criterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local norm = sizeAverage and 1 / input:nElement() or 1
   gradInput:resizeAs(input):copy(input):add(-1, target):clamp(-1, 1):mul(norm)
end

return K
