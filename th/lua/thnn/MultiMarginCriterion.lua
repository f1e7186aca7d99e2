-- MultiMarginCriterion: per sample (input: dim, or nframe x dim; target: the
-- 1-based classes), sum over i ~= y of max(0, margin - x[y] + x[i])^p (p is 1
-- or 2), times weights[y] when given, divided by dim; summed over samples,
-- divided by nframe when sizeAverage.  LuaJIT loops over the contiguous data.
local checks = require 'thnn.checks'
local fail = checks.fail
local tonumber = tonumber
local K = {}

local function prepare(input, target, p)
   if p ~= 1 and p ~= 2 then fail('only p == 1 and p == 2 supported') end
   if input:dim() > 2 then fail('vector or matrix expected') end
   local nframe = input:dim() == 2 and input:size(1) or 1
   local dim = input:size(input:dim())
   if target:nElement() ~= nframe then fail('inconsistent target size') end
   local t = target:contiguous():view(nframe)
   if t:min() < 1 or t:max() > dim then fail('target out of range') end
   return input:contiguous(), t, nframe, dim
end

function K.MultiMarginCriterion_updateOutput(state, input, target, output, sizeAverage, p, weights, margin)
   local x, t, nframe, dim = prepare(input, target, p)
   local xp, tp = x:data(), t:data()
   local w = weights and weights:contiguous()
   local wp = w and w:data()
   local sum = 0
   for n = 0, nframe - 1 do
      local y = tonumber(tp[n]) - 1
      local row = n * dim
      local xy = xp[row + y]
      for i = 0, dim - 1 do
         if i ~= y then
            local z = margin - xy + xp[row + i]
            if z > 0 then
               local h = p == 1 and z or z * z
               if wp then h = h * wp[y] end
               sum = sum + h
            end
         end
      end
   end
   sum = sum / dim
   if sizeAverage then sum = sum / nframe end
   checks.setloss(output, sum)
end

function K.MultiMarginCriterion_updateGradInput(state, input, target, gradInput, sizeAverage, p, weights, margin)
   local x, t, nframe, dim = prepare(input, target, p)
   local g = sizeAverage and 1 / (nframe * dim) or 1 / dim
   local xp, tp = x:data(), t:data()
   local w = weights and weights:contiguous()
   local wp = w and w:data()
   local gi = input.new():resizeAs(x):zero()
   local gp = gi:data()
   for n = 0, nframe - 1 do
      local y = tonumber(tp[n]) - 1
      local row = n * dim
      local xy = xp[row + y]
      local total = 0
      for i = 0, dim - 1 do
         if i ~= y then
            local z = margin - xy + xp[row + i]
            if z > 0 then
               local h = p == 1 and g or 2 * g * z
               if wp then h = h * wp[y] end
               gp[row + i] = h
               total = total + h
            end
         end
      end
      gp[row + y] = 0 - total   -- (0 when nothing is: THNN subtracted from 0)
   end
   gradInput:resizeAs(input):copy(gi)
end

return K
