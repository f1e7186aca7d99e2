-- conv2/xcorr2's 'mv' form (output o sums input plane i * kernel [o][i]),
-- fused, as BLAS gemms: one product of the outputs' weights by the input's
-- windows instead of one axpy per output, plane and kernel element
-- (convplanes.lua).  An output element is one chain of fused multiply-adds
-- from zero, planes then kernel elements in order, and so is an element of
-- OpenBLAS's gemm, over the products one call sums in a register: its full
-- tiles only (an edge row or column is summed in another order) and up to
-- its block of k (found by experiment: 256 for Haswell's dgemm).  So the
-- outputs are padded to whole tiles (weights 0, dropped), and a longer chain
-- goes in chunks, each going on from the last's sums: chunk c's product
-- starts with mb identity columns over those sums (fma(1, s, 0) is s, and
-- fma(0, s, acc) is acc while s is finite: a sum kept that is not sends the
-- call back to the axpys).  Whether the library sums so is checked once per
-- type on values whose sums round differently in any other order.  Each
-- gemm stays under OpenBLAS's threading threshold, as the original's conv2
-- ran on one thread (OpenBLAS's threads would then poll a core for 100 ms:
-- README, eighteenth session).  (16 planes of 28 x 28 by 32 x 16 kernels of 5 x 5, Double: 1.2
-- -> 0.49-0.55 ms, the original 0.68, new results included.)
local ffi = require 'ffi'
local internal = require 'torch.internal'
local types = require 'torch.types'
local cblas = require 'torch.maths.cblas'
local C = require 'torch.maths.libm'

local min, max, ceil, floor, huge = math.min, math.max, math.ceil, math.floor, math.huge
local ROW, NOTRANS = 101, 111
local MUNIT, NUNIT = 8, 32       -- the rows and columns of whole tiles (multiples)
local SINGLE = 2 ^ 18            -- multiply-adds OpenBLAS does on the calling thread
local KTRY = {256, 128, 64}      -- chain lengths tried, longest first

local FMA = {[types.Double] = C.fma, [types.Float] = C.fmaf}

local convgemm = {}

-- n values of T with products and sums that round, from a generator of our
-- own (the user's random stream stays untouched)
local function probevalues(T, n, seed)
   local a, s = T.vla(n), seed
   for i = 0, n - 1 do
      s = (s * 1103515245 + 12345) % 2147483648
      local u = s / 2147483648
      a[i] = (u - 0.5) * 2 ^ floor(u * 40 - 20)
   end
   return a
end

-- does gemm sum each element of an m x k by k x n product as one chain of
-- fma from zero, in order?
local function inorder(gemm, T, m, n, k)
   local a, b, c = probevalues(T, m * k, 1), probevalues(T, k * n, 2), T.vla(m * n)
   gemm(ROW, NOTRANS, NOTRANS, m, n, k, 1, a, k, b, n, 0, c, n)
   local fma, cell = FMA[T], T.vla(1)
   for i = 0, m - 1 do
      for j = 0, n - 1 do
         cell[0] = 0
         for l = 0, k - 1 do cell[0] = fma(a[i * k + l], b[l * n + j], cell[0]) end
         if cell[0] ~= c[i * n + j] then return false end
      end
   end
   return true
end

-- per type: the longest chain a gemm sums in order, or false
local kmost = {}
local function getkmost(T)
   local k = kmost[T]
   if k == nil then
      k = false
      local gemm = FMA[T] and cblas.isexact() and cblas.gemm(T)
      if gemm then
         for _, kk in ipairs(KTRY) do
            if inorder(gemm, T, 2 * MUNIT, 2 * NUNIT, kk) and inorder(gemm, T, MUNIT, NUNIT, kk - 3) then
               k = kk
               break
            end
         end
      end
      kmost[T] = k
   end
   return k
end

-- A (rows mb, leading dimension pre + t1 - t0) = the weights of outputs
-- r0 .. r0 + mb - 1 for the chain's products t0 .. t1 - 1 (0 for padded
-- outputs), after pre identity columns
local function weights(A, P, r0, mb, pre, t0, t1)
   local lda, ntaps = pre + t1 - t0, P.ntaps
   for i = 0, mb - 1 do
      local o, row = r0 + i, i * lda
      for c = 0, pre - 1 do A[row + c] = c == i and 1 or 0 end
      for q = t0, t1 - 1 do
         local j, t = floor(q / ntaps), q % ntaps + 1
         A[row + pre + q - t0] = o < P.nout and P.kp[o * P.kostep + j * P.kstep + P.KOFFS[t]] or 0
      end
   end
end

-- B (rows of n) = the sums so far of outputs r0 .. r0 + pre - 1 (0 for padded
-- ones), then the input windows of the chain's products t0 .. t1 - 1, from
-- output column c0 -> false when a sum kept is not finite (one in a column
-- dropped, past an output row's end, becomes 0)
local function windows(B, P, r0, pre, t0, t1, c0, n)
   local acc, m, esize, ntaps = P.acc, P.m, P.esize, P.ntaps
   for i = 0, pre - 1 do
      local row = B + i * n
      if r0 + i < P.nout then
         ffi.copy(row, acc + ((r0 + i) * m + c0), n * esize)
         for e = 0, n - 1 do
            local v = row[e]
            if v ~= v or v == huge or v == -huge then
               local c = c0 + e
               if c < P.kept and c % P.rowstep < P.ow then return false end
               row[e] = 0
            end
         end
      else
         ffi.fill(row, n * esize)
      end
   end
   for q = t0, t1 - 1 do
      local j, t = floor(q / ntaps), q % ntaps + 1
      ffi.copy(B + (pre + q - t0) * n, P.src + (j * P.size + P.OFFS[t] + c0), n * esize)
   end
   return true
end

local P = {}      -- one call's parameters (a table kept, none made per call)

-- sums(T, buffer, m, src, size, n, kp, kstep, ntaps, nout, kostep, OFFS,
-- KOFFS, oh, ow, rowstep) -> acc, every output's fused sums in rows m apart
-- (m a multiple of NUNIT; an output row (i, j) at column i rowstep + j), as
-- convplanes' fusedmany computes them; nil when gemm cannot.  buffer(T, use,
-- n) gives convplanes' scratch arrays
function convgemm.sums(T, buffer, m, src, size, n, kp, kstep, ntaps, nout, kostep, OFFS, KOFFS, oh, ow, rowstep)
   local kk = getkmost(T)
   if not kk then return nil end
   local gemm = cblas.gemm(T)
   local K, mpad = n * ntaps, ceil(nout / MUNIT) * MUNIT
   -- rows per gemm (a later chunk carries as many sums), columns per gemm
   local mb = min(mpad, kk / 2, max(MUNIT, floor(SINGLE / (kk * NUNIT) / MUNIT) * MUNIT))
   local nb = max(NUNIT, floor(SINGLE / (mb * min(K, kk)) / NUNIT) * NUNIT)
   local later = kk - mb        -- products in a chunk after the first
   local nchunks = 1 + ceil(max(0, K - kk) / later)
   P.acc, P.m, P.esize, P.src, P.size, P.ntaps = buffer(T, 'acc', mpad * m), m, T.size, src, size, ntaps
   P.nout, P.kp, P.kostep, P.kstep, P.KOFFS, P.OFFS = nout, kp, kostep, kstep, KOFFS, OFFS
   P.kept, P.ow, P.rowstep = oh * rowstep, ow, rowstep
   local A, B = buffer(T, 'gemmA', nchunks * mb * kk), buffer(T, 'gemmB', kk * nb)
   for r0 = 0, mpad - 1, mb do
      local rows = min(mb, mpad - r0)
      local a, t0 = 0, 0
      for _ = 1, nchunks do      -- the weights of every chunk, one after another in A
         local pre = t0 == 0 and 0 or rows
         local t1 = min(K, t0 + (t0 == 0 and kk or later))
         weights(A + a, P, r0, rows, pre, t0, t1)
         a, t0 = a + rows * (pre + t1 - t0), t1
      end
      for c0 = 0, m - 1, nb do
         internal.pollnow()
         local cols = min(nb, m - c0)
         a, t0 = 0, 0
         for _ = 1, nchunks do
            local pre = t0 == 0 and 0 or rows
            local t1 = min(K, t0 + (t0 == 0 and kk or later))
            if not windows(B, P, r0, pre, t0, t1, c0, cols) then return nil end
            local k = pre + t1 - t0
            gemm(ROW, NOTRANS, NOTRANS, rows, cols, k, 1, A + a, k, B, cols, 0, P.acc + (r0 * m + c0), m)
            a, t0 = a + rows * k, t1
         end
      end
   end
   return P.acc
end

return convgemm
