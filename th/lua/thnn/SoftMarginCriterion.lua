-- SoftMarginCriterion: loss = sum(log(1 + exp(-target * input))), divided by
-- the element count when sizeAverage; in THNN's steps (recorded from the
-- original): the sum in the element type, the product -target * input and
-- the exponential of the gradient too
local checks = require 'thnn.checks'
local K = {}

function K.SoftMarginCriterion_updateOutput(state, input, target, output, sizeAverage)
   checks.setloss(output, (checks.losssum(input, target, sizeAverage, function(x, y, rd)
      return math.log(1 + math.exp(rd(-y * x)))
   end)))
end

-- gradInput = -norm * target * z / (1 + z), z = exp(-target * input)
function K.SoftMarginCriterion_updateGradInput(state, input, target, gradInput, sizeAverage)
   checks.samecount(input, target, 'input', 'target')
   local x, t = input:contiguous(), target:contiguous()
   local xp, tp, n = x:data(), t:data(), x:nElement()
   local rd = checks.rounding(input)
   local norm = rd(sizeAverage and 1 / n or 1)
   local gi = checks.writable(gradInput:resizeAs(input))
   local gp = gi:data()
   for i = 0, n - 1 do
      local y = tp[i]
      local z = rd(math.exp(rd(-y * xp[i])))
      gp[i] = rd(-norm * y * z) / (1 + z)
   end
   checks.settle(gradInput, gi)
   return x, t   -- (alive until the loop is done)
end

return K
