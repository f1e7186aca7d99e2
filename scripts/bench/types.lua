-- Per-call cost of the common operations on 10x10 tensors of every element
-- type, under any th (only Torch7's API): integer and Long tensors took
-- paths of their own (64-bit values are not Lua numbers, C's integer
-- arithmetic wraps).  Prints "type_op 100 microseconds" lines for
-- scripts/bench/compare.py:
--   python scripts/bench/compare.py --script types.lua [--runs 3]
local budget = tonumber(arg and arg[1]) or 0.02
local filter = arg and arg[2]
package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)

torch.manualSeed(1)
for _, T in ipairs{'Byte', 'Char', 'Short', 'Int', 'Long', 'Float', 'Double'} do
   local x = torch[T .. 'Tensor'](10, 10):random(1, 9)
   local y = torch[T .. 'Tensor'](10, 10):random(1, 9)
   local r = torch[T .. 'Tensor'](10, 10)
   local d = torch.DoubleTensor(10, 10):uniform(-50, 50)
   local idx = torch.LongTensor{1, 3}
   -- (an operation a type lacks, in Torch7 or th, is left out)
   local function op(name, f) if pcall(f) then report(T .. '/' .. name, 100, f) end end
   op('add', function() r:add(x, y) end)
   op('add_number', function() r:add(x, 3) end)
   op('mul_number', function() r:mul(x, 3) end)
   op('cmul', function() r:cmul(x, y) end)
   op('div_number', function() r:div(x, 2) end)
   op('cdiv', function() r:cdiv(x, y) end)
   op('remainder', function() r:remainder(x, 3) end)
   op('fmod', function() r:fmod(x, 3) end)
   op('cmax', function() r:cmax(x, y) end)
   op('sum', function() local _ = x:sum() end)
   op('sum_dim', function() local _ = x:sum(1) end)
   op('prod', function() local _ = x:prod() end)
   op('cumsum', function() local _ = x:cumsum(2) end)
   op('max', function() local _ = x:max() end)
   op('max_dim', function() local _ = x:max(1) end)
   op('lt', function() local _ = x:lt(y) end)
   op('eq_number', function() local _ = x:eq(3) end)
   op('abs', function() local _ = x:abs() end)
   op('copy_from_double', function() r:copy(d) end)
   op('to_double', function() local _ = x:double() end)
   op('clone', function() local _ = x:clone() end)
   op('transposed_clone', function() local _ = x:t():clone() end)
   op('fill', function() r:fill(2) end)
   op('index', function() local _ = x:index(1, idx) end)
   op('dot', function() local _ = x:dot(y) end)
end
