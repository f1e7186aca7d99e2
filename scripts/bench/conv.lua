-- conv2 of a 1000x1000 image by a 10x10 kernel, valid plus full
-- (Torch7: about 49 ms for both)
local x, k = torch.rand(1000, 1000), torch.rand(10, 10)
local times = {}
for i = 1, 7 do
   local timer = torch.Timer()
   torch.conv2(x, k, 'V')
   torch.conv2(x, k, 'F')
   times[i] = timer:time().real
end
table.sort(times)
print(string.format('BENCH conv2_1000x1000_by_10x10_V+F %.6f', times[4]))
