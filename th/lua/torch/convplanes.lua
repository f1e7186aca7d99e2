-- The arithmetic of conv2/xcorr2/conv3/xcorr3 for Float and Double tensors,
-- summed in the order Torch7 summed, found by experiment on the original
-- (single-element kernels, values whose sums round differently in different
-- orders, every output element checked).  An output element adds up the
-- input planes (volumes) of its form in order (conv.lua), from zero; a
-- plane's products come in this order and rounding:
--   2-D valid, output rows of 4 or more: out = fma(w, x, out) per product,
--     in input order (rows, then columns)
--   2-D valid, narrower: s = the plane's products added in input order, each
--     product and sum rounded (no fma); then out = out + s
--   2-D full, input rows of 4 or more: out = fma(w, x, out), input rows
--     ascending, columns descending
--   2-D full, narrower: out = out + w x, each step rounded, input order
--   3-D valid: s = the volume's products added in input order, each step
--     rounded; then out = out + s
--   3-D full: out = out + w x, each step rounded, input order
-- (w is the kernel element met, flipped for a convolution.)  A FloatTensor's
-- steps are float's (fmaf, every product and sum rounded to a float).
-- The fused forms are BLAS axpys (cblas.lua) over each input plane seen flat:
-- one axpy per kernel element, over blocks of output whose length is a
-- multiple of 32, which OpenBLAS fuses whole (its last few elements it
-- would not); the block's extra or wrapped-around elements are dropped.
-- An 'mv' form updates all its outputs at once with a ger (an axpy per
-- output inside OpenBLAS).  Both are checked once to fuse as fma does.
-- With 4 outputs or more, an 'mv' form's sums are gemms where the library
-- adds up as fma chains (convgemm.lua), else these passes.
-- The rounded forms take whole volumes seen flat too, a pass of numpy's
-- SIMD multiply, then add, per kernel element and block of output (LuaJIT
-- loops until numpy is loaded).  Integer tensors keep to th/ops/conv.py.
local ffi = require 'ffi'
local internal = require 'torch.internal'
local types = require 'torch.types'
local cblas = require 'torch.maths.cblas'
local convgemm = require 'torch.convgemm'
local simd = require 'torch.maths.simd'
local C = require 'torch.maths.libm'

local TD, nelement, checkbounds = internal.tensors, internal.nelement, internal.checkbounds
local min, max, ceil, floor = math.min, math.max, math.ceil, math.floor
local huge = math.huge

local planes = {}

local ALIGN = 32      -- an axpy's length is a multiple of this: BLAS fuses whole blocks
local GERSIZE = 8192  -- elements a ger updates at most: OpenBLAS runs those in the calling thread
local ROW = 101       -- CblasRowMajor
-- the types whose 'mv' forms update every output at once with a ger:
-- Double's go faster an output at a time, by axpys (measured)
local GERTYPES = {[types.Float] = true}
local CHUNK = 2048    -- output elements one axpy updates: a multiple of ALIGN, in L1
local GEMMFROM = 4    -- outputs from which the 'mv' forms take gemms (convgemm.lua; measured)

local CTYPES = {
   [types.Double] = {arr = ffi.typeof('double[?]'), fma = C.fma},
   [types.Float] = {arr = ffi.typeof('float[?]'), fma = C.fmaf},
}

-- scratch arrays kept between calls, per type and use, grown as needed (up
-- to KEEP elements: release() drops bigger ones when a call ends), starting
-- on a cache line: BLAS's axpys ran 12% faster into aligned blocks.  They
-- are th's malloc'd buffers, zeroed when made, not LuaJIT arrays: 16 MB
-- kept in Lua's heap after a conv2 of 1000x1000 spaced its collection cycles
-- out, and every later new tensor came from memory the caches had lost
-- (torch.Tensor(100) 0.70 -> 1.08 us)
local KEEP = 2 ^ 22
local LINE = 64
local scratch = {[types.Double] = {}, [types.Float] = {}}
local big = false      -- is one of them bigger than KEEP?
local function buffer(T, use, n)
   local s = scratch[T][use]
   if not s or s.n < n then
      local _, p, owner = internal.memory.alloc(T, n + LINE / T.size)
      s = {owner = owner, p = p + (-tonumber(ffi.cast('uintptr_t', p))) % LINE / T.size, n = n}
      scratch[T][use] = s
      big = big or n > KEEP
   end
   return s.p
end
-- (a loop over the tables at every call left LuaJIT a trace exit per call)
local function release()
   if not big then return end
   big = false
   for _, uses in pairs(scratch) do
      for use, s in pairs(uses) do
         if s.n > KEEP then uses[use] = nil end
      end
   end
end

-- BLAS's axpy for T when it fuses every multiply-add of a block of ALIGN
-- elements (checked once on values whose products round), else false
local fusedaxpy = {}
local function getaxpy(T)
   local f = fusedaxpy[T]
   if f == nil then
      f = false
      local axpy = cblas.isexact() and cblas.axpy(T)
      if axpy then
         local n, ct = 2 * ALIGN, CTYPES[T]
         local x, y, want = ct.arr(n), ct.arr(n), ct.arr(n)
         local a = 1 + 2 ^ -12
         for i = 0, n - 1 do
            x[i] = 1 + (i + 1) * 2 ^ -13
            y[i] = -a * x[i]
            want[i] = ct.fma(a, x[i], y[i])
         end
         axpy(n, a, x, 1, y, 1)
         f = axpy
         for i = 0, n - 1 do if y[i] ~= want[i] then f = false end end
      end
      fusedaxpy[T] = f
   end
   return f
end

-- BLAS's ger for T when it fuses as its axpy does, zero weights included
-- (0 * inf is nan), else false: one call updates every output of an 'mv'
local fusedger = {}
local function getger(T)
   local f = fusedger[T]
   if f == nil then
      f = false
      local ger = getaxpy(T) and cblas.ger(T)
      if ger then
         local n, ct = 2 * ALIGN, CTYPES[T]
         local w, x, acc, want = ct.arr(2), ct.arr(n), ct.arr(2 * n), ct.arr(2 * n)
         w[0], w[1] = 1 + 2 ^ -12, 0
         for i = 0, n - 1 do
            x[i] = i == 3 and huge or 1 + (i + 1) * 2 ^ -13
            for o = 0, 1 do
               acc[o * n + i] = -w[0] * x[i]
               want[o * n + i] = ct.fma(w[o], x[i], acc[o * n + i])
            end
         end
         ger(ROW, 2, n, 1, w, 1, x, 1, acc, n)
         f = ger
         for i = 0, 2 * n - 1 do
            if acc[i] ~= want[i] and (acc[i] == acc[i] or want[i] == want[i]) then f = false end
         end
      end
      fusedger[T] = f
   end
   return f
end

-- Geometry of one call (reused tables, no allocation per call): G.base 2 or
-- 3 (conv2 or conv3); G.d, G.h, G.w: an input plane (volume; d = 1 for planes); G.kd, G.kh, G.kw
-- and strides G.ks0, G.ks1, G.ks2: a kernel; G.od, G.oh, G.ow: an output.
-- OFFS[t], KOFFS[t]: the input offset and kernel offset of the t-th product
-- of a fused sum, in the order the original added them; LO[t], HI[t]: the
-- outputs it reaches (fused below).
local G, OFFS, KOFFS, LO, HI = {}, {}, {}, {}, {}

-- dst[c * ds0 + i * ds1 + j] = the input's element (c, i, j) at src with strides
-- s0, s1, s2: a copy in a layout of our own, made before the result is
-- written (which may share the input's memory).  (Offsets as numbers, as
-- in passes below.)
local function place(size, dst, src, s0, s1, s2, ds0, ds1)
   local w = G.w
   for c = 0, G.d - 1 do
      for i = 0, G.h - 1 do
         local d, s = c * ds0 + i * ds1, c * s0 + i * s1
         if s2 == 1 then
            ffi.copy(dst + d, src + s, w * size)
         else
            for j = 0, w - 1 do dst[d + j] = src[s + j * s2] end
         end
      end
   end
end

-- the output at rp, strides rs0, rs1, rs2 = acc's element (c, i, j) at c * as0 + i * as1 + j
local function unplace(size, rp, rs0, rs1, rs2, acc, as0, as1)
   local ow = G.ow
   for c = 0, G.od - 1 do
      for i = 0, G.oh - 1 do
         local o, a = c * rs0 + i * rs1, c * as0 + i * as1
         if rs2 == 1 then
            ffi.copy(rp + o, acc + a, ow * size)
         else
            for j = 0, ow - 1 do rp[o + j * rs2] = acc[a + j] end
         end
      end
   end
end

-- Every product's passes over the outputs: per block [c0, c1) of `block`
-- outputs in [0, m), per input plane j in order (at P.src + j * size, its
-- kernel at P.kp + j * kstep), per product t in order, over the outputs it
-- reaches in the block, [lo, hi) within [LO[t], HI[t]) (elsewhere it would
-- add w * 0): pass(P, kj + KOFFS[t], sj + OFFS[t], lo, hi, c1), P the
-- pass's parameters (tables kept, no closure per call).  Offsets are
-- numbers, made pointers only as arguments of a C call: a pointer kept in a
-- variable is a new cdata at every pass (allocation sinking is off)
local function passes(pass, P, m, block, size, n, kstep, ntaps)
   for c0 = 0, m - 1, block do
      internal.pollnow()
      local c1 = min(c0 + block, m)
      for j = 0, n - 1 do
         local sj, kj = j * size, j * kstep
         for t = 1, ntaps do
            local lo, hi = max(c0, LO[t]), min(c1, HI[t])
            if lo < hi then pass(P, kj + KOFFS[t], sj + OFFS[t], lo, hi, c1) end
         end
      end
   end
end

-- the start of a fused pass over [lo, hi) in a block ending at c1: BLAS
-- fuses lengths of multiples of ALIGN (m is one), the extra outputs computed
-- and dropped -> start, length
local function aligned(lo, hi, c1)
   local len = ceil((hi - lo) / ALIGN) * ALIGN
   return min(lo, c1 - len), len
end

-- acc[0, m) = the fused sums over n planes of their ntaps products in
-- order, an axpy per product and block
local AXPY = {}
local function axpypass(P, koff, soff, lo, hi, c1)
   local len
   lo, len = aligned(lo, hi, c1)
   local w, a, s = P.kp[koff], P.acc, P.src
   if w == 0 then           -- BLAS skips it; fma(0, x, y) is y + 0 * x
      for e = lo, lo + len - 1 do a[e] = a[e] + w * s[soff + e] end
   elseif P.axpy then
      P.axpy(len, w, s + (soff + lo), 1, a + lo, 1)
   else
      local fma = P.fma
      for e = lo, lo + len - 1 do a[e] = fma(w, s[soff + e], a[e]) end
   end
end
local function fused(T, acc, m, src, size, n, kp, kstep, ntaps)
   AXPY.acc, AXPY.src, AXPY.kp, AXPY.axpy, AXPY.fma = acc, src, kp, getaxpy(T), CTYPES[T].fma
   ffi.fill(acc, m * T.size)
   passes(axpypass, AXPY, m, CHUNK, size, n, kstep, ntaps)
end

-- the same for nout outputs at once, rows m apart in acc, the kernels of
-- output o at kp + o * kostep: one ger per plane and product updates every
-- output (OpenBLAS: an axpy per output)
local GER = {}
local function gerpass(P, koff, soff, lo, hi, c1)
   local len
   lo, len = aligned(lo, hi, c1)
   P.ger(ROW, P.nout, len, 1, P.kp + koff, P.kostep, P.src + (soff + lo), 1, P.acc + lo, P.m)
end
local function fusedmany(T, acc, m, src, size, n, kp, kstep, ntaps, nout, kostep)
   GER.acc, GER.src, GER.kp, GER.ger, GER.nout, GER.kostep, GER.m = acc, src, kp, getger(T), nout, kostep, m
   ffi.fill(acc, nout * m * T.size)
   passes(gerpass, GER, m, max(ALIGN, floor(GERSIZE / nout / ALIGN) * ALIGN), size, n, kstep, ntaps)
end

-- the kernel element (c, a, b) as met by a valid operation (a convolution
-- reads its kernel backwards), or as scattered by a full one (a
-- cross-correlation's backwards): its offset from the kernel's first
local function kat(c, a, b, backwards)
   if backwards then c, a, b = G.kd - 1 - c, G.kh - 1 - a, G.kw - 1 - b end
   return c * G.ks0 + a * G.ks1 + b * G.ks2
end

-- Each of these computes an output plane (volume) into acc from n input
-- planes (volumes) at src, size apart, placed by its `layout`, and the
-- kernels at kp, kstep apart; flip: a convolution.

-- 2-D valid, outputs of 4 or more: input flat, output (i, j) at i * w + j
-- reads input i * w + j + a * w + b; its rows are w apart in acc
local valid2 = {}
function valid2.layout() return G.h * G.w + ALIGN, G.w end
-- -> the products' count, the output's length in acc, its rows' stride
function valid2.taps(flip)
   local w, kh, kw, t = G.w, G.kh, G.kw, 0
   for a = 0, kh - 1 do
      for b = 0, kw - 1 do
         t = t + 1
         OFFS[t], KOFFS[t], LO[t], HI[t] = a * w + b, kat(0, a, b, flip), 0, huge
      end
   end
   return t, ceil((G.oh * w - (kw - 1)) / ALIGN) * ALIGN, w
end

-- 2-D full, inputs of 4 or more, finite kernels: input rows of fw (zeros
-- after the w elements) after a margin of zeros; output (p, q) at p * fw + q
-- reads margin + p * fw + q - a * fw - b.  Kernel rows descending (input rows
-- ascending), columns ascending (input columns descending)
local full2 = {zeroed = true}
function full2.margin() return (G.kh - 1) * G.ow + G.kw - 1 end
function full2.layout()
   return full2.margin() + ceil(G.oh * G.ow / ALIGN) * ALIGN, G.ow, full2.margin()
end
function full2.taps(flip)
   local fw, kh, kw, margin, t = G.ow, G.kh, G.kw, full2.margin(), 0
   for a = kh - 1, 0, -1 do
      for b = 0, kw - 1 do
         t = t + 1
         OFFS[t], KOFFS[t] = margin - a * fw - b, kat(0, a, b, not flip)
         LO[t], HI[t] = a * fw + b, (a + G.h - 1) * fw + b + G.w   -- input rows 0 .. h - 1
      end
   end
   return t, ceil(G.oh * fw / ALIGN) * ALIGN, fw
end

-- The rest round every product and sum (Torch7 summed these in ways no BLAS
-- does), in blocks of CHUNK outputs: per block, input planes (volumes) in
-- order, their products in order, each product a pass of rounded steps over
-- the block.

-- Rounded steps: addproducts(u, o, oi, w, x, xi, n, tmp): o[oi, oi + n) =
-- o + w x[xi, xi + n), the product rounded to the type, then the sum;
-- add(u, o, oi, y, n): o[oi, oi + n) = o + y[0, n).
-- Given u (numpy's SIMD loops of multiply and add for the type, called
-- through the FFI: th/ops/ufuncloops.py finds them), from VECFROM elements
-- the products go into tmp, then one pass adds them; else a LuaJIT loop.
-- The same IEEE operations either way.  One chunk per type: a trace each.
local VECFROM = 24         -- elements from which numpy's loops beat LuaJIT's (measured: their calls cost 5-10 ns)
local IMPORTWORK = 2 ^ 20  -- products from which a call is worth importing numpy for
local STEPCODE = [[
local ctype, VECFROM = ...
local ffi = require 'ffi'
local args, dims, steps = ffi.new('void *[3]'), ffi.new('intptr_t[1]'), ffi.new('intptr_t[3]')
local wcell, cell = ffi.new(ctype .. '[1]'), ffi.new(ctype .. '[1]')
local size = ffi.sizeof(ctype)
local rounded = {}
function rounded.addproducts(u, o, oi, w, x, xi, n, tmp)
   if u and n >= VECFROM then
      wcell[0], dims[0] = w, n
      steps[0], steps[1], steps[2] = 0, size, size
      args[0], args[1], args[2] = wcell, x + xi, tmp
      u.mul(args, dims, steps, u.muldata)
      steps[0] = size
      args[0], args[1], args[2] = o + oi, tmp, o + oi
      u.add(args, dims, steps, u.adddata)
   else
      for i = 0, n - 1 do $STEP end
   end
end
function rounded.add(u, o, oi, y, n)
   if u and n >= VECFROM then
      dims[0] = n
      steps[0], steps[1], steps[2] = size, size, size
      args[0], args[1], args[2] = o + oi, y, o + oi
      u.add(args, dims, steps, u.adddata)
   else
      for i = 0, n - 1 do o[oi + i] = o[oi + i] + y[i] end
   end
end
return rounded]]
local ROUNDED = {}
for T, step in pairs{[types.Double] = 'o[oi + i] = o[oi + i] + w * x[xi + i]',
                     [types.Float] = 'cell[0] = w * x[xi + i]; o[oi + i] = o[oi + i] + cell[0]'} do   -- (the product rounded first)
   ROUNDED[T] = assert(loadstring(STEPCODE:gsub('%$STEP', step), '=(th conv steps)'))(T.ctype, VECFROM)
end

-- numpy's loops for T ({mul, muldata, add, adddata}) once numpy is loaded, or
-- when importing (the call is worth it); else false
local ufuncs = {}      -- per type, once found
local function getufuncs(T, importing)
   if ufuncs[T] == nil then
      local loops = simd.loops(importing)
      if not loops then return false end
      local mul, add = loops.mul and loops.mul[T], loops.add and loops.add[T]
      ufuncs[T] = mul and add and {mul = mul[1], muldata = mul[2], add = add[1], adddata = add[2]} or false
   end
   return ufuncs[T]
end

-- Valid, 3-D, or 2-D with outputs narrower than 4: an output element adds,
-- per input plane (volume), the sum of its products in input order, each
-- product and sum rounded.  Outputs are seen in the input's geometry, flat:
-- element (e, p, q) at (e h + p) w + q, reading input + (c h + a) w + b (the
-- elements past the output's rows and slices collect wrapped-around sums,
-- dropped).
local sums = {}
function sums.layout() return G.d * G.h * G.w, G.w, 0, G.h * G.w end
function sums.run(T, src, size, n, kp, kstep, flip, u)
   local h, w, ntaps = G.h, G.w, 0
   for c = 0, G.kd - 1 do
      for a = 0, G.kh - 1 do
         for b = 0, G.kw - 1 do
            ntaps = ntaps + 1
            OFFS[ntaps], KOFFS[ntaps] = (c * h + a) * w + b, kat(c, a, b, flip)
         end
      end
   end
   local m = ((G.od - 1) * h + G.oh - 1) * w + G.ow      -- up to the last output
   local acc, sum, tmp, steps = buffer(T, 'acc', m), buffer(T, 'sum', CHUNK), buffer(T, 'tmp', CHUNK), ROUNDED[T]
   ffi.fill(acc, m * T.size)
   for c0 = 0, m - 1, CHUNK do
      internal.pollnow()
      local len = min(CHUNK, m - c0)
      for s = 0, n - 1 do
         local x, k = s * size + c0, s * kstep
         ffi.fill(sum, len * T.size)
         for t = 1, ntaps do steps.addproducts(u, sum, 0, kp[k + KOFFS[t]], src, x + OFFS[t], len, tmp) end
         steps.add(u, acc, c0, sum, len)
      end
   end
   return acc, w, h * w
end

-- Full, 3-D, or 2-D with inputs narrower than 4 or a kernel holding inf or
-- nan: scattered, each product added in turn to the output, rounded, in
-- input order.  Input rows are placed ow apart, slices oh ow apart (zeros
-- between): with a finite kernel all the input scatters at once, seen flat,
-- the zeros adding nothing (an output sum is never -0); kernel slices, rows
-- and columns descending keep the input's order.  Else row by row, input
-- columns ascending -- or, 2-D inputs 4 wide or more, fused, descending.
local scatter = {}
scatter.zeroed = true
local STEP = {}
local function steppass(P, koff, soff, lo, hi)
   P.steps.addproducts(P.u, P.acc, lo, P.kp[koff], P.src, soff + lo, hi - lo, P.tmp)
end
function scatter.layout() return G.d * G.oh * G.ow, G.ow, 0, G.oh * G.ow end
function scatter.run(T, src, size, n, kp, kstep, flip, u, isfinite)
   local h, w, kd, kh, kw, oh, ow = G.h, G.w, G.kd, G.kh, G.kw, G.oh, G.ow
   local isfused, m = G.base == 2 and w >= 4, G.od * oh * ow     -- (3-D is rounded, one plane deep too)
   local acc = buffer(T, 'acc', m)
   ffi.fill(acc, m * T.size)
   if isfinite and not isfused then
      local ntaps, extent = 0, ((G.d - 1) * oh + h - 1) * ow + w     -- up to the last input
      for kc = kd - 1, 0, -1 do
         for ka = kh - 1, 0, -1 do
            for kb = kw - 1, 0, -1 do
               local off = (kc * oh + ka) * ow + kb
               ntaps = ntaps + 1
               OFFS[ntaps], KOFFS[ntaps], LO[ntaps], HI[ntaps] = -off, kat(kc, ka, kb, not flip), off, off + extent
            end
         end
      end
      STEP.acc, STEP.src, STEP.kp, STEP.u, STEP.tmp, STEP.steps = acc, src, kp, u, buffer(T, 'tmp', CHUNK), ROUNDED[T]
      passes(steppass, STEP, m, CHUNK, size, n, kstep, ntaps)
      return acc, ow, oh * ow
   end
   local steps, tmp, fma = ROUNDED[T], buffer(T, 'tmp', w), CTYPES[T].fma
   local b0, b1, db = kw - 1, 0, -1
   if isfused then b0, b1, db = 0, kw - 1, 1 end
   for s = 0, n - 1 do
      local x, k = s * size, s * kstep
      for c = 0, G.d - 1 do
         for i = 0, h - 1 do
            local row = x + (c * oh + i) * ow
            for kc = 0, kd - 1 do
               for ka = 0, kh - 1 do
                  local out = ((c + kc) * oh + i + ka) * ow
                  for kb = b0, b1, db do
                     local wt, o = kp[k + kat(kc, ka, kb, not flip)], out + kb
                     if isfused then
                        for j = 0, w - 1 do acc[o + j] = fma(wt, src[row + j], acc[o + j]) end
                     else
                        steps.addproducts(u, acc, o, wt, src, row, w, tmp)
                     end
                  end
               end
            end
         end
      end
   end
   return acc, ow, oh * ow
end

local function finite(d)
   local p, n = d.st.ptr + d.off, nelement(d)
   for i = 0, n - 1 do
      local v = p[i]
      if v ~= v or v == huge or v == -huge then return false end
   end
   return true
end

-- the way to compute r = x * k
local function method(isfull, isfinite, base)
   if not isfull then return (base == 2 and G.ow >= 4) and valid2 or sums end
   if base == 2 and G.w >= 4 and isfinite then return full2 end
   return scatter
end

-- One image by one kernel (2-D by 2-D), fused, the form most calls take:
-- the same axpys as fused() over valid2's and full2's layouts, with the
-- checks written out for two dimensions.  Small images are then a call's
-- fixed cost, which here is a few traces without loops of their own (a
-- loop in a function called from a trace ends the trace, and the loops of
-- nelement and checkbounds kept LuaJIT recording for thousands of calls)
-- and no allocation (offsets stay numbers; a pointer kept in a variable is
-- a new cdata).

-- d's elements fit its storage (internal.checkbounds for two dimensions)
local function inbounds2(d)
   local sz, str = d.sz, d.str
   return d.off + (sz[1] - 1) * str[1] + (sz[2] - 1) * str[2] < d.st.n
end

-- dst[i * dstep + j] = src's element (i, j) at offset s, strides s1, s2, for
-- rows i < h, columns j < w
local function rows2(size, dst, d0, dstep, src, s, s1, s2, h, w)
   if s2 == 1 and s1 == w and dstep == w then
      ffi.copy(dst + d0, src + s, h * w * size)
   elseif s2 == 1 then
      for i = 0, h - 1 do ffi.copy(dst + (d0 + i * dstep), src + (s + i * s1), w * size) end
   else
      for i = 0, h - 1 do
         local d, o = d0 + i * dstep, s + i * s1
         for j = 0, w - 1 do dst[d + j] = src[o + j * s2] end
      end
   end
end

-- r (strides r1, r2 from offset ro) = acc's element (i, j) at i * astep + j
local function unrows2(size, rp, ro, r1, r2, acc, astep, h, w)
   if r2 == 1 and r1 == w and astep == w then
      ffi.copy(rp + ro, acc, h * w * size)
   elseif r2 == 1 then
      for i = 0, h - 1 do ffi.copy(rp + (ro + i * r1), acc + i * astep, w * size) end
   else
      for i = 0, h - 1 do
         local o, a = ro + i * r1, i * astep
         for j = 0, w - 1 do rp[o + j * r2] = acc[a + j] end
      end
   end
end

-- acc[lo, lo + len) += weight * src[soff + lo ...] (axpypass's steps)
local function axpy2(axpy, weight, src, soff, acc, lo, len)
   if weight == 0 then      -- BLAS skips it; fma(0, x, y) is y + 0 * x
      for e = lo, lo + len - 1 do acc[e] = acc[e] + weight * src[soff + e] end
   else
      axpy(len, weight, src + (soff + lo), 1, acc + lo, 1)
   end
end

-- single2(r, x, k, isfull, flip) -> true when done (false: apply's general way)
local function single2(r, x, k, isfull, flip)
   local T = r.T
   local axpy = getaxpy(T)
   -- (rawequal: storages' == is a metamethod call)
   if not axpy or rawequal(r.st, x.st) or rawequal(r.st, k.st) then return false end
   local h, w, kh, kw, oh, ow = x.sz[1], x.sz[2], k.sz[1], k.sz[2], r.sz[1], r.sz[2]
   local ks1, ks2 = k.str[1], k.str[2]
   if h * w * kh * kw * oh * ow == 0 or (kw ~= 1 and ks2 ~= 1) or (kh ~= 1 and ks1 ~= kw) then return false end
   if not (inbounds2(r) and inbounds2(x) and inbounds2(k)) then return false end
   local size, kp, ko = T.size, k.st.ptr, k.off
   if isfull then
      if w < 4 then return false end
      for e = ko, ko + kh * kw - 1 do
         local v = kp[e]
         if v ~= v or v == huge or v == -huge then return false end
      end
   elseif ow < 4 then
      return false
   end
   local xp, rp = x.st.ptr, r.st.ptr
   local xb, acc, m
   if isfull then                   -- full2's layout and taps
      local margin = (kh - 1) * ow + kw - 1
      m = ceil(oh * ow / ALIGN) * ALIGN
      xb = buffer(T, 'in', margin + m)
      ffi.fill(xb, (margin + m) * size)
      rows2(size, xb, margin, ow, xp, x.off, x.str[1], x.str[2], h, w)
      acc = buffer(T, 'acc', m)
      ffi.fill(acc, m * size)
      for c0 = 0, m - 1, CHUNK do
         internal.pollnow()
         local c1 = min(c0 + CHUNK, m)
         for a = kh - 1, 0, -1 do
            for b = 0, kw - 1 do
               local ka, kb = a, b          -- the kernel element met, flipped for a cross-correlation
               if not flip then ka, kb = kh - 1 - a, kw - 1 - b end
               local lo, hi = max(c0, a * ow + b), min(c1, (a + h - 1) * ow + b + w)
               if lo < hi then
                  local len = ceil((hi - lo) / ALIGN) * ALIGN
                  axpy2(axpy, kp[ko + ka * kw + kb], xb, margin - a * ow - b, acc, min(lo, c1 - len), len)
               end
            end
         end
      end
      unrows2(size, rp, r.off, r.str[1], r.str[2], acc, ow, oh, ow)
   else                             -- valid2's layout and taps
      m = ceil((oh * w - (kw - 1)) / ALIGN) * ALIGN
      xb = buffer(T, 'in', h * w + ALIGN)
      rows2(size, xb, 0, w, xp, x.off, x.str[1], x.str[2], h, w)
      acc = buffer(T, 'acc', m)
      ffi.fill(acc, m * size)
      for c0 = 0, m - 1, CHUNK do
         internal.pollnow()
         local len = min(CHUNK, m - c0)
         for a = 0, kh - 1 do
            for b = 0, kw - 1 do
               local ka, kb = a, b          -- the kernel element met, flipped for a convolution
               if flip then ka, kb = kh - 1 - a, kw - 1 - b end
               axpy2(axpy, kp[ko + ka * kw + kb], xb, a * w + b, acc, c0, len)
            end
         end
      end
      unrows2(size, rp, r.off, r.str[1], r.str[2], acc, w, oh, ow)
   end
   release()
   return true
end

-- apply(r, x, k, full, flip, base) -> true when done: r (sized) = the
-- operation in its 'mul', 'cmul' or 'mv' form (conv.lua)
function planes.apply(r, x, k, isfull, flip, base)
   local T = r.T
   if not CTYPES[T] then return false end
   if base == 2 and x.nd == 2 and k.nd == 2 and single2(r, x, k, isfull, flip) then return true end
   if nelement(r) == 0 or nelement(x) == 0 or nelement(k) == 0 then return false end
   checkbounds(r); checkbounds(x); checkbounds(k)
   -- a result sharing an operand's memory is written while that is still
   -- read; a strided kernel is read many times
   local xt, kt
   if rawequal(r.st, x.st) or rawequal(r.st, k.st) then xt = internal.clone(x); x = TD[xt] end
   if rawequal(r.st, k.st) or not internal.iscontiguous(k) then kt = internal.clone(k); k = TD[kt] end
   local xn, kn, rn = x.nd, k.nd, r.nd
   G.base, G.d, G.h, G.w = base, base == 3 and x.sz[xn - 2] or 1, x.sz[xn - 1], x.sz[xn]
   G.kd, G.kh, G.kw = base == 3 and k.sz[kn - 2] or 1, k.sz[kn - 1], k.sz[kn]
   G.ks0, G.ks1, G.ks2 = G.kh * G.kw, G.kw, 1
   G.od, G.oh, G.ow = base == 3 and r.sz[rn - 2] or 1, r.sz[rn - 1], r.sz[rn]
   local isfinite = isfull and finite(k)
   local how = method(isfull, isfinite, base)
   -- the input planes (volumes) copied once, size apart
   local nx = xn > base and x.sz[1] or 1
   local size, ds1, margin, ds0 = how.layout()
   local xb = buffer(T, 'in', size * nx)
   if how.zeroed then ffi.fill(xb, size * nx * T.size) end
   local xp, xs0 = x.st.ptr + x.off, base == 3 and x.str[xn - 2] or 0
   for i = 0, nx - 1 do
      place(T.size, xb + i * size + (margin or 0), xp + (xn > base and i * x.str[1] or 0),
            xs0, x.str[xn - 1], x.str[xn], ds0 or 0, ds1)
   end
   -- each output: the sum over its inputs (one, or all in 'mv') of input * kernel
   local rp, kp = r.st.ptr + r.off, k.st.ptr + k.off
   local rs0, rs1, rs2 = base == 3 and r.str[rn - 2] or 0, r.str[rn - 1], r.str[rn]
   local nout = rn > base and r.sz[1] or 1
   local ostep, kostep = rn > base and r.str[1] or 0, rn > base and k.str[1] or 0
   local mv = kn > xn
   local kstep = mv and k.str[2] or 0
   local gacc, ntaps, m, as1
   if how.taps and mv and nout >= GEMMFROM then             -- every output at once, by gemms
      ntaps, m, as1 = how.taps(flip)
      gacc = convgemm.sums(T, buffer, m, xb, size, nx, kp, kstep, ntaps, nout, kostep, OFFS, KOFFS, G.oh, G.ow, as1)
   end
   if gacc then
      for o = 0, nout - 1 do unplace(T.size, rp + o * ostep, rs0, rs1, rs2, gacc + o * m, 0, as1) end
   elseif how.taps and mv and GERTYPES[T] and getger(T) then   -- every output at once
      ntaps, m, as1 = how.taps(flip)
      local acc = buffer(T, 'acc', nout * m)
      fusedmany(T, acc, m, xb, size, nx, kp, kstep, ntaps, nout, kostep)
      for o = 0, nout - 1 do unplace(T.size, rp + o * ostep, rs0, rs1, rs2, acc + o * m, 0, as1) end
   elseif how.taps then                              -- one output at a time
      ntaps, m, as1 = how.taps(flip)
      local acc = buffer(T, 'acc', m)
      for o = 0, nout - 1 do
         fused(T, acc, m, xb + (mv and 0 or o) * size, size, mv and nx or 1, kp + o * kostep, kstep, ntaps)
         unplace(T.size, rp + o * ostep, rs0, rs1, rs2, acc, 0, as1)
      end
   else
      local u = getufuncs(T, nelement(x) * G.kd * G.kh * G.kw * (mv and nout or 1) >= IMPORTWORK)
      for o = 0, nout - 1 do
         local acc, as1, as0 = how.run(T, xb + (mv and 0 or o) * size, size, mv and nx or 1, kp + o * kostep, kstep,
                                       flip, u, isfinite)
         unplace(T.size, rp + o * ostep, rs0, rs1, rs2, acc, as0, as1)
      end
   end
   release()
   return true, xt, kt      -- (the copies kept alive until now)
end

return planes
