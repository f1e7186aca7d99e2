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

-- bench.reporter(budget, filter) -> report(name, n, f): prints "name n
-- microseconds", the cost of one call of f: the best of 3 measurements of
-- about `budget` seconds each after a warm-up call (on a busy machine other
-- processes only ever add time); names not containing `filter` are skipped.
-- The line format of families.lua, blas.lua and masked.lua (compare.py)
function bench.reporter(budget, filter)
   local function time(f)
      f()
      local best, t = math.huge, torch.Timer()
      for _ = 1, 3 do
         local reps = 1
         while true do
            t:reset()
            for _ = 1, reps do f() end
            local e = t:time().real
            if e > budget or reps >= 1e6 then best = math.min(best, e / reps * 1e6) break end
            reps = reps * 4
         end
      end
      return best
   end
   return function(name, n, f)
      if filter and not name:find(filter, 1, true) then return end
      print(string.format('%s %d %.3f', name, n, time(f)))
   end
end

return bench
