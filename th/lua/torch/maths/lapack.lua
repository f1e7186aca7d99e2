-- LAPACK through LuaJIT's FFI: the Fortran routines TH's THTensorLapack.c
-- calls, from the system's OpenBLAS (Debian's libopenblas0 exports them
-- beside its CBLAS: the library Torch7 ran, so its results have Torch7's
-- bits).  Fortran takes every argument by pointer, matrices column-major,
-- and after them one hidden length per character argument.  Without that
-- library lapack.routines answers nil and torch/linalg.lua runs the Python
-- path (scipy's LAPACK).
local ffi = require 'ffi'
local internal = require 'torch.internal'
local types = require 'torch.types'

local SD = internal.storages

local lapack = {}

local DECLARATIONS = [[
void Xgesv_(const int *n, const int *nrhs, R *a, const int *lda, int *ipiv, R *b, const int *ldb, int *info);
void Xtrtrs_(const char *uplo, const char *trans, const char *diag, const int *n, const int *nrhs,
             const R *a, const int *lda, R *b, const int *ldb, int *info, size_t, size_t, size_t);
void Xgels_(const char *trans, const int *m, const int *n, const int *nrhs, R *a, const int *lda,
            R *b, const int *ldb, R *work, const int *lwork, int *info, size_t);
void Xgetrf_(const int *m, const int *n, R *a, const int *lda, int *ipiv, int *info);
void Xgetri_(const int *n, R *a, const int *lda, const int *ipiv, R *work, const int *lwork, int *info);
void Xpotrf_(const char *uplo, const int *n, R *a, const int *lda, int *info, size_t);
void Xpotri_(const char *uplo, const int *n, R *a, const int *lda, int *info, size_t);
void Xpotrs_(const char *uplo, const int *n, const int *nrhs, const R *a, const int *lda,
             R *b, const int *ldb, int *info, size_t);
void Xpstrf_(const char *uplo, const int *n, R *a, const int *lda, int *piv, int *rank,
             const R *tol, R *work, int *info, size_t);
void Xgeqrf_(const int *m, const int *n, R *a, const int *lda, R *tau, R *work, const int *lwork, int *info);
void Xorgqr_(const int *m, const int *n, const int *k, R *a, const int *lda, const R *tau,
             R *work, const int *lwork, int *info);
void Xormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k,
             const R *a, const int *lda, const R *tau, R *c, const int *ldc, R *work,
             const int *lwork, int *info, size_t, size_t);
void Xsyev_(const char *jobz, const char *uplo, const int *n, R *a, const int *lda, R *w,
            R *work, const int *lwork, int *info, size_t, size_t);
void Xgeev_(const char *jobvl, const char *jobvr, const int *n, R *a, const int *lda, R *wr, R *wi,
            R *vl, const int *ldvl, R *vr, const int *ldvr, R *work, const int *lwork, int *info,
            size_t, size_t);
void Xgesvd_(const char *jobu, const char *jobvt, const int *m, const int *n, R *a, const int *lda,
             R *s, R *u, const int *ldu, R *vt, const int *ldvt, R *work, const int *lwork,
             int *info, size_t, size_t);
]]
local ROUTINES = {'gesv', 'trtrs', 'gels', 'getrf', 'getri', 'potrf', 'potri', 'potrs', 'pstrf',
                  'geqrf', 'orgqr', 'ormqr', 'syev', 'geev', 'gesvd'}
ffi.cdef((DECLARATIONS:gsub('X(%w+_)', 'd%1'):gsub('%f[%w]R%f[%W]', 'double')))
ffi.cdef((DECLARATIONS:gsub('X(%w+_)', 's%1'):gsub('%f[%w]R%f[%W]', 'float')))

local fns      -- [T] = {routine = function}; false when there is no system LAPACK
local function resolve(lib)
   local found = {[types.Double] = {}, [types.Float] = {}}
   for _, r in ipairs(ROUTINES) do
      found[types.Double][r], found[types.Float][r] = lib['d' .. r .. '_'], lib['s' .. r .. '_']
   end
   return found
end

local function load()
   if fns == nil then
      fns = false
      local path = internal.py.system_blas_library()
      local ok, lib = pcall(ffi.load, path or '')
      if path and ok then
         -- resolved once (as cblas.lua: a computed name stops the JIT); a
         -- library without LAPACK leaves the Python path
         local resolved, found = pcall(resolve, lib)
         fns = resolved and found
         -- (the count OpenBLAS takes by itself, on which the routines' bits depend)
         if fns then require('torch.maths.cblas').widen() end
      end
   end
   return fns
end

-- routines(T) -> the routines for elements of type T (Float or Double), or nil
function lapack.routines(T)
   return load() and fns[T]
end

---------------------------------------------------------------------------
-- arguments: Fortran's pointers
---------------------------------------------------------------------------

-- int scalars passed by pointer: a few cells reused by every call (each
-- argument gets its own cell within a call)
local ints = ffi.new('int[16]')
local nints = 0

-- I(v) -> a pointer to an int holding v
function lapack.I(v)
   nints = nints % 16
   ints[nints] = v
   nints = nints + 1
   return ints + nints - 1
end

local info = ffi.new('int[1]')

-- info() -> the cell LAPACK writes its status to, cleared
function lapack.info()
   info[0] = 0
   return info
end

---------------------------------------------------------------------------
-- scratch: th storages kept per type and use, grown as needed
---------------------------------------------------------------------------

local scratchs = {}

-- scratch(T, use, n) -> a pointer to at least n elements of type T (their
-- values undefined); use names the buffer, distinct for buffers used together
function lapack.scratch(T, use, n)
   local byuse = scratchs[T]
   if not byuse then byuse = {} scratchs[T] = byuse end
   local st = byuse[use]
   if not st or SD[st].n < n then
      st = internal.newstorage(T, math.max(n, 1), true)
      byuse[use] = st
   end
   return SD[st].ptr
end

-- workspace(T, query) -> a pointer and the size for LAPACK's work argument,
-- the size the routine asked for in query[0] when called with lwork = -1 (as
-- TH asked it)
function lapack.workspace(T, query)
   local n = math.max(1, math.floor(tonumber(query[0])))
   return lapack.scratch(T, 'work', n), n
end


return lapack
