-- The integer and Long operations of types.lua at 1000 and 10^4 elements
-- (25x40, 100x100), under any th (only Torch7's API): the LongTensor loops
-- of longloops.lua check a bound before they run and hand large tensors to
-- numpy, so that they lose nowhere.  Prints "type_op n microseconds" lines
-- for scripts/bench/compare.py:
--   python scripts/bench/compare.py --script types_sizes.lua [--runs 3] [--filter Long]
local budget = tonumber(arg and arg[1]) or 0.02
local filter = arg and arg[2]
package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)

torch.manualSeed(1)
for _, T in ipairs{'Byte', 'Char', 'Short', 'Int', 'Long'} do
   for _, s in ipairs{{25, 40}, {100, 100}} do
      local m, n = s[1], s[2]
      local x = torch[T .. 'Tensor'](m, n):random(1, 9)
      local y = torch[T .. 'Tensor'](m, n):random(1, 9)
      local r = torch[T .. 'Tensor'](m, n)
      local rd, rc = torch[T .. 'Tensor'](1, n), torch[T .. 'Tensor'](m, 1)
      local function op(name, f) if pcall(f) then report(T .. '/' .. name, m * n, f) end end
      op('div_number', function() r:div(x, 2) end)
      op('cdiv', function() r:cdiv(x, y) end)
      op('remainder', function() r:remainder(x, 3) end)
      op('fmod', function() r:fmod(x, 3) end)
      op('cmax', function() r:cmax(x, y) end)
      op('cmin_number', function() r:cmin(x, 5) end)
      op('abs', function() r:abs(x) end)
      op('sum', function() local _ = x:sum() end)
      op('sum_dim', function() local _ = x:sum(1) end)
      op('sum_dim_into', function() torch.sum(rd, x, 1) end)
      op('sum_dim2_into', function() torch.sum(rc, x, 2) end)
      op('cumsum_into', function() r:cumsum(x, 2) end)
      op('max_dim', function() local _ = x:max(1) end)
      op('prod', function() local _ = x:prod() end)
      op('dot', function() local _ = x:dot(y) end)
   end
end
