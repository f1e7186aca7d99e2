-- Shared helper of the benchmark scripts: time a function over repeats and
-- print `BENCH <name> <median seconds per operation>` for scripts/bench/run.py.
local bench = {}

local clock = os.clock

-- bench.run(name, ops, f): f performs `ops` operations; median of 7 runs
function bench.run(name, ops, f, repeats)
   repeats = repeats or 7
   f()   -- warm up (JIT traces, caches)
   local times = {}
   for r = 1, repeats do
      collectgarbage()
      local t = clock()
      f()
      times[r] = (clock() - t) / ops
   end
   table.sort(times)
   print(string.format('BENCH %s %.6e', name, times[math.floor((repeats + 1) / 2)]))
end

return bench
