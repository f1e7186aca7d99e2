-- Shared helper of the benchmark scripts: time a function over repeats and
-- print `BENCH <name> <median seconds per operation>` for scripts/bench/run.py.
-- Times are wall-clock (torch.Timer's real time), as the original's figures:
-- CPU time would count both threads of a two-thread operation.
-- A script loads it with
--   package.path = arg[0]:match('^(.*[/\\])') .. '?.lua;' .. package.path
--   local bench = require 'bench'
local bench = {}

-- bench.run(name, ops, f [, repeats]): f performs `ops` operations; the median
-- of `repeats` (default 7) timed calls after one warm-up call (JIT traces, caches)
function bench.run(name, ops, f, repeats)
   repeats = repeats or 7
   f()
   local times = {}
   for r = 1, repeats do
      collectgarbage()
      local timer = torch.Timer()
      f()
      times[r] = timer:time().real / ops
   end
   table.sort(times)
   print(string.format('BENCH %s %.6e', name, times[math.floor((repeats + 1) / 2)]))
end

return bench
