-- Where each family's LuaJIT loop stops beating the numpy call (th only):
-- per operation and size, the microseconds of a call with the loop and with
-- numpy, and the largest size measured at which the loop still wins.
--   th scripts/bench/crossover.lua [budget_seconds [Double|Float]]
-- The limits in th/lua/torch/maths/*.lua (kernels.op(name, limit, ...)) come
-- from these figures.
local kernels = require 'torch.maths.kernels'
local budget = tonumber(arg and arg[1]) or 0.01
local sizes = {256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}
local T = arg and arg[2] or 'Double'   -- the element type measured

-- the best of 5 measurements of CPU time (os.clock): a busy machine only
-- ever adds time, and these sizes stay below the thread split
local function time(f)
   f()
   local best = math.huge
   for _ = 1, 5 do
      local reps = 1
      while true do
         local t = os.clock()
         for _ = 1, reps do f() end
         local e = os.clock() - t
         if e > budget or reps >= 1e6 then best = math.min(best, e / reps * 1e6) break end
         reps = reps * 2
      end
   end
   return best
end

local cases = {
   {'addy', function(x, y, r) r:add(x, y) end},
   {'addc', function(x, y, r) r:add(x, 1) end},
   {'mulc', function(x, y, r) r:mul(x, 3) end},
   {'axpy', function(x, y, r) r:add(x, 0.5, y) end},
   {'exp', function(x, y, r) torch.exp(r, x) end},
   {'sigmoid', function(x, y, r) torch.sigmoid(r, x) end},
   {'abs', function(x, y, r) torch.abs(r, x) end},
   {'gtc', function(x, y, r) local _ = torch.gt(x, 0.5) end},
   {'sum', function(x) local _ = x:sum() end},
   {'max', function(x) local _ = x:max() end},
   {'sumsq', function(x) local _ = x:norm() end},
   {'dot', function(x, y) local _ = x:dot(y) end},
}

print(string.format('%-8s %8s %10s %10s', 'op', 'size', 'loop_us', 'numpy_us'))
for _, case in ipairs(cases) do
   local op = kernels.ops[case[1]]
   local field = T == 'Float' and 'floatlimit' or 'limit'
   local limit, best = op[field], 0
   for _, n in ipairs(sizes) do
      local x, y, r = torch.rand(n):type('torch.' .. T .. 'Tensor'), torch.rand(n):type('torch.' .. T .. 'Tensor'),
                      torch[T .. 'Tensor'](n)
      local f = function() case[2](x, y, r) end
      op[field] = math.huge
      local tl = time(f)
      op[field] = 0
      local tn = time(f)
      if tl <= tn then best = n end
      print(string.format('%-8s %8d %10.2f %10.2f', case[1], n, tl, tn))
   end
   op[field] = limit
   print(string.format('%-8s the loop wins up to %d elements (limit now %d)', case[1], best, limit))
end
