-- Running Lua functions over the elements of tensors (apply, map, map2) and
-- cutting or replicating tensors (split, chunk, repeatTensor).
-- The element loops run in LuaJIT straight over the FFI pointers, so the JIT
-- compiles them together with the user's function: a contiguous tensor is
-- one flat loop, any other (transposed, narrowed, expanded with stride 0) is
-- walked row by row in row-major order.
local torch = require 'torch'
local internal = require 'torch.internal'

local TD, fail = internal.tensors, internal.fail
local nelement, iscontiguous, checkbounds = internal.nelement, internal.iscontiguous, internal.checkbounds
local checktensor, checkdim, istensor = internal.checktensor, internal.checkdim, internal.istensor
local type, tonumber, tostring, select, min, max, ceil = type, tonumber, tostring, select, math.min, math.max, math.ceil
local insert = table.insert

---------------------------------------------------------------------------
-- apply, map, map2
---------------------------------------------------------------------------

-- The walk over a non-contiguous tensor: rows along its last dimension, the
-- dimensions merged first wherever every operand is contiguous across them.
-- merged(d, strs) -> sizes, number of dimensions, strides (one array per operand)
local function merged(d, strs)
   local sz, ms, nd = {d.sz[1]}, {}, 1
   for o = 1, #strs do ms[o] = {strs[o][1]} end
   for j = 2, d.nd do
      local joinable = true
      for o = 1, #strs do
         if ms[o][nd] ~= d.sz[j] * strs[o][j] then joinable = false break end
      end
      if joinable then
         sz[nd] = sz[nd] * d.sz[j]
         for o = 1, #strs do ms[o][nd] = strs[o][j] end
      else
         nd = nd + 1
         sz[nd] = d.sz[j]
         for o = 1, #strs do ms[o][nd] = strs[o][j] end
      end
   end
   return sz, nd, ms
end

-- nextrow(counter, sz, nd, strs, bases): move the row starts (one per operand)
-- to the next row in row-major order; false after the last row
local function nextrow(counter, sz, nd, strs, bases)
   for j = nd - 1, 1, -1 do
      counter[j] = counter[j] + 1
      for o = 1, #bases do bases[o] = bases[o] + strs[o][j] end
      if counter[j] < sz[j] then return true end
      for o = 1, #bases do bases[o] = bases[o] - counter[j] * strs[o][j] end
      counter[j] = 0
   end
   return false
end

local function zeros(n)
   local t = {}
   for i = 1, n do t[i] = 0 end
   return t
end

-- alike(d, e) -> e's elements seen with d's sizes (row-major order kept): e itself
-- when the sizes agree, else a contiguous layout (of a copy if e is not contiguous)
local function alike(d, e)
   if internal.samesize(d, e) then return e end
   if not iscontiguous(e) then e = TD[internal.clone(e)] end
   local str, step = {}, 1
   for i = d.nd, 1, -1 do
      str[i] = step
      step = step * d.sz[i]
   end
   return {st = e.st, off = e.off, str = str}
end

-- (the original called f: a table or userdata with __call does as well;
-- with no element to give it, any f does)
local function checkfunction(f, argn, fname)
   local mt = type(f) ~= 'function' and debug.getmetatable(f)
   if mt ~= false and not (mt and mt.__call) then
      fail("bad argument #%d to '%s' (function expected, got %s)", argn, fname, type(f))
   end
end

-- store(p, i, r): what the user's function returned goes to p[i] if it is a
-- number (a numeric string counts, as lua_isnumber let it through); nil keeps
-- p[i].  LuaJIT inlines it into each element loop.
local function store(p, i, r)
   if r == nil then return end
   if type(r) ~= 'number' then
      r = type(r) == 'string' and tonumber(r)
      if not r then fail('given function should return a number or nil') end
   end
   p[i] = r
end

-- an operand of map/map2: a tensor of self's type (Torch7 checked it as such)
local function checkoperand(d, v, argn, fname)
   local e = checktensor(v, argn, fname)
   if e.T ~= d.T then
      fail("bad argument #%d to '%s' (%s expected, got %s)", argn, fname, d.T.tensorname, e.T.tensorname)
   end
   return e
end

-- the tensors of map/map2: same number of elements, in bounds -> their element count
local function checkoperands(fname, d, ...)
   local n = nelement(d)
   for i = 1, select('#', ...) do
      local e = select(i, ...)
      if nelement(e) ~= n then
         fail("bad argument #%d to '%s' (%d elements, expected %d as self)", i, fname, nelement(e), n)
      end
   end
   if n > 0 then
      checkbounds(d)
      for i = 1, select('#', ...) do checkbounds((select(i, ...))) end
   end
   return n
end

-- apply(f): self[i] = f(self[i]) for every element (kept when f returns nil)
local function apply(self, f)
   local d = TD[self] or internal.badself(self)
   local n = checkoperands('apply', d)
   if n == 0 then return self end
   checkfunction(f, 1, 'apply')
   local p = d.st.ptr
   if iscontiguous(d) then
      for i = d.off, d.off + n - 1 do
         store(p, i, f(tonumber(p[i])))
      end
      return self
   end
   local sz, nd, strs = merged(d, {d.str})
   local last, s1 = sz[nd], strs[1][nd]
   local counter, bases = zeros(nd), {d.off}
   repeat
      local b1 = bases[1]
      for k = 0, last - 1 do
         local i = b1 + k * s1
         store(p, i, f(tonumber(p[i])))
      end
   until not nextrow(counter, sz, nd, strs, bases)
   return self
end

-- map(t, f): self[i] = f(self[i], t[i]); the sizes may differ, the counts match
local function map(self, t, f)
   local d = TD[self] or internal.badself(self)
   local e = checkoperand(d, t, 1, 'map')
   local n = checkoperands('map', d, e)
   if n == 0 then return self end
   checkfunction(f, 2, 'map')
   local p, q = d.st.ptr, e.st.ptr
   if iscontiguous(d) and iscontiguous(e) then
      local shift = e.off - d.off
      for i = d.off, d.off + n - 1 do
         store(p, i, f(tonumber(p[i]), tonumber(q[i + shift])))
      end
      return self
   end
   e = alike(d, e)
   q = e.st.ptr
   local sz, nd, strs = merged(d, {d.str, e.str})
   local last, s1, s2 = sz[nd], strs[1][nd], strs[2][nd]
   local counter, bases = zeros(nd), {d.off, e.off}
   repeat
      local b1, b2 = bases[1], bases[2]
      for k = 0, last - 1 do
         local i = b1 + k * s1
         store(p, i, f(tonumber(p[i]), tonumber(q[b2 + k * s2])))
      end
   until not nextrow(counter, sz, nd, strs, bases)
   return self
end

-- map2(t1, t2, f): self[i] = f(self[i], t1[i], t2[i])
local function map2(self, t1, t2, f)
   local d = TD[self] or internal.badself(self)
   local e, g = checkoperand(d, t1, 1, 'map2'), checkoperand(d, t2, 2, 'map2')
   local n = checkoperands('map2', d, e, g)
   if n == 0 then return self end
   checkfunction(f, 3, 'map2')
   local p, q, s = d.st.ptr, e.st.ptr, g.st.ptr
   if iscontiguous(d) and iscontiguous(e) and iscontiguous(g) then
      local shift1, shift2 = e.off - d.off, g.off - d.off
      for i = d.off, d.off + n - 1 do
         store(p, i, f(tonumber(p[i]), tonumber(q[i + shift1]), tonumber(s[i + shift2])))
      end
      return self
   end
   e, g = alike(d, e), alike(d, g)
   q, s = e.st.ptr, g.st.ptr
   local sz, nd, strs = merged(d, {d.str, e.str, g.str})
   local last, s1, s2, s3 = sz[nd], strs[1][nd], strs[2][nd], strs[3][nd]
   local counter, bases = zeros(nd), {d.off, e.off, g.off}
   repeat
      local b1, b2, b3 = bases[1], bases[2], bases[3]
      for k = 0, last - 1 do
         local i = b1 + k * s1
         store(p, i, f(tonumber(p[i]), tonumber(q[b2 + k * s2]), tonumber(s[b3 + k * s3])))
      end
   until not nextrow(counter, sz, nd, strs, bases)
   return self
end

internal.method('apply', apply)
internal.method('map', map)
internal.method('map2', map2)

---------------------------------------------------------------------------
-- split, chunk
---------------------------------------------------------------------------

-- split([result,] tensor, size [, dim]): narrows of size `size` (the last may be shorter)
local function split(result, tensor, size, dim)
   if type(result) ~= 'table' then
      result, tensor, size, dim = {}, result, tensor, size
   else
      for k in pairs(result) do result[k] = nil end
   end
   local d = checktensor(tensor, 1, 'split')
   dim = checkdim(d, dim or 1, 3, 'split')
   -- a fractional size steps as Torch7's loop did (narrow cuts each start and size)
   if type(size) ~= 'number' or size < 1 then
      fail("bad argument #2 to 'split' (positive size expected, got %s)", type(size) == 'number' and size or torch.type(size))
   end
   local start, total = 1, d.sz[dim]
   while start <= total do
      local n = min(size, total - start + 1)
      insert(result, tensor:narrow(dim, start, n))
      start = start + n
   end
   return result
end

-- chunk([result,] tensor, n [, dim]): n pieces of nearly equal size
local function chunk(result, tensor, n, dim)
   if type(result) ~= 'table' then
      result, tensor, n, dim = {}, result, tensor, n
   end
   local d = checktensor(tensor, 1, 'chunk')
   dim = checkdim(d, dim or 1, 3, 'chunk')
   if type(n) ~= 'number' or not (n >= 0) then
      fail("bad argument #2 to 'chunk' (positive number of chunks expected, got %s)", type(n) == 'number' and n or torch.type(n))
   end
   -- Torch7's ceil(size / n): fewer than one chunk (or 0, an infinite size) is one piece
   local size = ceil(d.sz[dim] / n)
   return split(result, tensor, size < d.sz[dim] and size or max(d.sz[dim], 1), dim)
end

torch.split, torch.chunk = split, chunk
internal.method('split', split)
internal.method('chunk', chunk)

---------------------------------------------------------------------------
-- repeatTensor
---------------------------------------------------------------------------

-- repeatTensor([result,] sizes): the tensor tiled sizes[i] times along dimension i
-- (sizes may have more dimensions than the tensor: it then gets leading ones)
local function repeatTensor(self, a, ...)
   local out, src, sizes, n
   if istensor(a) then
      -- (a source of another type is converted, as Torch7's copy did)
      out, src = self, checktensor(a, 1, 'repeatTensor')
      sizes, n = internal.readleading('repeatTensor', ...)
   else
      src = (TD[self] or internal.badself(self))
      sizes, n = internal.readleading('repeatTensor', a, ...)
   end
   if n < src.nd then
      fail('Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor')
   end
   for i = 1, n do
      -- Torch7 failed on a count of 0 too (its unfold could not make the view)
      if sizes[i] < 1 then fail("bad argument #%d to 'repeatTensor' (repetitions must be positive)", i) end
   end
   -- the tensor seen with n dimensions (leading ones), and the result's sizes
   local xsz, xstr, rsz = {}, {}, {}
   for i = 1, n do
      local j = i - (n - src.nd)
      xsz[i], xstr[i] = j >= 1 and src.sz[j] or 1, j >= 1 and src.str[j] or 0
      rsz[i] = xsz[i] * sizes[i]
   end
   out = out or internal.emptytensor(src.T)
   local r = TD[out]
   if src.st ~= nil and rawequal(src.st, r.st) then src = TD[internal.clone(src)] end
   internal.resize(r, rsz, n)
   if nelement(r) == 0 or nelement(src) == 0 then return out end
   -- the result seen as (repeat index..., element index...) and the source expanded to match
   local vsz, vstr, esz, estr = {}, {}, {}, {}
   for i = 1, n do
      vsz[i], vstr[i] = sizes[i], xsz[i] * r.str[i]
      vsz[n + i], vstr[n + i] = xsz[i], r.str[i]
      esz[i], estr[i] = sizes[i], 0
      esz[n + i], estr[n + i] = xsz[i], xstr[i]
   end
   local view = internal.wraptensor(r.T, r.st, r.off, 2 * n, vsz, vstr)
   local expanded = internal.wraptensor(src.T, src.st, src.off, 2 * n, esz, estr)
   internal.copy(TD[view], TD[expanded])
   return out
end

internal.method('repeatTensor', repeatTensor)
function torch.repeatTensor(t, ...)
   checktensor(t, 1, 'repeatTensor')
   return repeatTensor(t, ...)
end
