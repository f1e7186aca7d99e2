-- Reductions of Float and Double tensors of any layout in TH's order: along
-- a dimension, each line (the elements that differ only in that dimension's
-- index) is folded from its first element to its last; a whole tensor is
-- folded in its elements' order (as rows of evenly spaced elements, or a
-- contiguous copy: a copy keeps every value).  A line's accumulator is a
-- double unless the operation says otherwise (TH added a FloatTensor's rows
-- into the float result).
local internal = require 'torch.internal'
local kernels = require 'torch.maths.kernels'
local simd = require 'torch.maths.simd'

local TD = internal.tensors
local nelement, iscontiguous, newtensor, copy = internal.nelement, internal.iscontiguous,
      internal.newtensor, internal.copy
local abs = math.abs

local lines = {}

-- (every loop along a line is a numeric for loop stepping by the line's
-- stride: LuaJIT keeps its index an integer, where an index added to by hand
-- is a double converted at every access, 1.5-4x slower; laid() makes the
-- stride non-zero)

-- one accumulator per line, in a register: any strides of x, r
kernels.template('lines', [[return function(rp, ro, ri, xp, xo, xk, xi, outer, size, inner, init, c, e)
   local span = (size - 1) * xk
   for o = 0, outer - 1 do
      for i = 0, inner - 1 do
         local acc, first = init, o * xo + i * xi
         for p = first, first + span, xk do local x = xp[p]; acc = %s end
         rp[o * ro + i * ri] = %s
      end
   end
end]])

-- the running fold of each line (cumsum, cumprod), stored at every step (r
-- written at x's offsets shifted by a constant when their strides agree)
kernels.template('linescan', [[return function(rp, ro, rk, ri, xp, xo, xk, xi, outer, size, inner, init)
   local span = (size - 1) * xk
   for o = 0, outer - 1 do
      for i = 0, inner - 1 do
         local acc, first, q = init, o * xo + i * xi, o * ro + i * ri
         if rk == xk then
            local shift = q - first
            for p = first, first + span, xk do local x = xp[p]; acc = %s; rp[p + shift] = acc end
         else
            for p = first, first + span, xk do local x = xp[p]; acc = %s; rp[q] = acc; q = q + rk end
         end
      end
   end
end]])

-- the sum and the sum of squares of each line, then TH's variance from them
-- (c: biased, e: n / (n - 1) in the element type); %s the square, %s the store
kernels.template('linevar', [[return function(rp, ro, ri, xp, xo, xk, xi, outer, size, inner, c, e)
   local span = (size - 1) * xk
   for o = 0, outer - 1 do
      for i = 0, inner - 1 do
         local s, s2, first = 0, 0, o * xo + i * xi
         for p = first, first + span, xk do local x = xp[p]; s = s + x; s2 = s2 + %s end
         s = s / size
         if c then s2 = s2 / size - s * s else s2 = s2 / (size - 1) - e * s * s end
         if s2 < 0 then s2 = 0 end
         rp[o * ro + i * ri] = %s
      end
   end
end]])

-- a fold of pairs of elements with a number c (dist)
kernels.template('fold2c', [[return function(xp, yp, n, acc, c)
   for i = 0, n - 1 do local x, y = xp[i], yp[i]; acc = %s end
   return acc
end]])

-- dense(d) -> d, or a contiguous copy of it (its data table holds its
-- storage, and so its memory, alive)
local function dense(d)
   if iscontiguous(d) then return d end
   local t = newtensor(d.T, d.sz, d.nd)
   copy(TD[t], d)
   return TD[t]
end

-- span(d, from, to) -> the count of dimensions from..to taken as one, and
-- their stride, or nil when they are not one evenly spaced run
local function span(d, from, to)
   local n, st, last = 1, 0, nil
   for i = to, from, -1 do
      local s = d.sz[i]
      if s ~= 1 then
         if last and d.str[i] ~= d.str[last] * d.sz[last] then return nil end
         if not last then st = d.str[i] end
         n, last = n * s, i
      end
   end
   return n, st
end

-- geometry(x, dim) -> outer, its stride, size, stride along dim, inner, its
-- stride; nil when x's other dimensions are not two evenly spaced runs
local function geometry(x, dim)
   local outer, xo = span(x, 1, dim - 1)
   local inner, xi = span(x, dim + 1, x.nd)
   if not outer or not inner then return nil end
   return outer, xo, x.sz[dim], x.str[dim], inner, xi
end
lines.geometry = geometry

-- laid(x, dim) -> x, or its contiguous copy when its layout has no geometry
-- or repeats an element along dim (a stride of 0: the loops' for steps), and
-- the geometry, with a stride of 1 along dim when that has one element
local function laid(x, dim)
   local outer, xo, size, xk, inner, xi = geometry(x, dim)
   if not outer or xk == 0 and size > 1 then
      x = dense(x)
      outer, xo, size, xk, inner, xi = geometry(x, dim)
   end
   return x, outer, xo, size, xk ~= 0 and xk or 1, inner, xi
end

-- target(r, x) -> r when the loops can write it (contiguous, sharing no
-- memory with x), else a temporary result and true (to be copied to r)
local function target(r, x)
   if iscontiguous(r) and not rawequal(r.st, x.st) then return r, false end
   return TD[newtensor(r.T, r.sz, r.nd)], true
end

-- lines side by side: a contiguous tensor's lines along its last dimension,
-- WAYS at a time, each its own chain of additions in order (one line's chain
-- waits on each addition; several fill the CPU's pipelines), generated per
-- (op, type, store) with the op's expression renamed per line
local WAYS = 4
local env = {C = require 'torch.maths.libm', f32 = kernels.f32, abs = math.abs, sqrt = math.sqrt}
local function rename(expr, k)
   return (expr:gsub('%f[%w_]acc%f[^%w_]', 'a' .. k):gsub('%f[%w_]x%f[^%w_]', 'x' .. k))
end
-- slot(op, field, key) -> the table op[field][key], where op keeps its
-- generated loops of one kind (made when missing: no key string per call)
local function slot(op, field, key)
   local byfield = op[field]
   if not byfield then
      byfield = {}
      op[field] = byfield
   end
   local t = byfield[key]
   if not t then
      t = {}
      byfield[key] = t
   end
   return t
end

local function sidebyside(op, T, store)
   local bystore = slot(op, 'sidebyside', T)
   local f = bystore[store]
   if f then return f end
   local expr = op.exprs[T.name]
   local acc, reads, steps, stores = {}, {}, {}, {}
   for k = 0, WAYS - 1 do
      acc[#acc + 1] = 'a' .. k
      reads[#reads + 1] = ('local x%d = xp[i + %d * size]'):format(k, k)
      steps[#steps + 1] = ('a%d = %s'):format(k, rename(expr, k))
      stores[#stores + 1] = ('rp[o + %d] = %s'):format(k, rename(store, k))
   end
   local text = ([[local E = ...
local C, f32, abs, sqrt = E.C, E.f32, E.abs, E.sqrt
return function(rp, xp, count, size, init, c, e)
   for o = 0, count - %d, %d do
      local %s = init%s
      local first = o * size
      for i = first, first + size - 1 do
         %s
         %s
      end
      %s
   end
   for o = count - count %% %d, count - 1 do
      local acc, first = init, o * size
      for i = first, first + size - 1 do local x = xp[i]; acc = %s end
      rp[o] = %s
   end
end]]):format(WAYS, WAYS, table.concat(acc, ', '), (', init'):rep(WAYS - 1), table.concat(reads, '; '),
              table.concat(steps, '; '), table.concat(stores, '; '), WAYS, expr, store)
   f = assert(loadstring(text, '=(th lines ' .. op.name .. ')'))(env)
   bystore[store] = f
   return f
end

-- the accumulators in the result (already holding the fold's start), a row
-- of lines at a time (x read in its memory order when the lines run across
-- it), four rows of x at a time: each accumulator takes four steps in order
-- (the op's expression, rounding as the result's type at every step) per
-- load and store
local function fourrows(op, T)
   local byT = op.fourrows
   if not byT then
      byT = {}
      op.fourrows = byT
   end
   local f = byT[T.name]
   if f then return f end
   local expr = op.exprs[T.name]
   local text = ([[local E = ...
local C, f32, abs, sqrt = E.C, E.f32, E.abs, E.sqrt
return function(rp, ro, xp, xo, xk, xi, outer, size, inner, c)
   for o = 0, outer - 1 do
      local q0 = o * ro
      local last = size - size %% 4
      for k = 0, last - 1, 4 do
         local p0 = o * xo + k * xk
         for j = 0, inner - 1 do
            local p, q = p0 + j * xi, q0 + j
            local acc = rp[q]
            local x = xp[p]; acc = %s
            x = xp[p + xk]; acc = %s
            x = xp[p + 2 * xk]; acc = %s
            x = xp[p + 3 * xk]; acc = %s
            rp[q] = acc
         end
      end
      for k = last, size - 1 do
         local p0 = o * xo + k * xk
         for j = 0, inner - 1 do local q = q0 + j; local acc, x = rp[q], xp[p0 + j * xi]; rp[q] = %s end
      end
   end
end]]):format(expr, expr, expr, expr, expr)
   f = assert(loadstring(text, '=(th rows ' .. op.name .. ')'))(env)
   byT[T.name] = f
   return f
end

-- fold(op, r, x, dim, init, c, e, store) -> true when done: r (x's sizes with
-- 1 at dim) = store(acc, e) of each line's fold from init (the op's
-- expression of acc, x, c), in a double; an op with `rows` may accumulate
-- in the result, which is of the accumulator's type (its expression rounds as it)
-- (the functions every operation shares end their parameters with `...`: never
-- roots of traces of their own, see kernels.lua)
function lines.fold(op, r, x, dim, init, c, e, store, ...)
   if not op.exprs[x.T.name] or r.T ~= x.T or x.sz[dim] == 0 then return false end
   local xd, outer, xo, size, xk, inner, xi = laid(x, dim)
   local rd, tmp = target(r, xd)
   internal.checkbounds(xd)
   internal.checkbounds(rd)
   local rp, xp = kernels.origin(rd), kernels.origin(xd)
   if inner == 1 and xk == 1 and xo == size then
      sidebyside(op, x.T, store or 'acc')(rp, xp, outer, size, init, c, e)
   elseif op.rows and inner > 1 and abs(xk) >= abs(xi) then
      kernels.fill(rd, init)
      if not simd.rows(op.rows, x.T, rp, xp, outer, xo, size, xk, inner, xi) then
         fourrows(op, x.T)(rp, inner, xp, xo, xk, xi, outer, size, inner, c)
      end
   else
      kernels.run('lines', op, x.T, store or 'acc', rp, inner, 1, xp, xo, xk, xi, outer, size, inner, init, c, e)
   end
   if tmp then copy(r, rd) end
   return true
end

-- scan(op, r, x, dim, init) -> true when done: r (x's sizes) = the running
-- fold along dim, accumulated in a double and stored in r's type
function lines.scan(op, r, x, dim, init, ...)
   if not op.exprs[x.T.name] or r.T ~= x.T or x.sz[dim] == 0 then return false end
   local xd, outer, xo, size, xk, inner, xi = laid(x, dim)
   local rd, tmp = target(r, xd)
   internal.checkbounds(xd)
   internal.checkbounds(rd)
   local e = op.exprs[x.T.name]   -- (the template's two loops, the store its second)
   kernels.run('linescan', op, x.T, e, kernels.origin(rd), size * inner, inner, 1,
               kernels.origin(xd), xo, xk, xi, outer, size, inner, init)
   if tmp then copy(r, rd) end
   return true
end

-- TH's variance of lines of consecutive elements, four lines side by side
-- (each line's two sums are chains of additions in order; eight chains fill
-- the CPU's pipelines), the rest one by one; SQUARE the op's square, STORE
-- its store of s2
local VARTEXT = [[
local E = ...
local f32, sqrt = E.f32, E.sqrt
local function store(s, s2, size, c, e)
   s = s / size
   if c then s2 = s2 / size - s * s else s2 = s2 / (size - 1) - e * s * s end
   if s2 < 0 then s2 = 0 end
   return STORE
end
return function(rp, xp, xo, count, size, c, e)
   local quads = count - count % 4
   for o = 0, quads - 1, 4 do
      local f0 = o * xo
      local f1, f2, f3 = f0 + xo, f0 + 2 * xo, f0 + 3 * xo
      local s0, s1, s2, s3, q0, q1, q2, q3 = 0, 0, 0, 0, 0, 0, 0, 0
      for k = 0, size - 1 do
         local x = xp[f0 + k]; s0 = s0 + x; q0 = q0 + SQUARE
         x = xp[f1 + k]; s1 = s1 + x; q1 = q1 + SQUARE
         x = xp[f2 + k]; s2 = s2 + x; q2 = q2 + SQUARE
         x = xp[f3 + k]; s3 = s3 + x; q3 = q3 + SQUARE
      end
      rp[o], rp[o + 1] = store(s0, q0, size, c, e), store(s1, q1, size, c, e)
      rp[o + 2], rp[o + 3] = store(s2, q2, size, c, e), store(s3, q3, size, c, e)
   end
   for o = quads, count - 1 do
      local f, s, q = o * xo, 0, 0
      for k = f, f + size - 1 do local x = xp[k]; s = s + x; q = q + SQUARE end
      rp[o] = store(s, q, size, c, e)
   end
end]]
local function varrows(op, T)
   local byT = op.varrows
   if not byT then
      byT = {}
      op.varrows = byT
   end
   local f = byT[T.name]
   if f then return f end
   local text = VARTEXT:gsub('SQUARE', op.exprs[T.name]):gsub('STORE', op.store[T.name])
   f = assert(loadstring(text, '=(th varrows ' .. op.name .. ')'))(env)
   byT[T.name] = f
   return f
end

-- var(op, r, x, dim, biased, factor) -> true when done: TH's variance (or the
-- op's store of it: std) of each line
function lines.var(op, r, x, dim, biased, factor, ...)
   if not op.exprs[x.T.name] or r.T ~= x.T or x.sz[dim] == 0 then return false end
   local xd, outer, xo, size, xk, inner, xi = laid(x, dim)
   local rd, tmp = target(r, xd)
   internal.checkbounds(xd)
   internal.checkbounds(rd)
   if inner == 1 and xk == 1 then
      varrows(op, x.T)(kernels.origin(rd), kernels.origin(xd), xo, outer, size, biased, factor)
   else
      kernels.run('linevar', op, x.T, op.store[x.T.name], kernels.origin(rd), inner, 1,
                  kernels.origin(xd), xo, xk, xi, outer, size, inner, biased, factor)
   end
   if tmp then copy(r, rd) end
   return true
end

-- a strided tensor's elements in order, as rows of evenly spaced elements
kernels.template('wholes', [[return function(xp, x1, x2, m, n, acc, c)
   local span = (n - 1) * x2
   for i = 0, m - 1 do
      local first = i * x1
      for p = first, first + span, x2 do local x = xp[p]; acc = %s end
   end
   return acc
end]])

-- the best of each line (max, min) and the position of its first
-- occurrence: the op's expression says when x beats best; the first NaN wins
-- and stops the line, as in TH.  The line is searched for the next element
-- that beats the best so far, a loop whose exit is that element (with the
-- test inside a loop that goes on either way, LuaJIT could record the rare
-- branch as the loop's trace, and the common one then left it at every
-- element: 20x slower in some runs)
kernels.template('linebest', [[return function(rp, ip, ro, xp, xo, xk, xi, outer, size, inner)
   local span = (size - 1) * xk
   for o = 0, outer - 1 do
      for i = 0, inner - 1 do
         local first = o * xo + i * xi
         local last = first + span
         local best, at, from = xp[first], first, first
         repeat
            local found = false
            for p = from, last, xk do
               local x = xp[p]
               if %s then best, at, found = x, p, true; break end
            end
            if not found or best ~= best then break end
            from = at + xk
         until false
         rp[o * ro + i] = best
         ip[o * ro + i] = (at - first) / xk + 1
      end
   end
end]])

-- (rows of contiguous elements from ROWSIMD to ROWSIMDMOST through numpy's
-- loops, simd.rowbest: three C calls a row, 75 ns, where the line's loop
-- takes 1.5-2 ns an element; 100x100 doubles 21 -> 13 us, the original's 15;
-- its scratch, a byte an element, is kept)
local ROWSIMD, ROWSIMDMOST, ROWIMPORT = 48, 65536, 65536
local Long = require('torch.types').Long

-- shorter rows of contiguous elements (from 2) in a loop generated per row
-- size, without a branch per element: the row's elements in locals, its best
-- by a tree of math.max (min), then the first position equal to it as the
-- least of (position + distance to the best * 2^1200), by a tree of
-- math.min (the difference of two distinct numbers is 2^-1074 at least:
-- scaled, beyond any position).  A search loop breaking at the best became
-- a trace of its own left at every row, and an if-chain's side traces broke
-- down from 14 elements.  A row of floats whose sum is not finite (a NaN or
-- an infinity, or an overflow) is left to linebest, TH's test.
local SHORTTEXT = [[
local pick, least, line = ...
return function(rp, ip, xp, xo, outer)
   for o = 0, outer - 1 do
      local p = o * xo
      local LOCALS = LOADS
      local best, sum = BEST, SUM
      if sum - sum == 0 then
         local k = FIRST
         rp[o] = xp[p + k]
         ip[o] = k + 1
      else
         line(rp + o, ip + o, 1, xp + p, 0, 1, 0, 1, SIZE, 1)
      end
   end
end]]

-- tree(items, f) -> the text of f applied pairwise, a tree of log2(#items) levels
local function tree(items, f)
   while #items > 1 do
      local up = {}
      for i = 1, #items, 2 do up[#up + 1] = items[i + 1] and f(items[i], items[i + 1]) or items[i] end
      items = up
   end
   return items[1]
end

local function generate(op, T, size)
   local names, loads, positions = {}, {}, {}
   local distance = op.simd == 'max' and 'best - %s' or '%s - best'
   for i = 1, size do
      names[i], loads[i] = 'x' .. i, ('xp[p + %d]'):format(i - 1)
      positions[i] = ('%d + (%s) * 0x1p600 * 0x1p600'):format(i - 1, distance:format(names[i]))
   end
   local text = SHORTTEXT:gsub('[A-Z]+', {
      LOCALS = table.concat(names, ', '), LOADS = table.concat(loads, ', '),
      BEST = tree(names, function(a, b) return ('pick(%s, %s)'):format(a, b) end),
      SUM = T.integer and '0' or tree(names, function(a, b) return ('(%s + %s)'):format(a, b) end),
      FIRST = tree(positions, function(a, b) return ('least(%s, %s)'):format(a, b) end), SIZE = size})
   return assert(loadstring(text, '=(th short ' .. op.simd .. ' rows)'))(math[op.simd], math.min,
                                                                       kernels.loop('linebest', op, T))
end

-- shortbest(op, T, size) -> the loop of rows of that size, generated once
local function shortbest(op, T, size)
   local bysize = slot(op, 'short', T)
   local f = bysize[size] or generate(op, T, size)
   bysize[size] = f
   return f
end

-- best(op, r, ix, x, dim) -> true when done: r and the LongTensor ix (x's
-- sizes with 1 at dim, both contiguous, new) = each line's best and its
-- 1-based position
function lines.best(op, r, ix, x, dim, ...)
   if not op.exprs[x.T.name] or r.T ~= x.T or x.sz[dim] == 0 or not iscontiguous(r) or not iscontiguous(ix)
      or rawequal(r.st, x.st) then
      return false
   end
   local outer, xo, size, xk, inner, xi = geometry(x, dim)
   if not outer then return false end
   if xk == 0 then size, xk = 1, 1 end   -- (one element repeated: the first is the best)
   internal.checkbounds(x)
   internal.checkbounds(r)
   internal.checkbounds(ix)
   if inner == 1 and xk == 1 and size > 1 and x.T ~= Long then
      local rp, ip, xp = kernels.origin(r), kernels.origin(ix), kernels.origin(x)
      if size < ROWSIMD then
         shortbest(op, x.T, size)(rp, ip, xp, xo, outer)
         return true
      end
      if size <= ROWSIMDMOST and simd.rowbest(op.simd, x.T, rp, ip, xp, xo, outer, size, ROWIMPORT) then
         return true
      end
   end
   kernels.run('linebest', op, x.T, nil, kernels.origin(r), kernels.origin(ix), inner, kernels.origin(x),
               xo, xk, xi, outer, size, inner)
   return true
end

-- whole(op, d, init, c) -> the fold of all of d's elements in order
function lines.whole(op, d, init, c, ...)
   if not op.exprs[d.T.name] or nelement(d) == 0 then return nil end
   if iscontiguous(d) then return kernels.fold(op, d, init, c) end
   local rows, x1 = span(d, 1, d.nd - 1)
   local n, x2 = d.sz[d.nd], d.str[d.nd]
   if n == 1 then x2 = 1 end   -- (any stride reads the one element; the for step is not 0)
   if rows and x2 ~= 0 then
      internal.checkbounds(d)
      return kernels.run('wholes', op, d.T, nil, kernels.origin(d), x1, x2, rows, n, init, c)
   end
   -- (other views of up to four dimensions once collapsed: strided.lua's loops)
   local v = kernels.fold(op, d, init, c)
   if v ~= nil then return v end
   return kernels.fold(op, dense(d), init, c)
end

-- whole2(op, x, y, init, c) -> the fold of pairs of x's and y's elements, each in its order
function lines.whole2(op, x, y, init, c, ...)
   if not op.exprs[x.T.name] or x.T ~= y.T or nelement(x) == 0 then return nil end
   local xd, yd = dense(x), dense(y)
   internal.checkbounds(xd)
   internal.checkbounds(yd)
   return kernels.run('fold2c', op, x.T, nil, kernels.origin(xd), kernels.origin(yd), nelement(xd), init, c)
end

return lines
