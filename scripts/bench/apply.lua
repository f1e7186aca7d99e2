-- Benchmark of apply/map/map2: prints `BENCH <name> <median seconds per op>`.
-- The original Torch7 ran apply over 1e6 contiguous doubles in under half a ms.
-- Usage: th scripts/bench/apply.lua [reps]
local reps = tonumber(arg and arg[1]) or 21
local clock = os.clock

local function median(t)
   table.sort(t)
   return t[math.ceil(#t / 2)]
end

local function bench(name, f)
   f()   -- warm up: let the JIT compile the loops
   local times = {}
   for r = 1, reps do
      local t0 = clock()
      f()
      times[r] = clock() - t0
   end
   io.write(string.format('BENCH %s %.6g\n', name, median(times)))
end

local N = 1000000
local x = torch.Tensor(N):fill(1)
local y = torch.Tensor(N):fill(2)
local z = torch.Tensor(N):fill(3)
local m = torch.Tensor(1000, 1000):fill(1)
local mt = m:t()
local e = torch.Tensor(1000, 1):fill(1):expand(1000, 1000)
local sum = 0

bench('apply_contiguous_1e6', function() x:apply(function(v) return v * 0.5 + 1 end) end)
bench('apply_reduce_1e6', function() sum = 0; x:apply(function(v) sum = sum + v end) end)
bench('apply_transposed_1e6', function() mt:apply(function(v) return v + 1 end) end)
bench('apply_expanded_1e6', function() sum = 0; e:apply(function(v) sum = sum + v end) end)
bench('apply_float_1e6', (function()
   local f = torch.FloatTensor(N):fill(1)
   return function() f:apply(function(v) return v + 1 end) end
end)())
bench('map_contiguous_1e6', function() x:map(y, function(a, b) return a + b end) end)
bench('map_transposed_1e6', function() mt:map(y, function(a, b) return a - b end) end)
bench('map2_contiguous_1e6', function() x:map2(y, z, function(a, b, c) return b * c end) end)
bench('apply_small_3x3', (function()
   local s = torch.Tensor(3, 3):fill(1)
   return function() for _ = 1, 1000 do s:apply(function(v) return v + 1 end) end end
end)())
