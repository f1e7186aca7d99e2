-- ClassNLLCriterion: input holds log-probabilities (n_classes, or batch x
-- n_classes), target the 1-based classes; loss = -sum(w[t] * input[i][t]),
-- divided by total_weight = sum(w[t]) when sizeAverage; targets equal to
-- ignore_index count for nothing.  LuaJIT loops over the rows, reading the
-- targets where they are (tables of them made per call were most of a
-- 32-row call's time, in the collector).
local checks = require 'thnn.checks'
local fail = checks.fail
local tonumber = tonumber
local K = {}

-- The classes: the input's last dimension (an empty input: THNN read its
-- size first, in updateGradInput too)
local function classes(input)
   local nd = input:dim()
   if nd == 0 then fail("bad argument #2 to 'v' (dimension 0 out of range of 0D tensor)") end
   return input:size(nd)
end

-- THNN's checks in its order -> rows, the contiguous targets and weights
-- (nil: all 1), each target checked to be a class or ignore_index.
-- weightmsg: THNN's words for weights of another count than the classes
-- (updateOutput's named the count and the weights' sizes)
local function prepare(input, target, weights, ignore_index, nclasses, weightmsg)
   local nd = input:dim()
   if target:dim() > 1 then fail('multi-target not supported') end
   if nd > 2 then fail('input tensor should be 1D or 2D') end
   if weights and weights:nElement() ~= nclasses then
      fail(weightmsg, nclasses, checks.sizes(weights))
   end
   local n = nd == 2 and input:size(1) or 1
   if nd == 1 then
      -- (a single input's target is its first element, any others unread;
      -- THNN read the first of an empty target all the same, and crashed)
      if target:nElement() < 1 then fail('multi-target not supported') end
   else
      if target:dim() == 0 then fail("bad argument #2 to 'v' (dimension 1 out of range of 0D tensor)") end
      if target:size(1) ~= n then
         fail("Assertion `THIndexTensor_(size)(target, 0) == batch_size' failed. ")
      end
   end
   local t = target:contiguous()
   local tp = t:data()
   for i = 0, n - 1 do
      local c = tonumber(tp[i])
      if c ~= ignore_index and (c < 1 or c > nclasses) then
         fail("Assertion `cur_target >= 0 && cur_target < n_classes' failed. ")
      end
   end
   return n, t, weights and weights:contiguous()
end

-- -> the loss (summed in the element type, as THNN did) and total weight
-- of rows of x (t, w: prepare's)
local function nllsum(x, t, w, n, nclasses, ignore_index, rd)
   local xp, tp, wp = x:data(), t:data(), w and w:data()
   local loss, total = 0, 0
   for i = 0, n - 1 do
      local c = tonumber(tp[i])
      if c ~= ignore_index then
         local weight = wp and wp[c - 1] or 1
         loss = rd(loss - rd(xp[i * nclasses + c - 1] * weight))
         total = rd(total + weight)
      end
   end
   return loss, total
end

function K.ClassNLLCriterion_updateOutput(state, input, target, output, sizeAverage,
                                          weights, total_weight, ignore_index)
   local nclasses = classes(input)
   local n, t, w = prepare(input, target, weights, ignore_index, nclasses,
                           'weight tensor should be defined either for all %d classes or no classes'
                           .. ' but got weight tensor of shape: %s')
   local loss, total = nllsum(input:contiguous(), t, w, n, nclasses, ignore_index, checks.rounding(input))
   -- (one input's loss was -x * w, not a sum from 0: -0 for a weight of 0
   -- and x > 0, where 0 - x * w is +0)
   if input:dim() == 1 and loss == 0 and total == 0 and w then
      local c = tonumber(t:data()[0])
      if c ~= ignore_index then loss = -input[c] * w:data()[c - 1] end
   end
   if sizeAverage and total ~= 0 then loss = loss / total end
   checks.setloss(total_weight, total)
   checks.setloss(output, loss)
end

-- g's element at each row's target = -w / total (sizeAverage) or -w
local function nllgrad(g, t, w, n, nclasses, ignore_index, sizeAverage, total, rd)
   local gp, tp, wp = g:data(), t:data(), w and w:data()
   for i = 0, n - 1 do
      local c = tonumber(tp[i])
      if c ~= ignore_index then
         local weight = wp and wp[c - 1] or 1
         -- (-w / total: a division, as recorded from the original; its
         -- reciprocal times w differed in the last bit)
         gp[i * nclasses + c - 1] = sizeAverage and rd(-weight / total) or -weight
      end
   end
end

-- gradInput (zeroed by nn) gets -w / total_weight at each target
function K.ClassNLLCriterion_updateGradInput(state, input, target, gradInput, sizeAverage,
                                             weights, total_weight, ignore_index)
   local nclasses = classes(input)
   -- (THNN returned before its other checks)
   local total = total_weight[1]
   if total <= 0 then return end
   local n, t, w = prepare(input, target, weights, ignore_index, nclasses,
                           'weight tensor should be defined either for all or no classes')
   local g = gradInput:isContiguous() and gradInput or gradInput.new():resizeAs(gradInput):copy(gradInput)
   nllgrad(g, t, w, n, nclasses, ignore_index, sizeAverage, total, checks.rounding(input))
   if g ~= gradInput then gradInput:copy(g) end
end

return K
