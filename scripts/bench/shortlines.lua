-- Per-call cost of the selection family along many short lines (sort, topk,
-- kthvalue, median, mode: lines of 3 to 64 elements, along either
-- dimension, Double, Float and Int, distinct values and ties) and of
-- maskedSelect/maskedCopy of small operands that are not one line of memory
-- (transposed, a matrix's columns, permuted), under any th (only Torch7's
-- API is used).  Prints "op size microseconds" lines, as families.lua:
--   python scripts/bench/compare.py --script shortlines.lua
--   th shortlines.lua [budget_seconds] [filter]
local budget = tonumber(arg and arg[1]) or 0.02
local filter = arg and arg[2]

package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)

torch.manualSeed(1)
local shapes = {{64, 3}, {64, 8}, {100, 16}, {30, 30}, {64, 64}}
for _, sh in ipairs(shapes) do
   local rows, n = sh[1], sh[2]
   local size = rows .. 'x' .. n
   for _, tn in ipairs({'Double', 'Float', 'Int'}) do
      local x = torch.rand(rows, n):type('torch.' .. tn .. 'Tensor')
      if tn == 'Int' then x:random(1, 1000000) end
      local name = function(op) return op .. '/' .. tn .. '_' .. size end
      report(name('sort'), rows * n, function() local _ = x:sort(2) end)
      report(name('sort_desc'), rows * n, function() local _ = x:sort(2, true) end)
      report(name('sort_dim1'), rows * n, function() local _ = x:t():sort(1) end)
      report(name('topk3'), rows * n, function() local _ = x:topk(math.min(3, n), 2) end)
      report(name('topk3_sorted'), rows * n, function() local _ = x:topk(math.min(3, n), 2, true, true) end)
      report(name('kthvalue'), rows * n, function() local _ = x:kthvalue(math.min(3, n), 2) end)
      report(name('median'), rows * n, function() local _ = x:median(2) end)
      report(name('mode'), rows * n, function() local _ = x:mode(2) end)
   end
   local ties = torch.IntTensor(rows, n):random(1, 10)
   report('sort/Int_ties_' .. size, rows * n, function() local _ = ties:sort(2) end)
end

for _, n in ipairs({10, 30, 45}) do
   local x = torch.rand(n, n)
   local mask = x:gt(0.5)
   local src = torch.rand(n * n)
   local r = torch.Tensor()
   local views = {transposed = x:t(), columns = torch.rand(n, 2 * n):narrow(2, 2, n)}
   for _, vname in ipairs({'transposed', 'columns'}) do
      local v = views[vname]
      report('maskedSelect/' .. vname, n * n, function() local _ = v:maskedSelect(mask) end)
      report('maskedSelect_into/' .. vname, n * n, function() r:maskedSelect(v, mask) end)
      report('maskedCopy/' .. vname, n * n, function() v:maskedCopy(mask, src) end)
      report('maskedFill/' .. vname, n * n, function() v:maskedFill(mask, 1) end)
   end
   report('maskedSelect/mask_transposed', n * n, function() local _ = x:maskedSelect(mask:t()) end)
end
local p3 = torch.rand(4, 5, 6):permute(3, 1, 2)
local m3 = torch.rand(6, 4, 5):gt(0.5)
local s3 = torch.rand(120)
report('maskedSelect/permuted_3d', 120, function() local _ = p3:maskedSelect(m3) end)
report('maskedCopy/permuted_3d', 120, function() p3:maskedCopy(m3, s3) end)
