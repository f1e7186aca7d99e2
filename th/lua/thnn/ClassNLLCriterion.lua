-- ClassNLLCriterion: input holds log-probabilities (n_classes, or batch x
-- n_classes), target the 1-based classes; loss = -sum(w[t] * input[i][t]),
-- divided by total_weight = sum(w[t]) when sizeAverage; targets equal to
-- ignore_index count for nothing.
local checks = require 'thnn.checks'
local fail = checks.fail
local K = {}

-- input as batch x n_classes, the targets as a LongTensor of the batch, and
-- the per-sample weights (0 for ignored targets)
local function prepare(input, target, weights, ignore_index)
   local nd = input:dim()
   if nd > 2 then fail('input tensor should be 1D or 2D') end
   local batch = nd == 2 and input or input:view(1, input:nElement())
   local n, nclasses = batch:size(1), batch:size(2)
   if target:nElement() ~= n or (nd == 2 and target:dim() ~= 1) then
      fail('multi-target not supported')
   end
   local t = target.new():resizeAs(target):copy(target):view(n)
   local keep = t:ne(ignore_index)
   if (t:lt(1):cmul(keep)):sum() > 0 or (t:gt(nclasses):cmul(keep)):sum() > 0 then
      fail("Assertion `cur_target >= 0 && cur_target < n_classes' failed.")
   end
   local safe = t:clone():maskedFill(keep:eq(0), 1)
   local w = weights and weights:index(1, safe) or input.new(n):fill(1)
   w:maskedFill(keep:eq(0), 0)
   return batch, safe, w
end

function K.ClassNLLCriterion_updateOutput(state, input, target, output, sizeAverage,
                                          weights, total_weight, ignore_index)
   local batch, t, w = prepare(input, target, weights, ignore_index)
   local picked = batch:gather(2, t:view(-1, 1)):view(-1)
   local total = w:sum()
   local loss = -picked:dot(w)
   if sizeAverage and total ~= 0 then loss = loss / total end
   checks.setloss(total_weight, total)
   checks.setloss(output, loss)
end

-- gradInput (zeroed by nn) gets -w / total_weight at each target
function K.ClassNLLCriterion_updateGradInput(state, input, target, gradInput, sizeAverage,
                                             weights, total_weight, ignore_index)
   local batch, t, w = prepare(input, target, weights, ignore_index)
   local total = total_weight[1]
   if total <= 0 then return end
   w:mul(sizeAverage and -1 / total or -1)
   local g = gradInput:dim() == 2 and gradInput or gradInput:view(batch:size(1), batch:size(2))
   g:scatter(2, t:view(-1, 1), w:view(-1, 1))
end

return K
