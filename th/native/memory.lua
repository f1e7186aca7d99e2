-- The Lua half of the numpy memory boundary.
-- A buffer is LuaJIT memory (or a numpy array owned through its lupa
-- reference: file mappings, windows), plus an FFI pointer of the element type into it.  Lua never dereferences a pointer
-- without a bounds check against the buffer's length (done by Storage and
-- Tensor), so a wrong index is a Lua error, not a crash.
-- Buffers beyond SMALL_BYTES come from malloc, recycled once the collector
-- drops their owner (below).  Lua's collector does not see their size, so
-- they are counted here and trigger a collection once they add up to more than a few times Lua's
-- own heap: dropped tensors then release their memory, and a collection's
-- cost stays in proportion to the bytes allocated since the last one,
-- whatever the heap holds.  Memory written (a result, a buffer zeroed) counts
-- at once; a zeroed buffer nothing has used yet costs no physical memory
-- (glibc's untouched pages), so it counts against a budget 32 times larger
-- (2 GB of address space: a collection, half a millisecond, per 256 new 8 MB
-- tensors; one per 128 cost each as much as the rest of its call).
local ffi = require 'ffi'
local py = ...   -- the Python functions of th/native/memory.py

local memory = {}

-- raise(msg): the out-of-memory error; torch.internal makes it locate the
-- error as the original's C function did (internal.locate)
function memory.raise(msg) error(msg, 0) end

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
local written, reserved = 0, 0    -- bytes allocated since the last collection cycle
-- Memory new from malloc costs a page fault a page when first written
-- (8 MB: 7 ms here, eight times a copy of them into recycled memory): when no
-- spare buffer fits, a collection is forced first once FRESH_EVERY bytes of
-- new memory (and half what the pool holds: a growing program pays a
-- collection a doubling) were taken since the last one, and may free a
-- buffer of the size.  (24 clones of 8 MB, each dropped, took 203 MB of new
-- memory, all they wrote, before the first collection; now 120, Torch7 192)
local fresh, FRESH_EVERY = 0, 32 * 2^20
-- A collection is forced after COLLECT_EVERY bytes written (and at least 4
-- times Lua's heap), or UNTOUCHED_EVERY bytes of buffers still untouched.
-- A full collection of th's heap, cold in the cache after the writes, costs
-- 2-4 ms (0.8 when warm): with 64 MB it took 30% of a clone of 10^4 doubles
-- (18.4 us, 14.5 at 256 MB, the original's 14.5) and 23% of one of 10^5.
-- Torch7's process grew to 300-430 MB in the same loops; th's to 240-310.
local COLLECT_EVERY = 256 * 2^20
local UNTOUCHED, UNTOUCHED_EVERY = 32, 2^31   -- (untouched: 32 times Lua's heap)

local function collect()
   written, reserved, fresh = 0, 0, 0
   collectgarbage()
end

-- account(bytes): bytes of memory written since the last collection
local function account(bytes)
   written = written + bytes
   if written > COLLECT_EVERY and written > 4096 * collectgarbage('count') then
      collect()
   end
end

-- Small buffers are LuaJIT arrays, allocated and zeroed by LuaJIT itself.
local SMALL_BYTES = 1024

-- Bigger buffers are malloc'd and recycled.  A buffer is handed out as a
-- fresh pointer cdata, its owner (what storages and numpy arrays hold); the
-- pool keeps the address and a weak reference to the owner.  After each
-- collection cycle (a sentinel's finalizer, below), at the next buffer asked
-- for, the buffers whose owner the collector cleared become spare, ready for
-- the next buffer of their size:
-- a buffer then costs neither malloc's page faults on fresh memory nor a
-- finalizer of its own (ffi.gc's cost was most of a small tensor's).
local spare = {}      -- bytes -> stack of addresses of free buffers of that size
local idle = {}       -- bytes -> cycles since a buffer of that size was last asked for
local IDLE_CYCLES = 4 -- then its spare buffers go back to malloc
local addrs = {}      -- slot -> address of a buffer in use (0: slot free)
local sizes = {}      -- slot -> its bytes
local owners = setmetatable({}, {__mode = 'v'})   -- slot -> its owner, while alive
local freeslots, nfree, nslots = {}, 0, 0

local held = 0        -- bytes of the buffers malloc'd (in use or spare)

local function release(addr, bytes)
   C.free(cast('void *', addr))
   held = held - bytes
end

-- a buffer starts at the first multiple of ALIGN bytes in its allocation,
-- which has ALIGN more bytes than asked for (malloc aligns to 16 bytes):
-- numpy's and OpenBLAS's vector loops ran a third to half again slower on
-- elements that straddle cache lines (x:add(y) of 10^4 doubles 4.1 -> 5.5
-- us); Torch7 aligned its large buffers to 64 bytes as well
local ALIGN = 64
local function aligned(addr)
   return addr + (-addr) % ALIGN
end

-- The reclaim a collection cycle asks for is pending until the next buffer
-- is asked for (below, the sentinel).
local pending = false

-- reclaim(): buffers whose owner died become spare; the spare buffers of a
-- size nobody asked for during IDLE_CYCLES cycles are given back to malloc.
-- (A size's spare buffers only grow in number when a cycle used them all, so
-- the pool holds about what one cycle used of each size in use.)
-- (A cycle that ends while it runs asks for the next one.)
local function reclaim()
   pending = false
   for bytes, stack in pairs(spare) do
      local cycles = (idle[bytes] or 0) + 1
      idle[bytes] = cycles
      if cycles >= IDLE_CYCLES then
         for i = 1, #stack do release(stack[i], bytes) end
         spare[bytes], idle[bytes] = nil, nil
      end
   end
   for slot = 1, nslots do
      local addr = addrs[slot]
      if addr ~= 0 and owners[slot] == nil then
         local bytes = sizes[slot]
         local stack = spare[bytes]
         if not stack then stack = {}; spare[bytes] = stack end
         stack[#stack + 1] = addr
         addrs[slot] = 0
         nfree = nfree + 1
         freeslots[nfree] = slot
      end
   end
end

-- drain(): every spare buffer back to malloc
local function drain()
   for bytes, stack in pairs(spare) do
      for i = 1, #stack do release(stack[i], bytes) end
   end
   spare, idle = {}, {}
end

-- the sentinel: an unreachable userdata whose finalizer runs at the end of
-- every collection cycle, makes the next one and asks for a reclaim.  A
-- cycle the collector ran by itself (many small tensors) freed what a forced
-- one would have: the count of bytes starts again (forcing one as well cost
-- a tenth of a 1000-element clone's time).
-- The reclaim runs when the next buffer of any size is asked for, never
-- here: LuaJIT records no trace while a finalizer runs, so the loop over the
-- slots, compiled on one path (an owner alive), left its trace for the
-- interpreter at every buffer dropped, with no side trace ever grown for it:
-- an exit, over a thousand instructions, a buffer (6,400-12,500 exits per
-- 10,000 clones of 600 doubles in half the processes).  A collection
-- step runs at the start of any compiled trace, so a reclaim could also
-- have begun in the middle of take or of another reclaim.
local sentinel = newproxy(true)
getmetatable(sentinel).__gc = function()
   newproxy(sentinel)
   written, reserved, fresh = 0, 0, 0
   pending = true
end
newproxy(sentinel)

-- the closer, reachable from here until the Lua state is closed, whose
-- finalizer then gives every buffer back to malloc (as ffi.gc's finalizers
-- did): a process making many runtimes does not keep their memory
local closer = newproxy(true)
getmetatable(closer).__gc = function()
   for slot = 1, nslots do
      if addrs[slot] ~= 0 then release(addrs[slot], sizes[slot]) end
      addrs[slot] = 0
   end
   drain()
   nslots, nfree = 0, 0
end
memory.closer = closer

-- element(T, owner) -> the element pointer FFI code indexes (the owner
-- itself but for Half, whose pointer converts)
local function element(T, owner)
   if T.ptrtype == T.rawptr then return owner end
   return T.cast(owner)
end

-- nomemory(bytes [, verb]): TH's error for an allocation that failed (the
-- GB exact as TH's %ld printed them; a count past any size_t, which a range
-- to infinity asks for, in %g: th's own)
function memory.nomemory(bytes, verb)
   local gb = math.floor(bytes / 2^30)
   memory.raise(('$ Torch: not enough memory: you tried to %s %sGB. Buy new RAM!'):format(
      verb or 'allocate', gb < 2^53 and ('%.0f'):format(gb) or ('%g'):format(gb)))
end

-- take(T, bytes, zeroed [, lazy [, retried [, verb]]]) -> owner: a spare
-- buffer of that size, or a new one (after a collection when malloc fails,
-- or when the new memory since the last one is worth a collection; lazy: the
-- buffer may never be touched, its memory does not count as new; verb: TH's
-- word for it in the failure's message, 'reallocate' for a storage that grows)
local function take(T, bytes, zeroed, lazy, retried, verb)
   -- (a count no size_t holds: the double would wrap in its conversion to
   -- malloc's argument, 2^62 floats' 2^64 bytes becoming a buffer of a few,
   -- and the storage would claim elements past its memory; TH's own
   -- multiplication wrapped the same way and crashed at the first write)
   if not (bytes + ALIGN < 2^63) then memory.nomemory(bytes, verb) end
   if pending then reclaim() end
   local stack, addr = spare[bytes], nil
   local k = 0
   if stack then
      idle[bytes] = 0
      k = #stack
   end
   if k > 0 then
      addr = stack[k]
      stack[k] = nil
      if zeroed then fill(cast('void *', aligned(addr)), bytes) end
   elseif not lazy and not retried and fresh + bytes > FRESH_EVERY and fresh + bytes > held / 2 then
      collect()
      return take(T, bytes, zeroed, lazy, true, verb)   -- (the collection may have made one spare)
   else
      local p = zeroed and C.calloc(bytes + ALIGN, 1) or C.malloc(bytes + ALIGN)
      if p == nil then
         if retried == 'failed' then   -- (TH's words)
            memory.nomemory(bytes, verb)
         end
         -- (the spare buffers of other sizes go back too: their memory may hold this one)
         collect()
         reclaim()
         drain()
         return take(T, bytes, zeroed, lazy, 'failed', verb)
      end
      addr = tonumber(cast('intptr_t', p))
      held = held + bytes
      if not lazy then fresh = fresh + bytes end
   end
   local owner = cast(T.rawptr, aligned(addr))
   local slot
   if nfree > 0 then
      slot = freeslots[nfree]
      nfree = nfree - 1
   else
      nslots = nslots + 1
      slot = nslots
   end
   owners[slot] = owner
   sizes[slot] = bytes
   addrs[slot] = addr
   return owner
end

-- alloc(T, n [, raw [, verb]]) -> arr, ptr, buf : a buffer of n elements of
-- type T, zeroed unless raw (a result about to be overwritten): arr is nil
-- (the numpy array over buf is made when bulk maths needs one), buf the
-- memory's owner (verb: take's)
function memory.alloc(T, n, raw, verb)
   if pending then reclaim() end
   local bytes = n * T.size
   if bytes <= SMALL_BYTES then
      local buf = T.vla(n)
      return nil, T.cast(buf), buf
   end
   account(bytes)
   local owner = take(T, bytes, not raw, nil, nil, verb)
   return nil, element(T, owner), owner
end

-- reserve(T, n [, verb]) -> buf, ptr : a buffer of n elements of type T to
-- be zeroed when first used: ptr is nil when memory.clear(T, buf, n) must
-- give it first (an untouched buffer then costs neither a memset nor a page)
function memory.reserve(T, n, verb)
   if pending then reclaim() end
   local bytes = n * T.size
   if bytes <= SMALL_BYTES then
      local buf = T.vla(n)
      return buf, T.cast(buf)
   end
   reserved = reserved + bytes
   if reserved > UNTOUCHED_EVERY and reserved > UNTOUCHED * 4096 * collectgarbage('count') then
      collect()
   end
   return take(T, bytes, false, true, nil, verb), nil
end

-- clear(T, buf, n) -> ptr : zeroes a reserved buffer, about to be used
function memory.clear(T, buf, n)
   local bytes = n * T.size
   account(bytes)
   fill(buf, bytes)
   return element(T, buf)
end

-- unzeroed(T, buf, n) -> ptr : a reserved buffer about to be written whole
-- (a copy or fill of all of it): zeroing it first would be wasted
function memory.unzeroed(T, buf, n)
   account(n * T.size)
   return element(T, buf)
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

-- mapped(addr, bytes) -> whether the process has memory at every page of
-- [addr, addr + bytes) (msync fails with ENOMEM where it has none): a
-- storage over an address given by the user (torch.DoubleStorage(3, 12345))
-- is an error, where Torch7 crashed at its first read
pcall(ffi.cdef, 'int msync(void *addr, size_t length, int flags); int getpagesize(void);')
local hasmsync = ffi.os ~= 'Windows' and pcall(function() return C.msync, C.getpagesize end)
local PAGE = hasmsync and C.getpagesize() or 4096
function memory.mapped(addr, bytes)
   if bytes <= 0 or not hasmsync then return true end
   if addr <= 0 or addr >= 2^47 then return false end
   local first = addr - addr % PAGE
   return C.msync(cast('void *', first), addr + bytes - first, 1) == 0   -- (MS_ASYNC)
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
