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
-- Integer tensors keep to th/ops/conv.py.
local ffi = require 'ffi'
local internal = require 'torch.internal'
local types = require 'torch.types'
local cblas = require 'torch.maths.cblas'
local C = require 'torch.maths.libm'

local TD, SD, nelement, checkbounds = internal.tensors, internal.storages, internal.nelement, internal.checkbounds
local tonumber, min, max = tonumber, math.min, math.max
local huge = math.huge

local planes = {}

local ALIGN = 32      -- an axpy's length is a multiple of this: BLAS fuses whole blocks
local CHUNK = 2048    -- output elements one axpy updates: a multiple of ALIGN, in L1

local function roundup(n) return math.ceil(n / ALIGN) * ALIGN end

local CTYPES = {
   [types.Double] = {arr = ffi.typeof('double[?]'), fma = C.fma},
   [types.Float] = {arr = ffi.typeof('float[?]'), fma = C.fmaf},
}

-- scratch arrays kept between calls, per type and use, grown as needed
local scratch = {[types.Double] = {}, [types.Float] = {}}
local function buffer(T, use, n)
   local s = scratch[T][use]
   if not s or s.n < n then
      s = {p = CTYPES[T].arr(n), n = n}
      scratch[T][use] = s
   end
   return s.p
end

-- BLAS's axpy for T when it fuses every multiply-add of a block of ALIGN
-- elements (checked once on values whose product rounds), else false
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

-- a plane (or volume) of a tensor: pointer to its first element, sizes and
-- strides of its last 2 (or 3) dimensions
local function view(d, off, base)
   local nd = d.nd
   local v = {p = SD[d.st].ptr + off, h = d.sz[nd - 1], w = d.sz[nd], s1 = d.str[nd - 1], s2 = d.str[nd]}
   if base == 3 then v.d, v.s0 = d.sz[nd - 2], d.str[nd - 2] else v.d, v.s0 = 1, 0 end
   return v
end

-- the kernel's elements as numbers, flat in row-major order, flipped in
-- every dimension when flip
local function weights(k, flip)
   local ws, n = {}, 0
   for c = 0, k.d - 1 do
      for a = 0, k.h - 1 do
         for b = 0, k.w - 1 do
            n = n + 1
            local kc, ka, kb = c, a, b
            if flip then kc, ka, kb = k.d - 1 - c, k.h - 1 - a, k.w - 1 - b end
            ws[n] = tonumber(k.p[kc * k.s0 + ka * k.s1 + kb * k.s2])
         end
      end
   end
   return ws
end

local function finite(ws)
   for i = 1, #ws do
      local w = ws[i]
      if w ~= w or w == huge or w == -huge then return false end
   end
   return true
end

-- dst[c * ds0 + i * ds1 + j] = v's element (c, i, j): a copy in a layout of
-- our own, done before the result is written (it may share the input's memory)
local function place(T, dst, v, ds0, ds1)
   local sp, s0, s1, s2, w = v.p, v.s0, v.s1, v.s2, v.w
   for c = 0, v.d - 1 do
      for i = 0, v.h - 1 do
         local d, s = dst + c * ds0 + i * ds1, sp + c * s0 + i * s1
         if s2 == 1 then
            ffi.copy(d, s, w * T.size)
         else
            for j = 0, w - 1 do d[j] = s[j * s2] end
         end
      end
   end
end

-- acc[0, m) += w * src[offs[t] + e] for each kernel element t in order, for each
-- input plane in order, as fused multiply-adds; m is a multiple of ALIGN
local function fused(T, acc, m, srcs, ws, offs)
   local axpy, fma = getaxpy(T), CTYPES[T].fma
   for c0 = 0, m - 1, CHUNK do
      local n, a = min(CHUNK, m - c0), acc + c0
      for j = 1, #srcs do
         local src, wj = srcs[j] + c0, ws[j]
         for t = 1, #offs do
            local w, s = wj[t], src + offs[t]
            if w == 0 then           -- BLAS skips it; fma(0, x, y) is y + 0 * x
               for e = 0, n - 1 do a[e] = a[e] + w * s[e] end
            elseif axpy then
               axpy(n, w, s, 1, a, 1)
            else
               for e = 0, n - 1 do a[e] = fma(w, s[e], a[e]) end
            end
         end
      end
   end
end

-- out (view) = acc's element (c, i, j) at c * as0 + i * as1 + j
local function unplace(out, acc, as0, as1)
   local op, s0, s1, s2 = out.p, out.s0, out.s1, out.s2
   for c = 0, out.d - 1 do
      for i = 0, out.h - 1 do
         local o, a = op + c * s0 + i * s1, acc + c * as0 + i * as1
         for j = 0, out.w - 1 do o[j * s2] = a[j] end
      end
   end
end

-- The output plane `out` from its input planes xs and their kernels' weights
-- ws (applied as met: a convolution's flipped), 2-D
local function valid2(T, out, xs, ws, kh, kw)
   local h, w, oh, ow = xs[1].h, xs[1].w, out.h, out.w
   if ow >= 4 then
      -- flat: output (i, j) at i * w + j, reading input i * w + j + a * w + b
      local m = roundup(oh * w - (kw - 1))
      local size = h * w + ALIGN
      local xb, acc = buffer(T, 'in', size * #xs), buffer(T, 'acc', m)
      local srcs = {}
      for j = 1, #xs do
         srcs[j] = xb + (j - 1) * size
         place(T, srcs[j], xs[j], 0, w)
      end
      local offs = {}
      for a = 0, kh - 1 do for b = 0, kw - 1 do offs[#offs + 1] = a * w + b end end
      ffi.fill(acc, m * T.size)
      fused(T, acc, m, srcs, ws, offs)
      unplace(out, acc, 0, w)
      return
   end
   local size = h * w
   local xb, acc, cell = buffer(T, 'in', size * #xs), buffer(T, 'acc', oh * ow), buffer(T, 'cell', 2)
   for j = 1, #xs do place(T, xb + (j - 1) * size, xs[j], 0, w) end
   for p = 0, oh - 1 do
      for q = 0, ow - 1 do
         local o = p * ow + q
         acc[o] = 0
         for j = 1, #xs do
            local src, wj, t = xb + (j - 1) * size + p * w + q, ws[j], 0
            cell[1] = 0
            for a = 0, kh - 1 do
               for b = 0, kw - 1 do
                  t = t + 1
                  cell[0] = wj[t] * src[a * w + b]
                  cell[1] = cell[1] + cell[0]
               end
            end
            acc[o] = acc[o] + cell[1]
         end
      end
   end
   unplace(out, acc, 0, ow)
end

-- full, by gathering: output (p, q) adds w * x for input (i, j) in order,
-- rows ascending, columns ascending (cdir 1) or descending (-1), with the
-- kernel element (p - i, q - j) of ws; fused or each step rounded
local function gather2(T, out, xb, size, n, ws, h, w, kh, kw, cdir, isfused)
   local oh, ow = out.h, out.w
   local acc, cell, fma = buffer(T, 'acc', oh * ow), buffer(T, 'cell', 2), CTYPES[T].fma
   for p = 0, oh - 1 do
      for q = 0, ow - 1 do
         cell[1] = 0
         local j0, j1 = max(0, q - kw + 1), min(w - 1, q)
         if cdir < 0 then j0, j1 = j1, j0 end
         for s = 1, n do
            local src, wj = xb + (s - 1) * size, ws[s]
            for i = max(0, p - kh + 1), min(h - 1, p) do
               for j = j0, j1, cdir do
                  local wt = wj[(p - i) * kw + (q - j) + 1]
                  if isfused then
                     cell[1] = fma(wt, src[i * w + j], cell[1])
                  else
                     cell[0] = wt * src[i * w + j]
                     cell[1] = cell[1] + cell[0]
                  end
               end
            end
         end
         acc[p * ow + q] = cell[1]
      end
   end
   unplace(out, acc, 0, ow)
end

-- ws here: a convolution's kernel as is (a cross-correlation's flipped):
-- output (p, q) adds kernel element (p - i, q - j) times input (i, j)
local function full2(T, out, xs, ws, kh, kw)
   local h, w = xs[1].h, xs[1].w
   local fh, fw = out.h, out.w
   local isfused = w >= 4
   local allfinite = true
   for j = 1, #ws do allfinite = allfinite and finite(ws[j]) end
   if isfused and allfinite then
      -- flat: input rows of fw (zeros after the w elements) after a margin of
      -- zeros; output (p, q) at p * fw + q reads margin + that - a * fw - b
      local margin = (kh - 1) * fw + kw - 1
      local m = roundup(fh * fw)
      local size = margin + m
      local xb, acc = buffer(T, 'in', size * #xs), buffer(T, 'acc', m)
      ffi.fill(xb, size * #xs * T.size)
      local srcs = {}
      for j = 1, #xs do
         srcs[j] = xb + (j - 1) * size
         place(T, srcs[j] + margin, xs[j], 0, fw)
      end
      -- kernel rows descending (input rows ascending), columns ascending
      local offs, order = {}, {}
      for a = kh - 1, 0, -1 do
         for b = 0, kw - 1 do
            offs[#offs + 1] = margin - a * fw - b
            order[#order + 1] = a * kw + b + 1
         end
      end
      local ordered = {}
      for j = 1, #ws do
         ordered[j] = {}
         for t = 1, #order do ordered[j][t] = ws[j][order[t]] end
      end
      ffi.fill(acc, m * T.size)
      fused(T, acc, m, srcs, ordered, offs)
      unplace(out, acc, 0, fw)
      return
   end
   local size = h * w
   local xb = buffer(T, 'in', size * #xs)
   for j = 1, #xs do place(T, xb + (j - 1) * size, xs[j], 0, w) end
   gather2(T, out, xb, size, #xs, ws, h, w, kh, kw, isfused and -1 or 1, isfused)
end

-- 3-D: output (e, p, q) of a valid operation adds, per input volume, the sum
-- of its products in input order; of a full one, every product in input
-- order; each step rounded
local function volume(T, out, xs, ws, kd, kh, kw, isfull)
   local d, h, w = xs[1].d, xs[1].h, xs[1].w
   local od, oh, ow = out.d, out.h, out.w
   local size = d * h * w
   local xb, acc, cell = buffer(T, 'in', size * #xs), buffer(T, 'acc', od * oh * ow), buffer(T, 'cell', 3)
   for j = 1, #xs do place(T, xb + (j - 1) * size, xs[j], h * w, w) end
   for e = 0, od - 1 do
      for p = 0, oh - 1 do
         for q = 0, ow - 1 do
            cell[1] = 0
            for s = 1, #xs do
               local src, wj = xb + (s - 1) * size, ws[s]
               if isfull then
                  for c = max(0, e - kd + 1), min(d - 1, e) do
                     for i = max(0, p - kh + 1), min(h - 1, p) do
                        for j = max(0, q - kw + 1), min(w - 1, q) do
                           cell[0] = wj[((e - c) * kh + (p - i)) * kw + (q - j) + 1] * src[(c * h + i) * w + j]
                           cell[1] = cell[1] + cell[0]
                        end
                     end
                  end
               else
                  local t = 0
                  cell[2] = 0
                  for c = 0, kd - 1 do
                     for a = 0, kh - 1 do
                        for b = 0, kw - 1 do
                           t = t + 1
                           cell[0] = wj[t] * src[((e + c) * h + p + a) * w + q + b]
                           cell[2] = cell[2] + cell[0]
                        end
                     end
                  end
                  cell[1] = cell[1] + cell[2]
               end
            end
            acc[(e * oh + p) * ow + q] = cell[1]
         end
      end
   end
   unplace(out, acc, oh * ow, ow)
end

-- one output plane (volume) from its inputs xs and kernels ks (views)
local function compute(T, out, xs, ks, isfull, flip, base)
   internal.pollnow()
   local k1 = ks[1]
   local ws = {}
   -- weights as met: flipped for a valid convolution and a full
   -- cross-correlation (a full operation scatters by the kernel as is)
   for j = 1, #ks do ws[j] = weights(ks[j], flip ~= isfull) end
   if base == 3 then
      volume(T, out, xs, ws, k1.d, k1.h, k1.w, isfull)
   elseif isfull then
      full2(T, out, xs, ws, k1.h, k1.w)
   else
      valid2(T, out, xs, ws, k1.h, k1.w)
   end
end

-- apply(r, x, k, full, flip, base) -> true when done: r (sized) = the
-- operation in its 'mul', 'cmul' or 'mv' form (conv.lua)
function planes.apply(r, x, k, isfull, flip, base)
   local T = r.T
   if not CTYPES[T] then return false end
   if nelement(r) == 0 or nelement(x) == 0 or nelement(k) == 0 then return false end
   checkbounds(r); checkbounds(x); checkbounds(k)
   -- a result sharing an operand's memory is written while that is still read
   local xt, kt
   if r.st == x.st or r.st == k.st then
      xt, kt = internal.clone(x), internal.clone(k)
      x, k = TD[xt], TD[kt]
   end
   local function at(d, off) return view(d, off, base) end
   if x.nd == base then
      compute(T, at(r, r.off), {at(x, x.off)}, {at(k, k.off)}, isfull, flip, base)
   elseif k.nd == x.nd then                          -- slice i by kernel i
      for i = 0, x.sz[1] - 1 do
         compute(T, at(r, r.off + i * r.str[1]), {at(x, x.off + i * x.str[1])}, {at(k, k.off + i * k.str[1])},
                 isfull, flip, base)
      end
   else                                              -- output o sums input i by kernel [o][i]
      local xs = {}
      for i = 0, x.sz[1] - 1 do xs[i + 1] = at(x, x.off + i * x.str[1]) end
      for o = 0, k.sz[1] - 1 do
         local ks = {}
         for i = 0, x.sz[1] - 1 do ks[i + 1] = at(k, k.off + o * k.str[1] + i * k.str[2]) end
         compute(T, at(r, r.off + o * r.str[1]), xs, ks, isfull, flip, base)
      end
   end
   return true, xt, kt      -- (the copies kept alive until now)
end

return planes
