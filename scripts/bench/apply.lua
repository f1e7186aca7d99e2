-- Benchmark of apply/map/map2: prints `BENCH <name> <median seconds per op>`.
-- The original Torch7 ran apply over 1e6 contiguous doubles in under half a ms.
-- Usage: th scripts/bench/apply.lua [reps]
package.path = arg[0]:match('^(.*[/\\])') .. '?.lua;' .. package.path
local bench = require 'bench'
local reps = tonumber(arg and arg[1]) or 21

local N = 1000000
local x = torch.Tensor(N):fill(1)
local y = torch.Tensor(N):fill(2)
local z = torch.Tensor(N):fill(3)
local m = torch.Tensor(1000, 1000):fill(1)
local mt = m:t()
local e = torch.Tensor(1000, 1):fill(1):expand(1000, 1000)
local sum = 0

bench.run('apply_contiguous_1e6', 1, function() x:apply(function(v) return v * 0.5 + 1 end) end, reps)
bench.run('apply_reduce_1e6', 1, function() sum = 0; x:apply(function(v) sum = sum + v end) end, reps)
bench.run('apply_transposed_1e6', 1, function() mt:apply(function(v) return v + 1 end) end, reps)
bench.run('apply_expanded_1e6', 1, function() sum = 0; e:apply(function(v) sum = sum + v end) end, reps)
bench.run('apply_float_1e6', 1, (function()
   local f = torch.FloatTensor(N):fill(1)
   return function() f:apply(function(v) return v + 1 end) end
end)(), reps)
bench.run('map_contiguous_1e6', 1, function() x:map(y, function(a, b) return a + b end) end, reps)
bench.run('map_transposed_1e6', 1, function() mt:map(y, function(a, b) return a - b end) end, reps)
bench.run('map2_contiguous_1e6', 1, function() x:map2(y, z, function(a, b, c) return b * c end) end, reps)
bench.run('apply_small_3x3', 1000, (function()
   local s = torch.Tensor(3, 3):fill(1)
   return function() for _ = 1, 1000 do s:apply(function(v) return v + 1 end) end end
end)(), reps)
