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

-- offsets(d) -> the storage offsets of d's elements in row-major order
local function offsets(d)
   local list, n, idx, pos = {}, nelement(d), zeros(d.nd), d.off
   for k = 1, n do
      list[k] = pos
      for j = d.nd, 1, -1 do
         idx[j] = idx[j] + 1
         pos = pos + d.str[j]
         if idx[j] < d.sz[j] then break end
         pos = pos - idx[j] * d.str[j]
         idx[j] = 0
      end
   end
   return list
end

-- walked(d, ...) -> whether an operand of other sizes than d is not contiguous:
-- TH walked each tensor in its own row-major order, reading what the loop had
-- written already (x:map(x:t(), f)), which offsets() lists
local function walked(d, ...)
   for i = 1, select('#', ...) do
      local e = select(i, ...)
      if not internal.samesize(d, e) and not iscontiguous(e) then return true end
   end
   return false
end

-- alike(d, e) -> e's elements seen with d's sizes (row-major order kept): e itself
-- when the sizes agree, else a contiguous layout (e contiguous: see walked())
local function alike(d, e)
   if internal.samesize(d, e) then return e end
   local str, step = {}, 1
   for i = d.nd, 1, -1 do
      str[i] = step
      step = step * d.sz[i]
   end
   return {st = e.st, off = e.off, str = str}
end

-- Torch7 ran apply, map and map2 two ways, which th keeps apart because
-- they differ on what the function may return and on their errors:
-- * every tensor contiguous (an empty one is): a LuaJIT FFI loop.  nil and false
--   keep the element, true is 1, a number is stored as the FFI converted it
--   (as TH's C cast), anything else (a numeric string too) is "cannot convert
--   'string' to 'double'"; a count mismatch is "size mismatch", a value that
--   cannot be called fails at its call.
-- * else its C loop: nil keeps the element, a number or numeric string is
--   stored, anything else is "given function should return a number or nil";
--   a count mismatch is TH's "inconsistent tensor size" and the function is
--   checked as argument #2, #3 or #4 (self counted) of '?'.
local ffi = require 'ffi'
local CTYPE = {Double = 'double', Float = 'float', Long = 'int64_t', Int = 'int', Short = 'short',
               Char = 'char', Byte = 'unsigned char', Half = 'half'}
-- (the C loop's errors were luaL_error's in a C function: at its caller's
-- line, none when a tail call or C called it: locate; the FFI loop's
-- were its Lua file's, which th gives at the user's line: raise)
local ccast, raise, locate = internal.ccast, internal.raise, internal.locate

-- storer(T, ffipath) -> store(p, i, r): what the user's function returned goes
-- to p[i] (one function per type and way, which LuaJIT inlines into each loop)
local function storer(T, ffipath)
   local integer, what, long = T.integer, CTYPE[T.name], T.name == 'Long'
   local store
   if ffipath then
      store = function(p, i, r)
         if not r then return end
         local tr = type(r)
         if tr == 'boolean' then r = 1
         elseif tr == 'cdata' then
            -- (a 64-bit integer stored through another type's pointer is
            -- miscompiled by lupa's LuaJIT once hot: as a number)
            if long then p[i] = r return end
            local v = tonumber(r)
            if v == nil then
               raise(("cannot convert '%s' to '%s'"):format(tostring(ffi.typeof(r)):match('^ctype<(.*)>$'), what))
            end
            r = v
         elseif tr ~= 'number' then raise(("cannot convert '%s' to '%s'"):format(tr, what)) end
         if integer then r = ccast(T, r) end
         p[i] = r
      end
   else
      store = function(p, i, r)
         if r == nil then return end
         if type(r) ~= 'number' then
            r = type(r) == 'string' and tonumber(r)
            if not r then locate('given function should return a number or nil') end
         end
         if integer then r = ccast(T, r) end
         p[i] = r
      end
   end
   return store
end
-- (made once for every type: a lookup at each call cost small tensors 50 ns)
local FFISTORE, CSTORE = {}, {}
local types = require 'torch.types'
for i = 1, types.all do      -- (Half too: th's HalfTensor has apply, Torch7's had none)
   FFISTORE[types[i]], CSTORE[types[i]] = storer(types[i], true), storer(types[i], false)
end

-- (the C loop checked f: a function, not a table with __call; with no
-- element to give it, any f does).  Its message is luaL_argerror's: self
-- counts as #1 but a method call (x:apply(3)) takes it off and names the
-- method; a call that has no name (a tail call) is '?'
local function checkfunction(f, argn)
   if type(f) ~= 'function' then
      local call = debug.getinfo(2, 'n')
      local name = call and call.name
      if not name then error(("bad argument #%d to '?' (function expected, got %s)"):format(argn, type(f)), 0) end
      if call.namewhat == 'method' then argn = argn - 1 end
      raise(("bad argument #%d to '%s' (function expected, got %s)"):format(argn, name, type(f)))
   end
end

-- an operand of map/map2: a tensor of self's type (both named 'map' in Torch7)
local function checkoperand(d, v, argn)
   local e = TD[v]
   -- (located as the original's C function: internal.locate)
   if not e then internal.locate(("bad argument #%d to 'map' (tensor expected)"):format(argn)) end
   if e.T ~= d.T then
      internal.locate(("bad argument #%d to 'map' (%s expected, got %s)"):format(argn, d.T.tensorname, e.T.tensorname))
   end
   return e
end

-- ffiway(...) -> whether Torch7 took its FFI loop: every tensor contiguous
local function ffiway(...)
   for i = 1, select('#', ...) do
      if not iscontiguous((select(i, ...))) then return false end
   end
   return true
end

-- the tensors of map/map2: the same number of elements (the message of
-- Torch7's way), in bounds -> their element count
local function checkoperands(ffipath, d, e, g)
   local n, bs = nelement(d), internal.bracketsizes
   if nelement(e) ~= n or g and nelement(g) ~= n then
      if ffipath then raise('size mismatch') end
      if g then
         locate(('inconsistent tensor size, expected tensor %s, src1 %s and src2 %s to have the same number of '
                .. 'elements, but got %d, %d and %d elements respectively')
               :format(bs(d), bs(e), bs(g), n, nelement(e), nelement(g)))
      end
      locate(('inconsistent tensor size, expected tensor %s and src %s to have the same number of elements, '
             .. 'but got %d and %d elements respectively'):format(bs(d), bs(e), n, nelement(e)))
   end
   if n > 0 then
      checkbounds(d); checkbounds(e)
      if g then checkbounds(g) end
   end
   return n
end

-- apply(func): self[i] = func(self[i]) for every element (kept when func returns nil)
local function apply(self, func)
   local d = TD[self] or internal.badself(self)
   local n = nelement(d)
   if n == 0 then return self end
   checkbounds(d)
   local p = d.st.ptr
   if iscontiguous(d) then
      local store = FFISTORE[d.T]
      for i = d.off, d.off + n - 1 do
         store(p, i, func(tonumber(p[i])))
      end
      return self
   end
   checkfunction(func, 2)
   local store = CSTORE[d.T]
   local sz, nd, strs = merged(d, {d.str})
   local last, s1 = sz[nd], strs[1][nd]
   local counter, bases = zeros(nd), {d.off}
   repeat
      local b1 = bases[1]
      for k = 0, last - 1 do
         local i = b1 + k * s1
         store(p, i, func(tonumber(p[i])))
      end
   until not nextrow(counter, sz, nd, strs, bases)
   return self
end

-- map(t, func): self[i] = func(self[i], t[i]); the sizes may differ, the counts match
local function map(self, t, func)
   local d = TD[self] or internal.badself(self)
   local e = checkoperand(d, t, 1)
   local ffipath = ffiway(d, e)
   local n = checkoperands(ffipath, d, e)
   if n == 0 then return self end
   local p, q = d.st.ptr, e.st.ptr
   if ffipath then
      local store = FFISTORE[d.T]
      local shift = e.off - d.off
      for i = d.off, d.off + n - 1 do
         store(p, i, func(tonumber(p[i]), tonumber(q[i + shift])))
      end
      return self
   end
   checkfunction(func, 3)
   local store = CSTORE[d.T]
   if walked(d, e) then
      local od, oe = offsets(d), offsets(e)
      for k = 1, n do
         local i = od[k]
         store(p, i, func(tonumber(p[i]), tonumber(q[oe[k]])))
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
         store(p, i, func(tonumber(p[i]), tonumber(q[b2 + k * s2])))
      end
   until not nextrow(counter, sz, nd, strs, bases)
   return self
end

-- map2(t1, t2, func): self[i] = func(self[i], t1[i], t2[i])
local function map2(self, t1, t2, func)
   local d = TD[self] or internal.badself(self)
   local e, g = checkoperand(d, t1, 1), checkoperand(d, t2, 2)
   local ffipath = ffiway(d, e, g)
   local n = checkoperands(ffipath, d, e, g)
   if n == 0 then return self end
   local p, q, s = d.st.ptr, e.st.ptr, g.st.ptr
   if ffipath then
      local store = FFISTORE[d.T]
      local shift1, shift2 = e.off - d.off, g.off - d.off
      for i = d.off, d.off + n - 1 do
         store(p, i, func(tonumber(p[i]), tonumber(q[i + shift1]), tonumber(s[i + shift2])))
      end
      return self
   end
   checkfunction(func, 4)
   local store = CSTORE[d.T]
   if walked(d, e, g) then
      local od, oe, og = offsets(d), offsets(e), offsets(g)
      for k = 1, n do
         local i = od[k]
         store(p, i, func(tonumber(p[i]), tonumber(q[oe[k]]), tonumber(s[og[k]])))
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
         store(p, i, func(tonumber(p[i]), tonumber(q[b2 + k * s2]), tonumber(s[b3 + k * s3])))
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

-- the dimension split and chunk cut along: Torch7's were Lua, whose
-- tensor:size(dim) gave the error of a dimension out of range
local function sizedim(d, dim, fname)
   if type(dim) == 'number' and (dim < 1 or dim >= d.nd + 1) then
      internal.raise(("bad argument #1 to 'size' (dimension %d out of range of %dD tensor)"):format(dim, d.nd))
   end
   return checkdim(d, dim, 3, fname)
end

-- split([result,] tensor, size [, dim]): narrows of size `size` (the last may be shorter)
local function split(result, tensor, size, dim)
   if type(result) ~= 'table' then
      result, tensor, size, dim = {}, result, tensor, size
   else
      for k in pairs(result) do result[k] = nil end
   end
   local d = checktensor(tensor, 1, 'split')
   dim = sizedim(d, dim or 1, 'split')
   -- a fractional size steps as Torch7's loop did (narrow cuts each start and size)
   if type(size) == 'string' then size = tonumber(size) or size end   -- (a numeric string is its number)
   if type(size) ~= 'number' then
      fail("bad argument #2 to 'split' (positive size expected, got %s)", torch.type(size))
   end
   -- (Torch7's split narrowed by that size: narrow's error)
   if not (size >= 1) then internal.raise("bad argument #3 to 'narrow' (out of range)") end
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
   dim = sizedim(d, dim or 1, 'chunk')
   if type(n) == 'string' then n = tonumber(n) or n end   -- (Torch7's arithmetic took a numeric string)
   if type(n) ~= 'number' or n ~= n then
      fail("bad argument #2 to 'chunk' (positive number of chunks expected, got %s)", type(n) == 'number' and n or torch.type(n))
   end
   if n < 0 then internal.raise("bad argument #3 to 'narrow' (out of range)") end   -- (as split's)
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
      internal.sizesfirst(a, 'repeatTensor')
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
