-- Benchmarks of the maths reference.  Reference figures (original Torch7, 2
-- cores): mm 1000x1000 29 ms, add 1e7 allocating 15 ms / in place 2.7 ms,
-- sum+max+mean 1e7 16 ms, sort 1e6 84 ms, a:add(b) on 10 elements 0.26 us.
package.path = arg[0]:match('^(.*[/\\])') .. '?.lua;' .. package.path
local bench = require 'bench'

local a, b = torch.rand(1000, 1000), torch.rand(1000, 1000)
bench.run('mm_1000', 1, function() return torch.mm(a, b) end)

local x, y = torch.rand(1e7), torch.rand(1e7)
bench.run('add_1e7_alloc', 1, function() return torch.add(x, y) end)
bench.run('add_1e7_inplace', 1, function() x:add(y) end)
bench.run('sum_max_mean_1e7', 1, function() return x:sum() + x:max() + x:mean() end)

local s = torch.rand(1e6)
bench.run('sort_1e6', 1, function() return torch.sort(s) end)

local p, q = torch.rand(10), torch.rand(10)
local N = 200000
bench.run('add_small_10', N, function()
   for _ = 1, N do p:add(q) end
end)
-- the per-call cost of other small operations (the shared dispatch)
bench.run('mul_small_10', N, function()
   for _ = 1, N do p:mul(1) end
end)
bench.run('cmul_fn_small_10', N, function()
   for _ = 1, N do torch.cmul(p, q) end
end)
local r = torch.Tensor(10)
bench.run('cmul_into_small_10', N, function()
   for _ = 1, N do torch.cmul(r, p, q) end
end)
bench.run('sum_small_10', N, function()
   for _ = 1, N do p:sum() end
end)
bench.run('add_scaled_small_10', N, function()
   for _ = 1, N do p:add(0, q) end
end)
