-- Per-call cost of the bit operations and the products of integer tensors,
-- for every integer type, under any th (only Torch7's API).  Prints
-- "Type/op_layout size microseconds" lines for scripts/bench/compare.py:
--   python scripts/bench/compare.py --script bitops.lua [--runs 3] [--filter Int/]
-- Layouts: c contiguous, t transposed (a 2-D view), s strided (every other
-- column); `new` makes the result, the others write into a given one.
local budget = tonumber(arg and arg[1]) or 0.01
local filter = arg and arg[2]
package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)

torch.manualSeed(1)
local types = {'Byte', 'Char', 'Short', 'Int', 'Long'}

-- operands of n elements (n a square) in a layout: x and y, a result r
local function operands(T, n, layout)
   local m = math.floor(math.sqrt(n))
   local function make(lo, hi)
      if layout == 'c' then return torch[T .. 'Tensor'](n):random(lo, hi) end
      if layout == 't' then return torch[T .. 'Tensor'](m, m):random(lo, hi):t() end
      return torch[T .. 'Tensor'](m, 2 * m):random(lo, hi):narrow(2, 1, m)
   end
   return make(1, 100), make(0, 7), make(0, 1)
end

for _, T in ipairs(types) do
   for _, n in ipairs{100, 10000, 1000000} do
      for _, layout in ipairs(n < 1000000 and {'c', 't', 's'} or {'c'}) do
         local x, y, r = operands(T, n, layout)
         local function op(name, f) report(('%s/%s_%s'):format(T, name, layout), n, f) end
         for _, f in ipairs{'bitand', 'bitor', 'bitxor'} do
            op(f, function() r[f](r, x, 7) end)
            op('c' .. f, function() r['c' .. f](r, x, y) end)
         end
         op('lshift', function() r:lshift(x, 2) end)
         op('rshift', function() r:rshift(x, 2) end)
         op('clshift', function() r:clshift(x, y) end)
         op('crshift', function() r:crshift(x, y) end)
         if n < 1000000 then
            op('bitand_new', function() local _ = torch.bitand(x, 7) end)
            op('cbitxor_new', function() local _ = torch.cbitxor(x, y) end)
            op('lshift_new', function() local _ = torch.lshift(x, 2) end)
         end
      end
   end
   -- products: m x m matrices (a transposed in layout t), vectors of m
   for _, m in ipairs{4, 10, 32, 100} do
      for _, layout in ipairs{'c', 't'} do
         local A = torch[T .. 'Tensor'](m, m):random(0, 9)
         if layout == 't' then A = A:t() end
         local B = torch[T .. 'Tensor'](m, m):random(0, 9)
         local v, w = torch[T .. 'Tensor'](m):random(0, 9), torch[T .. 'Tensor'](m):random(0, 9)
         local R, u = torch[T .. 'Tensor'](m, m), torch[T .. 'Tensor'](m)
         local A3, B3 = torch[T .. 'Tensor'](8, m, m):random(0, 9), torch[T .. 'Tensor'](8, m, m):random(0, 9)
         local R3 = torch[T .. 'Tensor'](8, m, m)
         local function op(name, n, f) report(('%s/%s_%s'):format(T, name, layout), n, f) end
         op('mm', m * m * m, function() R:mm(A, B) end)
         op('mm_new', m * m * m, function() local _ = torch.mm(A, B) end)
         op('addmm', m * m * m, function() R:addmm(2, R, 3, A, B) end)
         op('mv', m * m, function() u:mv(A, v) end)
         op('addmv', m * m, function() u:addmv(2, u, 3, A, v) end)
         op('addr', m * m, function() R:addr(2, R, 3, v, w) end)
         if m <= 32 then
            op('bmm', 8 * m * m * m, function() R3:bmm(A3, B3) end)
            op('baddbmm', 8 * m * m * m, function() R3:baddbmm(2, R3, 3, A3, B3) end)
         end
      end
   end
end
