-- randn(1e6) (Torch7: about 24 ms), rand(1e6), and small-tensor fills
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
print(string.format('BENCH randn_1e6 %.6f', median(function() torch.randn(1e6) end, 9)))
print(string.format('BENCH rand_1e6 %.6f', median(function() torch.rand(1e6) end, 9)))
local small = torch.Tensor(10)
print(string.format('BENCH uniform_fill_10 %.9f', median(function()
   for i = 1, 1000 do small:uniform() end
end, 9) / 1000))
print(string.format('BENCH torch_uniform %.9f', median(function()
   for i = 1, 10000 do torch.uniform() end
end, 9) / 10000))
