-- torch.*Tensor: the Tensor core.  A tensor is a view of a Storage: an
-- offset, sizes and strides (row-major, 1-based in the API).  Everything here
-- changes or reads that metadata only; element loops run in LuaJIT over the
-- FFI pointer, bulk work goes to numpy on a strided view of the same memory.
local torch = require 'torch'
local ffi = require 'ffi'
local types = require 'torch.types'
local class = require 'torch.class'
local internal = require 'torch.internal'
local raw = require('torch.half').raw

local TD, SD, fail = internal.tensors, internal.storages, internal.fail
local memory, py, pycall = internal.memory, internal.py, internal.pycall
local newstorage, isstorage, attach = internal.newstorage, internal.isstorage, internal.attach
local newdata = internal.newstoragedata
local type, tonumber, rawget, newproxy, select, floor, unpack, concat =
      type, tonumber, rawget, newproxy, select, math.floor, unpack, table.concat

pcall(ffi.cdef, 'void *memmove(void *dst, const void *src, size_t n);')

local ccast, toint = internal.ccast, internal.toint

local Tensor = {}       -- the methods, shared by the seven types
local protos = {}       -- type name -> proxy whose metatable the type's tensors share
local SMALL = 64        -- below this many elements, loops stay in LuaJIT
local kernels           -- torch.maths.kernels, loaded after this file: required on first use

---------------------------------------------------------------------------
-- construction of the proxy and metadata
---------------------------------------------------------------------------

-- A new tensor's proxy and field table come made from its type's stock,
-- BATCH at a time.  newproxy and debug.setfenv (internal.attach) are C
-- functions, at which LuaJIT ends a compiled trace and starts another (a
-- stitch): every new tensor cut the trace of the operation making it in
-- two, and the trace after the stitch, shared by every operation, grew a
-- side trace for each caller it returned to (108 of them after a pass of
-- every family of operations, in chains up to 14 deep).
-- The cache of ndview (nv) has its slot from the start: filling it later
-- would grow the table (seven fields fill the eight slots LuaJIT gives it).
local BATCH = 64
local stocks = {}   -- type -> {n = proxies left, [i] = a proxy, [BATCH + i] = its field table}

local function restock(T, stock)
   local proto = protos[T.name]
   for i = 1, BATCH do
      local d = {T = T, st = false, off = 0, nd = 0, sz = false, str = false, nv = false}
      stock[i], stock[BATCH + i] = attach(TD, newproxy(proto), d), d
   end
   stock.n = BATCH
   return BATCH
end

-- wrap(T, st, off, nd, sz, str) -> a tensor proxy (sz/str are owned by it)
local function wrap(T, st, off, nd, sz, str)
   local stock = stocks[T]
   local n = stock.n
   if n == 0 then n = restock(T, stock) end
   local p, d = stock[n], stock[BATCH + n]
   stock[n], stock[BATCH + n], stock.n = nil, nil, n - 1
   d.st, d.off, d.nd, d.sz, d.str = st, off, nd, sz, str
   return p
end

local function istensor(v)
   return type(v) == 'userdata' and TD[v] ~= nil
end

-- The sizes and strides of a new tensor with no dimension: one pair, shared
-- by them all (the two tables were all that making an empty tensor
-- allocated: 1.31x the original's instructions).  Every change of a
-- tensor's shape gives it tables of its own (setmeta); a write into these
-- in place, which would change every empty tensor, is an error instead.
local function readonly(what)
   return setmetatable({}, {__newindex = function()
      error('th: the ' .. what .. ' of an empty tensor written in place', 2)
   end, __metatable = false})
end
local NOSIZES, NOSTRIDES = readonly('sizes'), readonly('strides')

local function empty(T)
   return wrap(T, nil, 0, 0, NOSIZES, NOSTRIDES)
end

-- (sizes and strides are made at their length: table.new is compiled, and a
-- table filled from empty, backwards above all, is rehashed as it grows)
local tnew = require 'table.new'

local function copyarray(a, n)
   local b = tnew(n, 0)
   for i = 1, n do b[i] = a[i] end
   return b
end

-- (nelement, checkbounds and iscontiguous run most calls' first lines: up
-- to four dimensions without a loop.  LuaJIT blacklists a loop of a step or
-- two reached from interpreted code, whose root traces keep leaving it, and
-- every trace through a blacklisted loop then aborts: whole runs of
-- operations went to the interpreter, 0.06 -> 0.4 us for a small copy, in
-- one run of the sweep in four)
local function nelement(d)
   local nd, sz = d.nd, d.sz
   if nd <= 2 then
      if nd == 2 then return sz[1] * sz[2] end
      return nd == 1 and sz[1] or 0
   end
   local n = sz[1] * sz[2] * sz[3]
   if nd == 3 then return n end
   n = n * sz[4]
   for i = 5, nd do n = n * sz[i] end
   return n
end

-- layout(sizes, n, strides [, own]) -> nd, sz, str, extent: the dimensions
-- as TH's resizeNd read them: the first size <= 0 ends them, a missing or
-- negative stride is the contiguous one; extent is the elements spanned.
-- own: sizes is the caller's to give away (it becomes sz when whole)
local function layout(sizes, n, strides, own)
   local nd = 0
   for i = 1, n do
      if sizes[i] > 0 then nd = nd + 1 else break end
   end
   local sz, str = own and nd == n and sizes or tnew(nd, 0), tnew(nd, 0)
   local extent = 1
   for i = nd, 1, -1 do
      sz[i] = sizes[i]
      local s = strides and strides[i]
      if s and s >= 0 then
         str[i] = s
      elseif i == nd then
         str[i] = 1
      else
         str[i] = sz[i + 1] * str[i + 1]
      end
      extent = extent + (sz[i] - 1) * str[i]
   end
   return nd, sz, str, extent
end

-- setmeta: point d at storage data st with the given sizes and strides
-- (strides may be nil or hold negative entries: those are made contiguous).
-- As TH's resizeNd: a storage too small for the view grows.
local function setmeta(d, st, off, sizes, n, strides, raw)
   local nd, sz, str, extent = layout(sizes, n, strides)
   d.off, d.nd, d.sz, d.str, d.nv = off, nd, sz, str, false
   if nd > 0 then
      if not st then
         st = newdata(d.T, extent + off, raw and off == 0)   -- (elements before off stay zeros)
      elseif extent + off > st.n then
         internal.resizestorage(st, extent + off)
      end
   end
   d.st = st
end
internal.setmeta = setmeta

-- the element count of d's storage after its view (bounds for FFI access)
local function checkbounds(d)
   local nd = d.nd
   if nd == 0 then return end
   local sz, str = d.sz, d.str
   local extent = d.off + (sz[1] - 1) * str[1]
   if nd >= 2 then
      extent = extent + (sz[2] - 1) * str[2]
      if nd >= 3 then
         extent = extent + (sz[3] - 1) * str[3]
         if nd >= 4 then extent = extent + (sz[4] - 1) * str[4] end
         for i = 5, nd do extent = extent + (sz[i] - 1) * str[i] end
      end
   end
   if extent >= d.st.n then
      fail('tensor view extends beyond its storage (storage was resized)')
   end
end
internal.checkbounds = checkbounds

-- can d (of r's element count) be read while r is written, element by
-- element, in any order or in pieces at once, without a difference from
-- TH's loop?  Not when it is another view of r's memory (numpy's vector
-- loads, or a helper thread, would read ahead of the writes)
local function apart(d, r)
   if not rawequal(d.st, r.st) or d == r then return true end
   if d.off ~= r.off or d.nd ~= r.nd then return false end
   for i = 1, r.nd do
      if d.str[i] ~= r.str[i] or d.sz[i] ~= r.sz[i] then return false end
   end
   return true
end
internal.apart = apart

-- new(T, sizes table, n [, raw]) -> a contiguous tensor, zeroed unless raw
-- (raw: a result every element of which is about to be written)
-- (own: sizes is the caller's to give away)
local function new(T, sizes, n, raw, own)
   local nd, sz, str, extent = layout(sizes, n or #sizes, nil, own)
   return wrap(T, nd > 0 and newdata(T, extent, raw) or nil, 0, nd, sz, str)
end

-- newLike(T, d [, raw]) -> a contiguous tensor of the sizes of d
local function newlike(T, d, raw)
   return new(T, d.sz, d.nd, raw)
end

---------------------------------------------------------------------------
-- reading sizes from arguments
---------------------------------------------------------------------------

local function islongstorage(v)
   local s = type(v) == 'userdata' and SD[v]
   return s and s.T == types.Long
end

local function storagearray(st)
   local s = SD[st]
   local t = {}
   for i = 1, s.n do t[i] = tonumber(s.ptr[i - 1]) end
   return t, s.n
end

-- readsizes(fname, ...) -> sizes, n from a LongStorage or numbers
local function readsizes(fname, ...)
   local n, first = select('#', ...), ...
   if islongstorage(first) then
      return storagearray(first)
   end
   -- every argument given is a size, a nil one too: resize() is no size,
   -- resize(nil) and resize(2, nil) are errors, as in Torch7
   local sizes = {...}
   for i = 1, n do sizes[i] = toint(sizes[i], i, fname) end
   return sizes, n
end
internal.readsizes = readsizes

-- readleading(fname, ...) -> sizes, n as readsizes, up to the first nil
-- after the first argument: Torch7's view, expand and repeatTensor, Lua
-- functions, took their sizes as a table, which ends there (x:view(2, nil))
local function readleading(fname, ...)
   for i = 2, select('#', ...) do
      if (select(i, ...)) == nil then return readsizes(fname, unpack({...}, 1, i - 1)) end
   end
   return readsizes(fname, ...)
end
internal.readleading = readleading

-- sizesfirst(v, fname): Torch7's expand and repeatTensor, Lua functions, told
-- a first size (a number or a LongStorage) from a source tensor by its type,
-- so a numeric string there was taken for the source, and failed as one
-- (th names its type)
local function sizesfirst(v, fname)
   if type(v) == 'string' then fail("bad argument #1 to '%s' (number expected, got string)", fname) end
end
internal.sizesfirst = sizesfirst

---------------------------------------------------------------------------
-- numpy views and element loops
---------------------------------------------------------------------------

-- is the cached view c (sizes then strides, src, off) the one d needs?
local function current(c, d, src, nd)
   if c.src ~= src or c.off ~= d.off or c.nd ~= nd then return false end
   local sz, str = d.sz, d.str
   for i = 1, nd do
      if c[i] ~= sz[i] or c[nd + i] ~= str[i] then return false end
   end
   return true
end

-- nd(t) -> the numpy array viewing t's elements (nil for an empty tensor).
-- Making one is a Python call; the last one is kept in d.nv and reused while
-- d's buffer, offset, sizes and strides stay those it was made for.
local function ndview(d)
   local nd = d.nd
   if nd == 0 then return nil end
   checkbounds(d)
   local s = d.st
   local arr = rawget(s, 'arr')     -- (a LuaJIT buffer gets one when first needed)
   local c = d.nv
   if c and current(c, d, arr, nd) then return c.view end
   c = {off = d.off, nd = nd}
   for i = 1, nd do c[i] = d.sz[i]; c[nd + i] = d.str[i] end
   if arr then
      c.view = memory.view(arr, d.off, unpack(c, 1, 2 * nd))
   else   -- the storage's array and the view in one Python call
      arr, c.view = internal.storageview(s, d.off, unpack(c, 1, 2 * nd))
   end
   c.src = arr
   d.nv = c
   return c.view
end
internal.ndview = ndview

-- nd(t) -> the numpy array viewing t's elements for Python code that may keep
-- it: made over the storage's own ndarray, which keeps the memory alive
function internal.nd(t)
   local d = TD[t]
   if d.nd == 0 then return nil end
   checkbounds(d)
   local dims = {}
   for i = 1, d.nd do dims[i] = d.sz[i]; dims[d.nd + i] = d.str[i] end
   return memory.view(d.st.arr, d.off, unpack(dims, 1, 2 * d.nd))
end

-- (the last two dimensions without a loop: see nelement)
local function iscontiguous(d)
   local nd, sz, str = d.nd, d.sz, d.str
   if nd == 0 then return true end
   local expected = 1
   if sz[nd] ~= 1 then
      if str[nd] ~= 1 then return false end
      expected = sz[nd]
   end
   if nd == 1 then return true end
   local k = nd - 1
   if sz[k] ~= 1 then
      if str[k] ~= expected then return false end
      expected = expected * sz[k]
   end
   for i = nd - 2, 1, -1 do
      if sz[i] ~= 1 then
         if str[i] ~= expected then return false end
         expected = expected * sz[i]
      end
   end
   return true
end

-- each(d, f): call f(ptr, index) for every element offset, in row-major order
local function each(d, f)
   local nd = d.nd
   if nd == 0 then return end
   checkbounds(d)
   local ptr, sz, str = d.st.ptr, d.sz, d.str
   if iscontiguous(d) then
      local off = d.off
      for i = off, off + nelement(d) - 1 do f(ptr, i) end
      return
   end
   local last, lstr = sz[nd], str[nd]
   local counter = {}
   for i = 1, nd do counter[i] = 0 end
   local base = d.off
   while true do
      for i = 0, last - 1 do f(ptr, base + i * lstr) end
      local k = nd - 1
      while k >= 1 do
         counter[k] = counter[k] + 1
         base = base + str[k]
         if counter[k] < sz[k] then break end
         base = base - counter[k] * str[k]
         counter[k] = 0
         k = k - 1
      end
      if k < 1 then return end
   end
end
internal.each = each

-- offsets(d) -> a Lua array of the element offsets of d in row-major order
local function offsets(d)
   local o, n = {}, 0
   each(d, function(_, i) n = n + 1; o[n] = i end)
   return o, n
end
internal.offsets = offsets

---------------------------------------------------------------------------
-- constructors
---------------------------------------------------------------------------

-- the elements of v, the nested table of dimension dim (of n, of the given
-- sizes), stored from ptr[pos] on -> the position after them (a function of
-- its own, not a closure made per call: LuaJIT does not compile that)
local function walk(T, ptr, sizes, n, v, dim, pos)
   if dim > n then
      local x = internal.elementvalue(T, v)   -- numeric strings count, as lua_isnumber had it
      if x == nil then fail('invalid element (not a number)') end
      ptr[pos] = x
      return pos + 1
   end
   if type(v) ~= 'table' then fail('invalid tensor definition') end
   if #v ~= sizes[dim] then fail('invalid tensor sizes') end
   for i = 1, sizes[dim] do pos = walk(T, ptr, sizes, n, v[i], dim + 1, pos) end
   return pos
end

-- fill a new tensor from a nested Lua table, checking it is rectangular
local function fromtable(T, tbl)
   local sizes, n = {}, 0
   local sub = tbl
   while type(sub) == 'table' do
      n = n + 1
      sizes[n] = #sub
      sub = sub[1]
   end
   local t = new(T, sizes, n)
   if nelement(TD[t]) > 0 then
      -- {{}}: a size 0 cut the dimensions after it, and Torch7 read a missing element
      for k = 1, n do
         if sizes[k] == 0 then fail('invalid element (not a number)') end
      end
      walk(T, TD[t].st.ptr, sizes, n, tbl, 1, 0)
   end
   return t
end

-- sizes (a LongStorage) and optional strides (another one, argument argn) ->
-- sizes, n, strides
local function longstoragesizes(fname, a, b, argn)
   local sizes, n = storagearray(a)
   local strides
   if b ~= nil then
      if not islongstorage(b) then fail("bad argument #%d to '%s' (torch.LongStorage expected)", argn, fname) end
      local m
      strides, m = storagearray(b)
      if m ~= n then fail("bad argument #%d to '%s' (provided stride and size are inconsistent)", argn, fname) end
   end
   return sizes, n, strides
end

-- whether v is a number as lua_isnumber saw it (a numeric string is)
local function numeric(v)
   return type(v) == 'number' or type(v) == 'string' and tonumber(v) ~= nil
end

-- (storage, offset, sizes [, strides]) or (storage, offset, sz1, st1, sz2, st2, ...):
-- the nargs arguments a, ... after the offset, each one given a number (a
-- nil too, as TH counted them), the last size's stride -1 when not given
local function readsizestrides(fname, nargs, a, ...)
   if islongstorage(a) then
      return longstoragesizes(fname, a, (...), 4)
   end
   local args = {a, ...}
   local sizes, strides, n = {}, {}, 0
   for i = 1, nargs, 2 do
      n = n + 1
      local size, stride = args[i], args[i + 1]
      -- (numbered after the storage and offset)
      if not numeric(size) then
         fail("bad argument #%d to '%s' (number expected, got %s)", i + 2, fname, type(size))
      elseif i < nargs and not numeric(stride) then
         fail("bad argument #%d to '%s' (number expected, got %s)", i + 3, fname, type(stride))
      end
      sizes[n], strides[n] = toint(size, i + 2, fname), i < nargs and toint(stride, i + 3, fname) or -1
   end
   return sizes, n, strides
end

-- the sizes and strides of a view of a whole storage of n elements (none
-- when empty), made as they are kept
local function wholestorage(n)
   if n == 0 then return 0, {}, {} end
   return 1, {n}, {1}
end

-- keepstrides(d, sizes, n, strides) -> d's strides when the sizes (up to the
-- first 0) and any strides given (not -1) are d's own: TH's resize then left
-- the tensor's strides as they were, a set() of the same sizes too
local function keepstrides(d, sizes, n, strides)
   local kept = n
   for i = 1, n do
      if sizes[i] == 0 then kept = i - 1 break end
   end
   if kept ~= d.nd then return strides end
   for i = 1, kept do
      if sizes[i] ~= d.sz[i] or (strides and strides[i] ~= -1 and strides[i] ~= d.str[i]) then
         return strides
      end
   end
   local same = {}
   for i = 1, n do same[i] = d.str[i] or -1 end
   return same
end

-- set(d, storage [, offset, ...]) as the constructor and :set() read their
-- arguments (a nil given is no offset, size or stride: TH's error)
local function setfromstorage(d, fname, storage, ...)
   local st = SD[storage]
   if st.T ~= d.T then
      fail("bad argument #1 to '%s' (%s expected, got %s)", fname, d.T.storagename, st.T.storagename)
   end
   local nargs = select('#', ...)
   if nargs == 0 then
      d.off, d.nv, d.st = 0, false, st
      d.nd, d.sz, d.str = wholestorage(st.n)
      return
   end
   local offset = toint((...), 2, fname)
   -- (the sizes and strides checked before the offset, as in TH)
   local sizes, n, strides = readsizestrides(fname, nargs - 1, select(2, ...))
   if offset < 1 then fail('Tensor: invalid storage offset') end   -- TH's message
   for i = 1, strides and n or 0 do
      if strides[i] < 0 and strides[i] ~= -1 then
         fail("bad argument to '%s' (negative stride)", fname)
      end
   end
   setmeta(d, st, offset - 1, sizes, n, keepstrides(d, sizes, n, strides))
end

-- setfrom(d, fname, a, ...): what the constructor and :set() share, as TH read
-- their arguments: nothing, a tensor, (storage [, offset, sizes...]), or sizes
-- (numbers or a LongStorage [, strides]) giving a new storage
local function setfrom(d, fname, a, ...)
   local T = d.T
   if a == nil then
      d.st, d.off, d.nd, d.sz, d.str = nil, 0, 0, {}, {}
   elseif istensor(a) then
      local o = TD[a]
      if o.T ~= T then
         fail("bad argument #1 to '%s' (expecting number or %s or %s)", fname, T.tensorname, T.storagename)
      end
      d.st, d.off, d.nd, d.sz, d.str = o.st, o.off, o.nd, copyarray(o.sz, o.nd), copyarray(o.str, o.nd)
   elseif isstorage(a) and (SD[a].T == T) then
      if select('#', ...) == 0 then   -- (see construct)
         setfromstorage(d, fname, a)
      else
         setfromstorage(d, fname, a, ...)
      end
   elseif islongstorage(a) then
      local sizes, n, strides = longstoragesizes(fname, a, (...), 2)
      setmeta(d, nil, 0, sizes, n, strides)
   elseif type(a) == 'number' then
      local sizes, n = readsizes(fname, a, ...)
      for i = 1, n do
         if sizes[i] < 0 then fail("bad argument #%d to '%s' (negative size)", i, fname) end
      end
      setmeta(d, nil, 0, sizes, n, nil)
   else   -- (Torch7's words)
      fail("bad argument #1 to '%s' (expecting number or %s or %s)", fname, T.tensorname, T.storagename)
   end
end

local function construct(T, ...)
   local a = ...
   if type(a) == 'table' then return fromtable(T, a) end   -- (Torch7 ignored what followed a table)
   if type(a) == 'number' then
      local sizes, n = readsizes(T.tensorname, ...)
      for i = 1, n do
         if sizes[i] < 0 then fail("bad argument #%d to '%s' (negative size)", i, T.tensorname) end
      end
      return new(T, sizes, n, false, true)
   end
   if a == nil then
      if select('#', ...) > 0 then   -- torch.Tensor(nil): Torch7 took no nil
         fail("bad argument #1 to '%s' (expecting number or %s or %s)", T.tensorname, T.tensorname, T.storagename)
      end
      -- (x.new(), nn's habit: returned before the arguments are passed on,
      -- which LuaJIT does not compile, and the caller's trace with it)
      return empty(T)
   end
   if select('#', ...) == 1 and isstorage(a) and SD[a].T == T then   -- (nn's LongTensor(x:size()))
      local st = SD[a]
      return wrap(T, st, 0, wholestorage(st.n))
   end
   local t = empty(T)
   if select('#', ...) == 1 then   -- (a tensor: the same)
      setfrom(TD[t], T.tensorname, a)
   else
      setfrom(TD[t], T.tensorname, ...)
   end
   return t
end

---------------------------------------------------------------------------
-- queries
---------------------------------------------------------------------------

local function checkdim(d, dim, argn, fname)
   dim = toint(internal.checknumber(dim, argn, fname), argn, fname)
   if dim < 1 or dim > d.nd then
      fail("bad argument #%d to '%s' (dimension %d out of range of %dD tensor)", argn, fname, dim, d.nd)
   end
   return dim
end
internal.checkdim = checkdim

local function longstorage(a, n)
   local s = newstorage(types.Long, n)
   local ptr = SD[s].ptr
   for i = 1, n do ptr[i - 1] = a[i] end
   return s
end
internal.longstorage = longstorage

function Tensor.nDimension(self) return (TD[self] or internal.badself(self)).nd end
Tensor.dim = Tensor.nDimension

-- size(dim) / stride(dim): an argument that is not a number (nor a numeric
-- string) asks for them all, as in Torch7 (x:size(y) is x:size())
local function dimornil(dim)
   if type(dim) == 'number' then return dim end
   return type(dim) == 'string' and tonumber(dim) or nil
end

function Tensor.size(self, dim)
   local d = TD[self] or internal.badself(self)
   dim = dimornil(dim)
   if dim == nil then return longstorage(d.sz, d.nd) end
   return d.sz[checkdim(d, dim, 1, 'size')]
end

function Tensor.stride(self, dim)
   local d = TD[self] or internal.badself(self)
   dim = dimornil(dim)
   if dim == nil then return longstorage(d.str, d.nd) end
   return d.str[checkdim(d, dim, 1, 'stride')]
end

function Tensor.storage(self)
   local st = (TD[self] or internal.badself(self)).st
   return st and internal.storageproxy(st)
end
function Tensor.storageOffset(self) return (TD[self] or internal.badself(self)).off + 1 end
-- a call of numel, fill or zero that fits none of their signatures:
-- Torch7's error (these check their own arguments: see maths/argcheck.lua)
local function invalid(name, ...)
   local d = TD[(...)]
   local T = d and d.T or types[torch.getdefaulttensortype():match('^torch%.(%a+)Tensor$')]
   require('torch.maths.dispatch').argerror(name, T, 'method', ...)
end

function Tensor.nElement(self) return nelement((TD[self] or internal.badself(self))) end
-- numel was one of Torch7's maths functions: it took nothing more
function Tensor.numel(self, extra)
   local d = TD[self] or internal.badself(self)
   if extra ~= nil or not d then invalid('numel', self, extra) end
   return nelement(d)
end
function Tensor.elementSize(self) return (TD[self] or internal.badself(self)).T.size end
function Tensor.isContiguous(self) return iscontiguous((TD[self] or internal.badself(self))) end

function Tensor.isSize(self, sizes)
   if not islongstorage(sizes) then
      fail("bad argument #1 to 'isSize' (torch.LongStorage expected, got %s)", torch.type(sizes))
   end
   local d, s = TD[self], SD[sizes]
   if d.nd ~= s.n then return false end
   for i = 1, d.nd do
      if d.sz[i] ~= tonumber(s.ptr[i - 1]) then return false end
   end
   return true
end

local function checktensor(v, argn, fname)
   local d = istensor(v) and TD[v]
   if not d then
      fail("bad argument #%d to '%s' (tensor expected, got %s)", argn, fname, torch.type(v))
   end
   return d
end
internal.checktensor = checktensor

-- a tensor of self's type, as luaT_checkudata(L, 2, torch_Tensor) required
local function checkalike(self, v, fname)
   local T = (TD[self] or internal.badself(self, nil, fname)).T
   if not istensor(v) then   -- (named as the type it must be, as luaT_checkudata did)
      fail("bad argument #1 to '%s' (%s expected, got %s)", fname, T.tensorname, torch.type(v))
   end
   local d = TD[v]
   if d.T ~= T then
      fail("bad argument #1 to '%s' (%s expected, got %s)", fname, T.tensorname, d.T.tensorname)
   end
   return d
end

local function samesize(a, b)
   if a.nd ~= b.nd then return false end
   for i = 1, a.nd do
      if a.sz[i] ~= b.sz[i] then return false end
   end
   return true
end
internal.samesize = samesize

function Tensor.isSameSizeAs(self, other)
   return samesize(TD[self], checkalike(self, other, 'isSameSizeAs'))
end

function Tensor.isSetTo(self, other)
   local a, b = TD[self], checkalike(self, other, 'isSetTo')
   if a.st == nil or not rawequal(a.st, b.st) or a.off ~= b.off or a.nd ~= b.nd then return false end
   for i = 1, a.nd do
      if a.sz[i] ~= b.sz[i] or a.str[i] ~= b.str[i] then return false end
   end
   return true
end

-- data(): an FFI pointer to the first element (writes through it are seen by the tensor)
function Tensor.data(self)
   local d = TD[self] or internal.badself(self)
   if not d.st then return nil end
   return d.st.ptr + d.off
end

-- memory follows Lua's garbage collector: these keep the API (returning nothing, as Torch7's did)
function Tensor.retain() end
function Tensor.free() end

---------------------------------------------------------------------------
-- views: metadata only
---------------------------------------------------------------------------

local function view(d, off, nd, sz, str)
   return wrap(d.T, d.st, off, nd, sz, str)
end

local function clonemeta(d)
   return view(d, d.off, d.nd, copyarray(d.sz, d.nd), copyarray(d.str, d.nd))
end
internal.clonemeta = clonemeta

-- (The structural methods read every argument before they check a range,
-- as the original's bindings did, and count the arguments given: an absent
-- one is "no value".  Range errors carry the original's words.)

-- inrange(ok, argn, fname [, why]): a range check, numbered as TH's
local function inrange(ok, argn, fname, why)
   if not ok then fail("bad argument #%d to '%s' (%s)", argn, fname, why or 'out of range') end
end

-- ints(fname, count, ...) -> the first two or three arguments as integers,
-- in order, each an error if it is not a number ("no value" if not given)
local function ints(fname, count, ...)
   local n = select('#', ...)
   local a, b, c = ...
   a, b = toint(a, 1, fname, n), toint(b, 2, fname, n)
   if count == 3 then c = toint(c, 3, fname, n) end
   return a, b, c
end

function Tensor.narrow(self, ...)
   local d = TD[self] or internal.badself(self)
   local dim, index, size = ints('narrow', 3, ...)
   inrange(dim >= 1 and dim <= d.nd, 1, 'narrow')
   inrange(index >= 1 and index <= d.sz[dim], 2, 'narrow')
   inrange(size >= 1 and index + size - 1 <= d.sz[dim], 3, 'narrow')
   local t = clonemeta(d)
   local e = TD[t]
   e.off = d.off + (index - 1) * d.str[dim]
   e.sz[dim] = size
   return t
end

-- the view without dimension dim at index (0-based)
local function selectview(d, dim, i0)
   local sz, str, n = tnew(d.nd - 1, 0), tnew(d.nd - 1, 0), 0
   for k = 1, d.nd do
      if k ~= dim then
         n = n + 1
         sz[n], str[n] = d.sz[k], d.str[k]
      end
   end
   return view(d, d.off + i0 * d.str[dim], n, sz, str)
end

local function element(d, i0)
   local s = d.st
   local pos = d.off + i0 * d.str[1]
   if pos >= s.n then checkbounds(d) end
   return tonumber(s.ptr[pos])
end

function Tensor.select(self, ...)
   local d = TD[self] or internal.badself(self)
   -- no negative index here, unlike sub and [] (Torch7's select had none);
   -- a fraction is cut as luaL_checklong cut it
   local dim, index = ints('select', 2, ...)
   inrange(d.nd > 0, 0, 'select', 'empty Tensor')
   -- a vector gives its element whatever the dimension (a Torch7 quirk code relies on)
   if d.nd == 1 then
      inrange(index >= 1 and index <= d.sz[1], 1, 'select')
      return element(d, index - 1)
   end
   inrange(dim >= 1 and dim <= d.nd, 1, 'select')
   inrange(index >= 1 and index <= d.sz[dim], 2, 'select')
   return selectview(d, dim, index - 1)
end

-- sub(d1s, d1e [, d2s, d2e ...]): ranges, negative bounds count from the end
-- (the first pair is needed; a later one is read when its start is given).
-- Each pair is read and checked before the next is read, as TH's binding did
function Tensor.sub(self, ...)
   local d = TD[self] or internal.badself(self)
   local n = select('#', ...)
   local npairs = n < 2 and 1 or floor((n + 1) / 2)
   local t = clonemeta(d)
   local e = TD[t]
   for k = 1, npairs do
      local s, f = select(2 * k - 1, ...)
      s, f = toint(s, 2 * k - 1, 'sub', n), toint(f, 2 * k, 'sub', n)
      inrange(k <= d.nd, 2 * k - 1, 'sub', 'invalid dimension')
      local size = d.sz[k]
      if s < 0 then s = size + s + 1 end
      if f < 0 then f = size + f + 1 end
      inrange(s >= 1 and s <= size, 2 * k - 1, 'sub')
      inrange(f >= 1 and f <= size, 2 * k, 'sub')
      inrange(f >= s, 2 * k, 'sub', 'end smaller than beginning')
      e.off = e.off + (s - 1) * d.str[k]
      e.sz[k] = f - s + 1
   end
   return t
end

function Tensor.transpose(self, ...)
   local d = TD[self] or internal.badself(self)
   local a, b = ints('transpose', 2, ...)
   -- (TH numbered the dimensions from self: the first is #0)
   inrange(a >= 1 and a <= d.nd, 0, 'transpose')
   inrange(b >= 1 and b <= d.nd, 1, 'transpose')
   local t = clonemeta(d)
   local e = TD[t]
   e.sz[a], e.sz[b] = e.sz[b], e.sz[a]
   e.str[a], e.str[b] = e.str[b], e.str[a]
   return t
end

function Tensor.t(self)
   local d = TD[self] or internal.badself(self)
   inrange(d.nd == 2, 0, 't', 'Tensor must have 2 dimensions')
   -- (made here, not by transpose: no arguments to read and check)
   return view(d, d.off, 2, {d.sz[2], d.sz[1]}, {d.str[2], d.str[1]})
end

function Tensor.permute(self, ...)
   local d = TD[self] or internal.badself(self)
   -- (the dimensions counted as Torch7's Lua counted them, #{...}: trailing
   -- nils, and what follows a nil LuaJIT's border stops at, left out)
   local perm = {...}
   local n = #perm
   if n ~= d.nd then fail('Invalid permutation') end
   local seen, sz, str = {}, {}, {}
   for i = 1, n do
      local p = perm[i]
      -- (a fraction names no dimension: its size and stride would be nil)
      if type(p) ~= 'number' or p < 1 or p > n or p ~= floor(p) or seen[p] then fail('Invalid permutation') end
      seen[p] = true
      sz[i], str[i] = d.sz[p], d.str[p]
   end
   return view(d, d.off, n, sz, str)
end

function Tensor.unfold(self, ...)
   local d = TD[self] or internal.badself(self)
   local dim, size, step = ints('unfold', 3, ...)
   -- (an empty tensor refused first, as the tensor: TH's check before the others)
   inrange(d.nd > 0, 0, 'unfold', 'cannot unfold an empty tensor')
   inrange(dim >= 1 and dim <= d.nd, 1, 'unfold')
   inrange(size <= d.sz[dim], 2, 'unfold')
   inrange(step > 0, 3, 'unfold', 'invalid step')
   local sz, str = copyarray(d.sz, d.nd), copyarray(d.str, d.nd)
   sz[dim] = floor((d.sz[dim] - size) / step) + 1
   str[dim] = step * d.str[dim]
   sz[d.nd + 1], str[d.nd + 1] = size, d.str[dim]
   return view(d, d.off, d.nd + 1, sz, str)
end

-- the sizes of a view of n elements, with one -1 inferred (Torch7's messages)
local function infersizes(sizes, n, total)
   local known, free = 1, nil
   for i = 1, n do
      if sizes[i] == -1 then
         if free then fail('Only one of torch.view dimensions can be -1.') end
         free = i
      else
         known = known * sizes[i]
      end
   end
   if free then
      if known == 0 or total % known ~= 0 then
         fail('The number of covered elements is not a multiple of all elements.')
      end
      sizes[free] = total / known
   end
   return sizes
end

-- a failed view(result, src, sizes...): Torch7's view, a Lua function, set
-- the result to the sizes before it counted the elements (TH's resizeNd: the
-- sizes up to the first below 1, src's storage grown to them), so the result
-- kept them, and the message showed src's sizes after that (when src was
-- the result, those)
local function setfailedview(r, d, sizes, n)
   local kept = 0
   while kept < n and sizes[kept + 1] > 0 do kept = kept + 1 end
   setmeta(r, d.st, d.off, sizes, kept)
end

-- set's error for a result of type R given what is no storage of R's
local function seterror(R)
   internal.raise(("bad argument #1 to 'set' (expecting number or %s or %s)"):format(R.tensorname, R.storagename))
end

local function viewsizes(self, sizes, n, result)
   local d = TD[self] or internal.badself(self)
   local total = nelement(d)
   infersizes(sizes, n, total)   -- (its errors first, then set's, as in Torch7)
   -- (Torch7's view, a Lua function, set the result to src's storage: set's
   -- error for a src with none, and for a result of another type)
   local R = result and TD[result].T or d.T
   if not d.st then seterror(R) end
   if not iscontiguous(d) then
      fail('expecting a contiguous tensor')
   end
   if R ~= d.T then seterror(R) end
   -- (a size of 0 ends the sizes, as in torch.Tensor(6, 0): x:view(6, 0)
   -- is x:view(6), which Torch7 took; its message shows them all)
   local kept = n
   for i = n, 1, -1 do if sizes[i] == 0 then kept = i - 1 end end
   local known, negative = kept > 0 and 1 or 0, false
   for i = 1, n do
      negative = negative or sizes[i] < 0
      if i <= kept then known = known * sizes[i] end
   end
   if negative or known ~= total then
      if result then setfailedview(TD[result], d, sizes, n) end
      fail('Wrong size for view. Input size: %s. Output size: %s', internal.sizestring(d), concat(sizes, 'x', 1, n))
   end
   if total == 0 then return empty(d.T) end
   for i = kept + 1, n do sizes[i] = nil end
   -- (sizes, made for this call, become the view's: no empty tables made
   -- and replaced, 700 -> 480 bytes of garbage a view)
   local nd, sz, str, extent = layout(sizes, kept, nil, true)
   if extent + d.off > d.st.n then internal.resizestorage(d.st, extent + d.off) end   -- (as setmeta)
   return wrap(d.T, d.st, d.off, nd, sz, str)
end

-- viewsizesof(...) -> sizes, n of view's arguments after the source: a
-- LongStorage or numbers up to the first nil, checked in the words of
-- Torch7's view (a Lua function, strict about numbers)
local VIEWFORMS = 'torch.view, expected (torch.Tensor, torch.Tensor, number [, number ]*) or\n'
   .. ' (torch.Tensor, torch.Tensor, torch.LongStorage) or\n (torch.Tensor, torch.LongStorage)\n'
   .. ' or (torch.Tensor, number [, number ]*)'
local function viewsizesof(first, ...)
   if islongstorage(first) then return storagearray(first) end
   if type(first) ~= 'number' then fail(VIEWFORMS) end
   local sizes, n = {first}, 1
   for i = 1, select('#', ...) do
      local v = select(i, ...)
      if v == nil then break end
      if type(v) == 'string' then v = tonumber(v) or v end   -- (the original read a numeric string)
      if type(v) ~= 'number' then error(('element at index %d is not a number'):format(i + 1), 0) end
      n = n + 1
      sizes[n] = v
   end
   for i = 1, n do sizes[i] = toint(sizes[i], i, 'view') end
   return sizes, n
end

-- view([result,] sizes...) as a method: self:view(...) or result:view(src, sizes...)
function Tensor.view(self, a, ...)
   if istensor(a) then
      if not TD[self] then internal.badself(self) end
      local sizes, n = viewsizesof(...)
      local t = viewsizes(a, sizes, n, self)
      local d, e = TD[self], TD[t]
      d.st, d.off, d.nd, d.sz, d.str = e.st, e.off, e.nd, e.sz, e.str
      return self
   end
   -- (Torch7's view took a LongStorage alone: followed by anything but nil,
   -- none of its forms; after a source tensor, what follows it is ignored)
   if (...) ~= nil and islongstorage(a) then fail(VIEWFORMS) end
   return viewsizes(self, viewsizesof(a, ...))
end

-- a LongStorage of the sizes of tensor v (the template of viewAs, expandAs)
local function sizesof(v, argn, fname)
   local e = checktensor(v, argn, fname)
   return longstorage(e.sz, e.nd)
end

-- viewAs([result,] tensor, template)
function Tensor.viewAs(self, a, b)
   if not TD[self] then internal.badself(self) end
   if b ~= nil then
      if not istensor(b) then   -- (the original's view then said which forms it took)
         fail('expecting (torch.Tensor, torch.Tensor, torch.LongStorage) or (torch.Tensor, torch.LongStorage)')
      end
      return Tensor.view(self, a, sizesof(b, 2, 'viewAs'))
   end
   return Tensor.view(self, sizesof(a, 1, 'viewAs'))
end

-- setinto(t, result): make result view what t views; returns result
local function setinto(t, result)
   local d, r = TD[t], TD[result]
   r.st, r.off, r.nd, r.sz, r.str = d.st, d.off, d.nd, copyarray(d.sz, d.nd), copyarray(d.str, d.nd)
   return result
end

-- expandsizes(a, ...) -> sizes, n, nonnumber: expand's sizes (up to the first
-- nil after the first) as Torch7's C read them before its Lua checked them: a
-- string that is no number was 0 there (th refuses it after those checks:
-- nonnumber is its place), any other wrong type fails at once
local function expandsizes(a, ...)
   if islongstorage(a) then return storagearray(a) end
   local args, n = {a, ...}, select('#', ...) + 1
   for i = 2, n do
      if args[i] == nil then n = i - 1 break end
   end
   local sizes, nonnumber = {}, nil
   for i = 1, n do
      local v = args[i]
      if type(v) == 'string' and not tonumber(v) then
         nonnumber, sizes[i] = nonnumber or i, 0
      else
         sizes[i] = toint(v, i, 'expand')
      end
   end
   return sizes, n, nonnumber
end

-- expand([result,] sizes...): size-1 dimensions repeat with stride 0
-- expandview(self, sizes...): self's view of those sizes (a tensor first:
-- expand's result form again)
local function expandview(self, a, ...)
   if istensor(a) then return Tensor.expand(self, a, ...) end
   local d = TD[self] or internal.badself(self)
   local sizes, n, nonnumber = expandsizes(a, ...)
   if n ~= d.nd then
      fail('the number of dimensions provided must equal tensor:dim()')
   end
   -- (every size checked before a 0 ends the dimensions, as Torch7's Lua did)
   for i = 1, n do
      if d.sz[i] ~= 1 and d.sz[i] ~= sizes[i] then
         fail('incorrect size: only supporting singleton expansion (size=1)')
      end
   end
   if nonnumber then toint((select(nonnumber, a, ...)), nonnumber, 'expand') end
   local sz, str = tnew(n, 0), tnew(n, 0)
   for i = 1, n do
      if sizes[i] < 0 then
         fail("bad argument #%d to 'expand' (negative size %d)", i, sizes[i])
      elseif sizes[i] == 0 and d.sz[i] == 1 then
         n = i - 1   -- as TH's resize, the first empty size ends the dimensions
         break
      elseif d.sz[i] == 1 then
         -- (stride 0 even where the size stays 1, as Torch7's strides read)
         sz[i], str[i] = sizes[i], 0
      else
         sz[i], str[i] = d.sz[i], d.str[i]
      end
   end
   return view(d, d.off, n, sz, str)
end

-- expand([result,] [src,] sizes...) (after a source, the first size as the
-- later ones: Torch7's C read them).  No tail call: the errors are numbered
-- after the method found on the stack
function Tensor.expand(self, a, ...)
   if not TD[self] then internal.badself(self) end
   if istensor(a) then return setinto(expandview(a, ...), self) end
   sizesfirst(a, 'expand')
   local t = expandview(self, a, ...)
   return t
end

-- expandAs([result,] tensor, template)
function Tensor.expandAs(self, a, b)
   if not TD[self] then internal.badself(self) end
   if b ~= nil then return Tensor.expand(self, a, sizesof(b, 2, 'expandAs')) end
   return Tensor.expand(self, sizesof(a, 1, 'expandAs'))
end


-- whether squeeze keeps dimension i of sizes sz (nd of them): not of size
-- 1, or not the one asked for
local function kept(sz, i, dim, nd)
   return sz[i] ~= 1 or (dim and (i ~= dim or nd == 1))
end

-- the sizes and strides squeeze keeps, and their count; written out up to
-- 4 dimensions (a loop of a few steps ends the traces through it once
-- LuaJIT gives up compiling it on its own: nn's criteria squeeze on every
-- call)
local function squeezed(d, dim)
   local sz, str, n, nd, dsz, dstr = {}, {}, 0, d.nd, d.sz, d.str
   if nd > 4 then
      for i = 1, nd do
         if kept(dsz, i, dim, nd) then n = n + 1; sz[n], str[n] = dsz[i], dstr[i] end
      end
      return sz, str, n
   end
   if nd >= 1 and kept(dsz, 1, dim, nd) then n = n + 1; sz[n], str[n] = dsz[1], dstr[1] end
   if nd >= 2 and kept(dsz, 2, dim, nd) then n = n + 1; sz[n], str[n] = dsz[2], dstr[2] end
   if nd >= 3 and kept(dsz, 3, dim, nd) then n = n + 1; sz[n], str[n] = dsz[3], dstr[3] end
   if nd >= 4 and kept(dsz, 4, dim, nd) then n = n + 1; sz[n], str[n] = dsz[4], dstr[4] end
   return sz, str, n
end

-- squeeze([result,] [dim]): a view without size-1 dimensions (or without
-- dimension dim when it has size 1 and is not the only one).  As Torch7's
-- wrapper did, a single element comes back as a plain number (with dim,
-- only when the tensor had one dimension).
function Tensor.squeeze(self, a, b)
   if istensor(a) then
      local v = Tensor.squeeze(a, b)
      local r = TD[self]
      if type(v) == 'number' then
         r.st, r.off, r.nd, r.sz, r.str = TD[a].st, TD[a].off, 1, {1}, {1}
         return v
      end
      return setinto(v, self)
   end
   local d, dim = TD[self], a
   if dim ~= nil then
      dim = toint(dim, 1, 'squeeze')
      if dim < 1 or dim > d.nd then fail("bad argument #1 to 'squeeze' (dimension out of range)") end
   end
   local sz, str, n = squeezed(d, dim)
   if n == 0 and d.nd > 0 then
      return element(d, 0)
   end
   if dim and d.nd == 1 and d.sz[1] == 1 then
      return element(d, 0)
   end
   return view(d, d.off, n, sz, str)
end

---------------------------------------------------------------------------
-- set, resize
---------------------------------------------------------------------------

function Tensor.set(self, ...)
   local d = TD[self] or internal.badself(self)
   if ... == nil and select('#', ...) > 0 then   -- (x:set() empties x, x:set(nil) was no form of Torch7's)
      fail("bad argument #1 to 'set' (expecting number or %s or %s)", d.T.tensorname, d.T.storagename)
   end
   setfrom(d, 'set', ...)
   return self
end

-- resize keeps the strides when the sizes do not change (as TH does: the
-- sizes up to the first 0, which ends the dimensions)
-- resize(d, sizes, n [, raw]): raw, a new storage (d had none) is not
-- zeroed: the caller writes every element
-- strides (resize(sizes, strides) of LongStorages): as TH's resizeNd, the
-- ones given (>= 0) kept, the others (-1) made contiguous; the tensor stays
-- as it is only when its sizes and those strides are already its own
local function resize(d, sizes, n, raw, strides)
   local kept = n
   for i = 1, n do
      if sizes[i] == 0 then kept = i - 1 break end
   end
   local same = d.nd == kept
   if same then
      for i = 1, kept do
         if sizes[i] ~= d.sz[i] or strides and strides[i] >= 0 and strides[i] ~= d.str[i] then
            same = false
            break
         end
      end
   end
   if same then return end
   -- (a negative size is an error, where TH's resizeNd silently ended the
   -- dimensions there: README, "Where th differs")
   for i = 1, n do
      if type(sizes[i]) ~= 'number' or sizes[i] < 0 then
         fail("bad argument #%d to 'resize' (non-negative size expected)", i)
      end
   end
   setmeta(d, d.st, d.off, sizes, n, strides, raw)
end
internal.resize = resize

-- does d have the n sizes sz (a table, or up to four numbers s1..s4)?  (nn
-- resizes every output on every call: a table of the sizes made for that
-- was most of what a small criterion call allocated; written out up to
-- four: a loop of a few steps ends the traces that run through it once
-- LuaJIT gives up compiling it on its own)
local function hassizes(d, n, sz, s1, s2, s3, s4)
   if d.nd ~= n then return false end
   local have = d.sz
   if sz then
      if n > 4 then
         for i = 1, n do
            if sz[i] ~= have[i] then return false end
         end
         return true
      end
      s1, s2, s3, s4 = sz[1], sz[2], sz[3], sz[4]
   end
   return s1 == have[1] and (n < 2 or s2 == have[2]) and (n < 3 or s3 == have[3]) and (n < 4 or s4 == have[4])
end

function Tensor.resize(self, ...)
   local d = TD[self] or internal.badself(self)
   local n = select('#', ...)
   if n <= 4 then
      local s1, s2, s3, s4 = ...
      if type(s1) == 'number' and hassizes(d, n, nil, s1, s2, s3, s4) then return self end
   end
   local sizes, strides = ...
   if strides ~= nil and islongstorage(sizes) then
      if not islongstorage(strides) then fail("bad argument #2 to 'resize' (torch.LongStorage expected)") end
      -- (the strides were TH's too: th had dropped them)
      local sz, n, str = longstoragesizes('resize', sizes, strides, 2)
      resize(d, sz, n, nil, str)
      return self
   end
   resize(d, readsizes('resize', ...))
   return self
end

function Tensor.resizeAs(self, other)
   local e = checkalike(self, other, 'resizeAs')
   local d = TD[self]
   if not hassizes(d, e.nd, e.sz) then resize(d, copyarray(e.sz, e.nd), e.nd) end
   return self
end

---------------------------------------------------------------------------
-- fill, zero, copy, clone, contiguous, type conversion
---------------------------------------------------------------------------

-- (its own function: a closure in fill would make LuaJIT close upvalues
-- on every return, which it cannot compile: each fill aborted a trace)
local function eachset(d, v)
   each(d, function(ptr, i) ptr[i] = v end)
end

-- every element of d set to v, of d's type already
local function fill(d, v)
   kernels = kernels or require 'torch.maths.kernels'
   internal.overwriting(d)
   if kernels.fill(d, v) then return end
   if nelement(d) <= SMALL then
      eachset(d, v)
   elseif d.nd > 0 then
      pycall(py.fill, ndview(d), v)
   end
end
internal.fill = fill

local function fillwith(self, d, v)
   fill(d, v)
   return self
end

function Tensor.fill(self, ...)
   local d = TD[self] or internal.badself(self)
   local value = ...
   local v = type(value) ~= 'table' and tonumber(value)   -- '7' is a number, as lua_isnumber had it
   if not v or not d or select('#', ...) ~= 1 then invalid('fill', self, ...) end
   return fillwith(self, d, ccast(d.T, v))
end

function Tensor.zero(self, ...)
   local d = TD[self] or internal.badself(self)
   if select('#', ...) > 0 or not d then invalid('zero', self, ...) end
   return fillwith(self, d, 0)
end

-- TensorMath wrapped fill and zero for the torch table too
function torch.fill(t, value)
   checktensor(t, 1, 'fill')
   return Tensor.fill(t, value)
end

function torch.zero(t)
   checktensor(t, 1, 'zero')
   return Tensor.zero(t)
end

-- matrices of one type (a transpose): TH's order of the element copies, in
-- LuaJIT at every size when the two share memory (numpy's strided copy
-- buffers an overlapping copy where TH did not), up to SEPARATE elements
-- otherwise (beyond, numpy's is faster), TILED for a transpose's tiles
-- (beyond, the helper threads' copy: 100x100 7.0 -> 5.0 us, 250x250 49 -> 31)
local matrixcopy = require 'torch.matrixcopy'
local SEPARATE, TILED = 4096, 65536
local function copymatrix(d, s, n)
   if n > SEPARATE and not rawequal(d.st, s.st) and not (n <= TILED and matrixcopy.tiled(d, s)) then
      return false
   end
   checkbounds(d); checkbounds(s)
   return matrixcopy.copy(d.st.ptr + d.off, d, s.st.ptr + s.off, s)
end

-- rows of contiguous blocks from this long, in separate storages, go a
-- memcpy a block (matrixcopy.blocks)
local BLOCKCOPY = 8
local function copyblocks(d, s)
   if rawequal(d.st, s.st) or d.T.ptrtype ~= d.T.rawptr or not samesize(d, s) then return false end
   checkbounds(d); checkbounds(s)
   return matrixcopy.blocks(d, s, BLOCKCOPY)
end

-- copy(src): any type, same number of elements, sizes may differ
-- does the LongTensor data s hold a value beyond 2^53? (C rounded it once
-- into a float, from 64 bits: through a double it would be rounded twice)
local function beyonddouble(s)
   local ptr = s.st.ptr
   for _, o in ipairs(offsets(s)) do
      local v = tonumber(ptr[o])
      if v > 2^53 or v < -2^53 then return true end
   end
   return false
end

-- copyelements(d, s): element by element in row-major order (small tensors
-- no faster loop took).  Apart from copy: closures in copy made LuaJIT close
-- upvalues at its every return, which it does not compile (NYI), so every
-- trace through a copy that returned early aborted, until LuaJIT
-- blacklisted Tensor.copy and ran every copy in the interpreter (0.06 ->
-- 0.4 us for 100 elements, in one run of the sweep in three)
local int32p = ffi.typeof('int32_t *')
local function copyelements(d, s)
   local so = offsets(s)
   local sptr = s.st.ptr
   local k = 0
   if d.T.integer and not s.T.integer then
      local T = d.T
      each(d, function(ptr, i) k = k + 1; ptr[i] = ccast(T, sptr[so[k]]) end)
   elseif s.T.name == 'Long' and d.T.integer and d.T.name ~= 'Long' then
      -- C's wrap-around into a narrower integer: the int64's low half
      -- (little-endian), whose low bits the store keeps (a number would
      -- have rounded a value past 2^53 first)
      local low = kernels.recast(int32p, sptr)
      each(d, function(ptr, i) k = k + 1; ptr[i] = low[2 * so[k]] end)
   elseif s.T.name == 'Long' and d.T.name ~= 'Long' then
      -- an int64 stored through another pointer type in a hot trace is
      -- miscompiled by lupa's LuaJIT (wrong values, heap corruption): as a number
      each(d, function(ptr, i) k = k + 1; ptr[i] = tonumber(sptr[so[k]]) end)
   else
      each(d, function(ptr, i) k = k + 1; ptr[i] = sptr[so[k]] end)
   end
end

-- bracketsizes(d) -> d's sizes as TH's messages give them: [2 x 3]
local function bracketsizes(d)
   return '[' .. concat(d.sz, ' x ', 1, d.nd) .. ']'
end
internal.bracketsizes = bracketsizes

local function copy(d, s)
   local n = nelement(d)
   if n ~= nelement(s) then
      fail('inconsistent tensor size, expected tensor %s and src %s to have the same number of elements, '
           .. 'but got %d and %d elements respectively', bracketsizes(d), bracketsizes(s), n, nelement(s))
   end
   if n == 0 then return end
   kernels = kernels or require 'torch.maths.kernels'
   if not rawequal(d.st, s.st) then internal.overwriting(d) end
   if d.T == s.T and iscontiguous(d) and iscontiguous(s) then
      checkbounds(d); checkbounds(s)
      -- views of one storage may overlap: copied as numpy's bulk path does
      ffi.C.memmove(raw(d.st.ptr + d.off), raw(s.st.ptr + s.off), n * d.T.size)
   elseif d.T == s.T and copyblocks(d, s) then
      return
   elseif d.nd == 2 and s.nd == 2 and d.sz[1] == s.sz[1] and d.sz[2] == s.sz[2] and d.T == s.T
          and copymatrix(d, s, n) then
      return
   elseif kernels.copy(d, s) then
      return
   elseif n <= SMALL and not (s.T.name == 'Long' and d.T.name == 'Float' and beyonddouble(s)) then
      copyelements(d, s)
   else
      checkbounds(s)
      pycall(py.copy, ndview(d), ndview(s))
   end
end
internal.copy = copy

function Tensor.copy(self, ...)
   local d = TD[self] or internal.badself(self)
   local src = ...
   local s = istensor(src) and TD[src]
   if not s then   -- (Torch7's words: any type of tensor)
      fail("bad argument #1 to 'copy' (torch.*Tensor expected, got %s)", internal.typeof(src, 1, select('#', ...)))
   end
   copy(d, s)
   return self
end

-- clone(): a contiguous copy with its own storage
local function clone(d, T)
   local t = new(T or d.T, d.sz, d.nd, true)
   copy(TD[t], d)
   return t
end
internal.clone = clone

function Tensor.clone(self)
   return clone((TD[self] or internal.badself(self)))
end

function Tensor.contiguous(self)
   local d = TD[self] or internal.badself(self)
   if iscontiguous(d) then return self end
   return clone(d)
end

-- type([name]): the type name, or the tensor converted (itself if already of that type)
-- tensor type name -> its type (a lookup: string.match is not compiled, and
-- nn's x:long(), x:type(t) run on every call)
local bytensorname = {}
for i = 1, types.all do bytensorname[types[i].tensorname] = types[i] end

function Tensor.type(self, name)
   local d = TD[self] or internal.badself(self)
   if name == nil then return d.T.tensorname end
   local T = bytensorname[name]
   if not T then
      fail("bad argument #1 to 'type' (unknown tensor type %s)", type(name) == 'string' and name or torch.type(name))
   end
   if T == d.T then return self end
   return clone(d, T)
end

function Tensor.typeAs(self, other)
   return Tensor.type(self, checktensor(other, 1, 'typeAs').T.tensorname)
end

for i = 1, types.all do
   local T = types[i]
   Tensor[T.name:lower()] = function(self)
      local d = TD[self] or internal.badself(self)
      if T == d.T then return self end
      return clone(d, T)
   end
end

---------------------------------------------------------------------------
-- the classes
---------------------------------------------------------------------------

internal.wraptensor = wrap
internal.newtensor = new
internal.newlike = newlike
internal.emptytensor = empty
internal.istensor = istensor
internal.nelement = nelement
internal.iscontiguous = iscontiguous
internal.element = element
internal.selectview = selectview
internal.Tensor = Tensor

-- the methods other modules add go through here, so every type gets them
function internal.method(name, f)
   Tensor[name] = f
   for i = 1, types.all do
      torch.getmetatable(types[i].tensorname)[name] = f
   end
end

for i = 1, types.all do
   local T = types[i]
   local mt
   stocks[T] = tnew(2 * BATCH, 1)
   stocks[T].n = 0
   protos[T.name], mt = class.proxyclass(T.tensorname, function(...) return construct(T, ...) end,
                                         function() return empty(T) end, Tensor)
   mt.__len = Tensor.size
end

function torch.isTensor(v) return istensor(v) end

-- torchmethod(name, f): torch[name](t, ...), the torch.f form of the method f
-- (internal.torchform's, with self checked as argument #1)
function internal.torchmethod(name, f)
   -- (not a tail call: the method's errors are torch.f's, internal.torchforms)
   local torchf = function(t, ...)
      checktensor(t, 1, name)
      local r = f(t, ...)
      return r
   end
   internal.torchforms[torchf] = 1
   torch[name] = torchf
end

-- the torch.f(tensor, ...) forms of the view methods that Torch7 had (not
-- torch.narrow, select, sub, transpose, t, unfold, clone or contiguous)
for _, name in ipairs{'expand', 'expandAs', 'view', 'viewAs', 'squeeze', 'permute'} do
   internal.torchmethod(name, Tensor[name])
end
-- (torch.view of what is no tensor, or of nothing: Torch7's view listed its forms)
local torchview = torch.view
torch.view = function(t, ...)
   if not istensor(t) then fail(VIEWFORMS) end
   local r = torchview(t, ...)
   return r
end
internal.torchforms[torch.view] = 1
-- (torch.viewAs(result, src, template) of a template that is no tensor:
-- Torch7's viewAs listed its forms before looking at the others)
local torchviewas = torch.viewAs
torch.viewAs = function(t, src, template, ...)
   if template ~= nil and not istensor(template) then
      fail('expecting (torch.Tensor, torch.Tensor, torch.LongStorage) or (torch.Tensor, torch.LongStorage)')
   end
   local r = torchviewas(t, src, template, ...)
   return r
end
internal.torchforms[torch.viewAs] = 1
function torch.isStorage(v) return isstorage(v) end

return Tensor
