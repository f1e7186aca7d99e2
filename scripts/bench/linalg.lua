-- LAPACK calls: on 200x200 doubles, then inverse, gesv, svd and symeig per
-- call at 5x5, 50x50 and 500x500 (doubles; run it with both th and the
-- original and compare the figures)
package.path = (arg[0]:match('^(.*[/\\])') or './') .. '?.lua;' .. package.path
local bench = require 'bench'

local a = torch.rand(200, 200)
local spd = torch.mm(a, a:t()):add(torch.eye(200))
local b = torch.rand(200, 10)
bench.run('gesv_200', 1, function() torch.gesv(b, a) end, 9)
bench.run('inverse_200', 1, function() torch.inverse(a) end, 9)
bench.run('potrf_200', 1, function() torch.potrf(spd) end, 9)
bench.run('svd_200', 1, function() torch.svd(a) end, 9)

for _, n in ipairs{5, 50, 500} do
   local m = torch.rand(n, n):add(torch.eye(n))
   local s = torch.mm(m, m:t())
   local rhs = torch.rand(n, 3)
   local ops = n == 5 and 1000 or n == 50 and 50 or 1
   local function each(f) return function() for _ = 1, ops do f() end end end
   bench.run('inverse_' .. n, ops, each(function() torch.inverse(m) end), 5)
   bench.run('gesv_' .. n, ops, each(function() torch.gesv(rhs, m) end), 5)
   bench.run('svd_' .. n, ops, each(function() torch.svd(m) end), 5)
   bench.run('symeig_' .. n, ops, each(function() torch.symeig(s, 'V') end), 5)
end
