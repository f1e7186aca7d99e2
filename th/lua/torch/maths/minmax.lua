-- cmax, cmin and clamp of contiguous tensors through numpy's SIMD loops of
-- maximum, minimum and clip (simd.lua), with TH's results bit for bit.
--
-- TH computed cmax as x > y ? x : y and cmin as x < y ? x : y (measured on
-- the original: tests/fixtures/bits_minmax): y wins a tie (+0 against -0)
-- and any comparison with NaN.  numpy's maximum and minimum give the same
-- value wherever x and y are ordered and distinct, and NaN wherever either is
-- NaN; so an element of their result can differ from TH's only where it is
-- NaN or a zero, and there TH's element is y unless the result is a zero and
-- y is not (then x was that zero and won): a pass over the result fixes
-- those.  numpy's clip gives TH's clamp (x < lo ? lo : x > hi ? hi : x)
-- whenever lo <= hi, signed zeros and NaN included (measured on every
-- combination, tests/fixtures/bits_minmax); lo > hi stays with basic.lua.
-- A clip to [y, inf] (or [-inf, y]) is cmax (cmin) with a number but where
-- the result is NaN or a zero: the same fix-up makes it TH's.
local ffi = require 'ffi'
local internal = require 'torch.internal'
local types = require 'torch.types'
local simd = require 'torch.maths.simd'
local kernels = require 'torch.maths.kernels'
local parallel = require 'torch.parallel'

local nelement, apart = internal.nelement, internal.apart
local flat = kernels.flat

local minmax = {}
local INF = math.huge

-- the fix-up pass of a Float or Double result r against y (a tensor: yp
-- steps 1; a number: c): four elements are tested at once through their
-- product (zero or NaN when one is, or on underflow: then each is tested);
-- y's element is copied bit for bit (a Float's through int32 views, so that
-- a signalling NaN is not quieted by a conversion to double).  The text is
-- a chunk returning the job function of helper threads (pool.lua's kind
-- kernel, below) and the fix-up loop itself
local FIXCODE = [[
local ffi = require 'ffi'
local abs = math.abs
local P, B = ffi.typeof('ELEMENT *'), ffi.typeof('BITS *')
local function fix(rp, yp, n, c)
   local rb, yb = ffi.cast(B, rp), ffi.cast(B, yp)
   for i = 0, n - 4, 4 do
      if not (abs(rp[i] * rp[i + 1] * rp[i + 2] * rp[i + 3]) > 0) then
         for j = i, i + 3 do
            local v = rp[j]
            if not (abs(v) > 0) and (v ~= v or Y == 0) then STORE end
         end
      end
   end
   for j = n - n % 4, n - 1 do
      local v = rp[j]
      if not (abs(v) > 0) and (v ~= v or Y == 0) then STORE end
   end
end
-- (a job: numpy's loop on elements [a, b) of the job's NARGS operands, then
-- the fix-up of that part of the result, still in the cache)
local looptype = ffi.typeof('void (*)(void **, const intptr_t *, const intptr_t *, void *)')
local bytep = ffi.typeof('uint8_t *')
local args, dims = ffi.new('void *[4]'), ffi.new('intptr_t[1]')
return function(job, a, b)
   local steps = job.steps
   for k = 0, NARGS - 1 do args[k] = ffi.cast(bytep, job.p[k]) + a * steps[k] end
   dims[0] = b - a
   ffi.cast(looptype, job.fn)(args, dims, steps, job.data)
   fix(ffi.cast(P, args[NARGS - 1]), ffi.cast(P, job.p[1]) + YSTEP * a, b - a, job.alpha)
end, fix]]
local fixes = {[3] = {[true] = {}, [false] = {}}, [4] = {[true] = {}, [false] = {}}}
local function fix(T, number, nargs)
   local byT = fixes[nargs][number]
   local f = byT[T]
   if not f then
      local text = FIXCODE:gsub('STORE', number and 'rp[j] = c' or 'rb[j] = yb[j]')
                          :gsub('YSTEP', number and '0' or '1'):gsub('Y', number and 'c' or 'yp[j]')
                          :gsub('ELEMENT', T.ctype):gsub('BITS', T == types.Float and 'int32_t' or 'double')
                          :gsub('NARGS', nargs)
      local _, loop = assert(loadstring(text, '=(th minmax fix)'))()
      f = {loop = loop, text = text}
      byT[T] = f
   end
   return f
end

-- from this many bytes, numpy's loop and the fix-up are shared with helper
-- threads (torch.parallel), chunk by chunk, in chunks of at least CHUNK elements
local SPLIT, CHUNK = 2^19, 8192

-- r = op(x, y [, z]) by numpy's loop then fixed up (TH's cmax/cmin): y a
-- tensor (ystep 1) or the cell of the number c, z clip's upper bound
local function fixed(op, T, n, import, rp, xp, yp, ystep, zp, c)
   local loops = simd.loops(n > import)
   local loop = loops and loops[op] and loops[op][T]
   if not loop then return false end
   local number, nargs = ystep == 0, zp and 4 or 3
   local f = fix(T, number, nargs)
   local job = parallel.job(n * T.size, SPLIT)
   if not job then
      simd.flat(op, T, n, import, rp, xp, yp, ystep, zp)
      f.loop(rp, yp, n, c)
      return true
   end
   local size = T.size
   job.source, job.sourcelen = f.text, #f.text
   job.fn, job.data, job.alpha = loop[1], loop[2], c
   job.p[0], job.p[1], job.steps[0], job.steps[1] = xp, yp, size, ystep * size
   job.p[nargs - 1], job.steps[nargs - 1] = rp, size
   if zp then job.p[2], job.steps[2] = zp, 0 end
   parallel.segment(job, 0, n)
   parallel.run(job, 'kernel', parallel.chunk(n, CHUNK, 4))
   return true
end

-- minmax.map(op, r, x, y, from, import) -> true when done: r = cmax (op
-- 'max') or cmin ('min') of x and y (a tensor of r's type or a number cast
-- to it), all contiguous, beyond `from` elements; y apart from r's memory, x
-- too or x is r; numpy imported for it beyond `import` elements
function minmax.map(op, r, x, y, from, import)
   local n = nelement(r)
   local T = r.T
   if n <= from or x.T ~= T or not apart(x, r) then return false end
   local number = type(y) == 'number'
   if not number and (y.T ~= T or rawequal(y.st, r.st)) then return false end
   local rp, xp = flat(r), flat(x)
   local yp = number and simd.cell(T, y) or flat(y)
   if not rp or not xp or not yp then return false end
   if T.integer then return simd.flat(op, T, n, import, rp, xp, yp, number and 0 or 1) end
   if number and y == y then
      -- clip to [y, inf] or [-inf, y]: numpy's maximum with a number takes
      -- half again as long; it too differs only where the fix-up looks
      local lo, hi = op == 'max' and y or -INF, op == 'max' and INF or y
      return fixed('clip', T, n, import, rp, xp, simd.cell(T, lo, 1), 0, simd.cell(T, hi, 2), y)
   end
   return fixed(op, T, n, import, rp, xp, yp, number and 0 or 1, nil, number and y or 0)
end

-- minmax.clamp(r, x, lo, hi, from, import) -> true when done: r = x clamped
-- to [lo, hi] (numbers cast to r's type, lo <= hi), contiguous, beyond
-- `from` elements, x apart from r or r itself
function minmax.clamp(r, x, lo, hi, from, import)
   local n = nelement(r)
   local T = r.T
   if n <= from or not (lo <= hi) or x.T ~= T or not apart(x, r) then return false end
   local rp, xp = flat(r), flat(x)
   if not rp or not xp then return false end
   return simd.flat('clip', T, n, import, rp, xp, simd.cell(T, lo, 1), 0, simd.cell(T, hi, 2))
end

return minmax
