-- Where th's LongTensor element-wise loops (longloops.lua) stop beating
-- numpy's int64 loops (a Python call): each map timed both ways at sizes
-- from 512 to 65536 on values of both signs (CPU time, best of 5); th only.
--   th scripts/bench/longcrossover.lua [budget]
local budget = tonumber(arg and arg[1]) or 0.01
local longloops = require 'torch.maths.longloops'

local function time(f)
   f()
   local best = math.huge
   for _ = 1, 5 do
      local reps, t = 0, os.clock()
      repeat f(); reps = reps + 1 until os.clock() - t > budget
      best = math.min(best, (os.clock() - t) / reps)
   end
   return best * 1e6
end

torch.manualSeed(1)
local cases = {
   div = function(r, x, y) r:div(x, 7) end, cdiv = function(r, x, y) r:cdiv(x, y) end,
   fmod = function(r, x, y) r:fmod(x, 7) end, cfmod = function(r, x, y) r:cfmod(x, y) end,
   remainder = function(r, x, y) r:remainder(x, 7) end, cremainder = function(r, x, y) r:cremainder(x, y) end,
   max = function(r, x, y) r:cmax(x, 3) end, cmax = function(r, x, y) r:cmax(x, y) end,
   abs = function(r, x, y) r:abs(x) end,
}
local names = {}
for k in pairs(cases) do names[#names + 1] = k end
table.sort(names)
print(('%-11s %7s %10s %10s'):format('op', 'n', 'loop us', 'numpy us'))
for _, name in ipairs(names) do
   local op = ({cdiv = 'div', cfmod = 'fmod', cremainder = 'remainder', cmax = 'max'})[name] or name
   local m = longloops.maps[op]
   local limit = m.limit
   for _, n in ipairs{512, 1024, 2048, 4096, 8192, 16384, 32768, 65536} do
      local x = torch.LongTensor(n):random(-1000000, 1000000)
      local y = torch.LongTensor(n):random(1, 1000):cmul(torch.LongTensor(n):random(0, 1):mul(2):add(-1))
      local r = torch.LongTensor(n)
      local f = function() cases[name](r, x, y) end
      m.limit = math.huge
      local a = time(f)
      m.limit = 0
      local b = time(f)
      print(('%-11s %7d %10.2f %10.2f'):format(name, n, a, b))
   end
   m.limit = limit
end
