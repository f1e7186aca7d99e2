-- torch.{Byte,Char,Short,Int,Long,Float,Double}Storage: a one-dimensional
-- array of one element type, held in a numpy buffer (a LuaJIT one when small)
-- and read and written from Lua through a bounds-checked FFI pointer.
local torch = require 'torch'
local ffi = require 'ffi'
local types = require 'torch.types'
local class = require 'torch.class'
local internal = require 'torch.internal'
local raw = require('torch.half').raw

local memory, SD, fail = internal.memory, internal.storages, internal.fail
local poll = internal.poll
local type, tonumber, tostring, rawget, newproxy, floor = type, tonumber, tostring, rawget, newproxy, math.floor

-- a floating-point number as TH's C cast stored it on x86 (and numpy's bulk
-- cast does): truncated toward zero; beyond the int32 range (or NaN) the
-- conversion gives INT_MIN, whose low bits the narrower types keep; beyond
-- int64, INT64_MIN.  The truncation is explicit: LuaJIT's compiled store of a
-- negative fraction into a narrow integer rounds it down instead.
local function ccast(T, v)
   if not T.integer then return v end
   local lim = T.size == 8 and 2^63 or 2^31
   if v >= 0 and v < lim then return floor(v) end
   if v < 0 and v >= -lim then return -floor(-v) end
   return -lim
end
internal.ccast = ccast

-- a numeric string stored into an integer tensor or storage, as TH's
-- bindings read it (LuaJIT 2.1.0-beta3's lua_tointeger): the digits before
-- any '.', exponent or 'p' as a 64-bit integer ('1.5e2' is 1, 'inf' 0),
-- wrapped into the element type -> a number, or an int64 cdata for a Long
-- beyond 2^53; nil when s is no number
local function integerstring(T, s)
   if not tonumber(s) then return nil end
   local str = s:match('^%s*(.-)%s*$')
   local neg = str:sub(1, 1) == '-'
   str = str:gsub('^[-+]', '')
   local base, digits = 10, str:match('^%d*')
   if str:find('^0[xX]') then base, digits = 16, str:match('^0[xX](%x*)') end
   local v = ffi.new('uint64_t', 0)
   for i = 1, #digits do v = v * base + tonumber(digits:sub(i, i), 16) end
   if neg then v = -v end
   local x = ffi.cast(T.ctype, v)
   local n = tonumber(x)
   if T.size == 8 and (n >= 2 ^ 53 or n <= -2 ^ 53) then return x end
   return n
end
internal.integerstring = integerstring

-- the value a Lua number or numeric string v stores into an element of type
-- T (nil when v is neither)
function internal.elementvalue(T, v)
   if type(v) == 'string' and T.integer then return integerstring(T, v) end
   local x = type(v) ~= 'table' and tonumber(v)
   return x and ccast(T, x) or nil
end

local Storage = {}      -- the methods, shared by the seven types
local protos = {}       -- type name -> proxy whose metatable the type's storages share

-- A storage made here lives in a LuaJIT buffer (`buf`); its numpy array
-- `arr` is made the first time something asks for it.  A new zeroed buffer
-- beyond a LuaJIT array's size has no `ptr` either until something asks for
-- one: it is zeroed then (so a buffer never used is never written, nor paged in).
local lazy = {__index = function(s, k)
   if k == 'ptr' and s.buf then
      local ptr = memory.clear(s.T, s.buf, s.n)
      rawset(s, 'ptr', ptr)
      return ptr
   elseif k == 'arr' and s.buf then
      local _ = s.ptr
      local arr = memory.numpy(s.T, s.buf, s.n)
      rawset(s, 'arr', arr)
      return arr
   end
end}

-- overwriting(d): d (a tensor's data) is about to be written whole; when
-- it covers all of a storage whose buffer is still to be zeroed, the buffer
-- is taken as it is (Torch7 never zeroed a new tensor; th zeroes what is
-- read before it is written, not what a copy or fill overwrites)
function internal.overwriting(d)
   local s = d.st
   if s and s.buf and rawget(s, 'ptr') == nil and d.off == 0 and internal.nelement(d) == s.n
      and internal.iscontiguous(d) then
      rawset(s, 'ptr', memory.unzeroed(s.T, s.buf, s.n))
   end
end

-- storageview(s, offset, sizes..., strides...) -> arr, view: the array of
-- storage data s, which has none yet, and a view of it (one Python call)
function internal.storageview(s, offset, ...)
   local _ = s.ptr
   local arr, view = memory.numpyview(s.T, s.buf, s.n, offset, ...)
   rawset(s, 'arr', arr)
   return arr, view
end

-- A tensor holds its storage's data table, not a proxy: the proxy, which
-- users see, is made the first time something asks for it (most tensors
-- never do), and then kept in the data (`proxy`) for the storage's identity.

-- proxy(s) -> the storage proxy of storage data s
local function proxy(s)
   local p = rawget(s, 'proxy')   -- (a tensor's storage has no slot for it: four fields fill four)
   if p then return p end
   p = internal.attach(SD, newproxy(protos[s.T.name]), s)
   s.proxy = p
   return p
end

-- data(T, arr, ptr, n, buf) -> storage data over an existing buffer (ptr
-- nil: buf is to be zeroed when first used)
local function data(T, arr, ptr, n, buf)
   local s = setmetatable({T = T, n = n, ptr = ptr, buf = buf}, lazy)
   if arr then s.arr = arr end
   return s
end

-- buffer(T, n [, raw]) -> arr, ptr, buf: memory for n elements, zeroed
-- unless raw (ptr nil: zeroed when first used, memory.reserve)
local function buffer(T, n, raw)
   if raw then return memory.alloc(T, n, true) end
   local buf, ptr = memory.reserve(T, n)
   return nil, ptr, buf
end

-- newdata(T, n [, raw]) -> the data of a storage of n elements, zeroed
-- unless raw
local function newdata(T, n, raw)
   local arr, ptr, buf = buffer(T, n, raw)
   return data(T, arr, ptr, n, buf)
end

-- A new storage's proxy and data table come made from its type's stock,
-- BATCH at a time, as a new tensor's do (Tensor.lua): newproxy and setfenv
-- are C functions, each a stitch in the trace of the operation (x:size()
-- took 1.2 times the original's instructions).  ptr's slot is there from
-- the start (nil, it is filled on first use without growing the table).
local BATCH = 64
local stocks = {}   -- type -> {n = proxies left, [i] = a proxy, [BATCH + i] = its data}

local function restock(T, stock)
   local proto = protos[T.name]
   for i = 1, BATCH do
      local s = setmetatable({T = T, n = 0, ptr = false, buf = false, proxy = false}, lazy)
      s.proxy = internal.attach(SD, newproxy(proto), s)
      stock[i], stock[BATCH + i] = s.proxy, s
   end
   stock.n = BATCH
   return BATCH
end

-- wrap(T, arr, ptr, n [, buf]) -> a storage proxy over an existing buffer
local function wrap(T, arr, ptr, n, buf)
   local stock = stocks[T]
   local k = stock.n
   if k == 0 then k = restock(T, stock) end
   local p, s = stock[k], stock[BATCH + k]
   stock[k], stock[BATCH + k], stock.n = nil, nil, k - 1
   s.n, s.ptr, s.buf = n, ptr, buf or false
   if arr then s.arr = arr end
   return p
end

-- new(T, n [, raw]) -> a storage of n elements, zeroed unless raw
local function new(T, n, raw)
   local arr, ptr, buf = buffer(T, n, raw)
   return wrap(T, arr, ptr, n, buf)
end

local function isstorage(v)
   return type(v) == 'userdata' and SD[v] ~= nil
end

-- checksize(n, argn, fname [, given]): a size, a number (as luaL_checklong
-- read it: "no value" when the call gave none) that is not negative (Torch7's
-- allocator refused it, in TH's words)
local function checksize(n, argn, fname, given)
   n = internal.toint(type(n) == 'number' and n or internal.checknumber(n, argn, fname, given), argn, fname)
   if n < 0 then
      fail('$ Torch: invalid memory size -- maybe an overflow?')
   end
   return n   -- (a fraction cut, as a C long)
end

-- a storage mapped on a file, as TH's mmap allocator made it: shared, a
-- missing file is made (0600) and a shorter one lengthened to the size
-- asked; not shared, the file must hold that size; no bytes to map is TH's
-- allocation error.  (size <= 0: the whole file.)
pcall(ffi.cdef, [[
int open(const char *pathname, int flags, ...);
int ftruncate(int fd, long length);
int close(int fd);
]])
local function filebytes(name)
   local f = io.open(name, 'rb')
   if not f then return nil end
   local n = f:seek('end')
   f:close()
   return n
end
local function lengthen(name, bytes)
   local fd = ffi.C.open(name, 66, ffi.new('int', 384))   -- (O_RDWR | O_CREAT, 0600)
   if fd < 0 then return end
   if bytes and bytes > (filebytes(name) or 0) then ffi.C.ftruncate(fd, bytes) end
   ffi.C.close(fd)
end
local function checkfile(T, name, shared, size)
   local bytes = size and size * T.size
   if shared and ffi.os == 'Linux' then lengthen(name, bytes) end   -- (Linux's open flags)
   local have = filebytes(name)
   if not have then   -- (TH's words)
      fail('unable to open file <%s> in %s mode', name, shared and 'read-write' or 'read-only')
   end
   if bytes and have < bytes then
      fail('file <%s> size is smaller than the required mapping size <%d>', name, bytes)
   end
   if (bytes or have) == 0 then fail('$ Torch: unable to mmap memory: you tried to mmap 0GB.') end
end

-- the constructor: (), (size), (table), (storage, offset [, size]),
-- (filename [, shared [, size]]), (size, pointer)
local function construct(T, a, b, c)
   local ta = type(a)
   if a == nil then
      return new(T, 0)
   elseif ta == 'number' then
      a = checksize(a, 1, T.storagename)
      if b ~= nil then
         -- torch.Storage(size, pointer): view memory owned elsewhere
         local addr = type(b) == 'cdata' and tonumber(ffi.cast('intptr_t', b)) or b
         if type(addr) ~= 'number' then
            fail("bad argument #2 to '%s' (pointer expected)", T.storagename)
         end
         if not memory.mapped(addr, a * T.size) then
            fail("bad argument #2 to '%s' (no memory of the process at address %d)", T.storagename, addr)
         end
         local arr, ptr = memory.fromaddress(T, addr, a)
         return wrap(T, arr, ptr, a)
      end
      return new(T, a)
   elseif ta == 'table' then
      local n = #a
      local s = new(T, n)
      local ptr = SD[s].ptr
      for i = 1, n do
         local v = tonumber(a[i])   -- numeric strings count, as lua_isnumber had it
         if type(a[i]) == 'table' or v == nil then
            fail('element at index %d is not a number', i)
         end
         ptr[i - 1] = ccast(T, v)
      end
      return s
   elseif isstorage(a) then
      local src = SD[a]
      if src.T ~= T then
         fail("bad argument #1 to '%s' (%s expected, got %s)", T.storagename, T.storagename, src.T.storagename)
      end
      -- Torch7's messages; a view has at least one element (the offset and
      -- size read as numbers first, numeric strings too, as luaL_checknumber)
      if b ~= nil then b = internal.checknumber(b, 2, T.storagename) end
      if c ~= nil then c = internal.checknumber(c, 3, T.storagename) end
      local offset = b or 1
      if type(offset) ~= 'number' or offset < 1 or offset > src.n then
         fail('offset out of bounds')
      end
      offset = internal.toint(offset, 2, T.storagename)
      local n = c or (src.n - offset + 1)
      if type(n) ~= 'number' or n < 1 or offset - 1 + n > src.n then
         fail('size out of bounds')
      end
      n = internal.toint(n, 3, T.storagename)
      local arr, ptr = memory.window(T, src.arr, offset - 1, n)
      local view = wrap(T, arr, ptr, n)
      rawset(SD[view], 'fixed', true)
      return view
   elseif ta == 'string' then
      -- (shared a boolean, the size a number, checked before the file)
      if b ~= nil and type(b) ~= 'boolean' then
         fail("bad argument #2 to '%s' (boolean expected, got %s)", T.storagename, type(b))
      end
      if c ~= nil then c = internal.checknumber(c, 3, T.storagename) end
      if c and c <= 0 then c = nil end
      a = a:match('^[^%z]*')   -- (TH took the name as a C string: it ends at a 0 byte)
      checkfile(T, a, b, c)
      local ok, arr, ptr, n = pcall(memory.fromfile, T, a, b and true or false)
      if not ok then
         local f = io.open(a, b and 'r+b' or 'rb')
         if not f then   -- (TH's words)
            fail('unable to open file <%s> in %s mode', a, b and 'read-write' or 'read-only')
         end
         f:close()
         -- (what opens but cannot be mapped, a directory: TH's failed mmap,
         -- in its words, of the size asked for, rounded down to GB)
         fail('$ Torch: unable to mmap memory: you tried to mmap %dGB.', math.floor((c or 0) * T.size / 2^30))
      end
      if c and c < n then n = c end
      return wrap(T, arr, ptr, n)
   end
   -- (luaT's words: a tensor by its class, anything else wanted a size)
   if torch.isTensor(a) then
      fail("bad argument #1 to '%s' (%s expected, got %s)", T.storagename, T.storagename, torch.type(a))
   end
   fail("bad argument #1 to '%s' (number expected, got %s)", T.storagename, ta)
end

function Storage.size(self)
   return (SD[self] or internal.badself(self, 'torch.*Storage')).n
end

function Storage.elementSize(self)
   return (SD[self] or internal.badself(self, 'torch.*Storage')).T.size
end

-- resize(n): growing moves the elements to a new buffer; shrinking keeps the
-- buffer (only its visible length changes), so a tensor still viewing the lost
-- part can never make an FFI access outside memory (its views then fail with
-- an error, where Torch7 read freed memory).  resizedata(s, n) does it to
-- storage data s
-- A view of another storage (Storage(s, offset, size)) is not resizable, as
-- in TH.
local function resizedata(s, n)
   if rawget(s, 'fixed') then fail('Trying to resize storage that is not resizable') end
   if n > s.n and (s.n == 0 or s.buf and rawget(s, 'ptr') == nil) then
      -- nothing to keep but zeros (an empty tensor made a result, a buffer
      -- never used): a new buffer, zeroed when first used
      local buf, ptr = memory.reserve(s.T, n, s.n > 0 and 'reallocate' or nil)
      s.arr, s.ptr, s.buf, s.n = nil, ptr, buf, n
   elseif n > s.n then
      local arr, ptr, buf = memory.alloc(s.T, n, false, 'reallocate')   -- (TH's realloc)
      ffi.copy(raw(ptr), raw(s.ptr), s.n * s.T.size)
      s.arr, s.ptr, s.buf, s.n = arr, ptr, buf, n
   elseif n < s.n then
      local _ = s.ptr   -- (a reserved buffer is zeroed whole, while n says its size)
      s.arr = not s.buf and memory.window(s.T, s.arr, 0, n) or nil
      s.n = n
   end
end

function Storage.resize(self, ...)
   local n = ...
   local s = SD[self] or internal.badself(self, 'torch.*Storage')
   if rawget(s, 'fixed') then   -- (after the size's type, before its sign)
      internal.toint(type(n) == 'number' and n or internal.checknumber(n, 1, 'resize', select('#', ...)), 1, 'resize')
      fail('Trying to resize storage that is not resizable')
   end
   resizedata(s, checksize(n, 1, 'resize', select('#', ...)))
   return self
end

function Storage.fill(self, ...)
   local value = ...
   local v = type(value) ~= 'table' and tonumber(value)   -- '7' is a number, as luaL_checknumber had it
   if not v then internal.checknumber(value, 1, 'fill', select('#', ...)) end
   local s = (SD[self] or internal.badself(self, 'torch.*Storage'))
   local ptr = s.ptr
   v = ccast(s.T, v)
   for i = 0, s.n - 1 do ptr[i] = v end
   return self
end

-- copy(src): from a storage of the same type and size, or of another type and
-- at least as many elements (its first size() ones, as Torch7 took them; a
-- shorter one, which Torch7 read past its end, is an error)
function Storage.copy(self, ...)
   local src = ...
   local s, o = SD[self] or internal.badself(self, 'torch.*Storage'), isstorage(src) and SD[src]
   if not o then
      fail("bad argument #1 to 'copy' (torch.*Storage expected, got %s)",
           internal.typeof(src, 1, select('#', ...)) == 'no value' and 'no value' or torch.type(src))
   end
   -- (one type: the sizes must agree; another: a longer source is cut, but
   -- Half's copies, to or from it, wanted the same size too)
   if s.n ~= o.n and (s.T == o.T or o.n < s.n or s.T == types.Half or o.T == types.Half) then
      fail("bad argument #1 to 'copy' (size mismatch)")
   end
   if s.T == o.T then
      ffi.copy(raw(s.ptr), raw(o.ptr), s.n * s.T.size)
   else
      local dst, from = s.ptr, o.ptr
      if s.T.integer and not o.T.integer then
         for i = 0, s.n - 1 do dst[i] = ccast(s.T, from[i]) end
      elseif o.T.size == 8 and o.T.integer and not s.T.integer then
         -- an int64 read is a boxed cdata: LuaJIT miscompiles its hot store through a float*
         for i = 0, s.n - 1 do dst[i] = tonumber(from[i]) end
      else
         for i = 0, s.n - 1 do dst[i] = from[i] end
      end
   end
   return self
end

function Storage.totable(self)
   local s = (SD[self] or internal.badself(self, 'torch.*Storage'))
   local ptr, t = s.ptr, {}
   for i = 1, s.n do t[i] = tonumber(ptr[i - 1]) end
   return t
end

-- string(): the storage's bytes as a Lua string; string(str): resize to
-- #str elements and copy the bytes of str in (Byte and Char storages only,
-- as in Torch7).  The string is the last argument, the top of the stack
-- where Torch7's C function looked: s:string('a', 'b') stores 'b',
-- s:string('a', {}) reads (th took the first)
local function bytestring(self, ...)
   -- (a bad self: luaT's check, where Torch7's string read through it and crashed)
   local s = SD[self] or internal.badself(self, 'torch.*Storage')
   local n = select('#', ...)
   local str = n > 0 and select(n, ...) or nil
   if type(str) == 'number' then str = tostring(str) end   -- lua_isstring took numbers
   if type(str) ~= 'string' then   -- (anything else reads, as in Torch7)
      return ffi.string(s.ptr, s.n)
   end
   Storage.resize(self, #str)
   ffi.fill(raw(s.ptr), #str * s.T.size)
   ffi.copy(raw(s.ptr), str, #str)
   return self
end

-- data(): the FFI pointer to the first element
function Storage.data(self)
   return (SD[self] or internal.badself(self, 'torch.*Storage')).ptr
end

-- retain/free: memory follows Lua's garbage collector, so these only keep the
-- API (returning nothing, as Torch7's did)
function Storage.retain() end
function Storage.free() end

-- the element index a key stands for (numbers and numeric strings, cut toward
-- zero as luaL_checkinteger did), or nil for a method name
local function elementindex(k)
   k = tonumber(k)
   if k then return k >= 0 and floor(k) or -floor(-k) end
end

local function index(mt)
   return function(self, k)
      poll()
      local i = type(k) ~= 'table' and elementindex(k)
      if i then
         local s = SD[self]
         if i >= 1 and i <= s.n then
            return tonumber(s.ptr[i - 1])
         end
         fail("bad argument #2 to '?' (out of bounds)")
      end
      return rawget(mt, k)
   end
end

local function newindex(self, key, v)
   poll()
   local s = SD[self]
   local k = type(key) ~= 'table' and elementindex(key)
   if not k then internal.raise(('the class %s cannot be indexed'):format(s.T.storagename)) end
   -- a numeric string is a number, as in Torch7; what is no number is an error
   -- before the index is checked, but for a string given to an integer type
   -- (Torch7 stored 0 there, after checking the index)
   local x = internal.elementvalue(s.T, v)
   if x == nil and (type(v) ~= 'string' or not s.T.integer) then
      fail("bad argument #3 to '?' (number expected, got %s)", type(v))
   end
   if not (k >= 1 and k <= s.n) then fail("bad argument #2 to '?' (out of bounds)") end   -- (NaN too)
   if x == nil then fail("bad argument #3 to '?' (number expected, got string)") end
   s.ptr[k - 1] = x
end

for i = 1, types.all do
   local T = types[i]
   local mt
   stocks[T] = {n = 0}
   protos[T.name], mt = class.proxyclass(T.storagename, function(...) return construct(T, ...) end,
                                         function() return new(T, 0) end, Storage)
   mt.__index = index(mt)
   mt.__newindex = newindex
   mt.__len = Storage.size
   if T.size == 1 then mt.string = bytestring end
end

internal.newstorage = new
internal.wrapstorage = wrap
internal.newstoragedata = newdata
internal.storagedata = data
internal.storageproxy = proxy
internal.resizestorage = resizedata
internal.isstorage = isstorage

return Storage
