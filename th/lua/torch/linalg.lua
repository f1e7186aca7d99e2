-- Linear algebra: the LAPACK functions of Torch7 (TH's THTensorLapack.c).
-- Each torch.f accepts its result tensors first or not at all; results come
-- out as TH leaves them, column-major (a transposed contiguous matrix) unless
-- the result is the input itself, which is then overwritten in its own
-- layout.  The numerical work is the routines TH called, of the system's
-- LAPACK through the FFI (torch/maths/lapack.lua), on the results' memory as
-- TH worked (a failure leaves there what LAPACK had written); without that
-- library, th/ops/linalg.py (scipy's LAPACK), which writes nothing on failure.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'
local lapack = require 'torch.maths.lapack'

local TD, py, pycall = internal.tensors, internal.py, internal.pycall

-- fail(fmt, ...): the original's errors came from its C (argument checks,
-- LAPACK's status), which gave them no position
local function fail(fmt, ...)
   error(select('#', ...) > 0 and fmt:format(...) or fmt, 0)
end
local checkbounds = internal.checkbounds
local istensor, ndview, resize, iscontiguous = internal.istensor, internal.ndview, internal.resize, internal.iscontiguous
local select, type, min, max, unpack = select, type, math.min, math.max, unpack

---------------------------------------------------------------------------
-- arguments and results
---------------------------------------------------------------------------

-- matrix(fname, t, argn, what [, allowvector [, terse]]) -> the data of a
-- Float or Double 2-D tensor.  The original worded its checks two ways: the
-- systems' (gesv...) with the sizes, the one-matrix functions' (potrf...) tersely.
local function matrix(fname, t, argn, what, allowvector, terse)
   local d = TD[t]
   if d.T ~= types.Double and d.T ~= types.Float then
      fail("bad argument #%d to '?' (%s: torch.DoubleTensor or torch.FloatTensor expected, got %s)",
           argn, what, d.T.tensorname)
   end
   if d.nd ~= 2 and not (allowvector and d.nd == 1) then
      if terse then fail("bad argument #%d to '?' (%s should be 2 dimensional)", argn, what) end
      fail("bad argument #%d to '?' (%s should have %s dimensions, but has %d)",
           argn, what, allowvector and '1 or 2' or '2', d.nd)
   end
   return d
end

local function squarematrix(fname, t, argn, what, terse)
   local d = matrix(fname, t, argn, what, false, terse)
   if d.sz[1] ~= d.sz[2] then
      if terse then fail("bad argument #%d to '?' (%s should be square)", argn, what) end
      fail("bad argument #%d to '?' (%s should be square, but is %dx%d)", argn, what, d.sz[1], d.sz[2])
   end
   return d
end

-- system(fname, b, a, square): checks B (a vector or a matrix) and A (square if
-- asked) have as many rows -> the data of A, B's number of columns
local function system(fname, b, a, square)
   -- (in the original's order: A's dimensions, B's, A square)
   matrix(fname, a, 2, 'A')
   local bd = matrix(fname, b, 1, 'B', true)
   local ad = (square and squarematrix or matrix)(fname, a, 2, 'A')
   if ad.sz[1] ~= bd.sz[1] then
      fail("bad argument #2 to '?' (A,B size incompatible - A has %d rows, B has %d)", ad.sz[1], bd.sz[1])
   end
   return ad, bd.nd == 2 and bd.sz[2] or 1
end

-- the string options of the LAPACK functions (and pstrf's tolerance), with their defaults
local NONE = {}
local UPLO, TRANS, DIAG = {'U or L', U = true, L = true, default = 'U'}, {'N or T', N = true, T = true, default = 'N'},
                          {'N or U', N = true, U = true, default = 'N'}
local JOBZ, SVDJOB = {'N or V', N = true, V = true, default = 'N'}, {'S or A', S = true, A = true, default = 'S'}
local SIDE, TOL = {'L or R', L = true, R = true, default = 'L'}, {'a number', number = true, default = -1}

-- an option's value, or nil when v is none of spec's: as the original's
-- bindings, a string by its first letter ('Upper' is 'U'), a tolerance a
-- number or a numeric string
local function allowed(spec, v)
   if spec.number then return tonumber(v) end
   return type(v) == 'string' and spec[v:sub(1, 1)] and v:sub(1, 1) or nil
end

-- invalid(fname, ...): the original's "invalid arguments" error for this call
-- (its bindings checked the options' values, and the count of arguments)
local function invalid(fname, ...)
   local T = types.Double
   for i = 1, select('#', ...) do
      local v = select(i, ...)
      if istensor(v) then T = TD[v].T break end
   end
   require('torch.maths.dispatch').argerror(fname, T, 'torch', ...)
end

-- options(fname, specs, first, ...) -> the options after the tensors (from
-- argument first on) in the order of specs, defaults for those not given.  As
-- in Torch7 an argument goes to the next option whose values include it, so
-- that trtrs(b, a, 'T') is a transposed system (with the default uplo).
local function options(fname, specs, first, ...)
   local out, k = {}, 1
   for i = first, select('#', ...) do
      local v = select(i, ...)
      local value
      while specs[k] do
         value = allowed(specs[k], v)
         if value ~= nil then break end
         k = k + 1
      end
      if value == nil then invalid(fname, ...) end
      out[k], k = value, k + 1
   end
   for j = 1, #specs do
      if out[j] == nil then out[j] = specs[j].default end
   end
   return unpack(out, 1, #specs)
end

-- origin[copy] = the input tensor args() copied (one that is also a result)
local origin = setmetatable({}, {__mode = 'k'})

local function isinput(t, inputs)
   for _, x in ipairs(inputs) do
      if rawequal(t, x) or rawequal(t, origin[x]) then return true end
   end
   return false
end

-- args(fname, nres, nin, specs, ...) -> results (array), inputs (array), the
-- options (specs: their kinds).  The leading tensors are either the nin inputs
-- or nres results then the inputs.
-- (select rather than a table of the arguments and unpack, which the JIT does not compile)
local function args(fname, nres, nin, specs, ...)
   local n = 0
   while istensor((select(n + 1, ...))) do n = n + 1 end
   local results, inputs = {}, {}
   if n == nres + nin then
      for i = 1, nres do results[i] = (select(i, ...)) end
   elseif n ~= nin then
      invalid(fname, ...)
   end
   for i = 1, nin do
      local x = select(n - nin + i, ...)
      -- an input that is also a result is read from a copy: as in TH its
      -- values are the operand, read before the results are resized or relaid
      -- (svd(a, s, v, a), gesv(b, a, b, a) with a 1-D b)
      if isinput(x, results) then
         local c = x:clone()
         origin[c], x = x, c
      end
      inputs[i] = x
   end
   if #specs == 0 then
      if select('#', ...) > n then invalid(fname, ...) end
      return results, inputs
   end
   return results, inputs, options(fname, specs, n + 1, ...)
end

-- result(res, T, inputs) -> res, or a new tensor of type T; its type must be T
local function result(fname, res, T)
   if res == nil then return torch[T.name .. 'Tensor']() end
   if TD[res].T ~= T then
      fail("bad argument to '%s' (result should be a %s, got %s)", fname, T.tensorname, TD[res].T.tensorname)
   end
   return res
end

local function transposeview(d)
   d.sz[1], d.sz[2] = d.sz[2], d.sz[1]
   d.str[1], d.str[2] = d.str[2], d.str[1]
end

-- freshen(d, nrows, ncols): d (ncols x nrows, not contiguous: a view given
-- as a result of the transposed shape) made a contiguous ncols x nrows on its
-- storage, as the original made it (else it would stay of the wrong shape)
local function freshen(d, nrows, ncols)
   resize(d, {nrows * ncols}, 1)
   resize(d, {ncols, nrows}, 2)
end

-- colmajor: a nrows x ncols result laid out as TH's LAPACK wrappers leave it
local function colmajor(fname, res, T, nrows, ncols, inputs)
   res = result(fname, res, T)
   local d = TD[res]
   if isinput(res, inputs) and d.nd == 2 and d.sz[1] == nrows and d.sz[2] == ncols then
      return res
   end
   resize(d, {ncols, nrows}, 2)
   if not iscontiguous(d) and nrows ~= ncols then freshen(d, nrows, ncols) end
   if iscontiguous(d) then transposeview(d) end
   return res
end

-- relaid: the layout the original gave svd's u and eig's v: resized to
-- ncols x nrows (a result of that size keeps its strides), then transposed
-- when it is a row-major contiguous matrix, strictly: a 1x1 view, or a
-- narrowed or transposed one of the size, keeps its strides
local function relaid(fname, res, T, nrows, ncols)
   res = result(fname, res, T)
   local d = TD[res]
   resize(d, {ncols, nrows}, 2)
   -- (and a result given ncols x nrows is transposed: the original left it so,
   -- its u of the transposed shape)
   if d.sz[1] ~= nrows and not iscontiguous(d) then freshen(d, nrows, ncols) end
   if d.str[2] == 1 and d.str[1] == d.sz[2] or d.sz[1] ~= nrows then transposeview(d) end
   return res
end

local function vector(fname, res, T, n)
   res = result(fname, res, T)
   resize(TD[res], {n}, 1)
   return res
end

-- run(f, ...): the Python half; its message, when it returns one, is the error
local function run(fname, f, ...)
   local err = pycall(f, ...)
   if err then fail(err) end
end

local function nd(t) return ndview(TD[t]) end

---------------------------------------------------------------------------
-- the FFI half: LAPACK on tensor memory
---------------------------------------------------------------------------

local I, scratch, workspace = lapack.I, lapack.scratch, lapack.workspace

local function ptr(d) return d.st.ptr + d.off end

-- d's element (i, j) is at ptr(d)[i s1 + j s2] (a 1-D d is a column)
local function strides(d)
   return d.str[1], d.nd == 2 and d.str[2] or 0
end

-- copyin(dst, ld, d, rows, cols): the column-major dst[i + j ld] = d[i][j]
local function copyin(dst, ld, d, rows, cols)
   checkbounds(d)
   local p, s1, s2 = ptr(d), strides(d)
   for j = 0, cols - 1 do
      for i = 0, rows - 1 do dst[i + j * ld] = p[i * s1 + j * s2] end
   end
end

-- copyout(d, src, ld, rows, cols): d[i][j] = the column-major src[i + j ld]
local function copyout(d, src, ld, rows, cols)
   local p, s1, s2 = ptr(d), strides(d)
   for j = 0, cols - 1 do
      for i = 0, rows - 1 do p[i * s1 + j * s2] = src[i + j * ld] end
   end
end

-- is d a column-major rows x cols matrix (a column when 1-D) of leading dimension ld?
local function fits(d, rows, cols, ld)
   if d.nd ~= (cols == 1 and d.nd == 1 and 1 or 2) or d.st == nil then return false end
   local s1, s2 = strides(d)
   return (rows <= 1 or s1 == 1) and (cols <= 1 or s2 == ld)
end

local function sameview(d, e)
   return rawequal(d.st, e.st) and d.off == e.off and d.nd == e.nd and d.sz[1] == e.sz[1]
      and d.str[1] == e.str[1] and d.sz[2] == e.sz[2] and d.str[2] == e.str[2]
end

local function sharesinput(d, inputs)
   for _, e in ipairs(inputs) do if rawequal(d.st, e.st) then return true end end
   return false
end

-- operand(T, use, r, rows, cols, src, inputs [, ld]) -> pointer, leading
-- dimension, whether r must be written back: the column-major matrix LAPACK
-- works on for the result r, holding src's values when src is given.  As in
-- TH, r's own memory when it is laid out so (and is src itself or shares no
-- input's memory), else a copy (scratch memory named use), which is written
-- to r only when LAPACK succeeds.
local function operand(T, use, r, rows, cols, src, inputs, ld)
   ld = ld or max(1, rows)
   if r.st then checkbounds(r) end
   if fits(r, rows, cols, ld) then
      if src and sameview(r, src) then return ptr(r), ld, false end
      if not sharesinput(r, inputs) then
         if src then copyin(ptr(r), ld, src, rows, cols) end
         return ptr(r), ld, false
      end
   end
   local p = scratch(T, use, ld * cols)
   if src then copyin(p, ld, src, rows, cols) end
   return p, ld, true
end

-- input(T, use, d, rows, cols) -> pointer, leading dimension: a matrix LAPACK
-- only reads, in place when it is column-major
local function input(T, use, d, rows, cols)
   local ld = max(1, rows)
   if fits(d, rows, cols, ld) then
      checkbounds(d)
      return ptr(d), ld
   end
   local p = scratch(T, use, ld * cols)
   copyin(p, ld, d, rows, cols)
   return p, ld
end

-- check(info, fname, message): TH's messages for LAPACK's status
local function check(info, fname, message)
   info = info[0]
   if info < 0 then fail('Lapack Error in %s : Illegal Argument %d', fname, -info) end
   if info > 0 then fail(message, fname, info, info) end
end

-- triangle(p, ld, n, uplo, mirror): the half LAPACK left (below the
-- diagonal for 'U', above for 'L') zeroed, TH's clearUpLoTriangle, or made
-- the mirror of the other, TH's copyUpLoTriangle
local function triangle(p, ld, n, uplo, mirror)
   for j = 0, n - 1 do
      local first, last = j + 1, n - 1
      if uplo == 'L' then first, last = 0, j - 1 end
      if mirror then
         for i = first, last do p[i + j * ld] = p[j + i * ld] end
      else
         for i = first, last do p[i + j * ld] = 0 end
      end
   end
end

-- intcopy(d, src, n): the IntTensor vector d = the ints src[0 .. n-1]
local function intcopy(d, src, n)
   checkbounds(d)
   local p, s = ptr(d), d.str[1]
   for i = 0, n - 1 do p[i * s] = src[i] end
end

---------------------------------------------------------------------------
-- linear systems
---------------------------------------------------------------------------

-- gesv([resb, resa,] b, a) -> x, lu: solves a x = b
function torch.gesv(...)
   local res, inp = args('gesv', 2, 2, NONE, ...)
   local b, a = inp[1], inp[2]
   local ad, k = system('gesv', b, a, true)
   local n = ad.sz[1]
   local x = colmajor('gesv', res[1], ad.T, n, k, inp)
   local lu = colmajor('gesv', res[2], ad.T, n, n, inp)
   local L, T = lapack.routines(ad.T), ad.T
   if not L then
      run('gesv', py.gesv, nd(x), nd(lu), nd(b), nd(a))
      return x, lu
   end
   local xd, lud, bd, inputs = TD[x], TD[lu], TD[b], {TD[b], ad}
   local px, ldx, wx = operand(T, 'b', xd, n, k, bd, inputs)
   local pa, lda, wa = operand(T, 'a', lud, n, n, ad, inputs)
   local info = lapack.info()
   L.gesv(I(n), I(k), pa, I(lda), scratch(types.Int, 'piv', n), px, I(ldx), info)
   check(info, 'gesv', 'Lapack Error in %s : U(%d,%d) is zero, singular U.')
   if wx then copyout(xd, px, ldx, n, k) end
   if wa then copyout(lud, pa, lda, n, n) end
   return x, lu
end

-- trtrs([resb, resa,] b, a [, uplo [, trans [, diag]]]) -> x, a: a triangular system
function torch.trtrs(...)
   local res, inp, uplo, trans, diag = args('trtrs', 2, 2, {UPLO, TRANS, DIAG}, ...)
   local b, a = inp[1], inp[2]
   local ad, k = system('trtrs', b, a, true)
   local n = ad.sz[1]
   local x = colmajor('trtrs', res[1], ad.T, n, k, inp)
   local ar = colmajor('trtrs', res[2], ad.T, n, n, inp)
   local L, T = lapack.routines(ad.T), ad.T
   if not L then
      run('trtrs', py.trtrs, nd(x), nd(ar), nd(b), nd(a), uplo, trans, diag)
      return x, ar
   end
   local xd, ard, bd, inputs = TD[x], TD[ar], TD[b], {TD[b], ad}
   local px, ldx, wx = operand(T, 'b', xd, n, k, bd, inputs)
   local pa, lda, wa = operand(T, 'a', ard, n, n, ad, inputs)
   local info = lapack.info()
   L.trtrs(uplo, trans, diag, I(n), I(k), pa, I(lda), px, I(ldx), info, 1, 1, 1)
   check(info, 'trtrs', 'Lapack Error in %s : A(%d,%d) is zero, singular A')
   if wx then copyout(xd, px, ldx, n, k) end
   if wa then copyout(ard, pa, lda, n, n) end
   return x, ar
end

-- gelsintob(b, x, rows, n, k) -> b holding gels's solution x, given b as its
-- result: as the original, b resized to n x k (a matrix of that size keeps its
-- layout); its first n rows when it is rows x k with strides 1 and k (the
-- original's test of a column-major b compared its column stride with its
-- column count: a square column-major b passes); for a 1-D b the first n
-- rows of a column-major rows x k
local function gelsintob(b, x, rows, n, k)
   if b:dim() == 1 then return b:set(b:resize(k, rows):t():narrow(1, 1, n)):copy(x) end
   if b:size(1) == rows and b:stride(1) == 1 and b:stride(2) == k then
      return b:set(b:narrow(1, 1, n)):copy(x)
   end
   return b:resize(n, k):copy(x)
end

-- gels([resb, resa,] b, a) -> x (n x k): least squares, or the minimum norm solution
function torch.gels(...)
   local res, inp = args('gels', 2, 2, NONE, ...)
   local b, a = inp[1], inp[2]
   local ad, k = system('gels', b, a, false)
   local m, n = ad.sz[1], ad.sz[2]
   -- as TH: the solution is the first n rows of a max(m, n) x k column-major
   -- buffer; b given as the result is that solution, resized to n x k
   local intob = res[1] and isinput(res[1], {b}) and gelsintob
   local x = colmajor('gels', not intob and res[1] or nil, ad.T, max(m, n), k, {})
   local ar = colmajor('gels', res[2], ad.T, m, n, inp)
   local L, T, xd = lapack.routines(ad.T), ad.T, TD[x]
   if not L then
      xd.sz[1] = n
      run('gels', py.gels, nd(x), nd(ar), nd(b), nd(a))
      if intob then return intob(res[1], x, max(m, n), n, k), ar end
      return x, ar
   end
   local ard, bd, rows = TD[ar], TD[b], max(m, n)
   local inputs = {bd, TD[a]}
   local px, ldx, wx = operand(T, 'b', xd, rows, k, nil, inputs)
   copyin(px, ldx, bd, m, k)
   for j = 0, k - 1 do
      for i = m, rows - 1 do px[i + j * ldx] = 0 end
   end
   local pa, lda, wa = operand(T, 'a', ard, m, n, TD[a], inputs)
   local info = lapack.info()
   local query = scratch(T, 'query', 1)
   L.gels('N', I(m), I(n), I(k), pa, I(lda), px, I(ldx), query, I(-1), info, 1)
   local work, lwork = workspace(T, query)
   L.gels('N', I(m), I(n), I(k), pa, I(lda), px, I(ldx), work, I(lwork), info, 1)
   xd.sz[1] = n
   check(info, 'gels', 'Lapack Error in %s : The %d-th diagonal element of the triangular factor of A is zero')
   if wx then copyout(xd, px, ldx, n, k) end
   if wa then copyout(ard, pa, lda, m, n) end
   if intob then return intob(res[1], x, max(m, n), n, k), ar end
   return x, ar
end

---------------------------------------------------------------------------
-- Cholesky
---------------------------------------------------------------------------

-- potrf([res,] a [, uplo]) -> the Cholesky factor (upper: a = u' u; lower: a = l l')
function torch.potrf(...)
   local res, inp, uplo = args('potrf', 1, 1, {UPLO}, ...)
   local ad = squarematrix('potrf', inp[1], 1, 'A', true)
   local n = ad.sz[1]
   local r = colmajor('potrf', res[1], ad.T, n, n, inp)
   local L, T = lapack.routines(ad.T), ad.T
   if not L then
      run('potrf', py.potrf, nd(r), nd(inp[1]), uplo)
      return r
   end
   local rd = TD[r]
   local p, ld, w = operand(T, 'a', rd, n, n, ad, {ad})
   local info = lapack.info()
   L.potrf(uplo, I(n), p, I(ld), info, 1)
   check(info, 'potrf', 'Lapack Error in %s : the leading minor of order %d is not positive definite')
   triangle(p, ld, n, uplo, false)
   if w then copyout(rd, p, ld, n, n) end
   return r
end

-- pstrf([res, piv,] a [, uplo [, tol]]) -> the pivoted Cholesky factor, the pivots (IntTensor)
function torch.pstrf(...)
   local res, inp, uplo, tol = args('pstrf', 2, 1, {UPLO, TOL}, ...)
   local ad = squarematrix('pstrf', inp[1], 1, 'A', true)
   local n = ad.sz[1]
   local r = colmajor('pstrf', res[1], ad.T, n, n, inp)
   local piv = vector('pstrf', res[2], types.Int, n)
   local L, T = lapack.routines(ad.T), ad.T
   if not L then
      run('pstrf', py.pstrf, nd(r), nd(piv), nd(inp[1]), uplo, tol)
      return r, piv
   end
   local rd = TD[r]
   local p, ld, w = operand(T, 'a', rd, n, n, ad, {ad})
   local ipiv, tolp, info = scratch(types.Int, 'piv', n), scratch(T, 'tol', 1), lapack.info()
   tolp[0] = tol
   L.pstrf(uplo, I(n), p, I(ld), ipiv, I(0), tolp, scratch(T, 'work', 2 * n), info, 1)
   check(info, 'pstrf', 'Lapack Error %s : matrix is rank deficient or not positive semidefinite')
   triangle(p, ld, n, uplo, false)
   if w then copyout(rd, p, ld, n, n) end
   intcopy(TD[piv], ipiv, n)
   return r, piv
end

-- potrs([res,] b, chol [, uplo]) -> x solving a x = b from a's Cholesky factor
function torch.potrs(...)
   local res, inp, uplo = args('potrs', 1, 2, {UPLO}, ...)
   local b, c = inp[1], inp[2]
   local cd, k = system('potrs', b, c, true)
   local x = colmajor('potrs', res[1], cd.T, cd.sz[1], k, inp)
   local L, T, n = lapack.routines(cd.T), cd.T, cd.sz[1]
   if not L then
      run('potrs', py.potrs, nd(x), nd(b), nd(c), uplo)
      return x
   end
   local xd, bd = TD[x], TD[b]
   local px, ldx, wx = operand(T, 'b', xd, n, k, bd, {bd, cd})
   local pc, ldc = input(T, 'a', cd, n, n)
   local info = lapack.info()
   L.potrs(uplo, I(n), I(k), pc, I(ldc), px, I(ldx), info, 1)
   check(info, 'potrs', 'Lapack Error %s : unknown Lapack error. info = %i')
   if wx then copyout(xd, px, ldx, n, k) end
   return x
end

-- potri([res,] chol [, uplo]) -> the inverse of a from its Cholesky factor
function torch.potri(...)
   local res, inp, uplo = args('potri', 1, 1, {UPLO}, ...)
   local cd = squarematrix('potri', inp[1], 1, 'A', true)
   local r = colmajor('potri', res[1], cd.T, cd.sz[1], cd.sz[1], inp)
   local L, T, n = lapack.routines(cd.T), cd.T, cd.sz[1]
   if not L then
      run('potri', py.potri, nd(r), nd(inp[1]), uplo)
      return r
   end
   local rd = TD[r]
   local p, ld, w = operand(T, 'a', rd, n, n, cd, {cd})
   local info = lapack.info()
   L.potri(uplo, I(n), p, I(ld), info, 1)
   check(info, 'potri', 'Lapack Error %s : A(%d,%d) is 0, A cannot be factorized')
   triangle(p, ld, n, uplo, true)
   if w then copyout(rd, p, ld, n, n) end
   return r
end

---------------------------------------------------------------------------
-- eigenvalues, singular values, inverse
---------------------------------------------------------------------------

-- symeig([rese, resv,] a [, jobz [, uplo]]) -> eigenvalues (ascending), eigenvectors
function torch.symeig(...)
   local res, inp, jobz, uplo = args('symeig', 2, 1, {JOBZ, UPLO}, ...)
   local ad = squarematrix('symeig', inp[1], 1, 'A', true)
   local n = ad.sz[1]
   local e = vector('symeig', res[1], ad.T, n)
   local v = colmajor('symeig', res[2], ad.T, n, n, inp)
   local L, T = lapack.routines(ad.T), ad.T
   if not L then
      run('symeig', py.symeig, nd(e), nd(v), nd(inp[1]), jobz, uplo)
      return e, v
   end
   local ed, vd, inputs = TD[e], TD[v], {ad}
   local pe, _, we = operand(T, 'w', ed, n, 1, nil, inputs)
   local pv, ldv, wv = operand(T, 'a', vd, n, n, ad, inputs)
   local info = lapack.info()
   local query = scratch(T, 'query', 1)
   L.syev(jobz, uplo, I(n), pv, I(ldv), pe, query, I(-1), info, 1, 1)
   local work, lwork = workspace(T, query)
   L.syev(jobz, uplo, I(n), pv, I(ldv), pe, work, I(lwork), info, 1, 1)
   check(info, 'syev', "Lapack Error %s : %d off-diagonal elements didn't converge to zero")
   if we then copyout(ed, pe, n, n, 1) end
   if wv then copyout(vd, pv, ldv, n, n) end
   return e, v
end

-- eig([rese, resv,] a [, jobvr]) -> eigenvalues (n x 2, row-major: real, imaginary), right eigenvectors
function torch.eig(...)
   local res, inp, jobvr = args('eig', 2, 1, {JOBZ}, ...)
   local ad = squarematrix('eig', inp[1], 1, 'A', true)
   local n = ad.sz[1]
   local e = result('eig', res[1], ad.T)
   resize(TD[e], {n, 2}, 2)
   local v = result('eig', res[2], ad.T)
   if jobvr == 'V' then v = relaid('eig', v, ad.T, n, n) end
   local L, T = lapack.routines(ad.T), ad.T
   if not L then
      run('eig', py.eig, nd(e), jobvr == 'V' and nd(v) or nil, nd(inp[1]), jobvr)
      return e, v
   end
   local ed, vd, inputs = TD[e], TD[v], {ad}
   local pa, lda = scratch(T, 'a', n * n), max(1, n)
   copyin(pa, lda, ad, n, n)
   local pe = scratch(T, 'w', 2 * n)     -- LAPACK's wr and wi, copied to e's columns
   local pl, pv, ldv, wv = scratch(T, 'vl', 1), scratch(T, 'v', 1), 1, false   -- pl: the left vectors, not computed
   if jobvr == 'V' then pv, ldv, wv = operand(T, 'v', vd, n, n, nil, inputs) end
   local info = lapack.info()
   local query = scratch(T, 'query', 1)
   L.geev('N', jobvr, I(n), pa, I(lda), pe, pe + n, pl, I(1), pv, I(ldv), query, I(-1), info, 1, 1)
   local work, lwork = workspace(T, query)
   L.geev('N', jobvr, I(n), pa, I(lda), pe, pe + n, pl, I(1), pv, I(ldv), work, I(lwork), info, 1, 1)
   check(info, 'geev', "Lapack Error in %s : %d off-diagonal elements of an didn't converge to zero")
   checkbounds(ed)
   copyout(ed, pe, n, n, 2)
   if wv then copyout(vd, pv, ldv, n, n) end
   return e, v
end

-- svd([resu, ress, resv,] a [, 'S' or 'A']) -> u, s, v with a = u diag(s) v'
function torch.svd(...)
   local res, inp, job = args('svd', 3, 1, {SVDJOB}, ...)
   local ad = matrix('svd', inp[1], 1, 'A', false, true)
   local m, n = ad.sz[1], ad.sz[2]
   local k = min(m, n)
   local u = relaid('svd', res[1], ad.T, m, job == 'A' and m or k)
   local s = vector('svd', res[2], ad.T, k)
   -- v: n x n, or n x k for 'S', row-major: LAPACK's v' column-major in its memory
   local v = result('svd', res[3], ad.T)
   local vd = TD[v]
   resize(vd, {n, job == 'A' and n or k}, 2)
   local L, T = lapack.routines(ad.T), ad.T
   if not L then
      run('svd', py.svd, nd(u), nd(s), nd(v), nd(inp[1]), job)
      return u, s, v
   end
   local ud, sd, inputs, ucols = TD[u], TD[s], {ad}, job == 'A' and m or k
   local pa, lda = scratch(T, 'a', m * n), max(1, m)
   copyin(pa, lda, ad, m, n)
   local pu, ldu, wu = operand(T, 'u', ud, m, ucols, nil, inputs)
   local ps, _, ws = operand(T, 'w', sd, k, 1, nil, inputs)
   local vrows = vd.sz[2]
   local vt = {T = T, st = vd.st, off = vd.off, nd = 2, sz = {vrows, n}, str = {vd.str[2], vd.str[1]}}
   local pv, ldv, wv = operand(T, 'v', vt, vrows, n, nil, inputs)
   local info = lapack.info()
   local query = scratch(T, 'query', 1)
   L.gesvd(job, job, I(m), I(n), pa, I(lda), ps, pu, I(ldu), pv, I(ldv), query, I(-1), info, 1, 1)
   local work, lwork = workspace(T, query)
   L.gesvd(job, job, I(m), I(n), pa, I(lda), ps, pu, I(ldu), pv, I(ldv), work, I(lwork), info, 1, 1)
   check(info, 'gesvd', 'Lapack Error %s : %d superdiagonals failed to converge.')
   if wu then copyout(ud, pu, ldu, m, ucols) end
   if ws then copyout(sd, ps, k, k, 1) end
   if wv then copyout(vt, pv, ldv, vrows, n) end
   return u, s, v
end

-- inverse([res,] a)
function torch.inverse(...)
   local res, inp = args('inverse', 1, 1, NONE, ...)
   local ad = squarematrix('inverse', inp[1], 1, 'A', true)
   local r = colmajor('inverse', res[1], ad.T, ad.sz[1], ad.sz[1], inp)
   local L, T, n = lapack.routines(ad.T), ad.T, ad.sz[1]
   if not L then
      run('inverse', py.inverse, nd(r), nd(inp[1]))
      return r
   end
   local rd = TD[r]
   local p, ld, w = operand(T, 'a', rd, n, n, ad, {ad})
   local ipiv, info = scratch(types.Int, 'piv', n), lapack.info()
   L.getrf(I(n), I(n), p, I(ld), ipiv, info)
   check(info, 'getrf', 'Lapack Error %s : U(%d,%d) is 0, U is singular')
   local query = scratch(T, 'query', 1)
   L.getri(I(n), p, I(ld), ipiv, query, I(-1), info)
   local work, lwork = workspace(T, query)
   L.getri(I(n), p, I(ld), ipiv, work, I(lwork), info)
   check(info, 'getri', 'Lapack Error %s : U(%d,%d) is 0, U is singular')
   if w then copyout(rd, p, ld, n, n) end
   return r
end

---------------------------------------------------------------------------
-- QR
---------------------------------------------------------------------------

-- qr([q, r,] a) -> q (m x k, orthonormal columns), r (k x n, upper triangular)
function torch.qr(...)
   local res, inp = args('qr', 2, 1, NONE, ...)
   local ad = matrix('qr', inp[1], 1, 'A', false, true)
   local m, n = ad.sz[1], ad.sz[2]
   local k = min(m, n)
   -- (q is sized m x k first, as TH did: a q given of that size keeps its
   -- strides into the column-major m x n, one of another size is made anew)
   local q = result('qr', res[1], ad.T)
   resize(TD[q], {m, k}, 2)
   q = colmajor('qr', q, ad.T, m, n, {})
   local r = result('qr', res[2], ad.T)
   local L, T, qd, rd = lapack.routines(ad.T), ad.T, TD[q], TD[r]
   if not L then
      qd.sz[2] = k
      resize(rd, {k, n}, 2)
      run('qr', py.qr, nd(q), nd(r), nd(inp[1]))
      return q, r
   end
   -- as TH: geqrf on a copy of a in q (m x n), r its upper triangle, then
   -- orgqr makes q's first k columns the orthonormal ones
   local pq, ldq, wq = operand(T, 'a', qd, m, n, ad, {ad})
   local tau, info = scratch(T, 'tau', k), lapack.info()
   local query = scratch(T, 'query', 1)
   L.geqrf(I(m), I(n), pq, I(ldq), tau, query, I(-1), info)
   local work, lwork = workspace(T, query)
   L.geqrf(I(m), I(n), pq, I(ldq), tau, work, I(lwork), info)
   check(info, 'geqrf', 'Lapack Error %s : unknown Lapack error. info = %i')
   resize(rd, {k, n}, 2)
   checkbounds(rd)
   local pr, s1, s2 = ptr(rd), rd.str[1], rd.str[2]
   for i = 0, k - 1 do
      for j = 0, n - 1 do pr[i * s1 + j * s2] = i <= j and pq[i + j * ldq] or 0 end
   end
   L.orgqr(I(m), I(k), I(k), pq, I(ldq), tau, query, I(-1), info)
   work, lwork = workspace(T, query)
   L.orgqr(I(m), I(k), I(k), pq, I(ldq), tau, work, I(lwork), info)
   check(info, 'orgqr', 'Lapack Error %s : unknown Lapack error. info = %i')
   qd.sz[2] = k
   if wq then copyout(qd, pq, ldq, m, k) end
   return q, r
end

-- geqrf([a, tau,] a) -> the packed QR factorisation and the reflectors' scales
function torch.geqrf(...)
   local res, inp = args('geqrf', 2, 1, NONE, ...)
   local ad = matrix('geqrf', inp[1], 1, 'A', false, true)
   local m, n = ad.sz[1], ad.sz[2]
   local r = colmajor('geqrf', res[1], ad.T, m, n, inp)
   local tau = vector('geqrf', res[2], ad.T, min(m, n))
   local L, T = lapack.routines(ad.T), ad.T
   if not L then
      run('geqrf', py.geqrf, nd(r), nd(tau), nd(inp[1]))
      return r, tau
   end
   local rd, taud, k = TD[r], TD[tau], min(m, n)
   local p, ld, w = operand(T, 'a', rd, m, n, ad, {ad})
   local pt, _, wt = operand(T, 'tau', taud, k, 1, nil, {ad})
   local info = lapack.info()
   local query = scratch(T, 'query', 1)
   L.geqrf(I(m), I(n), p, I(ld), pt, query, I(-1), info)
   local work, lwork = workspace(T, query)
   L.geqrf(I(m), I(n), p, I(ld), pt, work, I(lwork), info)
   check(info, 'geqrf', 'Lapack Error %s : unknown Lapack error. info = %i')
   if w then copyout(rd, p, ld, m, n) end
   if wt then copyout(taud, pt, k, k, 1) end
   return r, tau
end

local function checktau(fname, tau, argn, T)
   local d = TD[tau]
   if d.T ~= T or d.nd ~= 1 then
      fail("bad argument #%d to '?' (tau: a 1-D %s expected)", argn, T.tensorname)
   end
end

-- orgqr([res,] a, tau) -> Q from geqrf's output
function torch.orgqr(...)
   local res, inp = args('orgqr', 1, 2, NONE, ...)
   local ad = matrix('orgqr', inp[1], 1, 'A', false, true)
   checktau('orgqr', inp[2], 2, ad.T)
   if TD[inp[2]].sz[1] > min(ad.sz[1], ad.sz[2]) then
      fail("bad argument #2 to '?' (tau has more elements than A has columns or rows)")
   end
   local r = colmajor('orgqr', res[1], ad.T, ad.sz[1], ad.sz[2], inp)
   local L, T, m, n, k = lapack.routines(ad.T), ad.T, ad.sz[1], ad.sz[2], TD[inp[2]].sz[1]
   if not L then
      run('orgqr', py.orgqr, nd(r), nd(inp[1]), nd(inp[2]))
      return r
   end
   local rd, taud = TD[r], TD[inp[2]]
   local p, ld, w = operand(T, 'a', rd, m, n, ad, {ad, taud})
   local pt = input(T, 'tau', taud, k, 1)
   local info = lapack.info()
   local query = scratch(T, 'query', 1)
   L.orgqr(I(m), I(k), I(k), p, I(ld), pt, query, I(-1), info)
   local work, lwork = workspace(T, query)
   L.orgqr(I(m), I(k), I(k), p, I(ld), pt, work, I(lwork), info)
   check(info, 'orgqr', 'Lapack Error %s : unknown Lapack error. info = %i')
   if w then copyout(rd, p, ld, m, n) end
   return r
end

-- ormqr([res,] a, tau, c [, side [, trans]]) -> Q c, Q' c, c Q or c Q'
function torch.ormqr(...)
   local res, inp, side, trans = args('ormqr', 1, 3, {SIDE, TRANS}, ...)
   local ad = matrix('ormqr', inp[1], 1, 'A', false, true)
   checktau('ormqr', inp[2], 2, ad.T)
   local cd = matrix('ormqr', inp[3], 3, 'C')
   if cd.T ~= ad.T then fail("bad argument #3 to '?' (C should be a %s)", ad.T.tensorname) end
   local needed = side == 'L' and cd.sz[1] or cd.sz[2]
   if TD[inp[2]].sz[1] > ad.sz[2] then
      fail("bad argument #2 to '?' (tau has more elements than A has columns)")
   end
   if ad.sz[1] ~= needed or TD[inp[2]].sz[1] > needed then
      fail("bad argument #3 to '?' (C has %d %s, Q is %dx%d)", needed, side == 'L' and 'rows' or 'columns',
           ad.sz[1], ad.sz[1])
   end
   local r = colmajor('ormqr', res[1], ad.T, cd.sz[1], cd.sz[2], inp)
   local L, T = lapack.routines(ad.T), ad.T
   if not L then
      run('ormqr', py.ormqr, nd(r), nd(inp[1]), nd(inp[2]), nd(inp[3]), side, trans)
      return r
   end
   local rd, taud, m, n, k = TD[r], TD[inp[2]], cd.sz[1], cd.sz[2], TD[inp[2]].sz[1]
   local pc, ldc, w = operand(T, 'c', rd, m, n, cd, {ad, taud, cd})
   local pa, lda = input(T, 'a', ad, ad.sz[1], k)
   local pt = input(T, 'tau', taud, k, 1)
   local info = lapack.info()
   local query = scratch(T, 'query', 1)
   L.ormqr(side, trans, I(m), I(n), I(k), pa, I(lda), pt, pc, I(ldc), query, I(-1), info, 1, 1)
   local work, lwork = workspace(T, query)
   L.ormqr(side, trans, I(m), I(n), I(k), pa, I(lda), pt, pc, I(ldc), work, I(lwork), info, 1, 1)
   check(info, 'ormqr', 'Lapack Error %s : unknown Lapack error. info = %i')
   if w then copyout(rd, pc, ldc, m, n) end
   return r
end

return torch
