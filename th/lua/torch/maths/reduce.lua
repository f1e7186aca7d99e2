-- Dimension-wise and matrix-wide operations: sum, prod, mean, max, min,
-- cumsum, cumprod, median, mode, kthvalue, sort, topk, var, std, cross,
-- norm, renorm, dist, trace, numel.
-- Without a dimension a reduction returns a Lua number (integer tensors sum
-- in 64-bit integers: a ByteTensor does not wrap); along a dimension it
-- returns a tensor whose size in that dimension is 1.  The functions giving
-- values and indices accept [resval, resind,] first; indices are LongTensors.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'
local dispatch = require 'torch.maths.dispatch'

local TD, py, pycall, ndview, fail = internal.tensors, internal.py, internal.pycall, internal.ndview, internal.fail
local nelement, checkdim, samesize = internal.nelement, internal.checkdim, internal.samesize
local result, resultsized, reducedsizes, fold, SMALL =
      dispatch.result, dispatch.resultsized, dispatch.reducedsizes, dispatch.fold, dispatch.SMALL
local type, select, unpack, sqrt = type, select, unpack, math.sqrt
local Long = types.Long

local function nonempty(fname, d)
   if d.nd == 0 then fail("bad argument #1 to '%s' (empty tensor)", fname) end
end

---------------------------------------------------------------------------
-- sum, prod, mean: a number, or along a dimension
---------------------------------------------------------------------------

local function add(acc, v) return acc + v end
local function mul(acc, v) return acc * v end

local function wholesum(d)
   if nelement(d) <= SMALL then return fold(d, add, 0) end
   return pycall(py.math_reduceall, 'sum', ndview(d))
end

local function reduction(name, whole)
   dispatch.define{
      name = name, variants = {'t', 'tn'},
      only = name == 'mean' and dispatch.floating or nil,
      impl = function(T, sig, res, x, dim)
         local xd = TD[x]
         if sig == 't' then return whole(xd) end
         dim = checkdim(xd, dim, 2, name)
         local r
         res, r = resultsized(T, res, reducedsizes(xd, dim))
         pycall(py.math_reducedim, name, ndview(r), ndview(xd), dim - 1)
         return res
      end,
   }
end

reduction('sum', wholesum)
reduction('prod', function(d)
   if nelement(d) <= SMALL then return fold(d, mul, 1) end
   return pycall(py.math_reduceall, 'prod', ndview(d))
end)
reduction('mean', function(d)
   nonempty('mean', d)
   return wholesum(d) / nelement(d)
end)

-- cumsum/cumprod([res,] x [, dim]) along dim (default 1)
for _, name in ipairs{'cumsum', 'cumprod'} do
   dispatch.define{
      name = name, variants = {'t', 'tn'},
      impl = function(T, _, res, x, dim)
         local xd = TD[x]
         local r
         res, r = result(T, res, xd)
         if xd.nd == 0 then return res end
         dim = checkdim(xd, dim or 1, 2, name)
         pycall(py.math_reducedim, name, ndview(r), ndview(xd), dim - 1)
         return res
      end,
   }
end

---------------------------------------------------------------------------
-- var, std, norm, renorm, dist, trace, numel
---------------------------------------------------------------------------

-- var/std([res,] x [, dim] [, biased]): normalised by n - 1 unless biased
for _, name in ipairs{'var', 'std'} do
   dispatch.define{
      name = name, variants = {'t', 'tb', 'tn', 'tnb'}, only = dispatch.floating,
      impl = function(T, sig, res, x, a, b)
         local xd = TD[x]
         nonempty(name, xd)
         if sig == 't' or sig == 'tb' then
            return pycall(py.math_var, ndview(xd), -1, a == true, name == 'std')
         end
         local dim = checkdim(xd, a, 2, name)
         local r
         res, r = resultsized(T, res, reducedsizes(xd, dim))
         pycall(py.math_var, ndview(xd), dim - 1, b == true, name == 'std', ndview(r))
         return res
      end,
   }
end

local function sumsq(acc, v) return acc + v * v end

-- norm(x [, p]) a number; norm([res,] x, p, dim) along dim
dispatch.define{
   name = 'norm', variants = {'t', 'tn', 'tnn'}, only = dispatch.floating,
   impl = function(T, sig, res, x, p, dim)
      local xd = TD[x]
      p = p or 2
      if sig ~= 'tnn' then
         if nelement(xd) == 0 then return 0 end
         if p == 2 and nelement(xd) <= SMALL then return sqrt(fold(xd, sumsq, 0)) end
         return pycall(py.math_norm, ndview(xd), p, -1)
      end
      dim = checkdim(xd, dim, 3, 'norm')
      local r
      res, r = resultsized(T, res, reducedsizes(xd, dim))
      pycall(py.math_norm, ndview(xd), p, dim - 1, ndview(r))
      return res
   end,
}

-- renorm([res,] x, p, dim, maxnorm): slices along dim scaled to p-norms <= maxnorm
dispatch.define{
   name = 'renorm', inplace = true, variants = {'tnnn'}, only = dispatch.floating,
   impl = function(T, _, res, x, p, dim, maxnorm)
      local xd = TD[x]
      dim = checkdim(xd, dim, 2, 'renorm')
      if p <= 0 then fail("bad argument #2 to 'renorm' (non-positive norm)") end
      local r
      res, r = result(T, res, xd)
      pycall(py.math_renorm, ndview(r), ndview(xd), p, dim - 1, maxnorm)
      return res
   end,
}

-- dist(x, y [, p]): the p-norm of x - y
dispatch.define{
   name = 'dist', variants = {'tt', 'ttn'}, only = dispatch.floating,
   impl = function(T, _, _, x, y, p)
      local xd, yd = TD[x], TD[y]
      dispatch.samecount('dist', xd, yd)
      if nelement(xd) == 0 then return 0 end
      return pycall(py.math_dist, ndview(xd), ndview(yd), p or 2)
   end,
}

-- trace(x): the sum of the diagonal of a matrix
dispatch.define{
   name = 'trace', variants = {'t'},
   impl = function(T, _, _, x)
      local xd = TD[x]
      if xd.nd ~= 2 then fail("bad argument #1 to 'trace' (matrix expected, got %dD tensor)", xd.nd) end
      local n = xd.sz[1] < xd.sz[2] and xd.sz[1] or xd.sz[2]
      local diag = internal.wraptensor(T, xd.st, xd.off, 1, {n}, {xd.str[1] + xd.str[2]})
      return wholesum(TD[diag])
   end,
}

function torch.numel(x)
   return nelement(internal.checktensor(x, 1, 'numel'))
end

---------------------------------------------------------------------------
-- cross
---------------------------------------------------------------------------

-- cross([res,] a, b [, dim]): along dim, by default the first of size 3
dispatch.define{
   name = 'cross', variants = {'tt', 'ttn'},
   impl = function(T, _, res, a, b, dim)
      local ad, bd = TD[a], TD[b]
      if not samesize(ad, bd) then fail("inconsistent tensor sizes in 'cross'") end
      if dim == nil then
         for i = 1, ad.nd do
            if ad.sz[i] == 3 then dim = i break end
         end
         if not dim then fail("bad argument #1 to 'cross' (no dimension of size 3)") end
      end
      dim = checkdim(ad, dim, 3, 'cross')
      if ad.sz[dim] ~= 3 then fail("bad argument #3 to 'cross' (dimension %d does not have size 3)", dim) end
      local r
      res, r = result(T, res, ad)
      pycall(py.math_cross, ndview(r), ndview(ad), ndview(bd), dim - 1)
      return res
   end,
}

---------------------------------------------------------------------------
-- values and indices: max, min, median, mode, kthvalue, sort, topk
---------------------------------------------------------------------------

-- results(T, fname, A) -> resval, resind, index of the source argument
local function results(T, fname, A)
   local a, b = TD[A[1]], TD[A[2]]
   if a and b and TD[A[3]] then
      if a.T ~= T then fail("bad argument #1 to '%s' (%s expected)", fname, T.tensorname) end
      if b.T ~= Long then fail("bad argument #2 to '%s' (torch.LongTensor expected)", fname) end
      return A[1], A[2], 3
   end
   return nil, nil, 1
end

local function source(T, fname, A, i)
   local d = TD[A[i]]
   if not d or d.T ~= T then
      fail("bad argument #%d to '%s' (%s expected, got %s)", i, fname, T.tensorname, torch.type(A[i]))
   end
   nonempty(fname, d)
   return d
end

local function optional(v, kind, argn, fname)
   if v ~= nil and type(v) ~= kind then
      fail("bad argument #%d to '%s' (%s expected, got %s)", argn, fname, kind, type(v))
   end
   return v
end

-- the value and index tensors of sizes `sizes`
local function pair(T, rv, ri, sizes, nd)
   local vd, id
   rv, vd = resultsized(T, rv, sizes, nd)
   ri, id = resultsized(Long, ri, sizes, nd)
   return rv, ri, vd, id
end

local function extremum(name)
   -- a NaN wins, as in TH (the accumulator starts as nil)
   local better = name == 'max' and function(acc, v) if acc == nil or not (v <= acc) then return v end return acc end
                                 or function(acc, v) if acc == nil or not (v >= acc) then return v end return acc end
   return function(T, ...)
      local A = {...}
      local rv, ri, i = results(T, name, A)
      local xd = source(T, name, A, i)
      local dim = A[i + 1]
      if dim == nil and not rv then
         if nelement(xd) <= SMALL then
            return fold(xd, better, nil)
         end
         return pycall(py.math_reduceall, name, ndview(xd))
      end
      dim = checkdim(xd, dim, i + 1, name)
      local vd, id
      rv, ri, vd, id = pair(T, rv, ri, reducedsizes(xd, dim))
      pycall(py.math_extreme, name, ndview(vd), ndview(id), ndview(xd), dim - 1)
      return rv, ri
   end
end

-- kth smallest along dim (default last): median is k = (n + 1) / 2, rounded down
local function kth(fname, T, A, rv, ri, i, k, dim)
   local xd = source(T, fname, A, i)
   dim = checkdim(xd, dim or xd.nd, i + 1, fname)
   k = k or math.floor((xd.sz[dim] + 1) / 2)
   if k < 1 or k > xd.sz[dim] then fail("bad argument #%d to '%s' (k out of range)", i + 1, fname) end
   local vd, id
   rv, ri, vd, id = pair(T, rv, ri, reducedsizes(xd, dim))
   pycall(py.math_kthvalue, ndview(vd), ndview(id), ndview(xd), k, dim - 1)
   return rv, ri
end

local valued = {
   max = extremum('max'),
   min = extremum('min'),

   median = function(T, ...)
      local A = {...}
      local rv, ri, i = results(T, 'median', A)
      return kth('median', T, A, rv, ri, i, nil, optional(A[i + 1], 'number', i + 1, 'median'))
   end,

   kthvalue = function(T, ...)
      local A = {...}
      local rv, ri, i = results(T, 'kthvalue', A)
      internal.checknumber(A[i + 1], i + 1, 'kthvalue')
      return kth('kthvalue', T, A, rv, ri, i, A[i + 1], optional(A[i + 2], 'number', i + 2, 'kthvalue'))
   end,

   mode = function(T, ...)
      local A = {...}
      local rv, ri, i = results(T, 'mode', A)
      local xd = source(T, 'mode', A, i)
      local dim = checkdim(xd, optional(A[i + 1], 'number', i + 1, 'mode') or xd.nd, i + 1, 'mode')
      local vd, id
      rv, ri, vd, id = pair(T, rv, ri, reducedsizes(xd, dim))
      pycall(py.math_mode, ndview(vd), ndview(id), ndview(xd), dim - 1)
      return rv, ri
   end,

   -- sort([resval, resind,] x [, dim] [, descending])
   sort = function(T, ...)
      local A = {...}
      local rv, ri, i = results(T, 'sort', A)
      local xd = source(T, 'sort', A, i)
      local dim, desc = A[i + 1], A[i + 2]
      if type(dim) == 'boolean' then dim, desc = nil, dim end
      dim = checkdim(xd, optional(dim, 'number', i + 1, 'sort') or xd.nd, i + 1, 'sort')
      local vd, id
      rv, ri, vd, id = pair(T, rv, ri, xd.sz, xd.nd)
      pycall(py.math_sort, ndview(vd), ndview(id), ndview(xd), dim - 1, desc == true)
      return rv, ri
   end,

   -- topk([resval, resind,] x, k [, dim] [, largest] [, sorted]): always sorted here
   topk = function(T, ...)
      local A = {...}
      local rv, ri, i = results(T, 'topk', A)
      local xd = source(T, 'topk', A, i)
      local k = internal.checknumber(A[i + 1], i + 1, 'topk')
      local dim = checkdim(xd, optional(A[i + 2], 'number', i + 2, 'topk') or xd.nd, i + 2, 'topk')
      local largest = optional(A[i + 3], 'boolean', i + 3, 'topk')
      if k < 1 or k > xd.sz[dim] then fail("bad argument #%d to 'topk' (k out of range)", i + 1) end
      local sizes = {unpack(xd.sz, 1, xd.nd)}
      sizes[dim] = k
      local vd, id
      rv, ri, vd, id = pair(T, rv, ri, sizes, xd.nd)
      pycall(py.math_topk, ndview(vd), ndview(id), ndview(xd), k, dim - 1, largest == true)
      return rv, ri
   end,
}

for name, f in pairs(valued) do
   torch[name] = function(...)
      return f(dispatch.firsttype(select('#', ...), ...), ...)
   end
   for i = 1, types.count do
      local T = types[i]
      torch.getmetatable(T.tensorname)[name] = function(...) return f(T, ...) end
   end
end
