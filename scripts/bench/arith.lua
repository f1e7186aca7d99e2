-- Element-wise arithmetic per call across sizes, best of 5 measurements (a
-- busy machine only ever adds time): prints "op size us".
--   th scripts/bench/arith.lua [budget_seconds [cpu]]
-- wall-clock time, or with `cpu` the process's CPU time (steadier on a busy
-- machine; the original's OpenMP threads add theirs from 10^5 elements).
-- Runs under th and the original Torch7 alike; compare the two with
--   paste <(th scripts/bench/arith.lua) <(/opt/torch7-ref/bin/th scripts/bench/arith.lua)
local budget = tonumber(arg and arg[1]) or 0.01   -- seconds per measurement
local cpu = arg and arg[2] == 'cpu'
local sizes = {10, 100, 300, 1000, 3000, 10000, 100000, 1000000}

local function time(f)
   f()
   local best = math.huge
   for _ = 1, 5 do
      local reps, t = 1, torch.Timer()
      while true do
         t:reset()
         local c = os.clock()
         for _ = 1, reps do f() end
         local e = cpu and os.clock() - c or t:time().real
         if e > budget or reps >= 1e6 then best = math.min(best, e / reps * 1e6) break end
         reps = reps * 2
      end
   end
   return best
end

torch.manualSeed(1)
for _, n in ipairs(sizes) do
   local x, y, z = torch.rand(n), torch.rand(n), torch.rand(n)
   local xf, yf = torch.FloatTensor(n):uniform(), torch.FloatTensor(n):uniform()
   local xi = torch.IntTensor(n):random(1, 100)
   local xb = torch.ByteTensor(n):random(1, 100)
   local xs, ys = torch.rand(2 * n):narrow(1, 1, n), torch.rand(2 * n)
   ys = ys:unfold(1, 1, 2):select(2, 1)
   local ops = {
      {'add_inplace', function() x:add(y) end},
      {'add_scaled', function() x:add(0.5, y) end},
      {'add_into', function() z:add(x, 0.5, y) end},
      {'mul_scalar', function() x:mul(1.0000001) end},
      {'div_scalar', function() x:div(1.0000001) end},
      {'cmul_into', function() z:cmul(y) end},
      {'cdiv_into', function() z:cdiv(y) end},
      {'fill', function() z:fill(2) end},
      {'float_add', function() xf:add(1) end},
      {'float_cadd', function() xf:add(yf) end},
      {'float_fill', function() xf:fill(2) end},
      {'int_add', function() xi:add(1) end},
      {'byte_add', function() xb:add(1) end},
      {'strided_add', function() xs:add(ys) end},
   }
   for _, op in ipairs(ops) do
      print(string.format('%s %d %.3f', op[1], n, time(op[2])))
   end
end
