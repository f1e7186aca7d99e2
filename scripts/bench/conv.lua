-- conv2 of a 1000x1000 image by a 10x10 kernel, valid plus full
-- (Torch7: about 49 ms for both)
package.path = arg[0]:match('^(.*[/\\])') .. '?.lua;' .. package.path
local bench = require 'bench'

local x, k = torch.rand(1000, 1000), torch.rand(10, 10)
bench.run('conv2_1000x1000_by_10x10_V+F', 1, function()
   torch.conv2(x, k, 'V')
   torch.conv2(x, k, 'F')
end)
local xi, ki = torch.IntTensor(300, 300):random(-100, 100), torch.IntTensor(7, 7):random(-5, 5)
bench.run('conv2_int_300x300_by_7x7_V', 1, function() torch.conv2(xi, ki) end)
local planes, kernels = torch.rand(16, 64, 64), torch.rand(8, 16, 5, 5)
bench.run('conv2_16x64x64_by_8x16x5x5', 1, function() torch.conv2(planes, kernels) end)
-- volumes, rounded steps (Torch7: about 0.9 ms valid, 0.95 ms full)
local v, kv = torch.FloatTensor(32, 32, 32):uniform(-1, 1), torch.FloatTensor(5, 5, 5):uniform(-1, 1)
bench.run('conv3_float_32x32x32_by_5x5x5_V+F', 1, function()
   torch.conv3(v, kv, 'V')
   torch.conv3(v, kv, 'F')
end)
