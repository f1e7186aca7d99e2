-- Per-call cost of maskedSelect/maskedFill/maskedCopy/nonzero (ByteTensor
-- masks, about half ones) and IntTensor sort, for Double, Float and Int
-- tensors, contiguous and strided (every other element of a longer vector),
-- at 100 to 10^5 elements, under any th (only Torch7's API is used).  Prints
-- "op size microseconds" lines, as families.lua: compare.py --script masked.lua.
--   th masked.lua [budget_seconds] [filter]
local budget = tonumber(arg and arg[1]) or 0.02
local filter = arg and arg[2]
local sizes = {100, 1000, 10000, 100000}

package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)

torch.manualSeed(1)
for _, n in ipairs(sizes) do
   local mask = torch.rand(n):gt(0.5)
   local mask2 = torch.rand(n / 10, 10):gt(0.5)
   for _, tn in ipairs({'Double', 'Float', 'Int'}) do
      local T = torch[tn .. 'Tensor']
      local x, y, r = T(n):random(1, 100), T(n):random(1, 100), T(n):zero()
      local xs = T(2 * n):random(1, 100):narrow(1, 1, n)
      xs = T(xs:storage(), 1, n, 2)      -- every other element
      local rs = T(2 * n):zero()
      rs = T(rs:storage(), 1, n, 2)
      report('maskedSelect/' .. tn, n, function() local _ = x:maskedSelect(mask) end)
      report('maskedSelect/' .. tn .. '_strided', n, function() local _ = xs:maskedSelect(mask) end)
      report('maskedFill/' .. tn, n, function() r:maskedFill(mask, 1) end)
      report('maskedFill/' .. tn .. '_strided', n, function() rs:maskedFill(mask, 1) end)
      report('maskedCopy/' .. tn, n, function() r:maskedCopy(mask, y) end)
      report('maskedCopy/' .. tn .. '_strided', n, function() rs:maskedCopy(mask, y) end)
      local z = T(n):random(0, 1)       -- about half zeros
      report('nonzero/' .. tn, n, function() local _ = torch.nonzero(z) end)
   end
   report('nonzero/mask', n, function() local _ = torch.nonzero(mask) end)
   report('nonzero/mask2d', n, function() local _ = torch.nonzero(mask2) end)
   local xi = torch.IntTensor(n):random(1, 1000000)
   report('sort/Int', n, function() local _ = torch.sort(xi) end)
   report('sort/Int_desc', n, function() local _ = torch.sort(xi, true) end)
end
