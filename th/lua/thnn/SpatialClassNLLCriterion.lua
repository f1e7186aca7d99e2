-- SpatialClassNLLCriterion: the negative log-likelihood of the target class
-- at every place of N x C x H x W log-probabilities (target N x H x W,
-- 1-based classes), weighted per class, averaged over the total weight when
-- sizeAverage.
local S = require 'thnn.spatial'
local checks = require 'thnn.checks'

local py, nd, call = S.py, S.nd, S.call

local K = {}

-- THNN's checks, in its order and words: the target's dimensions, the
-- input's, the weights' count, the sizes, then every target a class (as a
-- C long: 2.5 is 2)
local function check(input, target, weights)
   if S.dims(target) ~= 3 then
      S.argerror(3, 'only batches of spatial targets supported (3D tensors) but got targets of dimension: %d',
                 S.dims(target))
   end
   if S.dims(input) ~= 4 then
      S.argerror(2, 'only batches of spatial inputs supported (4D tensors), but got input of dimension: %d',
                 S.dims(input))
   end
   if weights and weights:nElement() ~= S.size(input, 2) then
      S.fail('weight tensor should be defined either for all or no classes')
   end
   local same = S.size(input, 1) == S.size(target, 1) and S.size(input, 3) == S.size(target, 2)
                and S.size(input, 4) == S.size(target, 3)
   if not same then
      S.fail("Assertion `input0 == target0 && input2 == target1 && input3 == target2' failed. "
             .. 'size mismatch (got input: %s, target: %s)', table.concat(input:size():totable(), 'x'),
             table.concat(target:size():totable(), 'x'))
   end
   if target:nElement() > 0 then
      local lo, hi = target:min(), target:max()
      if not (lo >= 1 and hi < S.size(input, 2) + 1) then
         S.fail("Assertion `cur_target >= 0 && cur_target < n_classes' failed. ")
      end
   end
end

-- the loss and total weight added up place by place in the element type,
-- as THNN did (numpy's pairwise sums gave other bits of a FloatTensor's;
-- checked targets, read as C longs)
local function nllsum(x, t, w, N, C, P, rd)
   local xp, tp, wp = x:data(), t:data(), w and w:data()
   local loss, total = 0, 0
   local floor = math.floor
   if not wp then
      -- (weights of 1: the products exact, the total a count, which a
      -- float's sum of ones stops at 2^24, rd(2^24 + 1) being 2^24)
      for b = 0, N - 1 do
         for e = 0, P - 1 do
            local c = floor(tonumber(tp[b * P + e])) - 1
            loss = rd(loss - xp[(b * C + c) * P + e])
         end
      end
      local total = N * P
      if rd(2^24 + 1) == 2^24 then total = math.min(total, 2^24) end
      return loss, total
   end
   for b = 0, N - 1 do
      for e = 0, P - 1 do
         local c = floor(tonumber(tp[b * P + e])) - 1
         local weight = wp[c]
         loss = rd(loss - rd(xp[(b * C + c) * P + e] * weight))
         total = rd(total + weight)
      end
   end
   return loss, total
end

function K.SpatialClassNLLCriterion_updateOutput(state, input, target, output, sizeAverage, weights, total_weight)
   check(input, target, weights)
   local N, C = S.size(input, 1), S.size(input, 2)
   local P = S.size(input, 3) * S.size(input, 4)
   local rd = checks.rounding(input)
   local loss, total = 0, 0
   if N * P > 0 then
      loss, total = nllsum(input:contiguous(), target:contiguous(), weights and weights:contiguous(), N, C, P, rd)
   end
   if sizeAverage and total ~= 0 then loss = rd(loss / total) end
   checks.setloss(total_weight, total)
   checks.setloss(output, loss)
end

function K.SpatialClassNLLCriterion_updateGradInput(state, input, target, gradInput, sizeAverage, weights,
                                                    total_weight)
   check(input, target, weights)
   S.resizeas(gradInput, input)
   -- (a total weight of 0 or less: THNN left the zeroed gradient as it was)
   if total_weight:nElement() > 0 and total_weight:storage()[total_weight:storageOffset()] <= 0 then return end
   call(py.nn_spatial_nll_backward, nd(gradInput), nd(input), nd(target), nd(weights), sizeAverage,
        nd(total_weight))
end

return K
