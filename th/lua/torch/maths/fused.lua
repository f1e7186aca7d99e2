-- x + v * y on Float and Double tensors, rounded where Torch7 rounded it.
-- Measured on the original (tests/fixtures/bits_cadd*.lua): an add into x
-- itself, all contiguous, was one BLAS axpy over the whole, which OpenBLAS
-- splits from 10,001 elements into as many parts as its own threads
-- (OPENBLAS_NUM_THREADS or the cores, whatever torch.setnumthreads says),
-- the first parts one longer when they cannot be equal; it rounds each part
-- as the kernel picked for the CPU: Haswell's fuses the multiply-add (one
-- rounding) in blocks of 16 doubles or 32 floats and rounds the product,
-- then the sum, in the rest of a part; SkylakeX's fuses every element.  th
-- makes the same parts and calls the axpy on each in chunks short enough
-- for OpenBLAS to keep on the calling thread, shared with th's helper
-- threads: OpenBLAS's own, busy-waiting for a while after each threaded
-- call, took the cores th's helpers needed next (x:add(y) then z:mul(c) of
-- 50,000 doubles: 12 us at best, 365 on average).
-- An add into another contiguous result fused every element; a strided one
-- fused none.  SGD's `x:add(-lr, grad)` depends on it, bit for bit.
local ffi = require 'ffi'
local types = require 'torch.types'
local cblas = require 'torch.maths.cblas'
local parallel = require 'torch.parallel'

local C = require 'torch.maths.libm'
local floor, min = math.floor, math.min

local fused = {}

local Float, Double = types.Float, types.Double
local BLOCK = {[Double] = 16, [Float] = 32}
-- OpenBLAS splits an axpy of more elements among its threads
local SPLIT = 10000
-- th calls the BLAS axpy on at most this many elements (a multiple of both
-- blocks), which OpenBLAS does on the calling thread
local CHUNK = 8192
local COPYSTEP = require('th.native.pool').COPYSTEP
-- from this many bytes, those chunks are shared with helper threads
-- (torch.parallel): r:add(x, 0.5, y) of 50,000 doubles 11.2 -> 5.7 us from
-- 2^19 to 2^17
local PARALLEL = 2^17
local f32cell = ffi.new('float[1]')

-- rp[i] = xp[i] + v * yp[i], i in [from, to), two roundings
local function plain(T, rp, xp, yp, from, to, v)
   if T == Float then
      for i = from, to - 1 do
         f32cell[0] = v * yp[i]
         rp[i] = xp[i] + f32cell[0]
      end
   else
      for i = from, to - 1 do rp[i] = xp[i] + v * yp[i] end
   end
end

-- the same with one rounding, through C's fma
local function fmaloop(T, rp, xp, yp, from, to, v)
   if T == Float then
      for i = from, to - 1 do rp[i] = C.fmaf(v, yp[i], xp[i]) end
   else
      for i = from, to - 1 do rp[i] = C.fma(v, yp[i], xp[i]) end
   end
end

-- rp[i] = xp[i] + v * yp[i], i in [from, to) (to - from a multiple of the
-- block), with one rounding: BLAS axpy by chunks, each copied from xp just
-- before unless xp is rp (one pass over the memory: steps of COPYSTEP,
-- th/native/pool.lua), else C's fma
local function fusedrange(T, axpy, rp, xp, yp, from, to, v)
   if not axpy then return fmaloop(T, rp, xp, yp, from, to, v) end
   local step = xp ~= rp and COPYSTEP or CHUNK
   for i = from, to - 1, step do
      local len = to - i < step and to - i or step
      if xp ~= rp then ffi.copy(rp + i, xp + i, len * T.size) end
      axpy(len, v, yp + i, 1, rp + i, 1)
   end
end

-- rp[0, n) = xp[0, n), with helper threads when large and apart
local function copy(T, rp, xp, n)
   local gap = tonumber(rp - xp)
   local job = (gap >= n or gap <= -n) and parallel.job(n * T.size, PARALLEL)
   if not job then return ffi.copy(rp, xp, n * T.size) end
   job.p[0], job.p[1], job.steps[0] = rp, xp, T.size
   parallel.segment(job, 0, n)
   parallel.run(job, 'copy', parallel.chunk(n, CHUNK, 4))
end

-- fusedrange over the job's segments, with helper threads
local function shared(job, T, axpy, rp, xp, yp, v)
   job.fn, job.alpha = axpy, v
   job.p[0], job.p[1], job.p[2] = yp, rp, xp
   local kind = xp == rp and 'axpy' or 'copyaxpy'
   parallel.run(job, (T == Float and 's' or 'd') .. kind .. cblas.ints, CHUNK)
end

-- the BLAS axpy of T when it fuses every element of a length that is a
-- multiple of the block (checked once on inputs where a fused and an unfused
-- result differ), else false: the FFI's fma then does it, slower
local blas = {}
local function fusingaxpy(T)
   if blas[T] == nil then
      local axpy = cblas.axpy(T, CHUNK) or false
      if axpy then
         local n, v = 3 * BLOCK[T], 0.3
         local x, y, want = T.vla(n), T.vla(n), T.vla(n)
         for i = 0, n - 1 do
            y[i] = 1 + (i + 1) / 97
            x[i] = -(v * y[i])
            want[i] = T == Float and C.fmaf(v, y[i], x[i]) or C.fma(v, y[i], x[i])
         end
         axpy(n, v, y, 1, x, 1)
         for i = 0, n - 1 do
            if x[i] ~= want[i] then axpy = false end
         end
      end
      blas[T] = axpy
   end
   return blas[T]
end

-- r += v * y over n elements in OpenBLAS's parts (above), each part's
-- chunks through the axpy (the last one's tail rounded as OpenBLAS's),
-- with helper threads when large
local function parts(T, axpy, rp, yp, n, v)
   local count = n > SPLIT and min(cblas.nthreads, n) or 1
   local job = count <= 17 and parallel.job(n * T.size, PARALLEL)
   local q, extra, from = floor(n / count), n % count, 0
   for p = 0, count - 1 do
      local to = from + q + (p < extra and 1 or 0)
      if job then parallel.segment(job, from, to) else fusedrange(T, axpy, rp, rp, yp, from, to, v) end
      from = to
   end
   if job then shared(job, T, axpy, rp, rp, yp, v) end
end

-- r = x + v * y over n elements of T at pointers rp, xp, yp, all contiguous;
-- inplace: r is x (the tensor itself)
-- (shared by add, csub and their kin: `...` keeps it from becoming the root
-- of a trace of its own, see kernels.lua)
function fused.axpy(T, rp, xp, yp, n, v, inplace, ...)
   local block, axpy = BLOCK[T], fusingaxpy(T)
   if inplace then
      if not axpy then
         local m = n - n % block
         fmaloop(T, rp, rp, yp, 0, m, v)
         return plain(T, rp, rp, yp, m, n, v)
      end
      local gap = tonumber(yp - rp)
      if gap ~= 0 and gap < n and gap > -n then   -- (overlapping: in order, as one call on one thread)
         return fusedrange(T, axpy, rp, rp, yp, 0, n, v)
      end
      return parts(T, axpy, rp, yp, n, v)
   end
   if rp == yp then return fmaloop(T, rp, xp, yp, 0, n, v) end
   local gap = tonumber(rp - xp)
   if gap ~= 0 and gap < n and gap > -n then   -- (overlapping: x whole before it is written)
      copy(T, rp, xp, n)
      xp = rp
   end
   -- (a scale of 0: OpenBLAS's axpy does nothing then, where Torch7's loop
   -- gave x + 0 * y, NaN for an infinite y and +0 for -0 + 0)
   if v == 0 then return fmaloop(T, rp, xp, yp, 0, n, v) end
   local m = n - n % block
   local job = axpy and parallel.job(n * T.size, PARALLEL)
   if job then
      parallel.segment(job, 0, m)
      shared(job, T, axpy, rp, xp, yp, v)
   else
      fusedrange(T, axpy, rp, xp, yp, 0, m, v)
   end
   return fmaloop(T, rp, xp, yp, m, n, v)
end

-- rp[i] += v * yp[i] over n contiguous elements of T, each with one
-- rounding (BLAS blocks, C's fma on the rest), rp apart from yp
function fused.addfused(T, rp, yp, n, v)
   local m = n - n % BLOCK[T]
   fusedrange(T, fusingaxpy(T), rp, rp, yp, 0, m, v)
   fmaloop(T, rp, rp, yp, m, n, v)
end

fused.plain = plain
return fused
