-- randn(1e6) (Torch7: about 24 ms), rand(1e6), and small-tensor fills
package.path = arg[0]:match('^(.*[/\\])') .. '?.lua;' .. package.path
local bench = require 'bench'

bench.run('randn_1e6', 1, function() torch.randn(1e6) end, 9)
bench.run('rand_1e6', 1, function() torch.rand(1e6) end, 9)
local small = torch.Tensor(10)
bench.run('uniform_fill_10', 1000, function()
   for _ = 1, 1000 do small:uniform() end
end, 9)
bench.run('torch_uniform', 10000, function()
   for _ = 1, 10000 do torch.uniform() end
end, 9)
