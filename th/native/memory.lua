-- The Lua half of the numpy memory boundary.
-- A buffer is a numpy array owned through its lupa reference (or, when small,
-- a LuaJIT array), plus an FFI pointer of the element type into it.  Lua never dereferences a pointer
-- without a bounds check against the buffer's length (done by Storage and
-- Tensor), so a wrong index is a Lua error, not a crash.
-- Lua's collector does not see numpy's memory, so big allocations are counted
-- here and trigger a collection: dropped tensors then release their arrays.
local ffi = require 'ffi'
local py = ...   -- the Python functions of th/native/memory.py

local memory = {}

local cast, collectgarbage = ffi.cast, collectgarbage
local pending = 0                 -- bytes allocated since the last collection
local COLLECT_EVERY = 256 * 2^20

local function account(bytes)
   pending = pending + bytes
   if pending > COLLECT_EVERY then
      pending = 0
      collectgarbage()
   end
end

-- Small buffers come from LuaJIT's allocator: a numpy allocation costs a few
-- microseconds, more than small tensor operations themselves.
local SMALL_BYTES = 1024

-- alloc(T, n) -> arr, ptr, buf : a zeroed buffer of n elements of type T; either
-- arr is a numpy array, or (small buffers) buf is a LuaJIT array and arr nil
function memory.alloc(T, n)
   if n * T.size <= SMALL_BYTES then
      local buf = T.vla(n)
      return nil, T.cast(buf), buf
   end
   account(n * T.size)
   local arr, addr = py.alloc(T.name, n)
   return arr, T.cast(addr), nil
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

memory.view = py.view

return memory
