-- MultiMarginCriterion: per sample (input: dim, or nframe x dim; target: the
-- 1-based classes), sum over i ~= y of max(0, margin - x[y] + x[i])^p (p is 1
-- or 2), times weights[y] when given, divided by dim; summed over samples,
-- divided by nframe when sizeAverage.  LuaJIT loops over the contiguous data.
local checks = require 'thnn.checks'
local fail = checks.fail
local tonumber = tonumber
local K = {}

-- THNN's checks -> the contiguous input and target, nframe, dim.  A batch's
-- target is a vector of nframe classes; one input's class is its target's
-- first element, read by get1d in updateOutput (a vector wanted), as it
-- lies in updateGradInput (of any shape; THNN read past an empty one)
local function prepare(input, target, p, backward)
   if p ~= 1 and p ~= 2 then fail('only p == 1 and p == 2 supported') end
   -- (THNN's THArgCheck words: the input is its argument #2, the target #3)
   -- (an empty input too, 0-D in THNN's check)
   if input:dim() > 2 or input:dim() == 0 then fail("bad argument #2 to 'v' (vector or matrix expected)") end
   local nframe = input:dim() == 2 and input:size(1) or 1
   local dim = input:size(input:dim())
   if input:dim() == 2 then
      if target:dim() ~= 1 or target:size(1) ~= nframe then
         fail("bad argument #3 to 'v' (inconsistent target size)")
      end
   elseif target:dim() ~= 1 and not (backward and target:nElement() > 0) then
      fail("bad argument #1 to 'v' (tensor must have one dimension)")
   end
   return input:contiguous(), target:contiguous(), nframe, dim
end

-- the 0-based class of sample n (THNN checked each as it came to it); nw:
-- the weights' count, when given (THNN read a class past the weights from
-- the memory after them, a garbage weight: th's error)
local function class(tp, n, dim, nw)
   local y = tonumber(tp[n]) - 1
   if y < 0 or y >= dim then fail("bad argument #3 to 'v' (target out of range)") end
   if nw and y >= nw then fail('weights has %d elements: no weight for class %d', nw, y + 1) end
   return y
end

-- (a FloatTensor's steps in float, as THNN's: the margin, z, its square, the
-- weighting, the loss's sum, the gradient's terms and their running total)
function K.MultiMarginCriterion_updateOutput(state, input, target, output, sizeAverage, p, weights, margin)
   local x, t, nframe, dim = prepare(input, target, p)
   local xp, tp = x:data(), t:data()
   local w = weights and weights:contiguous()
   local wp, nw = w and w:data(), w and w:nElement()
   local rd = checks.rounding(input)
   margin = rd(margin)
   local sum = 0
   for n = 0, nframe - 1 do
      local y = class(tp, n, dim, nw)
      local row = n * dim
      local xy = xp[row + y]
      for i = 0, dim - 1 do
         if i ~= y then
            local z = rd(rd(margin - xy) + xp[row + i])
            if z > 0 then
               local h = p == 1 and z or rd(z * z)
               if wp then h = rd(h * wp[y]) end
               sum = rd(sum + h)
            end
         end
      end
   end
   sum = rd(sum / dim)
   if sizeAverage then sum = rd(sum / nframe) end
   checks.setloss(output, sum)
end

function K.MultiMarginCriterion_updateGradInput(state, input, target, gradInput, sizeAverage, p, weights, margin)
   local x, t, nframe, dim = prepare(input, target, p, true)
   local rd = checks.rounding(input)
   local g = rd(sizeAverage and 1 / (nframe * dim) or 1 / dim)
   margin = rd(margin)
   local xp, tp = x:data(), t:data()
   local w = weights and weights:contiguous()
   local wp, nw = w and w:data(), w and w:nElement()
   local gi = checks.writable(gradInput:resizeAs(input)):zero()
   local gp = gi:data()
   for n = 0, nframe - 1 do
      local y = class(tp, n, dim, nw)
      local row = n * dim
      local xy = xp[row + y]
      local total = 0
      for i = 0, dim - 1 do
         if i ~= y then
            local z = rd(rd(margin - xy) + xp[row + i])
            if z > 0 then
               local h = p == 1 and g or rd(rd(2 * g) * z)
               if wp then h = rd(h * wp[y]) end
               gp[row + i] = h
               total = rd(total - h)
            end
         end
      end
      gp[row + y] = total   -- (0 when nothing is: THNN subtracted from 0)
   end
   checks.settle(gradInput, gi)
end

return K
