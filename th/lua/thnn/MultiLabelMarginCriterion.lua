-- MultiLabelMarginCriterion: per sample (input: dim, or nframe x dim), target
-- holds the 1-based target classes up to the first 0; the loss sums
-- max(0, 1 - (x[j] - x[i])) over targets j and non-targets i, divided by dim;
-- summed over samples, divided by nframe when sizeAverage.  isTarget gets 1 at
-- the target classes.  LuaJIT loops over the contiguous data.
local checks = require 'thnn.checks'
local fail = checks.fail
local tonumber = tonumber
local K = {}

-- -> contiguous input, the targets (0-based, per row), nframe, dim; isTarget filled
-- (THNN's THArgCheck words: the input is its argument #2, the target #3; the
-- gradient's isTarget, the forward's, must match the target)
local function prepare(input, target, isTarget, backward)
   -- (an empty input too, 0-D in THNN's check)
   if input:dim() > 2 or input:dim() == 0 then fail("bad argument #2 to 'v' (vector or matrix expected)") end
   local nframe = input:dim() == 2 and input:size(1) or 1
   local dim = input:size(input:dim())
   -- (the target of the input's shape: a vector of dim classes, or nframe x dim)
   if target:dim() ~= input:dim() or target:size(1) ~= input:size(1) or target:size(target:dim()) ~= dim then
      fail("bad argument #3 to 'v' (inconsistent target size)")
   end
   if backward and isTarget:nElement() ~= nframe * dim then
      fail("bad argument #3 to 'v' (inconsistent isTarget size)")
   end
   local t = target:contiguous()
   local tp = t:data()
   isTarget:resize(input:size()):zero()
   local it = isTarget:data()   -- isTarget is contiguous once resized
   local rows = {}
   for n = 0, nframe - 1 do
      local list = {}
      for k = 0, dim - 1 do
         local c = tonumber(tp[n * dim + k])
         if c == 0 then break end
         if c < 1 or c > dim then fail("bad argument #3 to 'v' (target out of range)") end
         list[#list + 1] = c - 1
         it[n * dim + c - 1] = 1
      end
      rows[n] = list
   end
   return input:contiguous(), rows, nframe, dim, it
end

function K.MultiLabelMarginCriterion_updateOutput(state, input, target, output, isTarget, sizeAverage)
   local x, rows, nframe, dim, it = prepare(input, target, isTarget)
   local xp = x:data()
   local rd = checks.rounding(input)   -- (a FloatTensor's steps in float, as THNN's)
   local sum = 0
   for n = 0, nframe - 1 do
      local base = n * dim
      for _, j in ipairs(rows[n]) do
         local xj = xp[base + j]
         for i = 0, dim - 1 do
            if it[base + i] == 0 then
               local z = rd(rd(1 - xj) + xp[base + i])
               if z > 0 then sum = rd(sum + z) end
            end
         end
      end
   end
   sum = rd(sum / dim)
   if sizeAverage then sum = rd(sum / nframe) end
   checks.setloss(output, sum)
end

function K.MultiLabelMarginCriterion_updateGradInput(state, input, target, gradInput, isTarget, sizeAverage)
   local x, rows, nframe, dim, it = prepare(input, target, isTarget, true)
   local g = sizeAverage and 1 / (nframe * dim) or 1 / dim
   local xp = x:data()
   local gi = input.new():resizeAs(x):zero()
   local gp = gi:data()
   for n = 0, nframe - 1 do
      local base = n * dim
      for _, j in ipairs(rows[n]) do
         local xj = xp[base + j]
         for i = 0, dim - 1 do
            if it[base + i] == 0 and 1 - xj + xp[base + i] > 0 then
               gp[base + j] = gp[base + j] - g
               gp[base + i] = gp[base + i] + g
            end
         end
      end
   end
   gradInput:resizeAs(input):copy(gi)
end

return K
