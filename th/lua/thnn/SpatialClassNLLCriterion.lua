-- SpatialClassNLLCriterion: the negative log-likelihood of the target class
-- at every place of N x C x H x W log-probabilities (target N x H x W,
-- 1-based classes), weighted per class, averaged over the total weight when
-- sizeAverage.
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

-- THNN's checks, in its order and words: the target's dimensions, the
-- input's, the sizes, then every target a class (as a C long: 2.5 is 2)
local function check(input, target)
   if S.dims(target) ~= 3 then
      S.argerror(3, 'only batches of spatial targets supported (3D tensors) but got targets of dimension: %d',
                 S.dims(target))
   end
   if S.dims(input) ~= 4 then
      S.argerror(2, 'only batches of spatial inputs supported (4D tensors), but got input of dimension: %d',
                 S.dims(input))
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

function K.SpatialClassNLLCriterion_updateOutput(state, input, target, output, sizeAverage, weights, total_weight)
   check(input, target)
   S.resize(output, {1})
   S.resize(total_weight, {1})
   call(py.nn_spatial_nll_forward, nd(output), nd(total_weight), nd(input), nd(target), nd(weights), sizeAverage)
end

function K.SpatialClassNLLCriterion_updateGradInput(state, input, target, gradInput, sizeAverage, weights,
                                                    total_weight)
   check(input, target)
   S.resizeas(gradInput, input)
   call(py.nn_spatial_nll_backward, nd(gradInput), nd(input), nd(target), nd(weights), sizeAverage,
        nd(total_weight))
end

return K
