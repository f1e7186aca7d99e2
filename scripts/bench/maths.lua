-- Benchmarks of the maths reference: prints `BENCH <name> <median seconds per op>`.
-- Reference figures (original Torch7, 2 cores): mm 1000x1000 29 ms, add 1e7
-- allocating 15 ms / in place 2.7 ms, sum+max+mean 1e7 16 ms, sort 1e6 84 ms,
-- a:add(b) on 10 elements 0.26 us.
require 'torch'

-- wall-clock time (torch.Timer when it is there)
local function clock()
   if torch.Timer then
      local timer = torch.Timer()
      return function() return timer:time().real end
   end
   local start = os.clock()
   return function() return os.clock() - start end
end

-- values in [0, 1) (torch.rand when it is there)
local function rand(...)
   if torch.rand then return torch.rand(...) end
   local t = torch.Tensor(...)
   return t:copy(torch.range(1, t:nElement()):mul(0.6180339887):frac())
end

local function median(fn, runs, reps)
   local times = {}
   for r = 1, runs do
      local elapsed = clock()
      for _ = 1, reps do fn() end
      times[r] = elapsed() / reps
   end
   table.sort(times)
   return times[math.ceil(runs / 2)]
end

local function bench(name, fn, runs, reps)
   fn()
   io.write(string.format('BENCH %s %.9f\n', name, median(fn, runs or 7, reps or 1)))
end

local a, b = rand(1000, 1000), rand(1000, 1000)
bench('mm_1000', function() return torch.mm(a, b) end)

local x, y = rand(1e7), rand(1e7)
bench('add_1e7_alloc', function() return torch.add(x, y) end)
bench('add_1e7_inplace', function() x:add(y) end)
bench('sum_max_mean_1e7', function() return x:sum() + x:max() + x:mean() end)

local s = rand(1e6)
bench('sort_1e6', function() return torch.sort(s) end)

local p, q = rand(10), rand(10)
bench('add_small_10', function() p:add(q) end, 7, 200000)
