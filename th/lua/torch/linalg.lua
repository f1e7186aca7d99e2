-- Linear algebra: the LAPACK functions of Torch7 (TH's THTensorLapack.c).
-- Each torch.f accepts its result tensors first or not at all; results come
-- out as TH leaves them, column-major (a transposed contiguous matrix) unless
-- the result is the input itself, which is then overwritten in its own
-- layout.  The numerical work is th/ops/linalg.py (scipy's LAPACK, the same
-- routines TH calls); it writes nothing when LAPACK reports a failure.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'

local TD, fail, py, pycall = internal.tensors, internal.fail, internal.py, internal.pycall
local istensor, ndview, resize, iscontiguous = internal.istensor, internal.ndview, internal.resize, internal.iscontiguous
local select, type, min, max, unpack = select, type, math.min, math.max, unpack

---------------------------------------------------------------------------
-- arguments and results
---------------------------------------------------------------------------

-- args(fname, nres, nin, ...) -> results (array), inputs (array), options...
-- The leading tensors are either the nin inputs or nres results then the inputs.
local function args(fname, nres, nin, ...)
   local all, n = {...}, 0
   while istensor(all[n + 1]) do n = n + 1 end
   local results, inputs = {}, {}
   if n == nres + nin then
      for i = 1, nres do results[i] = all[i] end
   elseif n ~= nin then
      fail("bad arguments to '%s' (%d tensors expected, optionally after %d result tensors; got %d)",
           fname, nin, nres, n)
   end
   for i = 1, nin do inputs[i] = all[n - nin + i] end
   return results, inputs, unpack(all, n + 1, select('#', ...))
end

-- matrix(fname, t, argn, what) -> the data of a Float or Double 2-D tensor
local function matrix(fname, t, argn, what, allowvector)
   local d = TD[t]
   if d.T ~= types.Double and d.T ~= types.Float then
      fail("bad argument #%d to '%s' (%s: torch.DoubleTensor or torch.FloatTensor expected, got %s)",
           argn, fname, what, d.T.tensorname)
   end
   if d.nd ~= 2 and not (allowvector and d.nd == 1) then
      fail("bad argument #%d to '%s' (%s should have %s dimensions, but has %d)",
           argn, fname, what, allowvector and '1 or 2' or '2', d.nd)
   end
   return d
end

local function squarematrix(fname, t, argn, what)
   local d = matrix(fname, t, argn, what)
   if d.sz[1] ~= d.sz[2] then
      fail("bad argument #%d to '%s' (%s should be square, but is %dx%d)", argn, fname, what, d.sz[1], d.sz[2])
   end
   return d
end

-- system(fname, b, a, square): checks B (a vector or a matrix) and A (square if
-- asked) have as many rows -> the data of A, B's number of columns
local function system(fname, b, a, square)
   local bd = matrix(fname, b, 1, 'B', true)
   local ad = (square and squarematrix or matrix)(fname, a, 2, 'A')
   if ad.sz[1] ~= bd.sz[1] then
      fail("bad argument #2 to '%s' (A,B size incompatible - A has %d rows, B has %d)", fname, ad.sz[1], bd.sz[1])
   end
   return ad, bd.nd == 2 and bd.sz[2] or 1
end

-- the string options of the LAPACK functions (and pstrf's tolerance), with their defaults
local UPLO, TRANS, DIAG = {'U or L', U = true, L = true, default = 'U'}, {'N or T', N = true, T = true, default = 'N'},
                          {'N or U', N = true, U = true, default = 'N'}
local JOBZ, SVDJOB = {'N or V', N = true, V = true, default = 'N'}, {'S or A', S = true, A = true, default = 'S'}
local SIDE, TOL = {'L or R', L = true, R = true, default = 'L'}, {'a number', number = true, default = -1}

local function allows(spec, v)
   if type(v) == 'number' then return spec.number end
   return type(v) == 'string' and spec[v]
end

-- options(fname, argn, specs, ...) -> the options in the order of specs.  As in
-- Torch7 an argument goes to the next option whose values include it, so that
-- trtrs(b, a, 'T') is a transposed system (with the default uplo).
local function options(fname, argn, specs, ...)
   local out, k = {}, 1
   for i = 1, select('#', ...) do
      local v = select(i, ...)
      if v ~= nil then
         while specs[k] and not allows(specs[k], v) do k = k + 1 end
         if not specs[k] then
            fail("bad argument #%d to '%s' (one of %s expected, got %s)", argn + i - 1, fname,
                 specs[math.min(i, #specs)][1], tostring(v))
         end
         out[k], k = v, k + 1
      end
   end
   for j = 1, #specs do
      if out[j] == nil then out[j] = specs[j].default end
   end
   return unpack(out, 1, #specs)
end

-- result(res, T, inputs) -> res, or a new tensor of type T; its type must be T
local function result(fname, res, T)
   if res == nil then return torch[T.name .. 'Tensor']() end
   if TD[res].T ~= T then
      fail("bad argument to '%s' (result should be a %s, got %s)", fname, T.tensorname, TD[res].T.tensorname)
   end
   return res
end

local function isinput(t, inputs)
   for _, x in ipairs(inputs) do if rawequal(t, x) then return true end end
   return false
end

local function transposeview(d)
   d.sz[1], d.sz[2] = d.sz[2], d.sz[1]
   d.str[1], d.str[2] = d.str[2], d.str[1]
end

-- colmajor: a nrows x ncols result laid out as TH's LAPACK wrappers leave it
local function colmajor(fname, res, T, nrows, ncols, inputs)
   res = result(fname, res, T)
   local d = TD[res]
   if isinput(res, inputs) and d.nd == 2 and d.sz[1] == nrows and d.sz[2] == ncols then
      return res
   end
   resize(d, {ncols, nrows}, 2)
   if iscontiguous(d) then transposeview(d) end
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
-- linear systems
---------------------------------------------------------------------------

-- gesv([resb, resa,] b, a) -> x, lu: solves a x = b
function torch.gesv(...)
   local res, inp = args('gesv', 2, 2, ...)
   local b, a = inp[1], inp[2]
   local ad, k = system('gesv', b, a, true)
   local n = ad.sz[1]
   local x = colmajor('gesv', res[1], ad.T, n, k, inp)
   local lu = colmajor('gesv', res[2], ad.T, n, n, inp)
   run('gesv', py.gesv, nd(x), nd(lu), nd(b), nd(a))
   return x, lu
end

-- trtrs([resb, resa,] b, a [, uplo [, trans [, diag]]]) -> x, a: a triangular system
function torch.trtrs(...)
   local res, inp, uplo, trans, diag = args('trtrs', 2, 2, ...)
   local b, a = inp[1], inp[2]
   local ad, k = system('trtrs', b, a, true)
   uplo, trans, diag = options('trtrs', 3, {UPLO, TRANS, DIAG}, uplo, trans, diag)
   local n = ad.sz[1]
   local x = colmajor('trtrs', res[1], ad.T, n, k, inp)
   local ar = colmajor('trtrs', res[2], ad.T, n, n, inp)
   run('trtrs', py.trtrs, nd(x), nd(ar), nd(b), nd(a), uplo, trans, diag)
   return x, ar
end

-- gels([resb, resa,] b, a) -> x (n x k): least squares, or the minimum norm solution
function torch.gels(...)
   local res, inp = args('gels', 2, 2, ...)
   local b, a = inp[1], inp[2]
   local ad, k = system('gels', b, a, false)
   local m, n = ad.sz[1], ad.sz[2]
   -- gels(b, a, b, a) works in place: the inputs are read before the results change shape
   for _, r in ipairs(res) do
      if rawequal(r, b) then b = b:clone() end
      if rawequal(r, a) then a = a:clone() end
   end
   -- as TH: the solution is the first n rows of a max(m, n) x k column-major buffer
   local x = colmajor('gels', res[1], ad.T, max(m, n), k, {})
   TD[x].sz[1] = n
   local ar = colmajor('gels', res[2], ad.T, m, n, inp)
   run('gels', py.gels, nd(x), nd(ar), nd(b), nd(a))
   return x, ar
end

---------------------------------------------------------------------------
-- Cholesky
---------------------------------------------------------------------------

-- potrf([res,] a [, uplo]) -> the Cholesky factor (upper: a = u' u; lower: a = l l')
function torch.potrf(...)
   local res, inp, uplo = args('potrf', 1, 1, ...)
   local ad = squarematrix('potrf', inp[1], 1, 'A')
   uplo = options('potrf', 2, {UPLO}, uplo)
   local n = ad.sz[1]
   local r = colmajor('potrf', res[1], ad.T, n, n, inp)
   run('potrf', py.potrf, nd(r), nd(inp[1]), uplo)
   return r
end

-- pstrf([res, piv,] a [, uplo [, tol]]) -> the pivoted Cholesky factor, the pivots (IntTensor)
function torch.pstrf(...)
   local res, inp, uplo, tol = args('pstrf', 2, 1, ...)
   local ad = squarematrix('pstrf', inp[1], 1, 'A')
   uplo, tol = options('pstrf', 2, {UPLO, TOL}, uplo, tol)
   local n = ad.sz[1]
   local r = colmajor('pstrf', res[1], ad.T, n, n, inp)
   local piv = vector('pstrf', res[2], types.Int, n)
   run('pstrf', py.pstrf, nd(r), nd(piv), nd(inp[1]), uplo, tol)
   return r, piv
end

-- potrs([res,] b, chol [, uplo]) -> x solving a x = b from a's Cholesky factor
function torch.potrs(...)
   local res, inp, uplo = args('potrs', 1, 2, ...)
   local b, c = inp[1], inp[2]
   local cd, k = system('potrs', b, c, true)
   uplo = options('potrs', 3, {UPLO}, uplo)
   local x = colmajor('potrs', res[1], cd.T, cd.sz[1], k, inp)
   run('potrs', py.potrs, nd(x), nd(b), nd(c), uplo)
   return x
end

-- potri([res,] chol [, uplo]) -> the inverse of a from its Cholesky factor
function torch.potri(...)
   local res, inp, uplo = args('potri', 1, 1, ...)
   local cd = squarematrix('potri', inp[1], 1, 'A')
   uplo = options('potri', 2, {UPLO}, uplo)
   local r = colmajor('potri', res[1], cd.T, cd.sz[1], cd.sz[1], inp)
   run('potri', py.potri, nd(r), nd(inp[1]), uplo)
   return r
end

---------------------------------------------------------------------------
-- eigenvalues, singular values, inverse
---------------------------------------------------------------------------

-- symeig([rese, resv,] a [, jobz [, uplo]]) -> eigenvalues (ascending), eigenvectors
function torch.symeig(...)
   local res, inp, jobz, uplo = args('symeig', 2, 1, ...)
   local ad = squarematrix('symeig', inp[1], 1, 'A')
   jobz, uplo = options('symeig', 2, {JOBZ, UPLO}, jobz, uplo)
   local n = ad.sz[1]
   local e = vector('symeig', res[1], ad.T, n)
   local v = colmajor('symeig', res[2], ad.T, n, n, inp)
   run('symeig', py.symeig, nd(e), nd(v), nd(inp[1]), jobz, uplo)
   return e, v
end

-- eig([rese, resv,] a [, jobvr]) -> eigenvalues (n x 2: real, imaginary), right eigenvectors
function torch.eig(...)
   local res, inp, jobvr = args('eig', 2, 1, ...)
   local ad = squarematrix('eig', inp[1], 1, 'A')
   jobvr = options('eig', 2, {JOBZ}, jobvr)
   local n = ad.sz[1]
   local e = colmajor('eig', res[1], ad.T, n, 2, {})
   local v = result('eig', res[2], ad.T)
   if jobvr == 'V' then v = colmajor('eig', v, ad.T, n, n, inp) end
   run('eig', py.eig, nd(e), jobvr == 'V' and nd(v) or nil, nd(inp[1]), jobvr)
   return e, v
end

-- svd([resu, ress, resv,] a [, 'S' or 'A']) -> u, s, v with a = u diag(s) v'
function torch.svd(...)
   local res, inp, job = args('svd', 3, 1, ...)
   local ad = matrix('svd', inp[1], 1, 'A')
   job = options('svd', 2, {SVDJOB}, job)
   local m, n = ad.sz[1], ad.sz[2]
   local k = min(m, n)
   local u = colmajor('svd', res[1], ad.T, m, job == 'A' and m or k, inp)
   local s = vector('svd', res[2], ad.T, k)
   -- v: the first columns of an n x n contiguous matrix, as TH narrows it
   local v = result('svd', res[3], ad.T)
   local vd = TD[v]
   resize(vd, {n, n}, 2)
   if job == 'S' then vd.sz[2] = k end
   run('svd', py.svd, nd(u), nd(s), nd(v), nd(inp[1]), job)
   return u, s, v
end

-- inverse([res,] a)
function torch.inverse(...)
   local res, inp = args('inverse', 1, 1, ...)
   local ad = squarematrix('inverse', inp[1], 1, 'A')
   local r = colmajor('inverse', res[1], ad.T, ad.sz[1], ad.sz[1], inp)
   run('inverse', py.inverse, nd(r), nd(inp[1]))
   return r
end

---------------------------------------------------------------------------
-- QR
---------------------------------------------------------------------------

-- qr([q, r,] a) -> q (m x k, orthonormal columns), r (k x n, upper triangular)
function torch.qr(...)
   local res, inp = args('qr', 2, 1, ...)
   local ad = matrix('qr', inp[1], 1, 'A')
   local m, n = ad.sz[1], ad.sz[2]
   local k = min(m, n)
   local q = colmajor('qr', res[1], ad.T, m, n, {})
   TD[q].sz[2] = k
   local r = result('qr', res[2], ad.T)
   resize(TD[r], {k, n}, 2)
   run('qr', py.qr, nd(q), nd(r), nd(inp[1]))
   return q, r
end

-- geqrf([a, tau,] a) -> the packed QR factorisation and the reflectors' scales
function torch.geqrf(...)
   local res, inp = args('geqrf', 2, 1, ...)
   local ad = matrix('geqrf', inp[1], 1, 'A')
   local m, n = ad.sz[1], ad.sz[2]
   local r = colmajor('geqrf', res[1], ad.T, m, n, inp)
   local tau = vector('geqrf', res[2], ad.T, min(m, n))
   run('geqrf', py.geqrf, nd(r), nd(tau), nd(inp[1]))
   return r, tau
end

local function checktau(fname, tau, argn, T)
   local d = TD[tau]
   if d.T ~= T or d.nd ~= 1 then
      fail("bad argument #%d to '%s' (tau: a 1-D %s expected)", argn, fname, T.tensorname)
   end
end

-- orgqr([res,] a, tau) -> Q from geqrf's output
function torch.orgqr(...)
   local res, inp = args('orgqr', 1, 2, ...)
   local ad = matrix('orgqr', inp[1], 1, 'A')
   checktau('orgqr', inp[2], 2, ad.T)
   if TD[inp[2]].sz[1] > min(ad.sz[1], ad.sz[2]) then
      fail("bad argument #2 to 'orgqr' (tau has more elements than A has columns or rows)")
   end
   local r = colmajor('orgqr', res[1], ad.T, ad.sz[1], ad.sz[2], inp)
   run('orgqr', py.orgqr, nd(r), nd(inp[1]), nd(inp[2]))
   return r
end

-- ormqr([res,] a, tau, c [, side [, trans]]) -> Q c, Q' c, c Q or c Q'
function torch.ormqr(...)
   local res, inp, side, trans = args('ormqr', 1, 3, ...)
   local ad = matrix('ormqr', inp[1], 1, 'A')
   checktau('ormqr', inp[2], 2, ad.T)
   local cd = matrix('ormqr', inp[3], 3, 'C')
   if cd.T ~= ad.T then fail("bad argument #3 to 'ormqr' (C should be a %s)", ad.T.tensorname) end
   side, trans = options('ormqr', 4, {SIDE, TRANS}, side, trans)
   local needed = side == 'L' and cd.sz[1] or cd.sz[2]
   if ad.sz[1] ~= needed or TD[inp[2]].sz[1] > needed then
      fail("bad argument #3 to 'ormqr' (C has %d %s, Q is %dx%d)", needed, side == 'L' and 'rows' or 'columns',
           ad.sz[1], ad.sz[1])
   end
   local r = colmajor('ormqr', res[1], ad.T, cd.sz[1], cd.sz[2], inp)
   run('ormqr', py.ormqr, nd(r), nd(inp[1]), nd(inp[2]), nd(inp[3]), side, trans)
   return r
end

-- the method forms: x:f(...) is torch.f(x, ...)
for _, name in ipairs{'gesv', 'trtrs', 'gels', 'potrf', 'pstrf', 'potrs', 'potri', 'symeig', 'eig',
                      'svd', 'inverse', 'qr', 'geqrf', 'orgqr', 'ormqr'} do
   local f = torch[name]
   internal.method(name, function(self, ...) return f(self, ...) end)
end

return torch
