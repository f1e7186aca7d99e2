-- The Lua half of the numpy memory boundary.
-- A buffer is LuaJIT memory (or a numpy array owned through its lupa
-- reference: file mappings, windows), plus an FFI pointer of the element type into it.  Lua never dereferences a pointer
-- without a bounds check against the buffer's length (done by Storage and
-- Tensor), so a wrong index is a Lua error, not a crash.
-- Buffers beyond SMALL_BYTES come from malloc, freed by the collector through
-- ffi.gc; Lua's collector does not see their size, so big allocations are
-- counted here and trigger a collection once they add up to more than a few
-- times Lua's own heap (at least COLLECT_EVERY): dropped tensors then release
-- their memory, and a collection's cost stays in proportion to the bytes
-- allocated since the last one, whatever the heap holds.
local ffi = require 'ffi'
local py = ...   -- the Python functions of th/native/memory.py

local memory = {}

local cast, collectgarbage, C = ffi.cast, collectgarbage, ffi.C
pcall(ffi.cdef, [[
void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void free(void *p);
void *mmap(void *addr, size_t length, int prot, int flags, int fd, long offset);
int munmap(void *addr, size_t length);
]])
-- glibc gives freed memory beyond 128 KB back to the system at once, so that
-- buffers freed by a collection came back as fresh pages, each a page fault
-- when first written (microseconds each on a busy machine): buffers up to
-- 32 MB come from the heap (M_MMAP_THRESHOLD, glibc's own ceiling when it
-- adapts it), and up to 256 MB of freed memory is kept for reuse (M_TRIM_THRESHOLD)
if ffi.os == 'Linux' and pcall(ffi.cdef, 'int mallopt(int param, int value);') then
   pcall(function()
      C.mallopt(-1, 256 * 2^20)
      C.mallopt(-3, 32 * 2^20)
   end)
end
local pending = 0                 -- bytes allocated since the last collection
local COLLECT_EVERY = 64 * 2^20

local function account(bytes)
   pending = pending + bytes
   if pending > COLLECT_EVERY and pending > 4096 * collectgarbage('count') then
      pending = 0
      collectgarbage()
   end
end

-- Small buffers are LuaJIT arrays, allocated and zeroed by LuaJIT itself.
local SMALL_BYTES = 1024
-- Zeroed buffers from this size are fresh pages of their own (mmap): the
-- kernel zeroes a page when it is first touched, where calloc would clear a
-- recycled block at once.
local MAPPED_BYTES = 2^17
local PROT_RW, MAP_PRIVATE_ANONYMOUS = 3, 0x22
local MAP_FAILED = ffi.cast('void *', -1)

local function mapped(bytes)
   local p = C.mmap(nil, bytes, PROT_RW, MAP_PRIVATE_ANONYMOUS, -1, 0)
   if p == MAP_FAILED then return nil end
   return ffi.gc(p, function(q) C.munmap(q, bytes) end)
end

-- alloc(T, n [, raw]) -> arr, ptr, buf : a buffer of n elements of type T,
-- zeroed unless raw (a result about to be overwritten): arr is nil (the numpy
-- array over buf is made when bulk maths needs one), buf the memory's owner
function memory.alloc(T, n, raw)
   local bytes = n * T.size
   if bytes <= SMALL_BYTES then
      local buf = T.vla(n)
      return nil, T.cast(buf), buf
   end
   account(bytes)
   if not raw and bytes >= MAPPED_BYTES and ffi.os == 'Linux' then
      local owner = mapped(bytes)
      if owner then return nil, T.cast(owner), owner end
   end
   local p = raw and C.malloc(bytes) or C.calloc(n, T.size)
   if p == nil then
      collectgarbage()
      p = raw and C.malloc(bytes) or C.calloc(n, T.size)
      if p == nil then error(('not enough memory for %d elements'):format(n), 0) end
   end
   local owner = ffi.gc(p, C.free)
   return nil, T.cast(owner), owner
end

-- numpy(T, buf, n) -> an ndarray over the LuaJIT buffer buf, which it keeps alive
function memory.numpy(T, buf, n)
   return py.from_cdata(T.name, tonumber(cast('intptr_t', buf)), n, buf)
end

-- window(T, arr, offset, n) -> arr, ptr : n elements of arr from 0-based offset, shared
function memory.window(T, arr, offset, n)
   local sub, addr = py.window(arr, offset, n)
   return sub, T.cast(addr)
end

-- fromfile(T, name, shared) -> arr, ptr, n : a buffer mapped on a file
function memory.fromfile(T, name, shared)
   local arr, addr = py.from_file(T.name, name, shared)
   return arr, T.cast(addr), py.len(arr)
end

-- fromaddress(T, addr, n) -> arr, ptr : a buffer over foreign memory
function memory.fromaddress(T, addr, n)
   local arr = py.from_address(T.name, addr, n)
   return arr, T.cast(addr)
end

function memory.view(arr, offset, ...)
   return py.view(arr, offset, ...)
end

return memory
