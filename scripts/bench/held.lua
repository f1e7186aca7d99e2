-- Does a small call cost more while the program holds many tensors?  Holds
-- 0, 5,000, 20,000 and 100,000 tensors of two elements (a data set kept
-- as a table of samples) and times small calls meanwhile.  Prints
-- "op tensors_held microseconds" lines, the format of families.lua
-- (compare.py --script held.lua runs it under both th and prints ratios).
-- A tensor's fields are Lua objects under th (README, "Twelfth session"),
-- C memory under the original: the collector has more to mark in th.
--   th held.lua [budget_seconds]
local budget = tonumber(arg and arg[1]) or 0.02
package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget)

local x10, x100, x1000 = torch.rand(10), torch.rand(100), torch.rand(1000)
local y100, A = torch.rand(100), torch.rand(10, 10)
local held = {}
for _, n in ipairs{0, 5000, 20000, 100000} do
   for i = #held + 1, n do held[i] = torch.Tensor(2) end
   collectgarbage()
   report('clone_10', n, function() local _ = x10:clone() end)
   report('clone_100', n, function() local _ = x100:clone() end)
   report('clone_1000', n, function() local _ = x1000:clone() end)
   report('narrow', n, function() local _ = x100:narrow(1, 2, 5) end)
   report('add_100', n, function() x100:add(y100) end)
   report('mm_10x10', n, function() local _ = torch.mm(A, A) end)
end
