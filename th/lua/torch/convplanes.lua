-- The arithmetic of conv2/xcorr2/conv3/xcorr3 for Float and Double tensors,
-- in LuaJIT: TH's THTensorConv.c algorithm, one kernel tap at a time over a
-- row (out row += weight * input row), the sums of each output element in
-- TH's order.  A valid operation gathers: output row i adds input rows i..i+kh-1;
-- a full one scatters: input row i adds into output rows i..i+kh-1.  A row
-- is one BLAS axpy through the FFI (cblas.lua): at every width it beat
-- LuaJIT loops, even ones with the taps unrolled.
-- Integer tensors, and results sharing memory with an operand, keep to
-- th/ops/conv.py.
local ffi = require 'ffi'
local internal = require 'torch.internal'
local types = require 'torch.types'
local cblas = require 'torch.maths.cblas'

local TD, SD, nelement, checkbounds = internal.tensors, internal.storages, internal.nelement, internal.checkbounds
local iscontiguous = internal.iscontiguous
local tonumber = tonumber

local planes = {}

-- y[yo + j sy] += w * x[xo + j sx] for j in [0, n)
local function addrow(axpy, n, w, xp, xo, sx, yp, yo, sy)
   if axpy and w ~= 0 then     -- BLAS skips a zero weight: 0 * inf is nan
      axpy(n, w, xp + xo, sx, yp + yo, sy)
   else
      for j = 0, n - 1 do yp[yo + j * sy] = yp[yo + j * sy] + w * xp[xo + j * sx] end
   end
end

-- a plane: its storage's pointer, its offset there, sizes and strides
local function plane(p, off, h, w, s1, s2) return {p = p, off = off, h = h, w = w, s1 = s1, s2 = s2} end

-- the kernel's weights, row by row (flipped for a convolution), as numbers
local function weights(k, flip)
   local ws, n = {}, 0
   for a = 0, k.h - 1 do
      for b = 0, k.w - 1 do
         n = n + 1
         local ka, kb = flip and k.h - 1 - a or a, flip and k.w - 1 - b or b
         ws[n] = tonumber(k.p[k.off + ka * k.s1 + kb * k.s2])
      end
   end
   return ws
end

-- out += the valid cross-correlation of x with the weights ws (kh x kw)
local function valid(axpy, out, x, ws, kh, kw)
   local xp, op, xs1, xs2, os2, n = x.p, out.p, x.s1, x.s2, out.s2, out.w
   for i = 0, out.h - 1 do
      local o = out.off + i * out.s1
      local t = 0
      for a = 0, kh - 1 do
         local row = x.off + (i + a) * xs1
         for b = 0, kw - 1 do
            t = t + 1
            addrow(axpy, n, ws[t], xp, row + b * xs2, xs2, op, o, os2)
         end
      end
   end
end

-- out += the full cross-correlation of x with the weights ws, scattered: the
-- weights of a full convolution are the kernel's own (ws flipped back)
local function full(axpy, out, x, ws, kh, kw)
   local xp, op, xs2, os2, n, last = x.p, out.p, x.s2, out.s2, x.w, kh * kw + 1
   for i = 0, x.h - 1 do
      local row = x.off + i * x.s1
      local t = 0
      for a = 0, kh - 1 do
         local o = out.off + (i + a) * out.s1
         for b = 0, kw - 1 do
            t = t + 1
            addrow(axpy, n, ws[last - t], xp, row, xs2, op, o + b * os2, os2)
         end
      end
   end
end

local function zero(d)
   ffi.fill(SD[d.st].ptr + d.off, nelement(d) * d.T.size)
end

-- the plane of d (base 2) or the volume's slice (base 3) at the leading index lead
local function at(d, nd, off)
   return plane(SD[d.st].ptr, off, d.sz[nd - 1], d.sz[nd], d.str[nd - 1], d.str[nd])
end

-- one 2-D operation: output plane at roff += input plane at xoff * kernel plane at koff
local function add2(f, axpy, r, x, k, flip, roff, xoff, koff)
   internal.pollnow()
   local kp = at(k, k.nd, koff)
   f(axpy, at(r, r.nd, roff), at(x, x.nd, xoff), weights(kp, flip), kp.h, kp.w)
end

-- a 3-D one: output slice d sums input slice d + c (valid) or scatters input
-- slice d into output slice d + c (full), by kernel slice c
local function add3(f, axpy, r, x, k, flip, roff, xoff, koff)
   local xd, kd = x.sz[x.nd - 2], k.sz[k.nd - 2]
   local rs, xs, ks = r.str[r.nd - 2], x.str[x.nd - 2], k.str[k.nd - 2]
   for d = 0, xd - 1 do
      for c = 0, kd - 1 do
         if f == full then
            add2(f, axpy, r, x, k, flip, roff + (d + c) * rs, xoff + d * xs, koff + (flip and c or kd - 1 - c) * ks)
         elseif d + c < xd and d < r.sz[r.nd - 2] then
            add2(f, axpy, r, x, k, flip, roff + d * rs, xoff + (d + c) * xs, koff + (flip and kd - 1 - c or c) * ks)
         end
      end
   end
end

-- apply(r, x, k, full, flip, base) -> true when done: r (sized) = the
-- operation in its 'mul', 'cmul' or 'mv' form (conv.lua)
function planes.apply(r, x, k, isfull, flip, base)
   local T = r.T
   if (T ~= types.Double and T ~= types.Float) or r.st == x.st or r.st == k.st then return false end
   if nelement(r) == 0 or nelement(x) == 0 or nelement(k) == 0 then return false end
   checkbounds(r); checkbounds(x); checkbounds(k)
   -- contiguous operands and result, as TH made them: BLAS's strided axpy
   -- rounds otherwise than its contiguous one, and results must not depend
   -- on the layout (the copies are kept alive while their data are in use)
   local xt, kt, rt
   if not iscontiguous(x) then xt = internal.clone(x); x = TD[xt] end
   if not iscontiguous(k) then kt = internal.clone(k); k = TD[kt] end
   local into = r
   if not iscontiguous(r) then
      rt = internal.newtensor(T, r.sz, r.nd, true)
      r = TD[rt]
   end
   local axpy = cblas.axpy(T)
   local f, add = isfull and full or valid, base == 2 and add2 or add3
   zero(r)
   if x.nd == base then
      add(f, axpy, r, x, k, flip, r.off, x.off, k.off)
   elseif k.nd == x.nd then                          -- slice i by kernel i
      for i = 0, x.sz[1] - 1 do
         add(f, axpy, r, x, k, flip, r.off + i * r.str[1], x.off + i * x.str[1], k.off + i * k.str[1])
      end
   else                                              -- output o sums input i by kernel [o][i]
      for o = 0, k.sz[1] - 1 do
         for i = 0, x.sz[1] - 1 do
            add(f, axpy, r, x, k, flip, r.off + o * r.str[1], x.off + i * x.str[1], k.off + o * k.str[1] + i * k.str[2])
         end
      end
   end
   if rt then internal.copy(into, r) end
   return true
end

return planes
