-- BLAS through LuaJIT's FFI, called on tensor memory as TH called its BLAS
-- (gemm, gemv, ger, dot, axpy with the operands' own strides and
-- transposition flags: no copies, no Python call).  The library is the
-- system's OpenBLAS when there is one (Debian's libopenblas0: the library
-- Torch7 was built on, whose kernels give Torch7's bits; `exact` is then
-- true), else the CBLAS of the OpenBLAS numpy's wheel bundles.  The system's
-- keeps the thread count OpenBLAS gives itself (its cores, or
-- OPENBLAS_NUM_THREADS), as under Torch7, whose torch.setnumthreads left it
-- alone: a product's last bits depend on the count; numpy's runs on one
-- (with more, its busy-waiting workers made a 300x300 product 10x slower on
-- a busy machine).  When
-- neither library is there, every function here answers false and the numpy
-- path runs.
local ffi = require 'ffi'
local torch = require 'torch'
local internal = require 'torch.internal'
local types = require 'torch.types'
local parallel = require 'torch.parallel'

local fail, pollnow = internal.fail, internal.pollnow
local max, min, floor = math.max, math.min, math.floor
-- the most elements of a ger call (OpenBLAS runs up to 9216 on one thread)
local GERBAND, GERSPLIT = 8192, 2^17

-- ints: the library's integer bits; nthreads: its own thread count
local cblas = {exact = false, ints = 32, nthreads = 1}

-- the two libraries' declarations, the same but for the names and the
-- integer type (the system's: 32-bit; numpy's: 64-bit)
local DECLARATIONS = [[
void PREFIXdgemmSUFFIX(int, int, int, INT, INT, INT, double, const double *, INT,
                       const double *, INT, double, double *, INT);
void PREFIXsgemmSUFFIX(int, int, int, INT, INT, INT, float, const float *, INT,
                       const float *, INT, float, float *, INT);
void PREFIXdgemvSUFFIX(int, int, INT, INT, double, const double *, INT, const double *, INT, double, double *, INT);
void PREFIXsgemvSUFFIX(int, int, INT, INT, float, const float *, INT, const float *, INT, float, float *, INT);
void PREFIXdgerSUFFIX(int, INT, INT, double, const double *, INT, const double *, INT, double *, INT);
void PREFIXsgerSUFFIX(int, INT, INT, float, const float *, INT, const float *, INT, float *, INT);
double PREFIXddotSUFFIX(INT, const double *, INT, const double *, INT);
float PREFIXsdotSUFFIX(INT, const float *, INT, const float *, INT);
void PREFIXdaxpySUFFIX(INT, double, const double *, INT, double *, INT);
void PREFIXsaxpySUFFIX(INT, float, const float *, INT, float *, INT);
]]
local LIBRARIES = {
   {find = 'system_blas_library', prefix = 'cblas_', suffix = '', int = 'int', exact = true,
    count = 'openblas_get_num_threads', procs = 'openblas_get_num_procs', setcount = 'openblas_set_num_threads'},
   {find = 'blas_library', prefix = 'scipy_cblas_', suffix = '64_', int = 'int64_t',
    threads = 'scipy_openblas_set_num_threads64_'},
}
for _, l in ipairs(LIBRARIES) do
   ffi.cdef((DECLARATIONS:gsub('PREFIX', l.prefix):gsub('SUFFIX', l.suffix):gsub('INT', l.int)))
   if l.threads then ffi.cdef(('void %s(int);'):format(l.threads)) end
   if l.count then ffi.cdef(('int %s(void);'):format(l.count)) end
   if l.procs then ffi.cdef(('int %s(void); void %s(int);'):format(l.procs, l.setcount)) end
end

local ROW, NOTRANS, TRANS = 101, 111, 112

local OPS = {gemm = 'gemm', gemv = 'gemv', ger = 'ger', dot = 'dot', axpy = 'axpy'}
local fns = {[types.Double] = {}, [types.Float] = {}}
local lib          -- the loaded library, false when there is none

-- library[name]() (an error when the library has no such function; a
-- closure made in load() instead left its callers uncompiled: mm of 10 x 10
-- 0.5 -> 2-4 us)
local function callnamed(library, name)
   return library[name]()
end

-- The system's library, loaded on one thread by the th command (as numpy's
-- was: th/ops/blaslib.py), gets the count it takes by itself, its cores, at
-- the first call that OpenBLAS could share among its threads (widen below);
-- before, each call runs on the calling thread whatever the count, and a
-- worker made at once would have busy-waited a tenth of a second on a core
-- the program needs: a program of 20 x 30 products 1.1x faster.  OpenBLAS
-- 0.3 shares from 262144 multiply-adds of gemm, 9216 elements of gemv,
-- 8192 of ger, 10^4 of dot and axpy: th widens from a quarter of those
-- (but for an axpy of 8192 elements at most: fused.lua's chunks, which it
-- keeps under OpenBLAS's split).
local SHARED = {gemm = 65536, gemv = 2048, dot = 2048, axpy = 8192}
local setcount, owncount   -- the library's function and count to set, until it has it
local function widen()
   if owncount then
      setcount(owncount)
      owncount = nil
   end
end

local function load()
   if lib == nil then
      lib = false
      for _, l in ipairs(LIBRARIES) do
         local path, alone = internal.py[l.find]()
         local ok, found = pcall(ffi.load, path or '')
         if path and ok then
            if l.threads then found[l.threads](1) end
            if alone then setcount, owncount = found[l.setcount], max(1, found[l.procs]()) end
            if l.count then   -- (th's in-place axpy splits as OpenBLAS would: maths/fused.lua)
               local got, count = pcall(callnamed, found, l.count)
               cblas.nthreads = owncount or got and max(1, count) or 1
            end
            -- the functions resolved once: indexing the library by a
            -- computed name would stop the JIT compiling the callers
            for op in pairs(OPS) do
               fns[types.Double][op] = found[l.prefix .. 'd' .. op .. l.suffix]
               fns[types.Float][op] = found[l.prefix .. 's' .. op .. l.suffix]
            end
            lib, cblas.exact, cblas.ints = found, l.exact or false, l.int == 'int' and 32 or 64
            break
         end
      end
   end
   return lib
end

-- the library at its own count from now on: for its LAPACK routines, whose
-- BLAS calls are not seen here
function cblas.widen()
   if load() then widen() end
end

-- is the library the one Torch7 used (see above)?
function cblas.isexact()
   return load() and cblas.exact
end

-- internal.checkbounds for the vectors, matrices and batches here, without
-- its loop (a loop in a function called from a trace ends the trace)
local function checkbounds(d)
   local sz, str, nd = d.sz, d.str, d.nd
   local extent = d.off + (sz[1] - 1) * str[1]
   if nd > 1 then extent = extent + (sz[2] - 1) * str[2] end
   if nd > 2 then extent = extent + (sz[3] - 1) * str[3] end
   if extent >= d.st.n then
      fail('tensor view extends beyond its storage (storage was resized)')
   end
end

-- (kept in the tensor: no pointer made per call)
local ptr = require('torch.maths.kernels').origin
local f32 = require('torch.maths.kernels').f32

-- an increment for a vector of n elements of stride s (nil: BLAS cannot use it)
local function inc(n, s)
   if n == 1 then return 1 end
   if s >= 1 then return s end
   return nil
end

-- whether the library takes this product: float or double tensors of one
-- type, no empty dimension, a result not sharing memory with an operand
function cblas.usable(r, a, b)
   local T = r.T
   return fns[T] ~= nil and a.T == T and b.T == T and not rawequal(r.st, a.st) and not rawequal(r.st, b.st)
          and load() and true
end
local usable = cblas.usable

-- How TH handed a product's matrix (rows x cols, strides s1, s2) to BLAS,
-- found by running the original: read in place row-major (flag NOTRANS,
-- leading dimension s1) when its second stride is 1 and its first not 0,
-- column-major (TRANS, s2) when its first is 1 and its second not 0, in
-- that order for gemm's operands and the other way round for a product's
-- result and gemv's matrix; else TH copied it (nil here).  A dimension of
-- size 1 takes any stride (its leading dimension is then the other size).
-- Which way BLAS reads a matrix changes the order of its sums, and so the
-- last bits, even for a column or a row.
local function rowmajor(rows, cols, s1, s2)
   if s2 == 1 and s1 ~= 0 then
      if rows == 1 then return NOTRANS, max(1, cols) end
      if s1 >= cols then return NOTRANS, s1 end
   end
   return nil
end
-- (the transposed matrix read row-major)
local function colmajor(rows, cols, s1, s2)
   local t, ld = rowmajor(cols, rows, s2, s1)
   if t then return TRANS, ld end
   return nil
end
local function operandlayout(rows, cols, s1, s2)
   local t, ld = rowmajor(rows, cols, s1, s2)
   if t then return t, ld end
   return colmajor(rows, cols, s1, s2)
end
-- (rowfirst: the result row-major when both fit, a row or column of unit
-- stride, as THNN's convolutions handed theirs to gemm directly: C the
-- transposed result, column-major)
local function resultlayout(rows, cols, s1, s2, rowfirst)
   if rowfirst then
      local t, ld = rowmajor(rows, cols, s1, s2)
      if t then return t, ld end
   end
   local t, ld = colmajor(rows, cols, s1, s2)
   if t then return t, ld end
   return rowmajor(rows, cols, s1, s2)
end

local ELEMENT = {[types.Double] = 'double[?]', [types.Float] = 'float[?]'}

-- a column-major copy (leading dimension rows) of the rows x cols matrix at
-- p with strides s1, s2: what TH copied a matrix BLAS could not read into
local function colcopy(T, rows, cols, p, s1, s2)
   local c = ffi.new(ELEMENT[T], rows * cols)
   for j = 0, cols - 1 do
      for i = 0, rows - 1 do c[j * rows + i] = p[i * s1 + j * s2] end
   end
   return c
end

-- the copy c back into the matrix at p
local function uncopy(c, rows, cols, p, s1, s2)
   for j = 0, cols - 1 do
      for i = 0, rows - 1 do p[i * s1 + j * s2] = c[j * rows + i] end
   end
end

-- the gemm call for r = beta r + alpha a b, matrices m x k by k x n with
-- these strides: whether a and b swap places (a column-major result: r^T =
-- b^T a^T), then gemm's arguments but the pointers and scalars; nil when
-- the result is one TH copied, and at (bt) nil when TH copied a (b)
local function gemmplan(m, k, n, rs1, rs2, as1, as2, bs1, bs2, rowfirst)
   local rt, ldr = resultlayout(m, n, rs1, rs2, rowfirst)
   if not rt then return nil end
   local swap = rt == TRANS
   if swap then m, n, as1, as2, bs1, bs2 = n, m, bs2, bs1, as2, as1 end
   local at, lda = operandlayout(m, k, as1, as2)
   local bt, ldb = operandlayout(k, n, bs1, bs2)
   return swap, at, bt, m, n, k, lda, ldb, ldr
end

-- r = beta r + alpha a b for matrices of element type T (m x k by k x n)
-- at pointers rp, ap, bp; r must already hold what beta scales.  A matrix
-- TH copied is copied as TH did (a result column-major, then copied back;
-- an operand row-major).  -> true when done
local function gemmat(T, beta, alpha, m, k, n, rp, ap, bp, rs1, rs2, as1, as2, bs1, bs2, rowfirst)
   local swap, at, bt, gm, gn, gk, lda, ldb, ldr = gemmplan(m, k, n, rs1, rs2, as1, as2, bs1, bs2, rowfirst)
   if swap == nil then
      local c = colcopy(T, m, n, rp, rs1, rs2)
      gemmat(T, beta, alpha, m, k, n, c, ap, bp, 1, m, as1, as2, bs1, bs2)
      uncopy(c, m, n, rp, rs1, rs2)
      return true
   end
   if swap then ap, bp, as1, as2, bs1, bs2 = bp, ap, bs2, bs1, as2, as1 end
   -- (TH's copy of an operand is row-major as the operand stands, so
   -- column-major as gemm sees it when a and b swapped)
   local ac, bc
   if not at then
      if swap then ac, at, lda = colcopy(T, gm, gk, ap, as1, as2), TRANS, gm
      else ac, at, lda = colcopy(T, gk, gm, ap, as2, as1), NOTRANS, gk end
      ap = ac
   end
   if not bt then
      if swap then bc, bt, ldb = colcopy(T, gk, gn, bp, bs1, bs2), TRANS, gk
      else bc, bt, ldb = colcopy(T, gn, gk, bp, bs2, bs1), NOTRANS, gn end
      bp = bc
   end
   fns[T].gemm(ROW, at, bt, gm, gn, gk, alpha, ap, lda, bp, ldb, beta, rp, ldr)
   return true
end

-- For a loop compiled in another Lua state (a helper thread's: thnn/conv.lua
-- shares a batch's images with them, as THNN's OpenMP threads shared them,
-- each calling the library): the C type of the library's gemm for element
-- type T, its address, and the text of the arguments of the call
-- product('addmm', ...) makes for m x k by k x n matrices of these strides,
-- over the texts r, a, b (pointers), alpha and beta; nil when BLAS does not
-- take them
function cblas.gemmcall(T, m, k, n, rs1, rs2, as1, as2, bs1, bs2, r, a, b, alpha, beta, rowfirst)
   if not cblas.gemmaddress(T, m, k, n, rs1, rs2, as1, as2, bs1, bs2, rowfirst) then return nil end
   local swap, at, bt, gm, gn, gk, lda, ldb, ldr = gemmplan(m, k, n, rs1, rs2, as1, as2, bs1, bs2, rowfirst)
   if swap then a, b = b, a end
   local element, int = T == types.Float and 'float' or 'double', cblas.ints == 32 and 'int' or 'int64_t'
   local ctype = ('void (*)(int, int, int, INT, INT, INT, E, const E *, INT, const E *, INT, E, E *, INT)')
                 :gsub('INT', int):gsub('E', element)
   local call = ('(%d, %d, %d, %d, %d, %d, %s, %s, %d, %s, %d, %s, %s, %d)')
                :format(ROW, at, bt, gm, gn, gk, alpha, a, lda, b, ldb, beta, r, ldr)
   return ctype, tonumber(ffi.cast('intptr_t', fns[T].gemm)), call
end

-- the address of gemm for that product (nil as gemmcall), the threads widened
-- for it: what a loop made by gemmcall's text is run with on each call
function cblas.gemmaddress(T, m, k, n, rs1, rs2, as1, as2, bs1, bs2, rowfirst)
   if not fns[T] or not load() then return nil end
   local swap, at, bt = gemmplan(m, k, n, rs1, rs2, as1, as2, bs1, bs2, rowfirst)
   if swap == nil or not at or not bt then return nil end
   widen()
   return tonumber(ffi.cast('intptr_t', fns[T].gemm))
end

-- the m rows of n elements (ldr apart) of a row-major matrix at rp zeroed
-- (the rows' loop apart from product, as gerbands')
local function zerorowsapart(rp, m, n, ldr, size)
   for i = 0, m - 1 do ffi.fill(rp + i * ldr, n * size) end
end
local function zerorows(rp, m, n, ldr, size)
   if ldr == n or m == 1 then
      ffi.fill(rp, m * n * size)
   else
      zerorowsapart(rp, m, n, ldr, size)
   end
end

-- ger in bands of rows that OpenBLAS updates on the calling thread (from
-- 9216 elements it wakes its threads: 10^4 elements took 6 us, in two bands
-- 1.5); each element is its own product, whoever computes it, so that from
-- GERSPLIT bytes the bands are shared with th's helper threads (as the
-- original's threaded OpenBLAS shared them: nn.Linear's gradWeight of 256 x
-- 784 at batch 1 26 -> 15 us, the original 9.4).  size: each band zeroed
-- first (elements of that size), while it stays in the cache for ger (a
-- whole new 1000 x 1000 result zeroed first went twice through memory).
-- (Apart from product: a loop there ended the traces calling it.)
local function gerbands(T, ger, m, n, alpha, ap, ix, bp, iy, rp, ldr, size)
   local rows = max(1, floor(GERBAND / n))
   local job = m > rows and parallel.job(m * n * T.size, GERSPLIT)
   if job then
      job.fn, job.alpha = ger, alpha
      job.p[0], job.p[1], job.p[2] = ap, bp, rp
      local g = job.args
      g[0], g[1], g[2], g[3], g[4], g[5] = n, ix, iy, ldr, size or 0, rows
      parallel.segment(job, 0, m)
      parallel.run(job, (T == types.Float and 's' or 'd') .. 'ger' .. cblas.ints, parallel.chunk(m, rows, 4))
      return
   end
   for i = 0, m - 1, rows do
      local k = min(rows, m - i)
      if size then zerorows(rp + i * ldr, k, n, ldr, size) end
      ger(ROW, k, n, alpha, ap + i * ix, ix, bp, iy, rp + i * ldr, ldr)
   end
end

-- TH's gemv when BLAS would not take the call (an increment below 1, a
-- leading dimension below the rows): its own loops in the element type, on
-- the column-major m x n matrix at a (trans: y = beta y + alpha a^T x, a
-- dot product per element; else y scaled by beta, then alpha x_j a_j added
-- a column at a time)
local function same(v) return v end
local function loopgemv(T, trans, m, n, alpha, a, lda, x, incx, beta, y, incy)
   local round = T == types.Float and f32 or same
   if trans then
      for i = 0, n - 1 do
         local sum = 0
         for j = 0, m - 1 do sum = round(sum + round(x[j * incx] * a[j + i * lda])) end
         local v = round(alpha * sum)
         if beta ~= 0 then v = round(round(beta * y[i * incy]) + v) end
         y[i * incy] = v
      end
   else
      -- (TH scaled y through BLAS's scal, which leaves a vector of
      -- increment 0 alone)
      if beta ~= 1 and (incy > 0 or m == 1) then
         for i = 0, m - 1 do y[i * incy] = beta == 0 and 0 or round(beta * y[i * incy]) end
      end
      for j = 0, n - 1 do
         local z = round(alpha * x[j * incx])
         for i = 0, m - 1 do y[i * incy] = round(y[i * incy] + round(z * a[i + j * lda])) end
      end
   end
end

-- y = beta y + alpha A x for the m x k matrix at ap (strides s1, s2), as TH
-- made it: BLAS's gemv on the matrix read column-major, else row-major (a
-- unit stride, whatever the other), else on a row-major copy; TH's own
-- loops when BLAS would not take the increments or leading dimension
local function thgemv(T, m, k, alpha, ap, s1, s2, xp, ix, beta, yp, iy)
   local trans, rows, cols, lda, copy   -- (column-major terms: rows x cols, as gemv reads it)
   if s1 == 1 then
      trans, rows, cols, lda = false, m, k, s2
   elseif s2 == 1 then
      trans, rows, cols, lda = true, k, m, s1
   else
      copy = colcopy(T, k, m, ap, s2, s1)
      trans, rows, cols, lda, ap = true, k, m, k, copy
   end
   if cols == 1 then lda = rows end
   if lda >= max(1, rows) and ix > 0 and iy > 0 then
      fns[T].gemv(ROW, trans and NOTRANS or TRANS, cols, rows, alpha, ap, lda, xp, ix, beta, yp, iy)
   else
      loopgemv(T, trans, rows, cols, alpha, ap, lda, xp, ix, beta, yp, iy)
   end
end

-- product(name, r, beta, alpha, a, b [, rowfirst]) -> true when done: r =
-- beta r + alpha (a b) for mv, mm, bmm, ger and their accumulating forms,
-- addbmm summing the batch (r already holds M; beta 0 ignores what r holds,
-- as BLAS does); rowfirst: mm's result of one row or column handed as
-- THNN's direct gemm calls handed theirs (resultlayout)
function cblas.product(name, r, beta, alpha, a, b, rowfirst)
   if not usable(r, a, b) then return false end
   pollnow()
   checkbounds(r); checkbounds(a); checkbounds(b)
   local T = r.T
   if a.nd == 1 then                                   -- ger, addr
      local m, n = a.sz[1], b.sz[1]
      local ix, iy = inc(m, a.str[1]), inc(n, b.str[1])
      if not ix or not iy or m == 0 or n == 0 then return false end
      local rp, s1, s2 = ptr(r), r.str[1], r.str[2]
      if beta ~= 0 and beta ~= 1 then                 -- as TH: r scaled (or zeroed), then r += alpha a b^T
         for i = 0, m - 1 do
            for j = 0, n - 1 do rp[i * s1 + j * s2] = rp[i * s1 + j * s2] * beta end
         end
      end
      -- (r as TH handed it to ger: column-major first, a single column of
      -- unit stride whatever its other stride, else row-major, else a
      -- row-major copy, copied back after)
      local rt, ldr
      if n == 1 and s1 == 1 then rt, ldr = TRANS, m else rt, ldr = resultlayout(m, n, s1, s2) end
      local copy
      if not rt then
         copy = colcopy(T, n, m, rp, s2, s1)
         rt, ldr = NOTRANS, n
      end
      local at = copy or rp
      local ap, bp = ptr(a), ptr(b)
      if owncount and m * n > SHARED.gemv then widen() end
      if rt == TRANS then m, n, ap, bp, ix, iy = n, m, bp, ap, iy, ix end
      if m * n <= GERBAND then
         if beta == 0 then zerorows(at, m, n, ldr, T.size) end
         fns[T].ger(ROW, m, n, alpha, ap, ix, bp, iy, at, ldr)
      else
         gerbands(T, fns[T].ger, m, n, alpha, ap, ix, bp, iy, at, ldr, beta == 0 and T.size)
      end
      if copy then uncopy(copy, b.sz[1], a.sz[1], rp, s2, s1) end
      return true
   elseif b.nd == 1 then                               -- mv, addmv
      local m, k = a.sz[1], a.sz[2]
      if m == 0 or k == 0 then return false end
      if owncount and m * k > SHARED.gemv then widen() end
      thgemv(T, m, k, alpha, ptr(a), a.str[1], a.str[2], ptr(b), b.str[1], beta, ptr(r), r.str[1])
      return true
   elseif a.nd == 2 then                               -- mm, addmm
      local m, k, n = a.sz[1], a.sz[2], b.sz[2]
      if m == 0 or k == 0 or n == 0 then return false end
      if owncount and m * k * n > SHARED.gemm then widen() end
      return gemmat(T, beta, alpha, m, k, n, ptr(r), ptr(a), ptr(b), r.str[1], r.str[2], a.str[1], a.str[2],
                    b.str[1], b.str[2], rowfirst)
   end
   -- bmm, baddbmm, addbmm: one gemm per matrix of the batch, at pointers
   -- moved along it (no view made: a bmm of 32 small matrices made 12 KB
   -- of garbage, whose collection cost more than the products)
   local batch, m, k, n = a.sz[1], a.sz[2], a.sz[3], b.sz[3]
   if batch == 0 or m == 0 or k == 0 or n == 0 then return false end
   if owncount and m * k * n > SHARED.gemm then widen() end
   local sum = name == 'addbmm'
   local rs1, rs2 = r.str[1], r.str[2]
   if not sum then rs1, rs2 = rs2, r.str[3] end
   local rp, ap, bp = ptr(r), ptr(a), ptr(b)
   local rstep = sum and 0 or r.str[1]
   for i = 0, batch - 1 do
      gemmat(T, beta, alpha, m, k, n, rp + i * rstep, ap + i * a.str[1], bp + i * b.str[1], rs1, rs2, a.str[2],
             a.str[3], b.str[2], b.str[3])
      if sum then beta = 1 end
   end
   return true
end

-- dot(x, y) of n elements -> the sum, or nil when the library does not take them
function cblas.dot(x, y, n)
   local T = x.T
   if not fns[T] or y.T ~= T or x.nd ~= 1 or y.nd ~= 1 or not load() then return nil end
   local ix, iy = inc(n, x.str[1]), inc(n, y.str[1])
   if not ix or not iy then return nil end
   checkbounds(x); checkbounds(y)
   pollnow()
   if owncount and n > SHARED.dot then widen() end
   return tonumber(fns[T].dot(n, ptr(x), ix, ptr(y), iy))
end

-- The library's functions, for callers of their own, whose sizes are not
-- seen here: the library has its count from then on (unless most, the
-- most elements a caller passes, is within what it keeps on one thread)
local function handed(T, op, most)
   if not fns[T] or not load() then return nil end
   if not (most and most <= SHARED[op]) then widen() end
   return fns[T][op]
end

-- dot(n, x, incx, y, incy) of the element type T, or nil; most: the most
-- elements n will be, when known
function cblas.dotfn(T, most)
   return handed(T, 'dot', most)
end

-- axpy(n, a, x, incx, y, incy) of the element type T (y += a x), or nil;
-- most: the most elements n will be, when known
function cblas.axpy(T, most)
   return handed(T, 'axpy', most)
end

-- gemm(order, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc)
-- of the element type T (C = alpha A B + beta C), or nil
function cblas.gemm(T)
   return handed(T, 'gemm')
end

-- ger(order, m, n, a, x, incx, y, incy, A, lda) of the element type T
-- (A += a x y^T), or nil
function cblas.ger(T)
   return handed(T, 'ger')
end

return cblas
