-- LuaJIT loops of gather, scatter and indexFill along a dimension, for
-- tensors of the seven types whose dimensions take three levels of one
-- stride each (those before `dim`, dim, those after it: every contiguous
-- tensor, any vector or matrix): no Lua->Python crossing at any size.  The
-- index is checked in a pass of its own first (a bad one leaves every
-- tensor intact; a check per element in the loop that moves them would cost
-- as much as the pass, its exits keeping LuaJIT from holding the loop's
-- values in registers).
--
-- Elements are moved as the bits of their type, through integer units of
-- their size (a Long is no Lua number; a NaN read into a Lua number may be
-- made the canonical one).  One loop is generated per operation, element
-- type, loop order and strides of 1 (monomorphic traces).
local ffi = require 'ffi'
local internal = require 'torch.internal'
local types = require 'torch.types'
local kernels = require 'torch.maths.kernels'
local parallel = require 'torch.parallel'
local simd = require 'torch.maths.simd'

local checkbounds, origin, cast = internal.checkbounds, kernels.origin, ffi.cast
local recast = kernels.recast
local int64p, int32p = ffi.typeof('int64_t *'), ffi.typeof('int32_t *')

-- the unit each type's elements are moved as, and a cell making a number
-- the bits of an element
local unitptr, cells = {}, {}
for name, u in pairs{Byte = 'uint8_t', Char = 'int8_t', Short = 'int16_t', Int = 'int32_t',
                     Float = 'int32_t', Double = 'int64_t', Long = 'int64_t'} do
   unitptr[name] = ffi.typeof(u .. ' *')
   local cell = types[name].vla(1)
   cells[name] = {cell, cast(unitptr[name], cell)}
end

local loops = {}
local INT = 0x7fffffff

---------------------------------------------------------------------------
-- the three levels of a tensor
---------------------------------------------------------------------------

-- the stride of dimensions a..b of d taken as one level (0 for none, or
-- all of size 1), nil when they are not one stride apart
local function merged(d, a, b)
   local stride, span = 0, nil
   for i = b, a, -1 do
      local n = d.sz[i]
      if n ~= 1 then
         if span and d.str[i] ~= span then return nil end
         if not span then stride = d.str[i] end
         span = d.str[i] * n
      end
   end
   return stride
end

-- levels(d, dim) -> the pointer to d's first element (as units) and the
-- strides of its three levels; nil when it has none, or places beyond int32
local function levels(d, dim)
   if d.nd == 0 or not unitptr[d.T.name] or d.st.n > INT then return nil end
   local before, after = merged(d, 1, dim - 1), merged(d, dim + 1, d.nd)
   if not before or not after then return nil end
   checkbounds(d)
   return recast(unitptr[d.T.name], origin(d)), before, d.str[dim], after
end

-- the count of elements of the dimensions a..b of d
local function count(d, a, b)
   local n = 1
   for i = a, b do n = n * d.sz[i] end
   return n
end

-- whether places of counts n1, n2, n3 and strides s1, s2, s3 are all
-- distinct (a destination whose places repeat would show the order of the
-- writes): each level of more than one place steps past all the places of
-- the levels of smaller strides, so never by 0 (an expanded dimension); a
-- level of one place is taken as stride 0, sorted first
local function distinct(n1, s1, n2, s2, n3, s3)
   if n1 < 2 then n1, s1 = 1, 0 end
   if n2 < 2 then n2, s2 = 1, 0 end
   if n3 < 2 then n3, s3 = 1, 0 end
   -- (sorted by stride: three compare-and-swaps)
   if s1 > s2 then n1, s1, n2, s2 = n2, s2, n1, s1 end
   if s2 > s3 then n2, s2, n3, s3 = n3, s3, n2, s2 end
   if s1 > s2 then n1, s1, n2, s2 = n2, s2, n1, s1 end
   return (n1 == 1 or s1 > 0) and (n2 == 1 or s2 > 0 and s2 >= s1 * n1)
      and (n3 == 1 or s3 > 0 and s3 >= s2 * n2)
end

---------------------------------------------------------------------------
-- the index's check
---------------------------------------------------------------------------
-- Every value of the index lies in 1..lim when the OR of the high halves
-- is 0 and the OR of every (low - 1) and (lim - low) has no sign bit (lim <
-- 2^31).  No branch per element; the ORs of a few elements are taken apart
-- from the running one (one operation a step on its chain of dependencies).

-- a contiguous index: its n values in a row
local flatcheck = assert(loadstring([[local bor = require('bit').bor
return function(ip, n, lim)
   local hi, neg = 0, 0
   local q = n - n % 4
   for i = 0, 2 * q - 1, 8 do
      local a, b, c, d = ip[i], ip[i + 2], ip[i + 4], ip[i + 6]
      hi = bor(hi, bor(ip[i + 1], ip[i + 3], ip[i + 5], ip[i + 7]))
      neg = bor(neg, bor(a - 1, lim - a, b - 1, lim - b, c - 1, lim - c, d - 1, lim - d))
   end
   for i = q, n - 1 do
      local a = ip[i + i]
      hi = bor(hi, ip[i + i + 1])
      neg = bor(neg, bor(a - 1, lim - a))
   end
   return hi == 0 and neg >= 0
end]], '=(th index check)'))()

-- an index of three levels (outer, size, inner) of strides x0, xk, xi
local levelcheck = assert(loadstring([[local bor = require('bit').bor
return function(ip, outer, size, inner, x0, xk, xi, lim)
   local hi, neg = 0, 0
   for o = 0, outer - 1 do
      for i = 0, inner - 1 do
         local x = o * x0 + i * xi
         for k = 0, size - 1 do
            local p = 2 * (x + k * xk)
            local a = ip[p]
            hi = bor(hi, ip[p + 1])
            neg = bor(neg, bor(a - 1, lim - a))
         end
      end
   end
   return hi == 0 and neg >= 0
end]], '=(th index check)'))()

-- from this many values, a contiguous index's range is found by numpy's
-- SIMD loops once numpy is loaded (not imported for it: the loop above,
-- about a cycle a value, takes 0.3 ms for 10^6 values, an import 100 ms)
local EXTREMES, IMPORT = 1024, math.huge

-- inrange(idx, ip, outer, size, inner, x0, xk, xi, lim) -> whether every
-- value of the index (ip: int64_t *) is in 1..lim
local function inrange(idx, ip, outer, size, inner, x0, xk, xi, lim)
   if internal.iscontiguous(idx) then
      local n = outer * size * inner
      if n >= EXTREMES then
         local lo, hi = simd.extremes(ip, n, IMPORT)
         if lo then return lo >= 1 and hi <= lim end
      end
      return flatcheck(recast(int32p, ip), n, lim)
   end
   return levelcheck(recast(int32p, ip), outer, size, inner, x0, xk, xi, lim)
end

---------------------------------------------------------------------------
-- gather and scatter
---------------------------------------------------------------------------
-- The index runs over its three levels (outer o, along k, inner i) in step
-- with the `moving` tensor (gather's result, scatter's source); the index
-- value j picks the place along dim of the `fixed` one (gather's source,
-- scatter's destination).  With an inner level of 1, k is the innermost
-- loop; otherwise i, so that memory is read in order.  The index is checked
-- first: the loops read it unchecked.  The innermost loop does four
-- elements a step (their four reads, then their four writes in order: a
-- repeated place of scatter takes the last), the rest one by one, in
-- nested tests (REST): as a loop of one to three steps, that loop's own
-- trace or one unrolled in its caller's was LuaJIT's choice, taken anew in
-- each process (a gather of 200 x 3 along 1 took 0.7 us or 2.1).  A stride
-- of 1 is written as 1 in the loop's text (its multiplication folded away:
-- the loops of contiguous tensors are half the instructions of the general ones).

local alongk = [[return function(mp, ip, fp, outer, size, inner, m0, mk, mi, x0, xk, xi, f0, fk, fi, c)
   local q = size - size % 4
   for o = 0, outer - 1 do
      for i = 0, inner - 1 do
         local m, x, f = tobit(o * m0 + i * mi), tobit(o * x0 + i * xi), tobit(o * f0 + i * fi - fk)
         for k = 0, q - 1, 4 do
            FOUR
         end
         REST
      end
   end
end]]
local alongi = [[return function(mp, ip, fp, outer, size, inner, m0, mk, mi, x0, xk, xi, f0, fk, fi, c)
   local q = inner - inner % 4
   for o = 0, outer - 1 do
      for k = 0, size - 1 do
         local m, x, f = tobit(o * m0 + k * mk), tobit(o * x0 + k * xk), tobit(o * f0 - fk)
         for i = 0, q - 1, 4 do
            FOUR
         end
         REST
      end
   end
end]]
-- the places of the moving tensor and the fixed one (through the index) of
-- element V of the innermost loop in each order (MS, XS, FS, FK: the
-- strides, or 1; FS only in order i, where f moves with the inner level)
local places = {
   k = {M = 'm + V * MS', F = 'f + ip[x + V * XS] * FK'},
   i = {M = 'm + V * MS', F = 'f + V * FS + ip[x + V * XS] * FK'},
}
local strides = {k = {'mk', 'xk', 'fi', 'fk'}, i = {'mi', 'xi', 'fi', 'fk'}}

-- what each kind reads, and where it writes
local bodies = {
   gather = {'fp[F]', 'mp[M]'},
   scatter = {'mp[M]', 'fp[F]'},
   scatterfill = {'c', 'fp[F]'},
}

-- the loop's text: the body's places, then its strides
local function text(kind, order, ones)
   local var = order == 'k' and 'k' or 'i'
   local read, write = bodies[kind][1]:gsub('[MF]', places[order]), bodies[kind][2]:gsub('[MF]', places[order])
   local reads, writes = {}, {}
   for u = 0, 3 do
      local v = u == 0 and var or '(' .. var .. ' + ' .. u .. ')'
      reads[#reads + 1] = ('local a%d = %s'):format(u, read:gsub('V', v))
      writes[#writes + 1] = ('%s = a%d'):format(write:gsub('V', v), u)
   end
   -- (the elements q, q + 1 and q + 2 left: those below the level's count)
   local count, rest = order == 'k' and 'size' or 'inner', ''
   for u = 2, 0, -1 do
      local v = u == 0 and 'q' or ('(q + %d)'):format(u)
      rest = ('if %s < %s then %s = %s %s end'):format(v, count, write:gsub('V', v), read:gsub('V', v), rest)
   end
   local t = (order == 'k' and alongk or alongi):gsub('FOUR', table.concat(reads, '; ') .. '\n'
                                                       .. table.concat(writes, '; ')):gsub('REST', function() return rest end)
   for b, name in ipairs{'MS', 'XS', 'FS', 'FK'} do
      t = t:gsub(name, ones[b] and '1' or strides[order][b])
   end
   return 'local tobit = require("bit").tobit\n' .. t
end

-- the text of a helper state's function(job, a, b) running the loop over
-- the outer places [a, b), or the inner ones when args[12] is 1 (pool.lua's
-- kind kernel): the operands p[0..2], the other arguments job.args
local jobcall = [[
local ffi = require 'ffi'
local U, I = ffi.typeof('UNIT *'), ffi.typeof('int64_t *')
local f = (function() LOOP end)()
return function(job, a, b)
   local g = job.args
   local m, x, p = ffi.cast(U, job.p[0]), ffi.cast(I, job.p[1]), ffi.cast(U, job.p[2])
   if g[12] == 0 then
      f(m + a * g[0], x + a * g[3], p + a * g[6], b - a, g[9], g[10], g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8])
   else
      f(m + a * g[2], x + a * g[5], p + a * g[8], g[11], g[9], b - a, g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8])
   end
end]]

-- the loops by kind, order, strides of 1 (a number of 4 bits) and type
-- (found without making a key string), with their texts for helper states
local typeid = {}
for i = 1, types.count do typeid[types[i]] = i end
local cache, texts = {}, {}
for kind in pairs(bodies) do cache[kind], texts[kind] = {k = {}, i = {}}, {k = {}, i = {}} end
local unitname = {Byte = 'uint8_t', Char = 'int8_t', Short = 'int16_t', Int = 'int32_t',
                  Float = 'int32_t', Double = 'int64_t', Long = 'int64_t'}
-- (made apart from loop: its closure would make LuaJIT close upvalues on
-- loop's every return, which it does not compile)
local function make(kind, order, flags, T, key)
   local ones = {}
   for b = 1, 4 do ones[b] = math.floor(flags / 2 ^ (b - 1)) % 2 == 1 end
   local t = text(kind, order, ones)
   local f = assert(loadstring(t, '=(th index loop ' .. kind .. order .. ')'))()
   cache[kind][order][key] = f
   t = jobcall:gsub('UNIT', unitname[T.name]):gsub('LOOP', function() return t end)
   assert(loadstring(t))   -- (here first: a helper's callback could not raise an error)
   texts[kind][order][key] = t
   return f
end

local function loop(kind, order, flags, T)
   local key = flags * 16 + typeid[T]
   local f = cache[kind][order][key] or make(kind, order, flags, T, key)
   return f, texts[kind][order][key]
end

-- the levels of the index and of the two tensors of a gather or scatter
-- (a table reused by every call: none made per call)
local L = {}

-- prepare(m, idx, f, dim) -> whether the loops apply, L then holding their
-- operands (m nil: scatter's value)
local function prepare(m, idx, f, dim)
   local fp, f0, fk, fi = levels(f, dim)
   local ip, x0, xk, xi = levels(idx, dim)
   if not fp or not ip or m and m.T ~= f.T then return false end
   local mp, m0, mk, mi = fp, 0, 0, 0
   if m then
      mp, m0, mk, mi = levels(m, dim)
      if not mp then return false end
   end
   L.mp, L.m0, L.mk, L.mi, L.ip, L.x0, L.xk, L.xi = mp, m0, mk, mi, ip, x0, xk, xi   -- (ip: int64_t *, a Long's unit)
   L.fp, L.f0, L.fk, L.fi = fp, f0, fk, fi
   L.outer, L.size, L.inner = count(idx, 1, dim - 1), idx.sz[dim], count(idx, dim + 1, idx.nd)
   return true
end

-- check(lim) -> whether the index's values in L are in 1..lim
local function check(idx, lim)
   return inrange(idx, L.ip, L.outer, L.size, L.inner, L.x0, L.xk, L.xi, lim)
end

-- from this many elements, gather and scatter are shared with helper
-- threads (torch.parallel), the outer places in chunks of at least CHUNK elements
local SPLIT, CHUNK = 65536, 8192

-- shared(t) -> true when the loop of text t ran over the operands in L on
-- this thread and helper threads
local function shared(t)
   -- (split along the outer level, or the inner one when there is one outer place)
   local outer, inner = L.outer, L.inner
   local split = outer < 2 and inner
   local places = split or outer
   if places < 2 then return false end
   local job = parallel.job(outer * L.size * inner, SPLIT)
   if not job then return false end
   job.source, job.sourcelen = t, #t
   job.p[0], job.p[1], job.p[2] = L.mp, L.ip, L.fp
   local g = job.args
   g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8] = L.m0, L.mk, L.mi, L.x0, L.xk, L.xi, L.f0, L.fk, L.fi
   g[9], g[10], g[11], g[12] = L.size, inner, outer, split and 1 or 0
   parallel.segment(job, 0, places)
   parallel.run(job, 'kernel', parallel.chunk(places, math.ceil(CHUNK * places / (outer * L.size * inner)), 4))
   return true
end

-- run(kind, T [, c [, apart]]): the loop of that kind over the operands in
-- L; apart: the tensors share no memory, so that the outer places may be
-- done in any order at once (gather and scatter from a tensor)
local function run(kind, T, c, apart)
   local inner, flags = L.inner, 0
   local order = inner == 1 and 'k' or 'i'
   if order == 'k' then
      flags = (L.mk == 1 and 1 or 0) + (L.xk == 1 and 2 or 0)
   else
      flags = (L.mi == 1 and 1 or 0) + (L.xi == 1 and 2 or 0) + (L.fi == 1 and 4 or 0)
   end
   if L.fk == 1 then flags = flags + 8 end
   local f, t = loop(kind, order, flags, T)
   if apart and L.outer * L.size * inner >= SPLIT and shared(t) then return end
   f(L.mp, L.ip, L.fp, L.outer, L.size, inner, L.m0, L.mk, L.mi, L.x0, L.xk, L.xi, L.f0, L.fk, L.fi, c)
end

-- do tensors a, b and c (c may be nil) use distinct storages?
local function apart(a, b, c)
   return not rawequal(a.st, b.st) and (not c or not rawequal(a.st, c.st) and not rawequal(b.st, c.st))
end

-- gather(r, s, idx, dim) -> true when done (r, of idx's sizes, = s's
-- elements at idx along dim), false on an index out of range (nothing
-- written), nil when the loops do not apply
function loops.gather(r, s, idx, dim)
   if not prepare(r, idx, s, dim) or not distinct(L.outer, L.m0, L.size, L.mk, L.inner, L.mi) then
      return nil
   end
   if not check(idx, s.sz[dim]) then return false end
   run('gather', r.T, nil, apart(r, s, idx))
   return true
end

-- scatter(d, idx, s, c, dim) -> true when done (d[.. idx ..] = s's elements,
-- or c, a value of d's type, when s is nil), false on an index out of range
-- (nothing written), nil when the loops do not apply
function loops.scatter(d, idx, s, c, dim)
   if not prepare(s, idx, d, dim) then return nil end
   if not distinct(count(d, 1, dim - 1), L.f0, d.sz[dim], L.fk, count(d, dim + 1, d.nd), L.fi) then
      return nil
   end
   if not check(idx, d.sz[dim]) then return false end
   if s then
      run('scatter', d.T, nil, apart(d, s, idx))
   else
      local cell = cells[d.T.name]
      cell[1][0] = c
      run('scatterfill', d.T, cell[2][0])
   end
   return true
end

---------------------------------------------------------------------------
-- indexFill
---------------------------------------------------------------------------
-- The slice of d at each index value j (the vector idx: n values, stride
-- xs) along dim set to c, a level at a time (with an inner level of 1, the
-- outer one is the innermost loop).

local fills = {
   k = [[return function(dp, ip, n, xs, outer, inner, d0, dk, di, c)
   for k = 0, n - 1 do
      local f = tobit((tonumber(ip[k * xs]) - 1) * dk)
      for o = 0, outer - 1 do dp[f + o * d0] = c end
   end
end]],
   i = [[return function(dp, ip, n, xs, outer, inner, d0, dk, di, c)
   for k = 0, n - 1 do
      local f = tobit((tonumber(ip[k * xs]) - 1) * dk)
      for o = 0, outer - 1 do
         local p = tobit(f + o * d0)
         for i = 0, inner - 1 do dp[p + i * DI] = c end
      end
   end
end]],
}
local fillcache = {k = {}, i = {}}

-- fill(d, idx, dim, c) -> true when done, false on an index out of range
-- (nothing written), nil when the loops do not apply; c is a value of d's type
function loops.fill(d, idx, dim, c)
   local dp, d0, dk, di = levels(d, dim)
   -- (an index in d's memory could change as d is filled: the general path's)
   if not dp or idx.nd ~= 1 or rawequal(idx.st, d.st) or idx.st.n > INT then return nil end
   checkbounds(idx)
   local n, xs, ip = idx.sz[1], idx.str[1], recast(int64p, origin(idx))
   if n == 0 then return true end
   if not inrange(idx, ip, 1, n, 1, 0, xs, 0, d.sz[dim]) then return false end
   local outer, inner = count(d, 1, dim - 1), count(d, dim + 1, d.nd)
   local order = inner == 1 and 'k' or 'i'
   local key = typeid[d.T] * 2 + (di == 1 and 1 or 0)
   local f = fillcache[order][key]
   if not f then
      local t = fills[order]:gsub('DI', di == 1 and '1' or 'di')
      f = assert(loadstring('local tobit = require("bit").tobit\n' .. t, '=(th index fill)'))()
      fillcache[order][key] = f
   end
   local cell = cells[d.T.name]
   cell[1][0] = c
   f(dp, ip, n, xs, outer, inner, d0, dk, di, cell[2][0])
   return true
end

return loops
