-- Element loops in LuaJIT for contiguous tensors of every size where they beat
-- a numpy call (a Lua->Python crossing costs microseconds; these loops cost
-- about a nanosecond per element).
--
-- One loop is generated per (operation, element types): LuaJIT compiles each
-- into its own trace, which stays monomorphic (a shared loop calling a
-- function argument does not).  An operation gives, per element type, the
-- expression of one element in x (and y, z, the number c, the accumulator
-- acc), or nil where the loop would not compute as TH did: LongTensors (64-bit
-- values are not Lua numbers) and integer results a double cannot hold exactly.
-- A kernel returns false when it does not apply (a non-contiguous operand, a
-- type it has no expression for, too many elements): the caller then takes
-- its general path.
--
-- The dispatchers every operation shares (map1, map2, map3, fill, copy,
-- halves, strided here; lines.lua's, simd.lua's, longloops.map, fused.axpy)
-- end their parameters with `...`: a vararg function never becomes the root
-- of a trace of its own (LuaJIT counts no calls of one), so each caller's
-- trace goes on through it, specialised to the caller's op and types.  Made
-- such a root by one operation, a dispatcher stopped the traces of all the
-- others, which linked to that trace made for other types and ran as
-- fragments: after a pass of every family, a copy of 100 bytes into doubles
-- took 6,158 instructions instead of 1,977 (add of a number 5,163 against
-- 2,220).  The callers themselves stay fixed-argument functions, the roots
-- that interpreted code calling an operation needs.
local ffi = require 'ffi'
local internal = require 'torch.internal'
local types = require 'torch.types'
local parallel = require 'torch.parallel'

local nelement, iscontiguous, checkbounds, apart = internal.nelement, internal.iscontiguous,
   internal.checkbounds, internal.apart
local pairs, concat, loadstring, assert = pairs, table.concat, loadstring, assert

local kernels = {}

-- the functions an expression may call, made locals of each generated loop
-- (C: C's math library, libm.lua)
local env = {tobit = bit.tobit, band = bit.band, lshift = bit.lshift, arshift = bit.arshift,
             bor = bit.bor, bxor = bit.bxor, bnot = bit.bnot, rshift = bit.rshift, tonumber = tonumber, C = require 'torch.maths.libm'}
for k, v in pairs(math) do env[k] = v end
-- C's integer division: the quotient toward zero (of two 32-bit integers,
-- the double quotient's is exact: it never rounds across an integer)
local floor, ceil = math.floor, math.ceil
function env.trunc(v) return v < 0 and ceil(v) or floor(v) end
-- TH's remainder of integers up to 32 bits: C's a % b, moved by b when r * b,
-- computed in C's int (an Int product wraps around), is negative, the sum
-- wrapped as well (Byte, Char and Short are promoted to int: no wrap there)
local INTREMAINDER = [[
local function intremainder(a, b)
   local q = a / b
   local r = a - b * (q < 0 and math.ceil(q) or math.floor(q))
   local hi = bit.lshift(bit.tobit(r * bit.arshift(b, 16)), 16)
   if r ~= 0 and bit.tobit(bit.tobit(r * bit.band(b, 65535)) + hi) < 0 then return bit.tobit(r + b) end
   return r
end]]
env.intremainder = assert(loadstring(INTREMAINDER .. '\nreturn intremainder', '=(th int remainder)'))()
kernels.intremainder = env.intremainder

-- f32(v): v rounded to a float, an intermediate step of a FloatTensor
-- computation as Torch7 did it in float (a step done in double and rounded
-- once gives the float operation's result)
local f32cell = ffi.new('float[1]')
function kernels.f32(v)
   f32cell[0] = v
   return f32cell[0]
end
env.f32 = kernels.f32

-- kernels.helpers{name = f}: Lua functions expressions may call by name
function kernels.helpers(fs)
   for k, v in pairs(fs) do env[k] = v end
end

local templates = {
   map1 = [[return function(rp, xp, n, c)
   for i = 0, n - 1 do local x = xp[i]; rp[i] = %s end
end]],
   map2 = [[return function(rp, xp, yp, n, c)
   for i = 0, n - 1 do local x, y = xp[i], yp[i]; rp[i] = %s end
end]],
   map3 = [[return function(rp, xp, yp, zp, n, c)
   for i = 0, n - 1 do local x, y, z = xp[i], yp[i], zp[i]; rp[i] = %s end
end]],
   fill = [[return function(rp, n, c)
   for i = 0, n - 1 do rp[i] = %s end
end]],
   dimfold = [[return function(rp, xp, outer, size, inner, init)
   for o = 0, outer - 1 do
      for i = 0, inner - 1 do
         local acc, p = init, o * size * inner + i
         for _ = 1, size do local x = xp[p]; acc = %s; p = p + inner end
         rp[o * inner + i] = %s
      end
   end
end]],
   dimscan = [[return function(rp, xp, outer, size, inner, init)
   for o = 0, outer - 1 do
      for i = 0, inner - 1 do
         local acc, p = init, o * size * inner + i
         for _ = 1, size do local x = xp[p]; acc = %s; rp[p] = %s; p = p + inner end
      end
   end
end]],
   dimbest = [[return function(rp, ip, xp, outer, size, inner)
   for o = 0, outer - 1 do
      for i = 0, inner - 1 do
         local p = o * size * inner + i
         local best, at = xp[p], 0
         for k = 0, size - 1 do
            local x = xp[p]
            if %s then
               best, at = x, k
               if x ~= x then break end
            end
            p = p + inner
         end
         rp[o * inner + i] = best
         ip[o * inner + i] = at + 1
      end
   end
end]],
   fold2 = [[return function(xp, yp, n, acc)
   for i = 0, n - 1 do local x, y = xp[i], yp[i]; acc = %s end
   return acc
end]],
   mm = [[return function(rp, r1, r2, ap, a1, a2, bp, b1, b2, m, n, k)
   for i = 0, m - 1 do
      for j = 0, n - 1 do
         local acc, pa, pb = 0, i * a1, j * b2
         for _ = 1, k do acc = acc + ap[pa] * bp[pb]; pa = pa + a2; pb = pb + b1 end
         rp[i * r1 + j * r2] = %s
      end
   end
end]],
   fold = [[return function(xp, n, acc, c)
   for i = 0, n - 1 do local x = xp[i]; acc = %s end
   return acc
end]],
}

local function generate(kind, expr, store)
   local names, text = {}, expr .. ' ' .. (store or '')
   for k in pairs(env) do
      if text:find(k, 1, true) then names[#names + 1] = k end
   end
   local lines = {}
   for i, k in ipairs(names) do lines[i] = ('local %s = E.%s'):format(k, k) end
   lines[#lines + 1] = templates[kind]:format(expr, store)
   local chunk = assert(loadstring('local E = ...\n' .. concat(lines, '\n'), '=(th kernel ' .. expr .. ')'))
   return chunk(env)
end

-- Loops shared with helper threads (torch.parallel): a helper runs a Lua
-- state of its own, which has none of this state's values, so its copy of
-- a loop is compiled from a text that makes each name the expression uses
-- (shared[name]; none for the Lua functions of kernels.helpers)
local shared = {
   tobit = 'local tobit = bit.tobit',
   band = 'local band = bit.band',
   lshift = 'local lshift = bit.lshift',
   arshift = 'local arshift = bit.arshift',
   bor = 'local bor = bit.bor',
   bxor = 'local bxor = bit.bxor',
   bnot = 'local bnot = bit.bnot',
   rshift = 'local rshift = bit.rshift',
   trunc = 'local function trunc(v) return v < 0 and math.ceil(v) or math.floor(v) end',
   intremainder = INTREMAINDER,
   tonumber = '',
   C = 'pcall(ffi.cdef, [[' .. internal.libm .. ']])\nlocal C = ffi.C',
   f32 = 'local f32cell = ffi.new("float[1]")\n'
         .. 'local function f32(v) f32cell[0] = v; return f32cell[0] end',
}
for k in pairs(math) do shared[k] = ('local %s = math.%s'):format(k, k) end
-- the call of a loop on elements [a, b) of a job's operands
local jobcalls = {
   map1 = 'f(ffi.cast(R, job.p[0]) + a, ffi.cast(X, job.p[1]) + a, b - a, job.alpha)',
   map2 = 'f(ffi.cast(R, job.p[0]) + a, ffi.cast(X, job.p[1]) + a, ffi.cast(Y, job.p[2]) + a, b - a, job.alpha)',
   map3 = 'f(ffi.cast(R, job.p[0]) + a, ffi.cast(X, job.p[1]) + a, ffi.cast(Y, job.p[2]) + a, '
          .. 'ffi.cast(Y, job.p[3]) + a, b - a, job.alpha)',
}

-- sharedtext(kind, expr, T1, T2, T3) -> the text of the loop for a helper
-- state (pool.lua's kind kernel), or false when expr calls a Lua function
local function sharedtext(kind, expr, T1, T2, T3)
   local lines = {'local ffi = require "ffi"'}
   for k in pairs(env) do
      if expr:find(k, 1, true) then
         if not shared[k] then return false end
         lines[#lines + 1] = shared[k]
      end
   end
   lines[#lines + 1] = ('local R, X, Y = ffi.typeof("%s *"), ffi.typeof("%s *"), ffi.typeof("%s *")')
      :format(T1.ctype, (T2 or T1).ctype, (T3 or T2 or T1).ctype)
   lines[#lines + 1] = 'local f = (function() ' .. templates[kind]:format(expr) .. ' end)()'
   lines[#lines + 1] = 'return function(job, a, b) ' .. jobcalls[kind] .. ' end'
   return concat(lines, '\n')
end

-- the generated loops of each kind, by operation and element types: found
-- by a numeric key, so that a call allocates nothing (no key string)
local loops = {}
local typeid = {}
for i = 1, types.count do typeid[types[i]] = i end
local kinds = {}
for k in pairs(templates) do kinds[#kinds + 1] = k end
table.sort(kinds)
local kindid = {}
for i, k in ipairs(kinds) do kindid[k] = i end

local function key(kind, T1, T2, T3)
   return ((kindid[kind] * 8 + typeid[T1]) * 8 + (T2 and typeid[T2] or 0)) * 8 + (T3 and typeid[T3] or 0)
end

-- the table of op's entries in a cache (by key)
local function entries(cache, op)
   local byop = cache[op]
   if not byop then
      byop = {}
      cache[op] = byop
   end
   return byop
end

-- loop(kind, op, expr, T1 [, T2 [, T3]] [, store]) -> the loop of op over those types
local function loop(kind, op, expr, T1, T2, T3, store)
   local byop, k = entries(loops, op), key(kind, T1, T2, T3)
   local f = byop[k]
   if not f then
      f = generate(kind, expr, store)
      byop[k] = f
   end
   return f
end

-- the texts of loops for helper states, as loops (false: none)
local texts = {}
local function text(kind, op, expr, T1, T2, T3)
   local byop, k = entries(texts, op), key(kind, T1, T2, T3)
   local t = byop[k]
   if t == nil then
      t = sharedtext(kind, expr, T1, T2, T3)
      -- (compiled here first: a helper's callback could not raise an error)
      if t then assert(loadstring(t)) end
      byop[k] = t
   end
   return t
end

-- origin(d) -> a pointer to d's first element, kept in d (no cdata made per
-- call) unless it is the storage's own: {pointer, storage's pointer, offset}
-- in one field a view gets when it needs it (a tensor is made without it, as
-- most start their storage; three fields made a fresh view's table rehash
-- into twice the slots: A[i]:sum() of 50 elements cost half again)
local function origin(d)
   local base = d.st.ptr
   if d.off == 0 then return base end
   local kept = d.fo
   if not kept or kept[2] ~= base or kept[3] ~= d.off then
      kept = {base + d.off, base, d.off}
      d.fo = kept
   end
   return kept[1]
end
kernels.origin = origin

-- recast(ctype, p) -> p as a pointer of ctype, kept for each pointer object
-- asked for twice (origin's are kept in the tensor): a pointer made per call
-- and passed to a loop's trace is a new object every time (no allocation
-- sinking).  A pointer seen once (a new result's, which never comes back) is
-- only remembered among the last SEEN: an entry in the weak table for each
-- cost a new 100-element result a fifth of its time.
local SEEN = 4
local recasts = setmetatable({}, {__mode = 'k'})
local seen, nextseen = {}, 1
function kernels.recast(ctype, p)
   local byp = recasts[ctype]
   if not byp then
      byp = setmetatable({}, {__mode = 'k'})
      recasts[ctype] = byp
   end
   local q = byp[p]
   if q then return q end
   q = ffi.cast(ctype, p)
   for k = 1, SEEN do
      if rawequal(seen[k], p) then
         byp[p] = q
         return q
      end
   end
   seen[nextseen], nextseen = p, nextseen % SEEN + 1
   return q
end

-- the pointer to d's first element, when d is contiguous
-- (types outside the seven numeric ones, Half, have no loops)
local function flat(d)
   if d.nd == 0 or not typeid[d.T] or not iscontiguous(d) then return nil end
   checkbounds(d)
   return origin(d)
end
kernels.flat = flat

-- Operands of any strides (transposed, permuted, narrowed views) of up to
-- strided.DEPTH dimensions once collapsed, up to STRIDED elements (beyond,
-- numpy's strided loops win), in strided.lua's loops: every operand of r's
-- sizes, and one that shares r's memory read where it is written
-- (otherwise the order of the writes would show, as numpy's buffered copy
-- does not let it)
local strided = require 'torch.maths.strided'
local STRIDED = 65536
local function walkable(d, r)
   return d == nil or typeid[d.T] and apart(d, r)
end
-- stridedrun(kind, op, expr, count, r, x, y, z, c) -> true when the loop ran
-- (r the result, or the folded operand of a fold, whose value it returns)
local function stridedrun(kind, op, expr, count, r, x, y, z, e1, e2)
   if not typeid[r.T] or not walkable(x, r) or not walkable(y, r) or not walkable(z, r) then return false end
   local depth = strided.collapse(count, r, x, y, z)
   if not depth then return false end
   if depth > 1 then
      if kind == 'fill' then
         strided.bystride(count, depth)
      elseif kind ~= 'fold' and iscontiguous(r) then
         strided.longest(count, depth)
      end
   end
   if not strided.steady(depth) then return false end
   strided.bounds(count, r, x, y, z)
   local k = strided.kind(kind, depth, kernels.template)
   local f = loop(k.name, op, expr, r.T, x and x.T, y and y.T)
   return true, k.call(f, origin(r), x and origin(x), y and origin(y), z and origin(z), e1, e2)
end

-- halves(kind, op, expr, r, x, y, c, d) -> true when strided.lua's loop of
-- kind (halves1, halves2) ran over LongTensors seen as pairs of 32-bit
-- halves (low, high: little-endian), every step counted in int32s
local int32p = ffi.typeof('int32_t *')
function kernels.halves(kind, op, expr, r, x, y, c, d, ...)
   local count = y and 3 or 2
   if nelement(r) > STRIDED or not walkable(x, r) or not walkable(y, r) then return false end
   local depth = strided.collapse(count, r, x, y)
   if not depth then return false end
   if depth > 1 and iscontiguous(r) then strided.longest(count, depth) end
   if not strided.steady(depth) then return false end
   strided.bounds(count, r, x, y)
   for k = 1, count do
      local s = strided.steps[k]
      for j = 1, depth do s[j] = 2 * s[j] end
   end
   local k = strided.kind(kind, depth, kernels.template)
   local f = loop(k.name, op, expr, types.Long)
   local recast = kernels.recast
   k.call(f, recast(int32p, origin(r)), recast(int32p, origin(x)), y and recast(int32p, origin(y)), nil, c, d)
   return true
end

-- strided(kind, op, expr, r, x, y, z, e1, e2) -> true and what the loop
-- returned, when a loop of strided.lua's kind (map1... sign2) ran
function kernels.strided(kind, op, expr, r, x, y, z, e1, e2, ...)
   if nelement(r) > STRIDED then return false end
   return stridedrun(kind, op, expr, z and 4 or y and 3 or x and 2 or 1, r, x, y, z, e1, e2)
end

-- an operation: name, expressions by element type name (nil: none), and the
-- most elements for which the loop beats numpy (measured per family by
-- scripts/bench/crossover.lua, which changes kernels.ops[name].limit), for
-- FloatTensors floatlimit when given (a float loop converts every element to
-- double and back, where numpy's float32 loops do twice the elements per instruction)
kernels.ops = {}
local CHUNK = 4096
function kernels.op(name, limit, exprs, floatlimit)
   local op = {name = name, limit = limit, exprs = exprs, floatlimit = floatlimit or limit, split = math.huge,
               chunk = CHUNK}
   kernels.ops[name] = op
   return op
end

-- split(op, from [, chunk]) -> op: from `from` elements on, op's loops over
-- contiguous operands are shared with helper threads (torch.parallel), in
-- chunks of at least `chunk` elements (CHUNK), as Torch7 ran its loops on
-- OpenMP threads (when the expression calls no Lua function of this state);
-- for expensive elements (a C function call), where sharing pays from
-- thousands
function kernels.split(op, from, chunk)
   op.split, op.chunk = from, chunk or CHUNK
   return op
end

-- callsplit(op) -> op: split for loops calling a C function per element
-- (pow, sin, fmod...: 5-40 ns each), shared from CALLSPLIT elements in
-- chunks of CALLCHUNK (a job's hand-over costs a few microseconds: sin of
-- 10^4 doubles 100 -> 66 us, the original 119)
local CALLSPLIT, CALLCHUNK = 2048, 512
function kernels.callsplit(op)
   return kernels.split(op, CALLSPLIT, CALLCHUNK)
end

-- split(kind, op, expr, r, x, y, rp, xp, yp, n, c [, z, zp]) -> true when
-- the loop ran on this thread and helper threads (x, y and z: views apart
-- from r's memory; z of y's type)
local function split(kind, op, expr, r, x, y, rp, xp, yp, n, c, z, zp)
   if not apart(x, r) or y and not apart(y, r) or z and not apart(z, r) then return false end
   local t = text(kind, op, expr, r.T, x.T, y and y.T)
   if not t then return false end
   local job = parallel.job(n, op.split)
   if not job then return false end
   job.source, job.sourcelen = t, #t
   job.p[0], job.p[1], job.p[2], job.p[3], job.alpha = rp, xp, yp, zp, c or 0
   parallel.segment(job, 0, n)
   parallel.run(job, 'kernel', parallel.chunk(n, op.chunk, 4))
   return true
end

-- the most elements op's loop takes on T
local Float = types.Float
local function limit(op, T)
   if T == Float then return op.floatlimit end
   return op.limit
end
kernels.limit = limit

-- within(n, most) -> whether a loop takes n elements where it takes up to
-- `most` once numpy is there: any n before (numpy's import is then under
-- way in the background; a first bulk operation ran 50 ms waiting for it)
local numpyready = internal.numpyready
local function within(n, most)
   return n <= most or not numpyready()
end
kernels.within = within

-- expressions for every type but Long; `wide` is the one for IntTensors
-- (nil when an int32 result could leave the exactly held range)
function kernels.alltypes(expr, wide)
   return {Byte = expr, Char = expr, Short = expr, Int = wide, Float = expr, Double = expr}
end

function kernels.floats(expr)
   return {Float = expr, Double = expr}
end

-- r[i] = expr(x[i], c)
function kernels.map1(op, r, x, c, ...)
   local n = nelement(r)
   local expr = op.exprs[r.T.name]
   if not within(n, limit(op, r.T)) or not expr or x.T == types.Long then return false end
   local rp, xp = flat(r), flat(x)
   if rp and xp then
      if n < op.split or not split('map1', op, expr, r, x, nil, rp, xp, nil, n, c) then
         loop('map1', op, expr, r.T, x.T)(rp, xp, n, c)
      end
      return true
   end
   return within(n, STRIDED) and stridedrun('map1', op, expr, 2, r, x, nil, nil, c)
end

-- r[i] = expr(x[i], y[i], c)
function kernels.map2(op, r, x, y, c, ...)
   local n = nelement(r)
   local expr = op.exprs[r.T.name]
   if not within(n, limit(op, r.T)) or not expr or x.T == types.Long or y.T == types.Long then return false end
   local rp, xp, yp = flat(r), flat(x), flat(y)
   if rp and xp and yp then
      if n < op.split or not split('map2', op, expr, r, x, y, rp, xp, yp, n, c) then
         loop('map2', op, expr, r.T, x.T, y.T)(rp, xp, yp, n, c)
      end
      return true
   end
   return within(n, STRIDED) and stridedrun('map2', op, expr, 3, r, x, y, nil, c)
end

-- r[i] = expr(x[i], y[i], z[i], c)
function kernels.map3(op, r, x, y, z, c, ...)
   local n = nelement(r)
   local expr = op.exprs[r.T.name]
   if not within(n, limit(op, r.T)) or not expr then return false end
   local rp, xp, yp, zp = flat(r), flat(x), flat(y), flat(z)
   if not rp or not xp or not yp or not zp then
      return within(n, STRIDED) and stridedrun('map3', op, expr, 4, r, x, y, z, c)
   end
   if n < op.split or not split('map3', op, expr, r, x, y, rp, xp, yp, n, c, z, zp) then
      loop('map3', op, expr, r.T)(rp, xp, yp, zp, n, c)
   end
   return true
end

-- fill(r, c): every element of r set to the number c (of r's type already):
-- +0 is a memset, more than FILL 4-byte elements a wmemset; another number
-- is written by the loop into the first FILL elements, which then double by
-- memcpy up to FILLBLOCK bytes, copied on from there block by block (a source
-- that stays in the L1 cache: half the memory traffic of doubling to the end;
-- memory speed at every size, no Python call; -0 reaches this as a number,
-- not as a zero); from FILLSPLIT bytes, the zeroing or the copies are shared
-- with helper threads.  (Blocks of 32 KB, the L1 cache's size less a third,
-- left the source there in part: 131072 doubles 17-19 us, in 8 KB 13, the
-- original's 11.)
local FILL, FILLBLOCK = 256, 8192
local STRIDEDFILL = 4096
-- from this many bytes, a fill is shared with helper threads (torch.parallel)
local FILLSPLIT = 2^20
local min = math.min
-- 4-byte elements: glibc's wmemset stores their bit pattern with vector
-- stores, no reads (wchar_t is a 32-bit int on Linux)
local wmemset
if ffi.os == 'Linux' and ffi.sizeof('wchar_t') == 4
   and pcall(ffi.cdef, 'int32_t *wmemset(int32_t *s, int32_t c, size_t n);') then
   wmemset = ffi.C.wmemset
end
local fillcells = {}
for i = 1, types.count do
   if types[i].size == 4 then fillcells[types[i]] = types[i].vla(1) end
end
-- fillrows(r, c) -> true when done: a view whose collapsed layout is rows
-- of ROW or more consecutive elements, apart (a transposed or narrowed
-- matrix), filled row by row as contiguous memory: a memset for +0, else
-- the first row by the loop and the others copied from it (a transposed
-- 100x100 zero: 6 us by the strided loop, 3.2 by numpy, the original 0.9)
local ROW = 64
local function fillrows(r, c)
   if not typeid[r.T] or strided.collapse(1, r) ~= 2 then return false end
   strided.bystride(1, 2)
   local sizes, steps = strided.sizes, strided.steps[1]
   local rows, step, n = sizes[1], steps[1], sizes[2]
   if steps[2] ~= 1 or n < ROW or step < n then return false end
   checkbounds(r)
   local rp, bytes = origin(r), n * r.T.size
   if c == 0 and 1 / c > 0 then
      for i = 0, rows - 1 do ffi.fill(rp + i * step, bytes) end
      return true
   end
   loop('fill', 'fill', 'c', r.T)(rp, n, c)
   for i = 1, rows - 1 do ffi.copy(rp + i * step, rp, bytes) end
   return true
end

function kernels.fill(r, c, ...)
   local rp = flat(r)
   if not rp then
      if fillrows(r, c) then return true end
      -- (beyond STRIDEDFILL elements numpy's strided fill is faster, but
      -- for -0: its fill is given a +0)
      if nelement(r) > STRIDEDFILL and not (c == 0 and 1 / c < 0) then return false end
      return stridedrun('fill', 'fill', 'c', 1, r, nil, nil, nil, c)
   end
   local n, size = nelement(r), r.T.size
   if c == 0 and 1 / c > 0 then
      local job = parallel.job(n * size, FILLSPLIT)
      if not job then
         ffi.fill(rp, n * size)
         return true
      end
      job.p[0], job.steps[0] = rp, size
      parallel.segment(job, 0, n)
      parallel.run(job, 'zero', parallel.chunk(n, FILLBLOCK / size, 4))
      return true
   end
   if size == 4 and wmemset and n > FILL and n * size < FILLSPLIT then
      local cell = fillcells[r.T]
      loop('fill', 'fill', 'c', r.T)(cell, 1, c)
      wmemset(ffi.cast(int32p, rp), ffi.cast(int32p, cell)[0], n)
      return true
   end
   local done = min(n, FILL)
   loop('fill', 'fill', 'c', r.T)(rp, done, c)
   local block = FILLBLOCK / size
   while done < n and done < block do
      local k = min(done, n - done)
      ffi.copy(rp + done, rp, k * size)
      done = done + k
   end
   local job = parallel.job(n * size, FILLSPLIT)
   if job then
      -- the rest copied from the first block by this thread and helpers
      job.p[0], job.p[1], job.steps[0], job.steps[1] = rp, rp, size, block
      parallel.segment(job, done, n)
      parallel.run(job, 'pattern', parallel.chunk(n, block, 4))
      return true
   end
   while done < n do
      local k = min(block, n - done)
      ffi.copy(rp + done, rp, k * size)
      done = done + k
   end
   return true
end

-- copy(r, x): x's elements converted to r's type (r and x differ in type):
-- a number beyond int32 (or NaN) becomes INT_MIN in an integer type, as
-- TH's C cast did on x86; LongTensors take the general path
local convert = {}
for i = 1, types.count do
   local T = types[i]
   convert[T.name] = T.integer and 'x >= -2147483648 and x < 2147483648 and x or -2147483648' or 'x'
end
-- (a LongTensor's: the number stored through its own pointer, C's conversion)
convert.Long = 'x >= -9223372036854775808 and x < 9223372036854775808 and x or -9223372036854775808'
local copyops = {}
-- elements from which a conversion is shared with helper threads (its
-- integer conversions cost a few ns an element)
local COPYSPLIT = 65536
-- a LongTensor's elements into a LongTensor as they are, into a
-- DoubleTensor as C converted them (tonumber gives the nearest double), a
-- 64-bit value never stored through another pointer type, in strided.lua's
-- loops (a contiguous copy of one type is a memmove before this); other
-- targets take the general path (64-bit values wrap into narrower
-- integers, and would be rounded twice into a float)
local longcopies = {Long = {name = 'copylong', exprs = {Long = 'x'}},
                    Double = {name = 'copylongdouble', exprs = {Double = 'tonumber(x)'}}}
-- a contiguous LongTensor's elements into a contiguous tensor of another
-- type, each read as its two 32-bit halves (no 64-bit value in Lua, no cdata
-- per element; a copy into a new tensor went to numpy, which cost a view of
-- the new memory: 11-14 us at 100-1000 elements): into a double as C
-- converted (hi * 2^32 + the unsigned low half, rounded once), into a
-- narrower integer C's wrap-around (the signed low half, whose low bits the
-- store keeps), into a float while the value is a double exactly (|v| <
-- 2^53), else false (C rounded once, straight to float)
local FROMLONG = [[
return function(rp, lo, hi, n)
   for i = 0, n - 1 do
      local h = hi[2 * i + 1]
      %s
   end
   return true
end]]
local fromlongstep = {
   Double = 'rp[i] = h * 4294967296 + lo[2 * i]',
   Float = 'if h >= 2097152 or h < -2097152 then return false end\n      rp[i] = h * 4294967296 + lo[2 * i]',
}
for _, name in ipairs{'Int', 'Short', 'Char', 'Byte'} do fromlongstep[name] = 'rp[i] = hi[2 * i]' end
local fromlong = {}
local uint32p, int32p = ffi.typeof('uint32_t *'), ffi.typeof('int32_t *')
local function copyfromlong(r, x)
   local step = fromlongstep[r.T.name]
   local rp, xp = step and flat(r), step and flat(x)
   if not rp or not xp or rawequal(r.st, x.st) then return false end
   local f = fromlong[r.T.name]
   if not f then
      f = assert(loadstring(FROMLONG:format(step), '=(th copy from long)'))()
      fromlong[r.T.name] = f
   end
   return f(rp, kernels.recast(uint32p, xp), kernels.recast(int32p, xp), nelement(r))
end

-- plainconversion(r, x) -> whether x's floats go into r's integer type
-- (not Long) as they are, no range check an element: every one of them is
-- in C's int range, which two of numpy's reductions tell from INRANGEFROM
-- elements (IntTensor:copy of 10^4 doubles 12.3 -> 7.0 us, the original's 7.2-9.7)
local INRANGEFROM, simd = 256, nil
local function plainconversion(r, x)
   local n = nelement(r)
   if n < INRANGEFROM or not r.T.integer or r.T == types.Long then return false end
   local xp = flat(x)
   if not xp or not flat(r) then return false end
   simd = simd or require 'torch.maths.simd'   -- (which requires this module)
   return simd.within32(x.T, n, math.huge, xp) or false
end

function kernels.copy(r, x, ...)
   if x.T == types.Long then
      if copyfromlong(r, x) then return true end
      local op = longcopies[r.T.name]
      return op and within(nelement(r), STRIDED) and stridedrun('map1', op, op.exprs[r.T.name], 2, r, x) or false
   end
   local k = (x.T.integer or plainconversion(r, x)) and 'copyint' or 'copyfloat'
   local op = copyops[k]
   if not op then
      op = {name = k, limit = math.huge, floatlimit = math.huge, split = COPYSPLIT, chunk = CHUNK,
            exprs = {}}
      for name, e in pairs(convert) do op.exprs[name] = k == 'copyint' and 'x' or e end
      copyops[k] = op
   end
   return kernels.map1(op, r, x)
end

-- draw(f, r, ...): r[i] = f(...) for i in order (a random draw per element:
-- one loop per function f and type of r)
local draws = setmetatable({}, {__mode = 'k'})
function kernels.draw(f, r, ...)
   local rp = flat(r)
   if not rp then return false end
   local byf = draws[f]
   if not byf then
      byf = {}
      draws[f] = byf
   end
   local run = byf[r.T.name]
   if not run then
      run = assert(loadstring([[local f = ...
         return function(rp, n, a, b, c, e)
            for i = 0, n - 1 do rp[i] = f(a, b, c, e) end
         end]], '=(th draw loop)'))(f)
      byf[r.T.name] = run
   end
   run(rp, nelement(r), ...)
   return true
end

-- dimfold(op, r, x, dim, init) -> true when done: r (x's sizes with 1 at
-- dim) = the fold of x along dim from init, element by element in order; an
-- IntTensor result wraps around as C's (an integer accumulated in a double
-- stays exact within the limit)
function kernels.dimfold(op, r, x, dim, init)
   local expr = op.exprs[x.T.name]
   if nelement(x) > op.limit or not expr or r.T ~= x.T then return false end
   local rp, xp = flat(r), flat(x)
   if not rp or not xp then return false end
   local outer, inner = 1, 1
   for i = 1, dim - 1 do outer = outer * x.sz[i] end
   for i = dim + 1, x.nd do inner = inner * x.sz[i] end
   local store = x.T == types.Int and 'tobit(acc)' or 'acc'
   loop('dimfold', op, expr, x.T, nil, nil, store)(rp, xp, outer, x.sz[dim], inner, init)
   return true
end

-- dimscan(op, r, x, dim, init) -> true when done: r (x's sizes) = the running
-- fold of x along dim from init (cumsum, cumprod), each element stored as the
-- element type casts the accumulated value (an IntTensor's wraps around, as
-- numpy's int64 accumulation cast to int32)
function kernels.dimscan(op, r, x, dim, init)
   local expr = op.exprs[x.T.name]
   if nelement(x) > op.limit or not expr or r.T ~= x.T or rawequal(r.st, x.st) then return false end
   local rp, xp = flat(r), flat(x)
   if not rp or not xp then return false end
   local outer, inner = 1, 1
   for i = 1, dim - 1 do outer = outer * x.sz[i] end
   for i = dim + 1, x.nd do inner = inner * x.sz[i] end
   local store = x.T == types.Int and 'tobit(acc)' or 'acc'
   loop('dimscan', op, expr, x.T, nil, nil, store)(rp, xp, outer, x.sz[dim], inner, init)
   return true
end

-- dimbest(op, r, ix, x, dim) -> true when done: r and the LongTensor ix (x's
-- sizes with 1 at dim) = the best value of each line along dim and its
-- 1-based position, `op` saying when x beats best (the first NaN wins, as TH)
function kernels.dimbest(op, r, ix, x, dim)
   local expr = op.exprs[x.T.name]
   if nelement(x) > op.limit or not expr or r.T ~= x.T or x.sz[dim] == 0 then return false end
   local rp, ip, xp = flat(r), flat(ix), flat(x)
   if not rp or not ip or not xp then return false end
   local outer, inner = 1, 1
   for i = 1, dim - 1 do outer = outer * x.sz[i] end
   for i = dim + 1, x.nd do inner = inner * x.sz[i] end
   loop('dimbest', op, expr, x.T)(rp, ip, xp, outer, x.sz[dim], inner)
   return true
end

-- fold2(op, x, y, acc) -> the fold over pairs of elements of x and y (of one
-- type), or nil when the kernel does not apply
function kernels.fold2(op, x, y, acc)
   local n = nelement(x)
   local expr = op.exprs[x.T.name]
   if n > op.limit or not expr or y.T ~= x.T then return nil end
   local xp, yp = flat(x), flat(y)
   if not xp or not yp then return nil end
   return loop('fold2', op, expr, x.T)(xp, yp, n, acc)
end

-- mm(r, a, b) -> true when done: r = a b for matrices of any strides, each
-- element a sum in order in a double; only small products of DoubleTensors
-- (a FloatTensor's BLAS adds up in float), r sharing no memory with a or b
local MM = 4096         -- multiply-adds (16x16x16: numpy's BLAS wins beyond)
function kernels.mm(r, a, b)
   local T, m, k, n = r.T, a.sz[1], a.sz[2], b.sz[2]
   if T ~= types.Double or a.T ~= T or b.T ~= T or m * n * k > MM or rawequal(r.st, a.st) or rawequal(r.st, b.st) then
      return false
   end
   checkbounds(r); checkbounds(a); checkbounds(b)
   loop('mm', 'mm', 'acc', types.Double)(origin(r), r.str[1], r.str[2], origin(a), a.str[1], a.str[2],
                                 origin(b), b.str[1], b.str[2], m, n, k)
   return true
end

-- mv(r, a, x) -> true when done: r = a x, as mm with x a one-column matrix
function kernels.mv(r, a, x)
   local T, m, k = r.T, a.sz[1], a.sz[2]
   if T ~= types.Double or a.T ~= T or x.T ~= T or m * k > MM or rawequal(r.st, a.st) or rawequal(r.st, x.st) then
      return false
   end
   checkbounds(r); checkbounds(a); checkbounds(x)
   loop('mm', 'mm', 'acc', types.Double)(origin(r), r.str[1], 0, origin(a), a.str[1], a.str[2],
                                          origin(x), x.str[1], 0, m, 1, k)
   return true
end

-- fold(op, d, acc [, c]) -> the accumulated value, or nil when the kernel does not apply
function kernels.fold(op, d, acc, c)
   local n = nelement(d)
   local expr = op.exprs[d.T.name]
   if n > op.limit or not expr then return nil end
   local p = flat(d)
   if not p then
      if n > STRIDED then return nil end
      local done, v = stridedrun('fold', op, expr, 1, d, nil, nil, nil, acc, c)
      if done then return v end
      return nil
   end
   return loop('fold', op, expr, d.T)(p, n, acc, c)
end

-- template(kind, text): a new kind of loop (text with %s for the expression
-- and the store), run by kernels.run(kind, op, T, ...); ops of one kind keep
-- one store each, the store being part of the loop
function kernels.template(kind, text)
   assert(not templates[kind], kind)
   templates[kind] = text
   kinds[#kinds + 1] = kind
   kindid[kind] = #kinds
end

-- run(kind, op, T, store, ...): op's loop of that kind for elements of T, called with ...
function kernels.run(kind, op, T, store, ...)
   return loop(kind, op, op.exprs[T.name], T, nil, nil, store)(...)
end

-- loop(kind, op, T, store) -> that loop itself (to be called many times)
function kernels.loop(kind, op, T, store)
   return loop(kind, op, op.exprs[T.name], T, nil, nil, store)
end

return kernels
