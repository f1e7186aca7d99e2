-- LAPACK calls on 200x200 doubles
package.path = arg[0]:match('^(.*[/\\])') .. '?.lua;' .. package.path
local bench = require 'bench'

local a = torch.rand(200, 200)
local spd = torch.mm(a, a:t()):add(torch.eye(200))
local b = torch.rand(200, 10)
bench.run('gesv_200', 1, function() torch.gesv(b, a) end, 9)
bench.run('inverse_200', 1, function() torch.inverse(a) end, 9)
bench.run('potrf_200', 1, function() torch.potrf(spd) end, 9)
bench.run('svd_200', 1, function() torch.svd(a) end, 9)
