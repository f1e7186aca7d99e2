-- The Lua half of the numpy memory boundary.
-- A buffer is a numpy array owned through its lupa reference, plus an FFI
-- pointer of the element type into it.  Lua never dereferences a pointer
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

-- alloc(T, n) -> arr, ptr : a zeroed buffer of n elements of type T
function memory.alloc(T, n)
   account(n * T.size)
   local arr, addr = py.alloc(T.name, n)
   return arr, cast(T.ptrtype, addr)
end

-- realloc(T, arr, n) -> arr, ptr : a buffer of n elements keeping arr's first ones
function memory.realloc(T, arr, n)
   account(n * T.size)
   local new, addr = py.realloc(arr, n)
   return new, cast(T.ptrtype, addr)
end

-- window(T, arr, offset, n) -> arr, ptr : n elements of arr from 0-based offset, shared
function memory.window(T, arr, offset, n)
   local sub, addr = py.window(arr, offset, n)
   return sub, cast(T.ptrtype, addr)
end

-- fromfile(T, name, shared) -> arr, ptr, n : a buffer mapped on a file
function memory.fromfile(T, name, shared)
   local arr, addr = py.from_file(T.name, name, shared)
   return arr, cast(T.ptrtype, addr), py.len(arr)
end

-- fromaddress(T, addr, n) -> arr, ptr : a buffer over foreign memory
function memory.fromaddress(T, addr, n)
   local arr = py.from_address(T.name, addr, n)
   return arr, cast(T.ptrtype, addr)
end

memory.view = py.view

return memory
