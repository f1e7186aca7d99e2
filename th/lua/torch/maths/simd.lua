-- numpy's SIMD loops of add, sub, mul and div (and the comparisons, at the
-- end; maximum, minimum and clip for minmax.lua), called from LuaJIT through
-- the FFI on tensor memory: no Python call per operation (th/ops/ufuncloops.py
-- finds their addresses once).  They are IEEE operations on Float and Double
-- elements and wrapping C arithmetic on integers, the results TH's C loops
-- gave, bit for bit; division takes floats only (an integer one truncates in
-- C, numpy's floors).  numpy is imported for them (in the background) only
-- when an operation is large enough to have needed it anyway, or once
-- something else has.
local ffi = require 'ffi'
local internal = require 'torch.internal'
local types = require 'torch.types'
local parallel = require 'torch.parallel'

local nelement, iscontiguous, checkbounds, apart = internal.nelement,
   internal.iscontiguous, internal.checkbounds, internal.apart
local py = internal.py
local ceil = math.ceil

local simd = {}

-- (memchr's address in its low 32 bits: a pointer or 64-bit integer a C
-- call returns is a new cdata, 24 bytes a call even in compiled code, while
-- an int32 is a number; a position is the difference modulo 2^32)
pcall(ffi.cdef, 'int32_t th_memchr_low(const void *s, int c, size_t n) __asm__("memchr");')
local C = ffi.C

-- (numpy's char **args declared void **: any element pointer is stored in
-- it as it is, no cast; a cast would allocate a cdata at every call where
-- the JIT does not compile it away, and allocation sinking is off)
local looptype = ffi.typeof('void (*)(void **, const intptr_t *, const intptr_t *, void *)')
local args = ffi.new('void *[4]')
local dims = ffi.new('intptr_t[1]')
local steps = ffi.new('intptr_t[4]')

-- the cell a number operand is read from (a stride of 0), per element type
local cells = {}
for i = 1, types.count do
   local T = types[i]
   if T.vla then cells[T] = T.vla(1) end
end

-- loops[op][T] = {function pointer, its data pointer}; nil until loaded,
-- false when numpy's ufuncs did not have the expected layout
local loops

local function load()
   loops = false
   local ok, text = pcall(py.ufunc_loops)
   if not ok then return end
   local found = {}
   for op, tname, f, data in tostring(text):gmatch('(%a+) (%a+) (%d+) (%d+)') do
      found[op] = found[op] or {}
      found[op][types[tname]] = {ffi.cast(looptype, ffi.cast('intptr_t', tonumber(f))),
                                 ffi.cast('void *', ffi.cast('intptr_t', tonumber(data)))}
   end
   if next(found) then loops = found end
end

-- the loops, once numpy is there (an operation that would import it starts
-- its import in the background and runs a LuaJIT loop meanwhile)
local numpyready = internal.numpyready
local function ready(importing)
   if loops == nil and (importing and numpyready() or internal.numpyloaded[0] ~= 0) then load() end
   return loops
end

-- simd.loops(importing) -> loops[op][T] = {function pointer, its data
-- pointer}, or false (numpy not loaded and not importing, or no loops)
function simd.loops(importing)
   return ready(importing) or false
end

-- the call of a contiguous operation, in PIECES calls by a loop: it becomes
-- the root trace that the rest of the operation (dispatch...) compiles
-- around as side traces, as the LuaJIT kernels' element loops do (else that
-- stays interpreted; a loop of two iterations never becomes a trace).  One
-- generated function per loop and operand kind, so that each gets a trace
-- of its own, as each of kernels.lua's loops
local PIECES = 4
local PIECESCODE = [[
local args, dims, steps, ceil, PIECES = ...
return function(f, data, xp, yp, rp, n, ystep)
   local piece = ceil(n / PIECES)
   for from = 0, n - 1, piece do
      dims[0] = n - from < piece and n - from or piece
      args[0], args[1], args[2] = xp + from, yp + from * ystep, rp + from
      f(args, dims, steps, data)
   end
end]]
-- (three inputs, the second and third numbers: clip)
local PIECES3CODE = [[
local args, dims, steps, ceil, PIECES = ...
return function(f, data, xp, yp, zp, rp, n)
   local piece = ceil(n / PIECES)
   for from = 0, n - 1, piece do
      dims[0] = n - from < piece and n - from or piece
      args[0], args[1], args[2], args[3] = xp + from, yp, zp, rp + from
      f(args, dims, steps, data)
   end
end]]
-- (one input: unary)
local PIECES1CODE = [[
local args, dims, steps, ceil, PIECES = ...
return function(f, data, xp, rp, n)
   local piece = ceil(n / PIECES)
   for from = 0, n - 1, piece do
      dims[0] = n - from < piece and n - from or piece
      args[0], args[1] = xp + from, rp + from
      f(args, dims, steps, data)
   end
end]]
local piecesof = {[true] = {}, [false] = {}, three = {}, unary = {}}
local function pieces(loop, number)
   local run = piecesof[number][loop]
   if not run then
      local code = number == 'three' and PIECES3CODE or number == 'unary' and PIECES1CODE or PIECESCODE
      run = assert(loadstring(code, '=(th simd loop)'))(args, dims, steps, ceil, PIECES)
      piecesof[number][loop] = run
   end
   return run
end

local origin = require('torch.maths.kernels').origin   -- kept in d: no cdata per call

-- from SPLIT bytes of result, a contiguous operation is shared with helper
-- threads (torch.parallel), in chunks of at least CHUNK elements (measured
-- with helpers polling: below, the hand-over costs more than the halved loop
-- gives; x:add(y) of 50,000 doubles 5.2 -> 3.6 us from 2^19 to 2^17 bytes,
-- the original's 2.8)
local SPLIT, CHUNK = 2^17, 8192


-- one call of the loop over m rows of n elements: row strides (elements)
-- r1, x1, y1, element strides r2, x2, y2 (y2 = 0 and y the cell of a number);
-- the pointers are of the element type
local function run(loop, size, rp, r1, r2, xp, x1, x2, yp, y1, y2, m, n)
   local f, data = loop[1], loop[2]
   dims[0] = n
   steps[0], steps[1], steps[2] = x2 * size, y2 * size, r2 * size
   for i = 0, m - 1 do
      args[0], args[1], args[2] = xp + i * x1, yp + i * y1, rp + i * r1
      f(args, dims, steps, data)
   end
end

-- the row layout of a view with r's sizes, at most two dimensions: (row
-- stride, element stride, rows, elements per row); nil for more dimensions
local function rows(d)
   if d.nd == 1 then return 0, d.str[1], 1, d.sz[1] end
   if d.nd == 2 then return d.str[1], d.str[2], d.sz[1], d.sz[2] end
end

-- simd.map(op, r, x, y, from, import) -> true when done: r = x <op> y
-- elementwise, y a tensor or a number already cast to the element type,
-- when r has more than `from` elements or is a strided vector (the LuaJIT
-- loops take contiguous tensors and matrices only); numpy is imported for it beyond
-- `import` elements (where th's numpy path would have imported it), else
-- false until it is loaded; false too when no loop applies (another type,
-- views this does not take)
-- (map, flat, unary, rows, rowbest and compare, shared by every operation, end
-- their parameters with `...`: never roots of traces of their own, see kernels.lua)
function simd.map(op, r, x, y, from, import, ...)
   local n = nelement(r)
   local T = r.T
   if n == 0 or x.T ~= T then return false end
   local strided = r.nd == 1 and (r.str[1] ~= 1 or x.str[1] ~= 1 or type(y) ~= 'number' and y.str[1] ~= 1)
   if n <= from and not strided then
      return false
   end
   if not ready(n > import) then return false end
   local loop = loops[op] and loops[op][T]
   if not loop then return false end
   local number = type(y) == 'number'
   if not number and y.T ~= T then return false end
   local size = T.size
   local yp
   if number then
      yp = cells[T]
      yp[0] = y
   end
   if iscontiguous(r) and iscontiguous(x) and (number or iscontiguous(y)) and apart(x, r)
      and (number or apart(y, r)) then
      checkbounds(r); checkbounds(x)
      if not number then checkbounds(y); yp = origin(y) end
      local ystep = number and 0 or size
      local job = parallel.job(n * size, SPLIT)
      if job then
         job.fn, job.data = loop[1], loop[2]
         job.p[0], job.p[1], job.p[2] = origin(x), yp, origin(r)
         job.steps[0], job.steps[1], job.steps[2] = size, ystep, size
         parallel.segment(job, 0, n)
         parallel.run(job, 'loop', parallel.chunk(n, CHUNK, 4))
         return true
      end
      steps[0], steps[1], steps[2] = size, ystep, size
      pieces(loop, number)(loop[1], loop[2], origin(x), yp, origin(r), n, number and 0 or 1)
      return true
   end
   -- views of r's sizes, one or two dimensions; r repeats no element (an
   -- expanded result accumulates, as TH's loop did: numpy's would reduce)
   if x.nd ~= r.nd or not number and y.nd ~= r.nd then return false end
   local r1, r2, m, k = rows(r)
   if not r1 or r2 == 0 or m > 1 and r1 == 0 then return false end
   for i = 1, r.nd do
      if x.sz[i] ~= r.sz[i] or not number and y.sz[i] ~= r.sz[i] then return false end
   end
   if not apart(x, r) or not number and not apart(y, r) then return false end
   checkbounds(r); checkbounds(x)
   local x1, x2 = rows(x)
   local y1, y2 = 0, 0
   if not number then
      checkbounds(y)
      y1, y2 = rows(y)
      yp = origin(y)
   end
   run(loop, size, origin(r), r1, r2, origin(x), x1, x2, yp, y1, y2, m, k)
   return true
end

-- simd.flat(op, T, n, import, rp, xp, yp, ystep [, zp]) -> true when done:
-- r = op(x, y [, z]) over n contiguous elements of T at pointers of T, r
-- apart from x and y; y steps ystep elements (0: the cell of a number), z
-- is the cell of a number (clip's upper bound); shared with helper threads
-- from SPLIT bytes; numpy is imported for it beyond `import` elements, else
-- false until it is loaded; false when op has no loop for T
function simd.flat(op, T, n, import, rp, xp, yp, ystep, zp, ...)
   if n == 0 or not ready(n > import) then return false end
   local loop = loops[op] and loops[op][T]
   if not loop then return false end
   local size = T.size
   local job = parallel.job(n * size, SPLIT)
   if job then
      job.fn, job.data = loop[1], loop[2]
      job.p[0], job.p[1], job.steps[0], job.steps[1] = xp, yp, size, ystep * size
      if zp then
         job.p[2], job.p[3], job.steps[2], job.steps[3] = zp, rp, 0, size
      else
         job.p[2], job.steps[2] = rp, size
      end
      parallel.segment(job, 0, n)
      parallel.run(job, zp and 'loop3' or 'loop', parallel.chunk(n, CHUNK, 4))
      return true
   end
   steps[0], steps[1] = size, ystep * size
   if zp then
      steps[2], steps[3] = 0, size
      pieces(loop, 'three')(loop[1], loop[2], xp, yp, zp, rp, n)
   else
      steps[2] = size
      pieces(loop, ystep == 0)(loop[1], loop[2], xp, yp, rp, n, ystep)
   end
   return true
end

-- simd.unary(op, T, n, import, rp, xp) -> true when done: r = op(x) over n
-- contiguous Float or Double elements at pointers of T (floor, ceil, trunc,
-- sqrt: exact, C's bits), r apart from x or x itself; shared with
-- helper threads from SPLIT bytes; numpy is imported for it beyond `import`
-- elements, else false until it is loaded
function simd.unary(op, T, n, import, rp, xp, ...)
   if n == 0 or not ready(n > import) then return false end
   local loop = loops[op] and loops[op][T]
   if not loop then return false end
   local size = T.size
   local job = parallel.job(n * size, SPLIT)
   if job then      -- (the pool's binary loop kind: a third operand the loop never reads)
      job.fn, job.data = loop[1], loop[2]
      job.p[0], job.p[1], job.p[2] = xp, rp, rp
      job.steps[0], job.steps[1], job.steps[2] = size, size, 0
      parallel.segment(job, 0, n)
      parallel.run(job, 'loop', parallel.chunk(n, CHUNK, 4))
      return true
   end
   steps[0], steps[1] = size, size
   pieces(loop, 'unary')(loop[1], loop[2], xp, rp, n)
   return true
end

-- simd.nanfree(T, n, import, xp) -> whether none of n contiguous Float or
-- Double elements at xp is NaN, by numpy's NaN-propagating maximum loop in
-- its reduction form (seeded with xp[0]); nil until numpy is loaded
-- (imported for it beyond `import` elements) or without that loop
-- reduced(loop, T, n, xp, acc) -> the reduction of n contiguous elements of
-- T at xp by the loop (numpy's, in its reduction form), seeded with xp[0]
-- in the cell acc
local function reduced(loop, T, n, xp, acc)
   acc[0] = xp[0]
   dims[0] = n
   steps[0], steps[1], steps[2] = 0, T.size, 0
   args[0], args[1], args[2] = acc, xp, acc
   loop[1](args, dims, steps, loop[2])
   return acc[0]
end

function simd.nanfree(T, n, import, xp)
   if n == 0 or not ready(n > import) then return nil end
   local loop = loops.max and loops.max[T]
   if not loop then return nil end
   local best = reduced(loop, T, n, xp, cells[T])
   return best == best
end

-- simd.within32(T, n, import, xp) -> whether the n contiguous Float or
-- Double elements at xp all lie in C's int range [-2^31, 2^31), none NaN,
-- by numpy's NaN-propagating minimum and maximum loops in their reduction
-- form; nil until numpy is loaded (imported for it beyond `import`
-- elements) or without those loops
function simd.within32(T, n, import, xp)
   if n == 0 or not ready(n > import) then return nil end
   local lo, hi = loops.min and loops.min[T], loops.max and loops.max[T]
   if not lo or not hi then return nil end
   return reduced(lo, T, n, xp, cells[T]) >= -2147483648 and reduced(hi, T, n, xp, cells[T]) < 2147483648
end

-- simd.rowbest(op, T, rp, ip, xp, xo, outer, size, import) -> true when
-- done: rp[o] and ip[o] = the best (op: max or min) of row o of x (size
-- contiguous elements of T, rows xo elements apart) and the 1-based
-- position of its first occurrence, the first NaN winning, as TH's loop
-- found them: the row's best by numpy's reduction loop, then where the row
-- equals it (numpy's comparison loop into bytes; for a NaN, where x ~= x),
-- the first such byte by C's memchr; false until numpy is loaded (imported
-- for it beyond `import` elements) or without those loops
local hits, hitsize, hitslow = nil, 0, 0
function simd.rowbest(op, T, rp, ip, xp, xo, outer, size, import, ...)
   if not ready(outer * size > import) then return false end
   local best, eq, ne = loops[op] and loops[op][T], loops.eq and loops.eq[T], loops.ne and loops.ne[T]
   if not (best and eq and ne) then return false end
   if hitsize < size then
      hits, hitsize = ffi.new('uint8_t[?]', size + 1), size
      hitslow = tonumber(ffi.cast('int32_t', ffi.cast('intptr_t', hits)))
   end
   hits[size] = 1   -- (past the row's marks: memchr always finds a byte)
   local acc, bf, bd, ef, ed, nf, nd = cells[T], best[1], best[2], eq[1], eq[2], ne[1], ne[2]
   local floating = not T.integer
   dims[0] = size
   for o = 0, outer - 1 do
      local row = o * xo
      acc[0] = xp[row]
      steps[0], steps[1], steps[2] = 0, T.size, 0
      args[0], args[1], args[2] = acc, xp + row, acc
      bf(args, dims, steps, bd)
      steps[0], steps[2] = T.size, 1
      args[0], args[2] = xp + row, hits
      if floating and acc[0] ~= acc[0] then
         nf(args, dims, steps, nd)   -- (x ~= x)
      else
         steps[1], args[1] = 0, acc
         ef(args, dims, steps, ed)
      end
      local k = (C.th_memchr_low(hits, 1, size + 1) - hitslow) % 2^32
      if k == size then return false end   -- (never: the best is one of the row's elements)
      rp[o] = xp[row + k]
      ip[o] = k + 1
   end
   return true
end

-- simd.argsort(v, ix, n, descending) -> true when done: the n doubles at v
-- in increasing order (decreasing when descending), their int32 ix
-- reordered alike, by numpy's vectorised argsort (th/ops/argsorts.py), when
-- no two are equal (-0 and 0 included) and none is NaN: the order is then
-- the only one; otherwise false, v and ix untouched, for TH's quicksort to
-- order the ties as it did.  False too until numpy is loaded, and beyond
-- ARGSORTMOST values (the scratch arrays, kept, stay small; th's memory
-- beyond a kilobyte, off the collected heap)
local ARGSORTMOST = 65536
simd.ARGSORTMOST = ARGSORTMOST
local argsorttype = ffi.typeof('int (*)(double *, int64_t *, int64_t, void *)')
local argsortf      -- numpy's function: nil until looked for, false when not there
local order, sorted, sortedix, sortn, owners = nil, nil, nil, 0, {}
local function scratch(T, n, k)
   local _, ptr, owner = internal.memory.alloc(T, n, true)
   owners[k] = owner
   return ptr
end

-- simd.argsortable() -> whether simd.argsort has numpy's function (looked
-- for once numpy is loaded)
function simd.argsortable()
   if argsortf == nil and internal.numpyloaded[0] ~= 0 then
      local ok, address = pcall(py.argsort_function)
      address = ok and tonumber(address) or 0
      argsortf = address ~= 0 and ffi.cast(argsorttype, ffi.cast('intptr_t', address)) or false
   end
   return argsortf and true or false
end

function simd.argsort(v, ix, n, descending)
   if n > ARGSORTMOST or not simd.argsortable() then return false end
   if sortn < n then
      order, sorted, sortedix = scratch(types.Long, n, 1), scratch(types.Double, n, 2), scratch(types.Int, n, 3)
      sortn = n
   end
   for i = 0, n - 1 do order[i] = i end
   argsortf(v, order, n, nil)
   for k = 0, n - 1 do
      local p = tonumber(order[k])
      if not (p >= 0 and p < n) then return false end   -- (never: numpy's is a permutation)
      local x = v[p]
      if k > 0 and not (sorted[k - 1] < x) then return false end
      sorted[k], sortedix[k] = x, ix[p]
   end
   if descending then
      for k = 0, n - 1 do v[k], ix[k] = sorted[n - 1 - k], sortedix[n - 1 - k] end
   else
      ffi.copy(v, sorted, n * 8)
      ffi.copy(ix, sortedix, n * 4)
   end
   return true
end

-- simd.frac(T, n, import, rp, xp) -> true when done: r = x - trunc(x) (C's
-- frac, exact: TH's bits) over n contiguous Float or Double elements, x
-- apart from r or r itself: trunc into a scratch block, then the
-- subtraction, block by block (in the L1 cache)
local FRACBLOCK = 2048
local scratch = {}
function simd.frac(T, n, import, rp, xp)
   if n == 0 or not ready(n > import) then return false end
   local trunc, sub = loops.trunc and loops.trunc[T], loops.sub and loops.sub[T]
   if not trunc or not sub then return false end
   local s = scratch[T]
   if not s then
      s = T.vla(FRACBLOCK)
      scratch[T] = s
   end
   local size = T.size
   steps[0], steps[1], steps[2] = size, size, size
   for from = 0, n - 1, FRACBLOCK do
      dims[0] = n - from < FRACBLOCK and n - from or FRACBLOCK
      args[0], args[1] = xp + from, s
      trunc[1](args, dims, steps, trunc[2])
      args[0], args[1], args[2] = xp + from, s, rp + from
      sub[1](args, dims, steps, sub[2])
   end
   return true
end

-- simd.counted(shift, mask, T, rp, xp, yp, s, block, n, m) -> true: r = x
-- shifted by (y & m) over n contiguous elements of T, the counts masked
-- into the scratch s (block elements of T) by the loop `mask` (bitand),
-- then `shift` (numpy's loops: {function, data}), a block at most at a time
-- (in the L1 cache); r is x or apart from it
local maskcells = {}
function simd.counted(shift, mask, T, rp, xp, yp, s, block, n, m)
   local cell = maskcells[T]
   if not cell then
      cell = T.vla(1)
      maskcells[T] = cell
   end
   cell[0] = m
   local size = T.size
   -- (four pieces at least: a loop of one or two steps never becomes a trace)
   local piece = math.min(block, ceil(n / PIECES))
   for from = 0, n - 1, piece do
      dims[0] = n - from < piece and n - from or piece
      steps[0], steps[1], steps[2] = size, 0, size
      args[0], args[1], args[2] = yp + from, cell, s
      mask[1](args, dims, steps, mask[2])
      steps[1] = size
      args[0], args[1], args[2] = xp + from, s, rp + from
      shift[1](args, dims, steps, shift[2])
   end
   return true
end

-- simd.cell(T, v) -> the cell of T holding the number v (one per
-- type and operand position k, 1 or 2)
local cells2 = {}
for i = 1, types.count do
   local T = types[i]
   if T.vla then cells2[T] = T.vla(1) end
end
function simd.cell(T, v, k)
   local c = k == 2 and cells2[T] or cells[T]
   c[0] = v
   return c
end

-- simd.rows(op, T, rp, xp, outer, xo, size, xk, inner, xi) -> true when
-- done: r[o][j] = r[o][j] <op> x at o*xo + k*xk + j*xi for k from 0 to
-- size - 1 in order, r (of T, outer rows of inner) contiguous and apart from
-- x, pointers of T: a row of x at a time into the result, as TH added rows
-- along a dimension whose stride is not 1; false until numpy is loaded
function simd.rows(op, T, rp, xp, outer, xo, size, xk, inner, xi, ...)
   local loop = ready(false) and loops[op] and loops[op][T]
   if not loop then return false end
   local f, data, bytes = loop[1], loop[2], T.size
   dims[0] = inner
   steps[0], steps[1], steps[2] = bytes, xi * bytes, bytes
   for o = 0, outer - 1 do
      local r = rp + o * inner
      for p = o * xo, o * xo + (size - 1) * xk, xk do
         args[0], args[1], args[2] = r, xp + p, r
         f(args, dims, steps, data)
      end
   end
   return true
end

-- simd.compare(op, r, x, y, import) -> true when done: the ByteTensor r = 1
-- where x <op> y, else 0 (op: lt, le, gt, ge, eq, ne), every one contiguous
-- and r apart from x and y, y a tensor of x's type or a number already cast
-- to it; numpy is imported for it beyond `import` elements
function simd.compare(op, r, x, y, import, ...)
   local n = nelement(r)
   local T = x.T
   if n == 0 or r.T ~= types.Byte or not ready(n > import) then return false end
   local loop = loops[op] and loops[op][T]
   local number = type(y) == 'number'
   if not loop or not number and y.T ~= T or rawequal(r.st, x.st) or not number and rawequal(r.st, y.st)
      or not (iscontiguous(r) and iscontiguous(x) and (number or iscontiguous(y))) then
      return false
   end
   checkbounds(r); checkbounds(x)
   local yp
   if number then
      yp = cells[T]
      yp[0] = y
   else
      checkbounds(y)
      yp = origin(y)
   end
   steps[0], steps[1], steps[2] = T.size, number and 0 or T.size, 1
   pieces(loop, number)(loop[1], loop[2], origin(x), yp, origin(r), n, number and 0 or 1)
   return true
end

-- simd.extremes(xp, n, import) -> the smallest and largest of n int64
-- values at xp (a contiguous LongTensor's), by numpy's SIMD minimum and
-- maximum loops in their reduction form (the first operand the result, of
-- step 0, seeded with xp[0]); nil until numpy is loaded (imported for it
-- beyond `import` values, math.huge: never)
-- (the pointers into the cell made once; the function reads the cell
-- itself, which keeps it alive)
local extremes = ffi.new('int64_t[2]')
local lowest, highest = ffi.cast('int64_t *', extremes), ffi.cast('int64_t *', extremes) + 1
function simd.extremes(xp, n, import)
   if not ready(n > import) or not loops.min or not loops.max then return nil end
   local lo, hi = loops.min[types.Long], loops.max[types.Long]
   if not lo or not hi then return nil end
   ffi.copy(lowest, xp, 8)
   ffi.copy(highest, xp, 8)
   dims[0] = n
   steps[0], steps[1], steps[2] = 0, 8, 0
   args[0], args[1], args[2] = lowest, xp, lowest
   lo[1](args, dims, steps, lo[2])
   args[0], args[2] = highest, highest
   hi[1](args, dims, steps, hi[2])
   return tonumber(extremes[0]), tonumber(extremes[1])
end

return simd
