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

local TD, SD, py, pycall, ndview, fail = internal.tensors, internal.storages, internal.py, internal.pycall,
      internal.ndview, internal.fail
local nelement, checkdim, samesize = internal.nelement, internal.checkdim, internal.samesize
local newtensor, copy, checkbounds, Tensor = internal.newtensor, internal.copy, internal.checkbounds, internal.Tensor
local result, resultsized, reducedsizes, fold, SMALL =
      dispatch.result, dispatch.resultsized, dispatch.reducedsizes, dispatch.fold, dispatch.SMALL
local type, select, unpack, tonumber, sqrt, floor = type, select, unpack, tonumber, math.sqrt, math.floor
local Long = types.Long

local function nonempty(fname, d)
   if d.nd == 0 then fail("bad argument #1 to '%s' (empty tensor)", fname) end
end

---------------------------------------------------------------------------
-- sum, prod, mean: a number, or along a dimension
---------------------------------------------------------------------------

local function add(acc, v) return acc + v end
local function mul(acc, v) return acc * v end

-- the LuaJIT loops of the whole-tensor reductions: sums of integers stay exact
-- in a double up to this limit; max and min keep a NaN once met, as TH did
local kernels = require 'torch.maths.kernels'
local LIMIT = 16384
local fastsum = kernels.op('sum', LIMIT, kernels.alltypes('acc + x', 'acc + x'))
-- floating-point sums and products in order at every size, as TH's (numpy
-- adds in pairs: another last bit)
local floatsum = kernels.op('floatsum', math.huge, kernels.floats('acc + x'))
local fastprod = kernels.op('prod', math.huge, kernels.floats('acc * x'))
local EXTREME = 8192    -- (a branch per element: beyond, numpy wins)
local fastextreme = {
   max = kernels.op('max', EXTREME, kernels.alltypes('(acc ~= acc or x <= acc) and acc or x', '(acc ~= acc or x <= acc) and acc or x')),
   min = kernels.op('min', EXTREME, kernels.alltypes('(acc ~= acc or x >= acc) and acc or x', '(acc ~= acc or x >= acc) and acc or x')),
}

-- along a dimension: the fold and its start; TH's integer products wrap in
-- 64 bits, which a double does not hold: only floating-point ones here
-- (along any dimension but the last, TH added rows into the result: a
-- FloatTensor's sums then round to float at each step)
local fastdim = {
   sum = {floatsum, 0, integer = fastsum,
          rows = kernels.op('sumrows', math.huge, {Double = 'acc + x', Float = 'f32(acc + x)'})},
   prod = {fastprod, 1, rows = kernels.op('prodrows', math.huge, {Double = 'acc * x', Float = 'f32(acc * x)'})},
}

-- (the best of a line changes seldom: the branch is predictable, and numpy's
-- argmax and take_along_axis cost several calls)
local BEST = 65536
local fastbest = {max = kernels.op('maxdim', BEST, kernels.alltypes('not (x <= best)', 'not (x <= best)')),
                  min = kernels.op('mindim', BEST, kernels.alltypes('not (x >= best)', 'not (x >= best)'))}

local function wholesum(d)
   local s = kernels.fold(d.T.integer and fastsum or floatsum, d, 0)
   if s then return s end
   if nelement(d) <= SMALL then return fold(d, add, 0) end
   return pycall(py.math_reduceall, 'sum', ndview(d))
end

local function reduction(name, whole)
   dispatch.define{
      name = name, variants = {'t', 'tn'}, scalar = {'t'},
      only = name == 'mean' and dispatch.floating or nil,
      impl = function(T, sig, res, x, dim)
         local xd = TD[x]
         if sig == 't' then return whole(xd) end
         dim = checkdim(xd, dim, 2, name)
         local r
         res, r = resultsized(T, res, reducedsizes(xd, dim))
         local k = fastdim[name == 'mean' and 'sum' or name]
         local op = k and (xd.T.integer and k.integer or dim < xd.nd and k.rows or k[1])
         if op and kernels.dimfold(op, r, xd, dim, k[2]) then
            -- a mean along a dimension is TH's sum along it, divided in the element type
            return name == 'mean' and res:div(xd.sz[dim]) or res
         end
         pycall(py.math_reducedim, name, ndview(r), ndview(xd), dim - 1)
         return res
      end,
   }
end

reduction('sum', wholesum)
reduction('prod', function(d)
   local p = kernels.fold(fastprod, d, 1)   -- floating types only
   if p then return p end
   -- integer products accumulate in int64 with wrap-around (numpy), as TH's long did
   if nelement(d) <= SMALL and not d.T.integer then return fold(d, mul, 1) end
   return pycall(py.math_reduceall, 'prod', ndview(d))
end)
reduction('mean', function(d)
   nonempty('mean', d)
   return wholesum(d) / nelement(d)
end)

-- cumsum/cumprod([res,] x [, dim]) along dim (default 1); the loops add up
-- in order in a double, as numpy's accumulate in float64 or int64 (exact
-- for integers within the limit), products of floating types only
local fastscan = {cumsum = {fastsum, 0}, cumprod = {fastprod, 1}}
for _, name in ipairs{'cumsum', 'cumprod'} do
   dispatch.define{
      name = name, variants = {'t', 'tn'},
      impl = function(T, _, res, x, dim)
         local xd = TD[x]
         local r
         res, r = result(T, res, xd)
         if xd.nd == 0 then return res end
         dim = checkdim(xd, dim or 1, 2, name)
         local k = fastscan[name]
         if kernels.dimscan(k[1], r, xd, dim, k[2]) then return res end
         pycall(py.math_reducedim, name, ndview(r), ndview(xd), dim - 1)
         return res
      end,
   }
end

---------------------------------------------------------------------------
-- var, std, norm, renorm, dist, trace, numel
---------------------------------------------------------------------------

-- TH's varall: the squared deviations from the mean added up in order, as a
-- double -> the variance, or nil when the loops do not apply
local fastsqdev = kernels.op('sqdev', LIMIT, kernels.floats('acc + (x - c) * (x - c)'))
local function wholevar(d, biased)
   local n = nelement(d)
   local s = kernels.fold(fastsum, d, 0)
   if not s then return nil end
   local dev = kernels.fold(fastsqdev, d, 0, s / n)
   return dev and dev / (biased and n or n - 1)
end

-- var/std([res,] x [, dim] [, biased]): normalised by n - 1 unless biased
for _, name in ipairs{'var', 'std'} do
   dispatch.define{
      name = name, variants = {'t', 'tb', 'tn', 'tnb'}, scalar = {'t', 'tb'}, only = dispatch.floating,
      impl = function(T, sig, res, x, a, b)
         local xd = TD[x]
         nonempty(name, xd)
         if sig == 't' or sig == 'tb' then
            local v = wholevar(xd, a == true)
            if v then return name == 'std' and sqrt(v) or v end
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
local fastsumsq = kernels.op('sumsq', math.huge, kernels.floats('acc + x * x'))
-- dist's sum of squares in order, as TH: a FloatTensor's in float
local fastdistsq = kernels.op('distsq', math.huge, {Double = 'acc + (x - y) * (x - y)',
                                                    Float = 'f32(acc + f32(f32(x - y) * f32(x - y)))'})

-- norm(x [, p]) a number; norm([res,] x, p, dim) along dim
dispatch.define{
   name = 'norm', variants = {'t', 'tn', 'tnn'}, scalar = {'t', 'tn'}, only = dispatch.floating,
   impl = function(T, sig, res, x, p, dim)
      local xd = TD[x]
      p = p or 2
      if sig ~= 'tnn' then
         if nelement(xd) == 0 then return 0 ^ (1 / p) end   -- TH's pow(0, 1/p): inf for p < 0
         local sq = p == 2 and kernels.fold(fastsumsq, xd, 0)
         if sq then return sqrt(sq) end
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
      if xd.nd < 2 then
         fail("bad argument #1 to 'renorm' (need at least 2 dimensions, got %d dimensions)", xd.nd)
      end
      local r
      res, r = result(T, res, xd)
      pycall(py.math_renorm, ndview(r), ndview(xd), p, dim - 1, maxnorm)
      return res
   end,
}

-- dist(x, y [, p]): the p-norm of x - y
dispatch.define{
   name = 'dist', variants = {'tt', 'ttn'}, scalar = {'tt', 'ttn'}, only = dispatch.floating,
   impl = function(T, _, _, x, y, p)
      local xd, yd = TD[x], TD[y]
      dispatch.samecount('dist', xd, yd)
      if nelement(xd) == 0 then return 0 ^ (1 / (p or 2)) end
      local sq = (p or 2) == 2 and kernels.fold2(fastdistsq, xd, yd, 0)
      if sq then return T == types.Float and kernels.f32(sqrt(sq)) or sqrt(sq) end
      return pycall(py.math_dist, ndview(xd), ndview(yd), p or 2)
   end,
}

-- trace(x): the sum of the diagonal of a matrix
dispatch.define{
   name = 'trace', variants = {'t'}, scalar = {'t'},
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
      -- a dimension below 1 (after C's truncation) meant the default, as in TH
      if dim ~= nil and internal.toint(dim, 3, 'cross') < 1 then dim = nil end
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

-- results(T, fname, A) -> resval, resind, index of the source argument.
-- Either result may be given alone, matched by type as Torch7 did
-- (x:max(src, 1) writes the values into x; with two tensors of T the first
-- is the values' result).
local function results(T, fname, A)
   local a, b = TD[A[1]], TD[A[2]]
   if a and b and TD[A[3]] then
      if a.T ~= T or b.T ~= Long then dispatch.argerror(fname, T, 'method', unpack(A, 1, table.maxn(A))) end
      return A[1], A[2], 3
   end
   if a and b and b.T == T then
      if a.T == T then return A[1], nil, 2 end
      if a.T == Long then return nil, A[1], 2 end
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

-- dimarg(xd, dim, argn, fname) -> the optional dimension argument, the last by default
local function dimarg(xd, dim, argn, fname)
   return checkdim(xd, optional(dim, 'number', argn, fname) or xd.nd, argn, fname)
end

-- the value and index tensors of sizes `sizes`
local function pair(T, rv, ri, sizes, nd)
   local vd, id
   rv, vd = resultsized(T, rv, sizes, nd)
   ri, id = resultsized(Long, ri, sizes, nd)
   return rv, ri, vd, id
end

local function extremum(name)
   -- a NaN wins and stays, as in TH (the accumulator starts as nil)
   local better = name == 'max' and function(acc, v)
                                       if acc == nil or (acc == acc and not (v <= acc)) then return v end
                                       return acc
                                    end
                                 or function(acc, v)
                                       if acc == nil or (acc == acc and not (v >= acc)) then return v end
                                       return acc
                                    end
   return function(T, ...)
      local A = {...}
      local rv, ri, i = results(T, name, A)
      -- Torch7's forms: (x) and ([values,] [indices,] x, dim), nothing more
      local n, last = select('#', ...), A[i + 1]
      if not (n == 1 or n == i + 1 and (type(last) == 'number' or type(last) == 'string' and tonumber(last))) then
         dispatch.argerror(name, T, 'method', ...)
      end
      local xd = source(T, name, A, i)
      local dim = A[i + 1]
      if dim == nil and not rv then
         local first = nelement(xd) > 0 and internal.element(xd, 0)
         local v = first and kernels.fold(fastextreme[name], xd, first)
         if v then return v end
         if nelement(xd) <= SMALL then
            return fold(xd, better, nil)
         end
         return pycall(py.math_reduceall, name, ndview(xd))
      end
      dim = checkdim(xd, dim, i + 1, name)
      local vd, id
      rv, ri, vd, id = pair(T, rv, ri, reducedsizes(xd, dim))
      if kernels.dimbest(fastbest[name], vd, id, xd, dim) then return rv, ri end
      pycall(py.math_extreme, name, ndview(vd), ndview(id), ndview(xd), dim - 1)
      return rv, ri
   end
end

---------------------------------------------------------------------------
-- TH's quickselect and quicksort, run here on tensors up to EXACT elements so
-- that ties (and topk's unsorted order) come out as Torch7 gave them
---------------------------------------------------------------------------

local EXACT = 65536
local EXACTSORT = 4096  -- sorting is O(n log n): numpy beyond (ties then in its stable order)
local M_SMALL = 10      -- TH's quicksort leaves partitions this small to its insertion sort

local function swap(v, ix, a, b)
   v[a], v[b] = v[b], v[a]
   ix[a], ix[b] = ix[b], ix[a]
end

-- after(a, b): a sorts after b in ascending order, a NaN after any number (GT_OR_NAN)
local function after(a, b) return (a ~= a and b == b) or a > b end
local function before(a, b) return after(b, a) end

-- moves the k-th smallest (0-based) of v[0 .. n-1] to v[k], smaller ones before it
local function quickselect(v, ix, k, n)
   local L, R = 0, n - 1
   while R > L do
      if R == L + 1 then
         if v[L] > v[R] then swap(v, ix, L, R) end
         return
      end
      swap(v, ix, floor((L + R) / 2), L + 1)        -- median of three as the pivot
      if v[L + 1] > v[R] then swap(v, ix, L + 1, R) end
      if v[L] > v[R] then swap(v, ix, L, R) end
      if v[L + 1] > v[L] then swap(v, ix, L + 1, L) end
      local i, j, piv = L + 1, R, v[L]
      while true do
         repeat i = i + 1 until not (v[i] < piv)
         repeat j = j - 1 until not (v[j] > piv)
         if j < i then break end
         swap(v, ix, i, j)
      end
      swap(v, ix, L, j)
      if j <= k then L = i end
      if j >= k then R = j - 1 end
   end
end

-- sorts v[o .. o+n-1] so that no element is `later` than its successor
local function quicksort(v, ix, o, n, later)
   local beg, fin, stack = {}, {}, 0
   local L, R = o, o + n - 1
   local done = n - 1 <= M_SMALL
   while not done do
      swap(v, ix, floor((L + R) / 2), L + 1)
      if later(v[L + 1], v[R]) then swap(v, ix, L + 1, R) end
      if later(v[L], v[R]) then swap(v, ix, L, R) end
      if later(v[L + 1], v[L]) then swap(v, ix, L + 1, L) end
      local i, j, piv = L + 1, R, v[L]
      while true do
         repeat i = i + 1 until not later(piv, v[i])
         repeat j = j - 1 until not later(v[j], piv)
         if j < i then break end
         swap(v, ix, i, j)
      end
      swap(v, ix, L, j)
      local left, right = j - L, R - i + 1
      if left <= M_SMALL and right <= M_SMALL then
         if stack == 0 then
            done = true
         else
            stack = stack - 1
            L, R = beg[stack], fin[stack]
         end
      elseif left <= M_SMALL or right <= M_SMALL then
         if left > right then R = j - 1 else L = i end
      elseif left > right then
         beg[stack], fin[stack], stack, L = L, j - 1, stack + 1, i
      else
         beg[stack], fin[stack], stack, R = i, R, stack + 1, j - 1
      end
   end
   local last = o + n
   for i = last - 2, o, -1 do
      if later(v[i], v[i + 1]) then
         local piv, pid, j = v[i], ix[i], i + 1
         repeat
            v[j - 1], ix[j - 1] = v[j], ix[j]
            j = j + 1
         until not (j < last and later(piv, v[j]))
         v[j - 1], ix[j - 1] = piv, pid
      end
   end
end

-- rowwise(T, x, dim, rv, ri, m, f): for each row of x along dim, f(v, ix, n)
-- reorders the values v[0 .. n-1] and their 0-based indices ix and returns the
-- position of the m entries that go to rv and ri (already of their sizes)
local function rowwise(T, x, dim, rv, ri, m, f)
   local nd = TD[x].nd
   local sd = TD[Tensor.contiguous(Tensor.transpose(x, dim, nd))]
   local n = sd.sz[nd]
   local sizes = {unpack(sd.sz, 1, nd)}
   sizes[nd] = m
   local vd, id = TD[newtensor(T, sizes, nd)], TD[newtensor(Long, sizes, nd)]
   checkbounds(sd)
   local sp, vp, ip = SD[sd.st].ptr, SD[vd.st].ptr, SD[id.st].ptr
   local v, ix = {}, {}
   for r = 0, nelement(sd) / n - 1 do
      local base, out = sd.off + r * n, r * m
      for i = 0, n - 1 do v[i], ix[i] = tonumber(sp[base + i]), i end
      local first = f(v, ix, n)
      for i = 0, m - 1 do
         vp[vd.off + out + i] = v[first + i]
         ip[id.off + out + i] = ix[first + i] + 1
      end
   end
   copy(TD[Tensor.transpose(rv, dim, nd)], vd)
   copy(TD[Tensor.transpose(ri, dim, nd)], id)
end

-- kth smallest along dim (default last): median is k = (n + 1) / 2, rounded down
local function kth(fname, T, A, rv, ri, i, k, dim)
   local xd = source(T, fname, A, i)
   dim = checkdim(xd, dim or xd.nd, i + 1, fname)
   k = k or math.floor((xd.sz[dim] + 1) / 2)
   k = internal.toint(k, i + 1, fname)
   if k < 1 or k > xd.sz[dim] then fail("bad argument #%d to '%s' (k out of range)", i + 1, fname) end
   local vd, id
   rv, ri, vd, id = pair(T, rv, ri, reducedsizes(xd, dim))
   if nelement(xd) <= EXACT then
      rowwise(T, A[i], dim, rv, ri, 1, function(v, ix, n)
         quickselect(v, ix, k - 1, n)
         return k - 1
      end)
   else
      pycall(py.math_kthvalue, ndview(vd), ndview(id), ndview(xd), k, dim - 1)
   end
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
      local dim = dimarg(xd, A[i + 1], i + 1, 'mode')
      local vd, id
      rv, ri, vd, id = pair(T, rv, ri, reducedsizes(xd, dim))
      if nelement(xd) > EXACT then
         pycall(py.math_mode, ndview(vd), ndview(id), ndview(xd), dim - 1)
         return rv, ri
      end
      -- the last of the longest run in TH's sorted order (the first such run on ties)
      rowwise(T, A[i], dim, rv, ri, 1, function(v, ix, n)
         quicksort(v, ix, 0, n, after)
         local best, bestrun, run = 0, 0, 0
         for k = 0, n - 1 do
            run = run + 1
            if k == n - 1 or v[k] ~= v[k + 1] then
               if run > bestrun then best, bestrun = k, run end
               run = 0
            end
         end
         return best
      end)
      return rv, ri
   end,

   -- sort([resval, resind,] x [, dim] [, descending])
   sort = function(T, ...)
      local A = {...}
      local rv, ri, i = results(T, 'sort', A)
      local xd = source(T, 'sort', A, i)
      local dim, desc = A[i + 1], A[i + 2]
      if type(dim) == 'boolean' then dim, desc = nil, dim end
      dim = dimarg(xd, dim, i + 1, 'sort')
      local vd, id
      rv, ri, vd, id = pair(T, rv, ri, xd.sz, xd.nd)
      if nelement(xd) > EXACTSORT then
         pycall(py.math_sort, ndview(vd), ndview(id), ndview(xd), dim - 1, desc == true)
         return rv, ri
      end
      rowwise(T, A[i], dim, rv, ri, xd.sz[dim], function(v, ix, n)
         quicksort(v, ix, 0, n, desc == true and before or after)
         return 0
      end)
      return rv, ri
   end,

   -- topk([resval, resind,] x, k [, dim] [, largest] [, sorted]): unsorted, the
   -- k entries come in quickselect's order, as in TH
   topk = function(T, ...)
      local A = {...}
      local rv, ri, i = results(T, 'topk', A)
      local xd = source(T, 'topk', A, i)
      -- k (1 by default) and dim are the numbers, largest and sorted the booleans
      local j, k, dim, largest, sorted = i + 1, 1, nil, false, false
      if type(A[j]) == 'number' then
         k, j = A[j], j + 1
         if type(A[j]) == 'number' then dim, j = A[j], j + 1 end
      end
      if type(A[j]) == 'boolean' then
         largest, j = A[j], j + 1
         if type(A[j]) == 'boolean' then sorted, j = A[j], j + 1 end
      end
      if A[j] ~= nil then
         fail("bad argument #%d to 'topk' (number or boolean expected, got %s)", j, torch.type(A[j]))
      end
      dim = dimarg(xd, dim, i + 2, 'topk')
      k = internal.toint(k, i + 1, 'topk')
      if k < 1 or k > xd.sz[dim] then fail("bad argument #%d to 'topk' (k out of range)", i + 1) end
      local sizes = {unpack(xd.sz, 1, xd.nd)}
      sizes[dim] = k
      local vd, id
      rv, ri, vd, id = pair(T, rv, ri, sizes, xd.nd)
      if nelement(xd) > EXACT then
         pycall(py.math_topk, ndview(vd), ndview(id), ndview(xd), k, dim - 1, largest)
         return rv, ri
      end
      rowwise(T, A[i], dim, rv, ri, k, function(v, ix, n)
         if not largest then
            quickselect(v, ix, k - 1, n)
            if sorted then quicksort(v, ix, 0, k - 1, after) end
            return 0
         end
         local first = n - k
         if first > 0 then quickselect(v, ix, first - 1, n) end
         if sorted then quicksort(v, ix, first, k, before) end
         return first
      end)
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
