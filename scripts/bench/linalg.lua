-- LAPACK calls on 200x200 doubles
local function median(f, n)
   local times = {}
   for i = 1, n do
      local timer = torch.Timer()
      f()
      times[i] = timer:time().real
   end
   table.sort(times)
   return times[math.ceil(n / 2)]
end
local a = torch.rand(200, 200)
local spd = torch.mm(a, a:t()):add(torch.eye(200))
local b = torch.rand(200, 10)
print(string.format('BENCH gesv_200 %.6f', median(function() torch.gesv(b, a) end, 9)))
print(string.format('BENCH inverse_200 %.6f', median(function() torch.inverse(a) end, 9)))
print(string.format('BENCH potrf_200 %.6f', median(function() torch.potrf(spd) end, 9)))
print(string.format('BENCH svd_200 %.6f', median(function() torch.svd(a) end, 9)))
