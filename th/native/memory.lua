-- The Lua half of the numpy memory boundary.
-- A buffer is LuaJIT memory (or a numpy array owned through its lupa
-- reference: file mappings, windows), plus an FFI pointer of the element type into it.  Lua never dereferences a pointer
-- without a bounds check against the buffer's length (done by Storage and
-- Tensor), so a wrong index is a Lua error, not a crash.
-- Buffers beyond SMALL_BYTES come from malloc, freed by the collector through
-- ffi.gc.  Lua's collector does not see their size, so they are counted here
-- and trigger a collection once they add up to more than a few times Lua's
-- own heap: dropped tensors then release their memory, and a collection's
-- cost stays in proportion to the bytes allocated since the last one,
-- whatever the heap holds.  Memory written (a result, a buffer zeroed) counts
-- at once; a zeroed buffer nothing has used yet costs no physical memory
-- (glibc's untouched pages), so it counts against a budget 16 times larger.
local ffi = require 'ffi'
local py = ...   -- the Python functions of th/native/memory.py

local memory = {}

local cast, fill, collectgarbage, C = ffi.cast, ffi.fill, collectgarbage, ffi.C
pcall(ffi.cdef, [[
void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void free(void *p);
]])
-- glibc gives freed memory beyond 128 KB back to the system at once, so that
-- buffers freed by a collection came back as fresh pages, each a page fault
-- when first written (microseconds each on a busy machine: 8 MB of them cost
-- 30 times a memset of recycled memory): buffers up to 32 MB come from the
-- heap (M_MMAP_THRESHOLD, glibc's own ceiling when it adapts it), and up to
-- 256 MB of freed memory is kept for reuse (M_TRIM_THRESHOLD)
if ffi.os == 'Linux' and pcall(ffi.cdef, 'int mallopt(int param, int value);') then
   pcall(function()
      C.mallopt(-1, 256 * 2^20)
      C.mallopt(-3, 32 * 2^20)
   end)
end
local written, reserved = 0, 0    -- bytes allocated since the last collection
local COLLECT_EVERY = 64 * 2^20   -- written bytes, at least (else 4 times Lua's heap)
local UNTOUCHED = 16              -- how many times more bytes of untouched buffers

local function collect()
   written, reserved = 0, 0
   collectgarbage()
end

-- account(bytes): bytes of memory written since the last collection
local function account(bytes)
   written = written + bytes
   if written > COLLECT_EVERY and written > 4096 * collectgarbage('count') then collect() end
end

-- Small buffers are LuaJIT arrays, allocated and zeroed by LuaJIT itself.
local SMALL_BYTES = 1024

local function malloc(bytes, zeroed)
   local p = zeroed and C.calloc(bytes, 1) or C.malloc(bytes)
   if p == nil then
      collect()
      p = zeroed and C.calloc(bytes, 1) or C.malloc(bytes)
      if p == nil then error(('not enough memory for %d bytes'):format(bytes), 0) end
   end
   return ffi.gc(p, C.free)
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
   local owner = malloc(bytes, not raw)
   return nil, T.cast(owner), owner
end

-- reserve(T, n) -> buf, ptr : a buffer of n elements of type T to be zeroed
-- when first used: ptr is nil when memory.clear(T, buf, n) must give it
-- first (an untouched buffer then costs neither a memset nor a page)
function memory.reserve(T, n)
   local bytes = n * T.size
   if bytes <= SMALL_BYTES then
      local buf = T.vla(n)
      return buf, T.cast(buf)
   end
   reserved = reserved + bytes
   if reserved > UNTOUCHED * COLLECT_EVERY and reserved > UNTOUCHED * 4096 * collectgarbage('count') then
      collect()
   end
   return malloc(bytes, false), nil
end

-- clear(T, buf, n) -> ptr : zeroes a reserved buffer, about to be used
function memory.clear(T, buf, n)
   local bytes = n * T.size
   account(bytes)
   fill(buf, bytes)
   return T.cast(buf)
end

-- numpy(T, buf, n) -> an ndarray over the LuaJIT buffer buf, which it keeps alive
function memory.numpy(T, buf, n)
   return py.from_cdata(T.name, tonumber(cast('intptr_t', buf)), n, buf)
end

-- numpyview(T, buf, n, offset, sizes..., strides...) -> arr, view : the
-- ndarray of memory.numpy and a view of it (memory.view), in one Python call
function memory.numpyview(T, buf, n, offset, ...)
   return py.from_cdata_view(T.name, tonumber(cast('intptr_t', buf)), n, buf, offset, ...)
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
