-- BCECriterion: loss = -sum(w * (t * log(x + eps) + (1 - t) * log(1 - x + eps))),
-- eps = 1e-12, divided by the element count when sizeAverage; w (optional)
-- has the input's size (nn expands it)
local checks = require 'thnn.checks'
local K = {}
local EPS = 1e-12

function K.BCECriterion_updateOutput(state, input, target, output, sizeAverage, weights)
   checks.samecount(input, target, 'input', 'target')
   local x = input.new():resizeAs(input):copy(input)
   local pos = x.new():resizeAs(x):copy(x):add(EPS):log():cmul(target)
   local neg = x:mul(-1):add(1 + EPS):log():cmul(x.new():resizeAs(target):copy(target):mul(-1):add(1))
   pos:add(neg)
   if weights then pos:cmul(weights) end
   local loss = -pos:sum()
   if sizeAverage then loss = loss / input:nElement() end
   checks.setloss(output, loss)
end

-- gradInput = -w * (t - x) / ((1 - x + eps) * (x + eps)), divided by the count when sizeAverage
function K.BCECriterion_updateGradInput(state, input, target, gradInput, sizeAverage, weights)
   checks.samecount(input, target, 'input', 'target')
   local norm = sizeAverage and 1 / input:nElement() or 1
   local denom = input.new():resizeAs(input):copy(input):mul(-1):add(1 + EPS)
   denom:cmul(input.new():resizeAs(input):copy(input):add(EPS))
   gradInput:resizeAs(input):copy(input):add(-1, target):mul(norm):cdiv(denom)
   if weights then gradInput:cmul(weights) end
end

return K
