-- LuaJIT loops for LongTensors (and the integer products and dots TH made in
-- 64 or 32 bits), at the original's speed on small and medium tensors.
--
-- A LongTensor's elements are 64-bit integers, which LuaJIT reads as cdata:
-- with allocation sinking off (runtime.py), 64-bit arithmetic in a loop
-- boxes a cdata per step.  These loops read each element as a Lua number
-- (tonumber, exact while |v| <= 2^53), compute in doubles and store the
-- double through the int64_t pointer (C's conversion).  That gives TH's
-- exact int64 results only while every operand and intermediate stays
-- within +-2^53: each entry point checks a bound first (the largest |v|
-- of the operands, by a branch-free pass or numpy's SIMD extremes) and
-- returns false/nil otherwise, leaving the caller's exact path (numpy's
-- int64 arithmetic, wrapping around as TH's C did).
local ffi = require 'ffi'
local types = require 'torch.types'
local internal = require 'torch.internal'
local kernels = require 'torch.maths.kernels'
local lines = require 'torch.maths.lines'
local simd = require 'torch.maths.simd'

local nelement, iscontiguous, checkbounds = internal.nelement, internal.iscontiguous, internal.checkbounds
local flat, origin = kernels.flat, kernels.origin
local Long, Int = types.Long, types.Int
local abs, max, min, tonumber, loadstring, assert = math.abs, math.max, math.min, tonumber, loadstring, assert

local longloops = {}

local EXACT = 2 ^ 53          -- doubles hold every integer up to this
-- from this many elements a contiguous operand's bound is numpy's SIMD
-- minimum and maximum (once numpy is loaded); below, the LuaJIT pass
local SIMDBOUND = 1024

-- the largest |v| of a contiguous LongTensor's n elements at xp, as a number
-- (no branch per element: math.max and abs compile to instructions; four
-- running maxima, each a chain of dependent steps)
local function boundloop(xp, n)
   local m0, m1, m2, m3 = 0, 0, 0, 0
   local last = n - n % 4
   for i = 0, last - 1, 4 do
      m0, m1 = max(m0, abs(tonumber(xp[i]))), max(m1, abs(tonumber(xp[i + 1])))
      m2, m3 = max(m2, abs(tonumber(xp[i + 2]))), max(m3, abs(tonumber(xp[i + 3])))
   end
   for i = last, n - 1 do m0 = max(m0, abs(tonumber(xp[i]))) end
   return max(max(m0, m1), max(m2, m3))
end
-- (strided views of up to kernels' limit take strided.lua's fold loops)
local boundop = kernels.op('longbound', math.huge, {Long = 'max(acc, abs(tonumber(x)))'})

-- bound(d) -> the largest |v| among the LongTensor d's elements (a number,
-- rounded beyond 2^53), or nil for a layout no loop here reads
local function bound(d)
   local n = nelement(d)
   if n == 0 then return 0 end
   local p = flat(d)
   if not p then return kernels.fold(boundop, d, 0) end
   if n >= SIMDBOUND then
      local lo, hi = simd.extremes(p, n, math.huge)
      if lo then return max(-lo, hi) end
   end
   return boundloop(p, n)
end
longloops.bound = bound

-- the functions the generated loops' expressions call
local env = {tonumber = tonumber, max = max, min = min, abs = abs, floor = math.floor, ceil = math.ceil,
             tobit = bit.tobit, band = bit.band, lshift = bit.lshift, arshift = bit.arshift,
             C = require 'torch.maths.libm'}
-- C's integer division: the double quotient truncated (exact for operands
-- within 2^53: a quotient that is not an integer lies 1/|b| or more from
-- one, more than its rounding error), without a branch (quotients of both
-- signs mispredicted it: 3 ns an element): floor(v) for v >= 0, else ceil(v)
local floor, ceil = math.floor, math.ceil
function env.trunc(v) return max(floor(v), min(ceil(v), 0)) end
local envtext = {}
for k in pairs(env) do envtext[#envtext + 1] = ('local %s = E.%s'):format(k, k) end
envtext = table.concat(envtext, '\n')

-- compile(text, expr) -> the loop of text with %s the expression
local function compile(text, expr, name)
   return assert(loadstring('local E = ...\n' .. envtext .. '\n' .. text:format(expr), '=(th long ' .. name .. ')'))(env)
end

-- element-wise maps of contiguous operands: each element read as a number
local MAP1 = [[return function(rp, xp, n, c)
   for i = 0, n - 1 do local x = tonumber(xp[i]); rp[i] = %s end
end]]
local MAP2 = [[return function(rp, xp, yp, n)
   for i = 0, n - 1 do local x, y = tonumber(xp[i]), tonumber(yp[i]); rp[i] = %s end
end]]
-- op -> the expression with a number c, with a tensor y, the bounds x and
-- the second operand must stay under, and the most elements for which the
-- loop beats numpy's (a Python call; its int64 loops run without the bound
-- pass, and abs and min/max in SIMD)
-- C's a % b is a - trunc(a / b) * b, every step exact; TH's remainder moved
-- it by b when r * b (in C's long) was negative: the floored quotient's
-- a - floor(a / b) * b, while |b| < 2^31 (r * b does not wrap in C) and
-- |a| < 2^52 (floor(a / b) * b, up to |a| + |b|, stays exact)
local mapexprs = {
   div = {'trunc(x / c)', 'trunc(x / y)', EXACT, EXACT, 65536},
   fmod = {'x - trunc(x / c) * c', 'x - trunc(x / y) * y', EXACT, EXACT, 65536},
   remainder = {'x - floor(x / c) * c', 'x - floor(x / y) * y', 2 ^ 52, 2 ^ 31, 65536},
   max = {'max(x, c)', 'max(x, y)', EXACT, EXACT, 65536},
   min = {'min(x, c)', 'min(x, y)', EXACT, EXACT, 65536},
   abs = {'abs(x)', nil, EXACT, EXACT, 4096},
}
local maps = {}
for op, e in pairs(mapexprs) do
   maps[op] = {c = compile(MAP1, e[1], op .. 'c'), y = e[2] and compile(MAP2, e[2], op .. 'y'),
               xbound = e[3], ybound = e[4], limit = e[5]}
end
longloops.maps = maps   -- (scripts/bench/longcrossover.lua changes the limits)

-- map(op, r, x, y, c) -> true when done: r = op(x, y or the number c), r,
-- x and y contiguous LongTensors of n elements within the bounds
-- (shared by every operation: `...` keeps it from becoming the root of a trace
-- of its own, see kernels.lua)
function longloops.map(op, r, x, y, c, ...)
   local m = maps[op]
   local n = nelement(r)
   if not m or n > m.limit or y and not m.y or x.T ~= Long or y and y.T ~= Long then return false end
   local rp, xp = flat(r), flat(x)
   local yp = y and flat(y)
   if not rp or not xp or y and not yp then return false end
   if y then
      if bound(y) >= m.ybound then return false end
   elseif c and not (abs(c) < m.ybound) then
      return false
   end
   if bound(x) >= m.xbound then return false end
   if y then m.y(rp, xp, yp, n) else m.c(rp, xp, n, c) end
   return true
end

-- sums: of n elements each at most b, every partial sum within n * b
local function sumexact(n, b) return b and n * b < EXACT end

-- (the sum and the bound in one pass: the sum is dropped when not exact;
-- from SIMDBOUND elements, the bound is numpy's and the sum four chains)
local sumloop = compile([[return function(xp, n)
   local a0, a1, a2, a3, m0, m1, m2, m3 = 0, 0, 0, 0, 0, 0, 0, 0
   local last = n - n %% 4
   for i = 0, last - 1, 4 do
      local x0, x1, x2, x3 = tonumber(xp[i]), tonumber(xp[i + 1]), tonumber(xp[i + 2]), tonumber(xp[i + 3])
      a0, a1, a2, a3 = a0 + x0, a1 + x1, a2 + x2, a3 + x3
      m0, m1, m2, m3 = max(m0, abs(x0)), max(m1, abs(x1)), max(m2, abs(x2)), max(m3, abs(x3))
   end
   for i = last, n - 1 do
      local x = tonumber(xp[i])
      a0, m0 = a0 + x, max(m0, abs(x))
   end
   return (a0 + a1) + (a2 + a3), max(max(m0, m1), max(m2, m3))
end]], '', 'sum')
local bigsumloop = compile([[return function(xp, n)
   local a0, a1, a2, a3 = 0, 0, 0, 0
   local last = n - n %% 4
   for i = 0, last - 1, 4 do
      a0, a1 = a0 + tonumber(xp[i]), a1 + tonumber(xp[i + 1])
      a2, a3 = a2 + tonumber(xp[i + 2]), a3 + tonumber(xp[i + 3])
   end
   for i = last, n - 1 do a0 = a0 + tonumber(xp[i]) end
   return (a0 + a1) + (a2 + a3)
end]], '', 'bigsum')
local sumop = kernels.op('longsum', math.huge, {Long = 'acc + tonumber(x)'})

-- sum(d) -> the exact sum of the LongTensor d's elements (TH's, wrapped
-- in 64 bits), or nil; from SIMDBOUND contiguous elements numpy's int64
-- add loop in its reduction form (vector adds, every value exact: no bound)
local wrapsum
function longloops.sum(d)
   local n = nelement(d)
   if n == 0 then return 0 end
   local p = flat(d)
   if p and n < SIMDBOUND then
      local s, b = sumloop(p, n)
      if sumexact(n, b) then return s end
      return nil
   end
   local s = p and wrapsum(p, n)
   if s then return s end
   if not sumexact(n, bound(d)) then return nil end
   if p then return bigsumloop(p, n) end
   return kernels.fold(sumop, d, 0)
end

-- Sums and running sums along a dimension of contiguous tensors (r apart
-- from x), for every integer type (lines.lua's loops follow one line at a
-- time, a chain of dependent additions; kernels.lua's too): along a
-- dimension before the last, a row of partial sums at a time in r (four
-- rows of x added a step), each element its own chain, read back as stored (a narrower type's wrapped:
-- wrapping commutes with addition, so the end is TH's wrapped sum); along
-- the last, four lines side by side, each as two chains (even and odd
-- elements: integer sums are exact in any order).  STORE wraps an
-- IntTensor's value (tobit); the narrower types' stores wrap by themselves
local SUMROWS = [[return function(rp, xp, outer, size, inner)
   local quads = 1 + (size - 1) - (size - 1) % 4
   for o = 0, outer - 1 do
      local q, p0 = o * inner, o * size * inner
      for i = 0, inner - 1 do rp[q + i] = tonumber(xp[p0 + i]) end
      for k = 1, quads - 1, 4 do
         local p1 = p0 + k * inner
         local p2, p3, p4 = p1 + inner, p1 + 2 * inner, p1 + 3 * inner
         for i = 0, inner - 1 do
            rp[q + i] = STORE(tonumber(rp[q + i]) + ((tonumber(xp[p1 + i]) + tonumber(xp[p2 + i]))
                                                     + (tonumber(xp[p3 + i]) + tonumber(xp[p4 + i]))))
         end
      end
      for k = quads, size - 1 do
         local p = p0 + k * inner
         for i = 0, inner - 1 do rp[q + i] = STORE(tonumber(rp[q + i]) + tonumber(xp[p + i])) end
      end
   end
end]]
local SCANROWS = [[return function(rp, xp, outer, size, inner)
   for o = 0, outer - 1 do
      local p0 = o * size * inner
      for i = p0, p0 + inner - 1 do rp[i] = tonumber(xp[i]) end
      for p = p0 + inner, p0 + size * inner - 1 do rp[p] = STORE(tonumber(rp[p - inner]) + tonumber(xp[p])) end
   end
end]]
local SUMLINES = [[return function(rp, xp, count, size)
   local quads, even = count - count % 4, size - size % 2
   for o = 0, quads - 1, 4 do
      local f0 = o * size
      local f1, f2, f3 = f0 + size, f0 + 2 * size, f0 + 3 * size
      local a0, a1, a2, a3, b0, b1, b2, b3 = 0, 0, 0, 0, 0, 0, 0, 0
      for k = 0, even - 1, 2 do
         a0, b0 = a0 + tonumber(xp[f0 + k]), b0 + tonumber(xp[f0 + k + 1])
         a1, b1 = a1 + tonumber(xp[f1 + k]), b1 + tonumber(xp[f1 + k + 1])
         a2, b2 = a2 + tonumber(xp[f2 + k]), b2 + tonumber(xp[f2 + k + 1])
         a3, b3 = a3 + tonumber(xp[f3 + k]), b3 + tonumber(xp[f3 + k + 1])
      end
      if even < size then
         local k = size - 1
         a0, a1 = a0 + tonumber(xp[f0 + k]), a1 + tonumber(xp[f1 + k])
         a2, a3 = a2 + tonumber(xp[f2 + k]), a3 + tonumber(xp[f3 + k])
      end
      rp[o], rp[o + 1], rp[o + 2], rp[o + 3] = STORE(a0 + b0), STORE(a1 + b1), STORE(a2 + b2), STORE(a3 + b3)
   end
   for o = quads, count - 1 do
      local a, f = 0, o * size
      for p = f, f + size - 1 do a = a + tonumber(xp[p]) end
      rp[o] = STORE(a)
   end
end]]
local SCANLINES = [[return function(rp, xp, count, size)
   local quads = count - count % 4
   for o = 0, quads - 1, 4 do
      local f0 = o * size
      local f1, f2, f3 = f0 + size, f0 + 2 * size, f0 + 3 * size
      local a0, a1, a2, a3 = 0, 0, 0, 0
      for k = 0, size - 1 do
         a0, a1 = a0 + tonumber(xp[f0 + k]), a1 + tonumber(xp[f1 + k])
         a2, a3 = a2 + tonumber(xp[f2 + k]), a3 + tonumber(xp[f3 + k])
         rp[f0 + k], rp[f1 + k], rp[f2 + k], rp[f3 + k] = STORE(a0), STORE(a1), STORE(a2), STORE(a3)
      end
   end
   for o = quads, count - 1 do
      local a, f = 0, o * size
      for p = f, f + size - 1 do a = a + tonumber(xp[p]); rp[p] = STORE(a) end
   end
end]]
-- the loops of each integer type, compiled at first use (each its own traces)
local rowloops = {}
local function rowloop(T, kind)
   local byT = rowloops[T]
   if not byT then
      byT = {}
      rowloops[T] = byT
   end
   local f = byT[kind]
   if not f then
      local text = ({sumrows = SUMROWS, scanrows = SCANROWS, sumlines = SUMLINES, scanlines = SCANLINES})[kind]
      f = compile(text:gsub('%%', '%%%%'):gsub('STORE', T == Int and 'tobit' or ''), '', kind)
      byT[kind] = f
   end
   return f
end
-- (up to this many elements; a line's sum stays exact in a double and, for
-- the narrower types, within the int32 their stores convert through: tobit
-- wraps up to 2^51)
local ROWSLIMIT = 2 ^ 20
local LINELIMIT = {Byte = 2 ^ 23, Char = 2 ^ 23, Short = 2 ^ 16, Int = 2 ^ 20}

-- rowsof(r, x, dim) -> outer, size, inner: x's geometry along dim when x
-- and r are contiguous integer tensors of one type, apart, and the sums are
-- exact (a LongTensor's within its bound); nil otherwise
local function rowsof(r, x, dim)
   if not x.T.integer or r.T ~= x.T or x.sz[dim] == 0 or not iscontiguous(x) or not iscontiguous(r)
      or rawequal(r.st, x.st) then
      return nil
   end
   if x.T == Long then
      if not sumexact(x.sz[dim], bound(x)) then return nil end
   elseif nelement(x) > ROWSLIMIT or x.sz[dim] > LINELIMIT[x.T.name] then
      return nil
   end
   local outer, inner = 1, 1
   for i = 1, dim - 1 do outer = outer * x.sz[i] end
   for i = dim + 1, x.nd do inner = inner * x.sz[i] end
   checkbounds(x); checkbounds(r)
   return outer, x.sz[dim], inner
end

-- along(r, x, dim, rows, lineloop, linerun, op) -> true when done: the row
-- loops named rows/lines over contiguous operands (every integer type), else
-- a LongTensor's strided views through lines.lua's linerun with op while
-- every partial sum is exact
local function along(r, x, dim, rows, lineloop, linerun, op)
   local outer, size, inner = rowsof(r, x, dim)
   if outer then
      rowloop(x.T, inner > 1 and rows or lineloop)(origin(r), origin(x), outer, size, inner)
      return true
   end
   if x.T ~= Long or r.T ~= Long or x.sz[dim] == 0 or not sumexact(x.sz[dim], bound(x)) then return false end
   return linerun(op, r, x, dim, 0)
end

-- sumdim(r, x, dim) -> true when done: r = x's sums along dim
local linesum = kernels.op('longlinesum', math.huge, {Long = 'acc + tonumber(x)'})
function longloops.sumdim(r, x, dim)
   return along(r, x, dim, 'sumrows', 'sumlines', lines.fold, linesum)
end

-- cumsum(r, x, dim) -> true when done: r = x's running sums along dim
local linecumsum = kernels.op('longcumsum', math.huge, {Long = 'acc + tonumber(x)'})
function longloops.cumsum(r, x, dim)
   return along(r, x, dim, 'scanrows', 'scanlines', lines.scan, linecumsum)
end

-- the best of each line (max, min) and its first position: the line
-- searched for the next element that beats the best so far (lines.lua's
-- linebest, with every element read as a number: no NaN among integers)
local BEST = [[return function(rp, ip, ro, xp, xo, xk, xi, outer, size, inner)
   local span = (size - 1) * xk
   for o = 0, outer - 1 do
      for i = 0, inner - 1 do
         local first = o * xo + i * xi
         local last = first + span
         local best, at, from = tonumber(xp[first]), first, first
         repeat
            local found = false
            for p = from, last, xk do
               local x = tonumber(xp[p])
               if %s then best, at, found = x, p, true; break end
            end
            if not found then break end
            from = at + xk
         until false
         rp[o * ro + i] = best
         ip[o * ro + i] = (at - first) / xk + 1
      end
   end
end]]
local bests = {max = compile(BEST, 'x > best', 'max'), min = compile(BEST, 'x < best', 'min')}

-- best(name, r, ix, x, dim) -> true when done: r and the LongTensor ix (x's
-- sizes with 1 at dim, contiguous, apart from x) = each line's max or min
-- and the position of its first occurrence
function longloops.best(name, r, ix, x, dim)
   if x.T ~= Long or r.T ~= Long or x.sz[dim] == 0 or not iscontiguous(r) or not iscontiguous(ix)
      or rawequal(r.st, x.st) or rawequal(ix.st, x.st) then
      return false
   end
   local outer, xo, size, xk, inner, xi = lines.geometry(x, dim)
   local b = outer and bound(x)
   if not b or b >= EXACT then return false end
   if xk == 0 then size, xk = 1, 1 end   -- (one element repeated: the first is the best)
   checkbounds(x); checkbounds(r); checkbounds(ix)
   bests[name](origin(r), origin(ix), inner, origin(x), xo, xk, xi, outer, size, inner)
   return true
end

-- dot: TH's sum of products in the element type, exact in doubles while
-- n * max|x * y| stays within 2^53 (a LongTensor's otherwise numpy's,
-- in int64); an IntTensor's wraps in 32 bits at every step: a sum within
-- 2^53 is wrapped once at the end, others are made of two exact partial
-- products wrapped (the low and the signed high 16 bits of y), at any size
-- (with the largest |x * y|, rounded up as the product is: the sum is
-- dropped when not exact; four running sums, each a chain of dependent
-- additions)
local DOT = [[return function(xp, yp, n)
   local a0, a1, a2, a3, m = 0, 0, 0, 0, 0
   local last = n - n %% 4
   for i = 0, last - 1, 4 do
      local p0, p1 = tonumber(xp[i]) * tonumber(yp[i]), tonumber(xp[i + 1]) * tonumber(yp[i + 1])
      local p2, p3 = tonumber(xp[i + 2]) * tonumber(yp[i + 2]), tonumber(xp[i + 3]) * tonumber(yp[i + 3])
      a0, a1, a2, a3 = a0 + p0, a1 + p1, a2 + p2, a3 + p3
      m = max(m, max(max(abs(p0), abs(p1)), max(abs(p2), abs(p3))))
   end
   for i = last, n - 1 do
      local p = tonumber(xp[i]) * tonumber(yp[i])
      a0, m = a0 + p, max(m, abs(p))
   end
   return (a0 + a1) + (a2 + a3), m
end]]
-- Byte, Char and Short products are below 2^30: up to NARROWDOT elements
-- their sums are exact, no largest product tracked
local NARROWDOT = 2 ^ 23
local NARROW = [[return function(xp, yp, n)
   local a0, a1, a2, a3 = 0, 0, 0, 0
   local last = n - n %% 4
   for i = 0, last - 1, 4 do
      a0, a1 = a0 + tonumber(xp[i]) * tonumber(yp[i]), a1 + tonumber(xp[i + 1]) * tonumber(yp[i + 1])
      a2, a3 = a2 + tonumber(xp[i + 2]) * tonumber(yp[i + 2]), a3 + tonumber(xp[i + 3]) * tonumber(yp[i + 3])
   end
   for i = last, n - 1 do a0 = a0 + tonumber(xp[i]) * tonumber(yp[i]) end
   return (a0 + a1) + (a2 + a3), 0
end]]
-- (one loop per integer type; a narrower type's result wrapped through a
-- cell of the type, from its int32 wrap)
local dots, cells = {}, {}
for i = 1, types.count do
   local T = types[i]
   if T.integer then
      dots[T], cells[T] = compile((T == Long or T == Int) and DOT or NARROW, '', 'dot'), T.vla(1)
   end
end
local wrapdot = compile([[return function(xp, yp, n)
   local acc = 0
   for i = 0, n - 1 do
      local x, y = tonumber(xp[i]), tonumber(yp[i])
      acc = tobit(acc + tobit(tobit(x * band(y, 65535)) + lshift(tobit(x * arshift(y, 16)), 16)))
   end
   return acc
end]], '', 'wrapdot')
-- v (an integer within 2^53) wrapped into an int32
local function wrap32(v)
   return bit.tobit(v - math.floor(v / 2 ^ 32) * 2 ^ 32)
end

-- dot(x, y, n) -> TH's dot of two contiguous integer tensors of n
-- elements, or nil
function longloops.dot(x, y, n)
   local T = x.T
   local f = dots[T]
   if not f or y.T ~= T or T.size < 4 and n > NARROWDOT then return nil end
   local xp, yp = flat(x), flat(y)
   if not xp or not yp then return nil end
   local s, m = f(xp, yp, n)
   if n * m < EXACT then
      if T == Long then return s end
      if T == Int then return wrap32(s) end
      local cell = cells[T]
      cell[0] = wrap32(s)
      return tonumber(cell[0])
   end
   if T == Int then return (wrapdot(xp, yp, n)) end
   return nil
end

-- integer products: TH multiplied in a long (int64), wrapping around.  In
-- doubles while every partial product is within 2^53 (once past, only a
-- zero brings it back: the loop gives up there); else numpy's int64
-- multiply loop in its reduction form, called from LuaJIT, on the
-- elements as int64 (a LongTensor's own memory, a narrower type's copied)
local PROD = [[return function(xp, n)
   local acc = 1
   for i = 0, n - 1 do
      acc = acc * tonumber(xp[i])
      if abs(acc) >= %s then return nil end
   end
   return acc + 0
end]]
local WIDEN = [[return function(rp, xp, n)
   for i = 0, n - 1 do rp[i] = %s end
end]]
-- (one loop of each per element type: each its own trace)
local prodloops, widens = {}, {}
for i = 1, types.count do
   local T = types[i]
   if T.integer then
      prodloops[T] = compile(PROD, '9007199254740992', 'prod')
      widens[T] = compile(WIDEN, 'xp[i]', 'widen')
   end
end
-- (a narrower type's elements are copied as int64 up to this many)
local WIDENLIMIT = 4096

local acc64 = ffi.new('int64_t[1]')
local accp = ffi.cast('int64_t *', acc64)
local args, dims, steps = ffi.new('void *[3]'), ffi.new('intptr_t[1]'), ffi.new('intptr_t[3]')
local scratchn, scratch, scratchp = 0, nil, nil
local int64p = ffi.typeof('int64_t *')

-- the wrapped int64 product (sum) of n int64 values at p, nil without
-- numpy's loop
local function wrapreduce(op, first, p, n)
   local loops = simd.loops(false)
   local loop = loops and loops[op] and loops[op][Long]
   if not loop then return nil end
   acc64[0] = first
   dims[0] = n
   steps[0], steps[1], steps[2] = 0, 8, 0
   args[0], args[1], args[2] = accp, p, accp
   loop[1](args, dims, steps, loop[2])
   return tonumber(acc64[0])
end
local function wrapprod(p, n) return wrapreduce('mul', 1, p, n) end
function wrapsum(p, n) return wrapreduce('add', 0, p, n) end

-- prod(d) -> TH's product of an integer tensor's elements, or nil
function longloops.prod(d)
   local n = nelement(d)
   if n == 0 and d.T.integer then return 1 end
   local p = d.T.integer and flat(d)
   if not p then return nil end
   local v = prodloops[d.T](p, n)
   if v then return v end
   if d.T == Long then return wrapprod(p, n) end
   if n > WIDENLIMIT then return nil end
   if n > scratchn then
      scratch = ffi.new('int64_t[?]', n)
      scratchn, scratchp = n, ffi.cast(int64p, scratch)
   end
   widens[d.T](scratchp, p, n)
   return wrapprod(scratchp, n)
end

return longloops
