-- Dimension-wise and matrix-wide operations: sum, prod, mean, max, min,
-- cumsum, cumprod, median, mode, kthvalue, sort, topk, var, std, cross,
-- norm, renorm, dist, trace, numel.
-- Without a dimension a reduction returns a Lua number (integer tensors sum
-- in 64-bit integers: a ByteTensor does not wrap); along a dimension it
-- returns a tensor whose size in that dimension is 1.  The functions giving
-- values and indices accept [resval, resind,] first; indices are LongTensors.
local torch = require 'torch'
local ffi = require 'ffi'
local types = require 'torch.types'
local internal = require 'torch.internal'
local dispatch = require 'torch.maths.dispatch'
local argtable = dispatch.argtable
local lines = require 'torch.maths.lines'
local vectorloops = require 'torch.maths.vectorloops'
local longloops = require 'torch.maths.longloops'

local TD, py, pycall, ndview, fail = internal.tensors, internal.py, internal.pycall,
      internal.ndview, internal.fail
local nelement, samesize = internal.nelement, internal.samesize
local newtensor, copy, checkbounds, Tensor = internal.newtensor, internal.copy, internal.checkbounds, internal.Tensor
local result, resultsized, reducedsizes, reduced, fold, SMALL =
      dispatch.result, dispatch.resultsized, dispatch.reducedsizes, dispatch.reduced, dispatch.fold, dispatch.SMALL
local type, select, unpack, tonumber, sqrt, floor = type, select, unpack, tonumber, math.sqrt, math.floor
local Long = types.Long
local C = require 'torch.maths.libm'
local f32 = require('torch.maths.kernels').f32

local function nonempty(fname, d)
   if d.nd == 0 then fail("bad argument #1 to '%s' (empty Tensor)", fname) end
end

-- indim(xd, dim, argn, fname, why [, thargn]) -> dim, in range as TH checked
-- it, in its words (why: 'invalid dimension %d', 'dimension out of range'...),
-- numbered thargn when given: the number of TH's own check, whatever results
-- the call gave (argn: the dimension's place in the call)
local function indim(xd, dim, argn, fname, why, thargn)
   dim = internal.toint(dim, argn, fname)
   if dim < 1 or dim > xd.nd then fail("bad argument #%d to '%s' (" .. why .. ")", thargn or argn, fname, dim) end
   return dim
end
local OUTOFRANGE, INVALID = 'dimension %d out of range', 'invalid dimension %d'

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
local EXTREME = 8192    -- (beyond, numpy's vector loops win)
-- max and min without a branch per element (math.max and min), four
-- running values side by side; nil when a NaN is met or the result is a
-- zero (whose sign depends on which of +0 and -0 came first): the loop
-- above then gives TH's answer
kernels.template('extreme4', [[local pick = %s
return function(xp, n, acc)
   local a0, a1, a2, a3 = acc, acc, acc, acc
   local last = n - n %% 4
   for i = 0, last - 1, 4 do
      local x0, x1, x2, x3 = xp[i], xp[i + 1], xp[i + 2], xp[i + 3]
      if x0 ~= x0 or x1 ~= x1 or x2 ~= x2 or x3 ~= x3 then return nil end
      a0 = pick(a0, x0); a1 = pick(a1, x1); a2 = pick(a2, x2); a3 = pick(a3, x3)
   end
   for i = last, n - 1 do
      local x = xp[i]
      if x ~= x then return nil end
      a0 = pick(a0, x)
   end
   acc = pick(pick(a0, a1), pick(a2, a3))
   if acc == 0 then return nil end
   return acc
end]])
local extreme4 = {max = kernels.op('max4', EXTREME, kernels.alltypes('max', 'max')),
                  min = kernels.op('min4', EXTREME, kernels.alltypes('min', 'min'))}
-- a LongTensor's largest or smallest element as the Lua number it is read
-- as: tonumber never reverses two values' order, so the best of the numbers
-- is the best's number (64-bit values are not Lua numbers: no loop above)
local longextreme = {}
for name, pick in pairs{max = math.max, min = math.min} do
   longextreme[name] = function(p, n)
      local acc = tonumber(p[0])
      for i = 1, n - 1 do acc = pick(acc, tonumber(p[i])) end
      return acc
   end
end
local fastextreme = {
   max = kernels.op('max', EXTREME, kernels.alltypes('(acc ~= acc or x <= acc) and acc or x', '(acc ~= acc or x <= acc) and acc or x')),
   min = kernels.op('min', EXTREME, kernels.alltypes('(acc ~= acc or x >= acc) and acc or x', '(acc ~= acc or x >= acc) and acc or x')),
}

-- along a dimension: the fold and its start, integer sums in the loops
-- within the limit; TH's integer products wrap in 64 bits, which a double
-- does not hold (numpy's then).  Floating-point lines add up in order in a
-- double (lines.lua), except where TH added a FloatTensor's rows into the
-- float result: along a dimension whose stride is not 1
local fastdim = {sum = {fastsum, 0}, prod = {nil, 1}}
local function lineop(name, e, rows)
   local double = kernels.op(name, math.huge, {Double = e, Float = e})
   double.rows = rows
   local float = kernels.op(name .. 'float', math.huge, {Float = 'f32(' .. e .. ')'})
   float.rows = rows
   return {Double = double, Float = kernels.op(name .. 'double', math.huge, {Float = e}), rows = float}
end
-- (`rows`: numpy's loop of the operation, which adds a row of x into the result as TH did)
local lineops = {sum = lineop('linesum', 'acc + x', 'add'), prod = lineop('lineprod', 'acc * x', 'mul')}
local function linefold(name, r, x, dim)
   local ops = lineops[name]
   local op = x.T == types.Float and x.str[dim] ~= 1 and ops.rows or ops[x.T.name]
   return op and lines.fold(op, r, x, dim, fastdim[name][2])
end

-- (the best of a line changes seldom: the branch is predictable, and numpy's
-- argmax and take_along_axis cost several calls)
local BEST = 65536
local fastbest = {max = kernels.op('maxdim', BEST, kernels.alltypes('not (x <= best)', 'not (x <= best)')),
                  min = kernels.op('mindim', BEST, kernels.alltypes('not (x >= best)', 'not (x >= best)'))}
fastbest.max.simd, fastbest.min.simd = 'max', 'min'   -- (numpy's loops: simd.rowbest)

-- a contiguous integer tensor's sum (TH's was exact, in a long): elements
-- added in groups of four (LuaJIT adds such int32 loads as integers, its
-- overflow check falling back to doubles, exact too), each group's sum into one
-- of two running doubles, exact while they stay below 2^53: up to 2^22
-- elements of 32 bits.  (The op's expressions only name the types.)
kernels.template('exactsum', [[return function(xp, n, acc)
   local a0, a1 = acc, 0
   local last = n - n %% 8
   for i = 0, last - 1, 8 do
      a0 = a0 + ((xp[i] + xp[i + 1]) + (xp[i + 2] + xp[i + 3]))
      a1 = a1 + ((xp[i + 4] + xp[i + 5]) + (xp[i + 6] + xp[i + 7]))
   end
   for i = last, n - 1 do a0 = a0 + xp[i] end
   return a0 + a1
end]])
local exactsum = kernels.op('exactsum', 2^22, {Byte = '', Char = '', Short = '', Int = ''})
local function intsum(d)
   local n = nelement(d)
   local p = n <= exactsum.limit and exactsum.exprs[d.T.name] and kernels.flat(d)
   return p and kernels.run('exactsum', exactsum, d.T, nil, p, n, 0)
end

local function wholesum(d)
   -- (a LongTensor's sum is exact in doubles within a bound, else numpy's wraps as TH's long)
   if d.T == Long then return longloops.sum(d) or pycall(py.math_reduceall, 'sum', ndview(d)) end
   local s = d.T.integer and intsum(d) or lines.whole(floatsum, d, 0)
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
         dim = indim(xd, dim, 2, name, name == 'mean' and INVALID or OUTOFRANGE)
         local r
         res, r = reduced(T, res, xd, dim)
         local base = name == 'mean' and 'sum' or name
         local k = fastdim[base]
         -- (TH's sum and prod along a dimension of a stride other than 1 set
         -- the result to 0 or 1, then added the rows into it: into x itself,
         -- resized by then, that left the 0s or 1s)
         if r == xd and xd.str[dim] ~= 1 then return res:fill(k[2]) end
         if linefold(base, r, xd, dim) or base == 'sum' and longloops.sumdim(r, xd, dim)
            or k[1] and kernels.dimfold(k[1], r, xd, dim, k[2]) then
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
   local p = lines.whole(fastprod, d, 1)   -- floating types only
   if p then return p end
   -- integer products accumulate in int64 with wrap-around, as TH's long did
   p = d.T.integer and longloops.prod(d)
   if p then return p end
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
local fastscan = {cumsum = {fastsum, 0, kernels.op('linecumsum', math.huge, kernels.floats('acc + x'))},
                  cumprod = {fastprod, 1, kernels.op('linecumprod', math.huge, kernels.floats('acc * x'))}}
for _, name in ipairs{'cumsum', 'cumprod'} do
   dispatch.define{
      name = name, variants = {'t', 'tn'},
      impl = function(T, _, res, x, dim)
         local xd = TD[x]
         local r
         dim = indim(xd, dim or 1, 2, name, OUTOFRANGE)   -- (an empty tensor has no dimension 1: an error, as in Torch7)
         res, r = result(T, res, xd, true)   -- (every element written below)
         local k = fastscan[name]
         if lines.scan(k[3], r, xd, dim, k[2]) or name == 'cumsum' and longloops.cumsum(r, xd, dim)
            or kernels.dimscan(k[1], r, xd, dim, k[2]) then
            return res
         end
         pycall(py.math_reducedim, name, ndview(r), ndview(xd), dim - 1)
         return res
      end,
   }
end

---------------------------------------------------------------------------
-- var, std, norm, renorm, dist, trace, numel
---------------------------------------------------------------------------

-- TH's varall: the squared deviations from the mean added up in order, as a
-- double -> the variance
local fastsqdev = kernels.op('sqdev', math.huge, kernels.floats('acc + (x - c) * (x - c)'))
local function wholevar(d, biased)
   local n = nelement(d)
   local dev = lines.whole(fastsqdev, d, 0, lines.whole(floatsum, d, 0) / n)
   return dev / (biased and n or n - 1)
end

-- along a dimension, TH's variance comes from each line's sum and sum of
-- squares (a square in the element type); std is the root of the variance
-- already rounded to it
local varops = {
   var = kernels.op('linevar', math.huge, {Double = 'x * x', Float = 'f32(x * x)'}),
   std = kernels.op('linestd', math.huge, {Double = 'x * x', Float = 'f32(x * x)'}),
}
varops.var.store = {Double = 's2', Float = 's2'}
varops.std.store = {Double = 'sqrt(s2)', Float = 'sqrt(f32(s2))'}

-- var/std([res,] x [, dim] [, biased]): normalised by n - 1 unless biased
for _, name in ipairs{'var', 'std'} do
   dispatch.define{
      name = name, variants = {'t', 'tb', 'tn', 'tnb'}, scalar = {'t', 'tb'}, only = dispatch.floating,
      impl = function(T, sig, res, x, a, b)
         local xd = TD[x]
         if sig == 't' or sig == 'tb' then
            nonempty(name, xd)
            local v = wholevar(xd, a == true)
            return name == 'std' and sqrt(v) or v
         end
         local dim = indim(xd, a, 3, name, INVALID)
         local r
         res, r = reduced(T, res, xd, dim)
         local n = xd.sz[dim]
         local factor = T == types.Float and f32(n / (n - 1)) or n / (n - 1)
         lines.var(varops[name], r, xd, dim, b == true, factor)
         return res
      end,
   }
end

-- p-norms.  TH added |x|^p in order in a double (C's pow, a FloatTensor's
-- powf) and took the sum to the power 1/p: of all elements, p = 0 counts
-- the non-zeros, p = 1 and 2 are plain sums (of |x|, of x^2) returned
-- unrounded; along a dimension every p but 0 goes through pow, of which
-- th skips pow(v, 1): v itself (C's pow is within an ulp of the exact
-- result, here a number of the type: v), where pow(x, 2) is not always x * x.
local normops = {
   [0] = kernels.op('normcount', math.huge, kernels.floats('acc + (x ~= 0 and 1 or 0)')),
   [1] = kernels.op('normabs', math.huge, kernels.floats('acc + abs(x)')),
   [2] = kernels.op('sumsq', math.huge, kernels.floats('acc + x * x')),
   p = kernels.op('normpow', math.huge, {Double = 'acc + C.pow(abs(x), c)', Float = 'acc + C.powf(abs(x), c)'}),
}
local power = {Double = C.pow, Float = C.powf}
local normstore = {Double = 'C.pow(acc, e)', Float = 'C.powf(acc, e)'}

-- p and 1/p, a FloatTensor's as floats
local function exponent(T, p)
   if T == types.Float then
      p = f32(p)
      return p, f32(1 / p)
   end
   return p, 1 / p
end

-- norm(x [, p]) a number; norm([res,] x, p, dim) along dim
dispatch.define{
   name = 'norm', variants = {'t', 'tn', 'tnn'}, scalar = {'t', 'tn'}, only = dispatch.floating,
   impl = function(T, sig, res, x, p, dim)
      local xd = TD[x]
      local e
      p, e = exponent(T, p or 2)
      if sig ~= 'tnn' then
         if nelement(xd) == 0 then return 0 ^ e end   -- TH's pow(0, 1/p): inf for p < 0
         local op = normops[p]
         if not op then return power[T.name](lines.whole(normops.p, xd, 0, p), e) end
         local s = lines.whole(op, xd, 0)
         return p == 2 and sqrt(s) or s
      end
      dim = indim(xd, dim, 3, 'norm', INVALID)
      local r
      res, r = reduced(T, res, xd, dim)
      if p == 0 or p == 1 then
         lines.fold(normops[p], r, xd, dim, 0)
      else
         lines.fold(normops.p, r, xd, dim, 0, p, e, normstore[T.name])
      end
      return res
   end,
}

-- renorm's slice norms: a FloatTensor's add up in float, |x|^p through
-- powf but for p = 1 and 2 (x^2 in double), the sum to the power 1/p
-- through pow and rounded to float
local sliceops = {
   [1] = kernels.op('slicenorm1', math.huge, {Double = 'acc + abs(x)', Float = 'f32(acc + abs(x))'}),
   [2] = kernels.op('slicenorm2', math.huge, {Double = 'acc + x * x', Float = 'f32(acc + x * x)'}),
   p = kernels.op('slicenormp', math.huge, {Double = 'acc + C.pow(abs(x), c)',
                                             Float = 'f32(acc + C.powf(abs(x), c))'}),
}

-- the data of x's first slice along dim (the others: its offset moved), for
-- the loops of lines.lua without a tensor made for each
local function sliceof(d, dim)
   local sz, str = {}, {}
   for k = 1, d.nd do
      if k ~= dim then sz[#sz + 1], str[#str + 1] = d.sz[k], d.str[k] end
   end
   return {T = d.T, st = d.st, off = d.off, nd = d.nd - 1, sz = sz, str = str, nv = false}
end

-- renorm([res,] x, p, dim, maxnorm): slices along dim scaled to p-norms <=
-- maxnorm, by maxnorm / (norm + 1e-7) in the element type
dispatch.define{
   name = 'renorm', inplace = true, variants = {'tnnn'}, only = dispatch.floating,
   impl = function(T, _, res, x, p, dim, maxnorm)
      local xd = TD[x]
      dim = indim(xd, dim, 3, 'renorm', INVALID)
      -- (NaN fails too, as TH's value > 0)
      if not (p > 0) then fail("bad argument #2 to 'renorm' (non-positive-norm not supported)") end
      if xd.nd < 2 then
         fail("bad argument #1 to 'renorm' (need at least 2 dimensions, got %d dimensions)", xd.nd)
      end
      local e
      p, e = exponent(T, p)
      local float = T == types.Float
      if float then maxnorm = f32(maxnorm) end   -- (the norms too, below)
      local op = sliceops[p] or sliceops.p
      local scales = {}
      local slice = sliceof(xd, dim)
      for i = 1, xd.sz[dim] do
         slice.off = xd.off + (i - 1) * xd.str[dim]
         local nrm = C.pow(lines.whole(op, slice, 0, p), e)   -- (pow, not powf)
         if float then nrm = f32(nrm) end
         if nrm > maxnorm then
            scales[i] = maxnorm / (nrm + 1e-7)
            if float then scales[i] = f32(scales[i]) end
         end
      end
      local r
      res, r = result(T, res, xd)
      if r ~= xd then copy(r, xd) end
      if r.nd == 2 then      -- (a matrix's rows or columns scaled in place, no view made)
         checkbounds(r)
         local ptr, s1, s2, n = r.st.ptr, r.str[dim], r.str[3 - dim], r.sz[3 - dim]
         for i, v in pairs(scales) do vectorloops[T].scale(ptr + r.off + (i - 1) * s1, s2, n, v) end
      else
         for i, v in pairs(scales) do res:select(dim, i):mul(v) end
      end
      return res
   end,
}

-- d^2 for a float d as TH took it, by powf: the product rounded to a float,
-- but a product halfway between two floats (2q - t a float too) is
-- powf's, which rounds some of those up where the rounding goes to the even
-- one (powf on each element cost three times as much)
local powf = C.powf
kernels.helpers{squaref = function(d)
   local q = d * d           -- (exact in a double)
   local t = f32(q)
   if t ~= q and f32(2 * q - t) == 2 * q - t then return powf(d < 0 and -d or d, 2) end
   return t
end}

-- dist's sum of |x - y|^p in order, a FloatTensor's in float (x - y and the
-- powers rounded to float), then to the power 1/p by pow (powf), p = 2 too:
-- powf(s, 0.5) is not always sqrt(s) rounded to float (p = 0 gives 1 or inf;
-- for p = 1, pow(|x - y|, 1) is |x - y|, as in norm)
local distops = {
   [1] = kernels.op('distabs', math.huge, {Double = 'acc + abs(x - y)', Float = 'f32(acc + abs(f32(x - y)))'}),
   [2] = kernels.op('distsq', math.huge, {Double = 'acc + (x - y) * (x - y)',
                                          Float = 'f32(acc + squaref(f32(x - y)))'}),
   p = kernels.op('distpow', math.huge, {Double = 'acc + C.pow(abs(x - y), c)',
                                         Float = 'f32(acc + C.powf(abs(f32(x - y)), c))'}),
}

-- dist(x, y [, p]): the p-norm of x - y
dispatch.define{
   name = 'dist', variants = {'tt', 'ttn'}, scalar = {'tt', 'ttn'}, only = dispatch.floating,
   impl = function(T, _, _, x, y, p)
      local xd, yd = TD[x], TD[y]
      dispatch.samecount('dist', xd, yd)
      local e
      p, e = exponent(T, p or 2)
      if nelement(xd) == 0 then return 0 ^ e end
      return power[T.name](lines.whole2(distops[p] or distops.p, xd, yd, 0, p), e)
   end,
}

-- trace(x): the sum of the diagonal of a matrix
dispatch.define{
   name = 'trace', variants = {'t'}, scalar = {'t'},
   impl = function(T, _, _, x)
      local xd = TD[x]
      if xd.nd ~= 2 then fail("bad argument #1 to 'trace' (expected a matrix)") end
      local n = xd.sz[1] < xd.sz[2] and xd.sz[1] or xd.sz[2]
      -- (the data of the diagonal's view: no tensor made)
      return wholesum({T = T, st = xd.st, off = xd.off, nd = 1, sz = {n}, str = {xd.str[1] + xd.str[2]}, nv = false})
   end,
}

function torch.numel(x)
   return nelement(internal.checktensor(x, 1, 'numel'))
end

---------------------------------------------------------------------------
-- cross
---------------------------------------------------------------------------

-- crossloop(T, r, a, b, dim) -> true when done: r = a x b along dim for a
-- Float, Double, Byte, Char or Short tensor of at most 2 dimensions (each
-- product and difference rounded to the type), r apart from a and b or one of them
-- (d's pointer, its stride along dim, its stride along o or 0)
local function along(d, dim, o)
   return d.st.ptr + d.off, d.str[dim], o and d.str[o] or 0
end
-- (Byte, Char and Short products and differences are exact in a double,
-- and wrap into the type on the store; Int and Long ones are not)
local crossers = {Double = 'cross', Float = 'crossfloat', Byte = 'cross', Char = 'cross', Short = 'cross'}
local function crossloop(T, r, a, b, dim)
   local f = crossers[T.name] and vectorloops[T][crossers[T.name]]
   if not f or a.nd > 2 or ((rawequal(r.st, a.st) or rawequal(r.st, b.st)) and r ~= a and r ~= b) then return false end
   checkbounds(a); checkbounds(b); checkbounds(r)
   if r ~= a and r ~= b then internal.overwriting(r) end   -- (every element written)
   local o = 3 - dim      -- the other dimension of a matrix (a vector has one position)
   local n = a.nd == 2 and a.sz[o] or 1
   local rp, rc, ro = along(r, dim, a.nd == 2 and o)
   local ap, ac, ao = along(a, dim, a.nd == 2 and o)
   local bp, bc, bo = along(b, dim, a.nd == 2 and o)
   f(rp, rc, ro, ap, ac, ao, bp, bc, bo, n)
   return true
end

-- cross([res,] a, b [, dim]): along dim, by default the first of size 3
dispatch.define{
   name = 'cross', variants = {'tt', 'ttn'},
   impl = function(T, _, res, a, b, dim)
      local ad, bd = TD[a], TD[b]
      if ad.nd ~= bd.nd then fail('inconsistent tensor dimension %dD, %dD', ad.nd, bd.nd) end
      if not samesize(ad, bd) then
         fail('inconsistent tensor sizes %s, %s', internal.bracketsizes(ad), internal.bracketsizes(bd))
      end
      -- a dimension below 1 (after C's truncation) meant the default, as in TH
      if dim ~= nil and internal.toint(dim, 3, 'cross') < 1 then dim = nil end
      if dim == nil then
         for i = 1, ad.nd do
            if ad.sz[i] == 3 then dim = i break end
         end
         if not dim then fail('no dimension of size 3 in a: %s', internal.bracketsizes(ad)) end
      end
      dim = indim(ad, dim, 3, 'cross', OUTOFRANGE)
      if ad.sz[dim] ~= 3 then fail("bad argument #3 to 'cross' (dimension %d does not have size 3)", dim) end
      local r
      res, r = result(T, res, ad)
      if not crossloop(T, r, ad, bd, dim) then pycall(py.math_cross, ndview(r), ndview(ad), ndview(bd), dim - 1) end
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
   return d
end

-- optional(v, kind, argn, fname) -> v, nil or of that kind (a numeric string
-- is its number, as the bindings' lua_isnumber took it), else TH's error
local function optional(v, kind, argn, fname)
   if kind == 'number' and type(v) == 'string' then v = tonumber(v) or v end
   if v ~= nil and type(v) ~= kind then
      fail("bad argument #%d to '%s' (%s expected, got %s)", argn, fname, kind, type(v))
   end
   return v
end

-- dimarg(xd, dim, argn, fname, why, thargn) -> the optional dimension
-- argument, the last by default (none of an empty tensor: TH's error)
local function dimarg(xd, dim, argn, fname, why, thargn)
   return indim(xd, optional(dim, 'number', argn, fname) or xd.nd, argn, fname, why, thargn)
end

-- the value and index tensors of sizes `sizes` (not zeroed: every element is written)
local function pair(T, rv, ri, sizes, nd)
   local vd, id
   ri, id = resultsized(Long, ri, sizes, nd, true)
   rv, vd = resultsized(T, rv, sizes, nd, true, true)   -- (sizes given away last)
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
   -- the best of each line along dim into rv and ri (new when nil)
   local function along(T, rv, ri, xd, dim, argn)
      dim = indim(xd, dim, argn, name, OUTOFRANGE, 2)
      local vd, id
      rv, ri, vd, id = pair(T, rv, ri, reducedsizes(xd, dim))
      if lines.best(fastbest[name], vd, id, xd, dim) or kernels.dimbest(fastbest[name], vd, id, xd, dim)
         or longloops.best(name, vd, id, xd, dim) then
         return rv, ri
      end
      pycall(py.math_extreme, name, ndview(vd), ndview(id), ndview(xd), dim - 1)
      return rv, ri
   end
   -- the best of all of xd's elements
   local function whole(xd)
      if xd.nd == 0 then fail("bad argument #1 to '%s' (tensor must have one dimension)", name) end
      local first = nelement(xd) > 0 and internal.element(xd, 0)
      local p = first and nelement(xd) <= EXTREME and kernels.flat(xd)
      local v = p and extreme4[name].exprs[xd.T.name]
                  and kernels.run('extreme4', extreme4[name], xd.T, nil, p, nelement(xd), first)
      v = v or first and kernels.fold(fastextreme[name], xd, first)
      if v then return v end
      if p and xd.T == Long then return longextreme[name](p, nelement(xd)) end
      if nelement(xd) > SMALL then
         v = pycall(py.math_reduceall, name, ndview(xd))
         if v ~= 0 then return v end   -- (a zero's sign: the first of +0 and -0, below)
      end
      return fold(xd, better, nil)
   end
   return function(T, ...)
      -- x:max(), x:max(dim) and torch.max(values, indices, x, dim), the
      -- commonest forms, without the argument table
      local x, d = ...
      local n = select('#', ...)
      if n == 1 then
         local xd = TD[x]
         if xd and xd.T == T then return whole(xd) end
      end
      if type(d) == 'number' and n == 2 then
         local xd = TD[x]
         if not xd or xd.T ~= T or xd.nd == 0 then xd = source(T, name, {x}, 1) end   -- (its errors)
         return along(T, nil, nil, xd, d, 2)
      end
      local rv, ri, x3, d4 = ...
      local vd, id, xd = TD[rv], TD[ri], TD[x3]
      if type(d4) == 'number' and n == 4 and vd and id and xd and vd.T == T
         and id.T == Long and xd.T == T and xd.nd > 0 then
         return along(T, rv, ri, xd, d4, 4)
      end
      local A = argtable(...)
      local rv, ri, i = results(T, name, A)
      -- Torch7's forms: (x) and ([values,] [indices,] x, dim), nothing more
      local last = A[i + 1]
      if not (n == 1 or n == i + 1 and (type(last) == 'number' or type(last) == 'string' and tonumber(last))) then
         dispatch.argerror(name, T, 'method', ...)
      end
      local xd = source(T, name, A, i)
      local dim = A[i + 1]
      if dim == nil and not rv then return whole(xd) end
      return along(T, rv, ri, xd, dim, i + 1)
   end
end

---------------------------------------------------------------------------
-- TH's quickselect and quicksort, run here at every size so that ties (and
-- topk's unsorted order, and NaN) come out as Torch7 gave them
---------------------------------------------------------------------------

-- lines from `long` elements are first tried with numpy (faster than the
-- quicksort here), and lines from ROWS long when there are `many` elements
-- in all (one Python call for all the lines), once numpy is loaded (not
-- worth waiting for its import, which this starts).  (Measured: 100x100
-- sorts 4x faster, 64x64 no faster; numpy's selection costs 50 us from the
-- smallest line, where quickselect here takes 25-39 at 5000.  Sorts of
-- lines that simd.argsort takes skip this: numpysorts.)
local ROWS = 16
local SORTLONG, SORTMANY, KTHLONG, KTHMANY = 2048, 8192, 4096, 32768
local function numpylines(d, dim, long, many)
   local n = d.sz[dim]
   return (n >= long or n >= ROWS and nelement(d) >= many) and internal.numpyready()
end

-- Which is faster here on such calls, numpy's try or TH's algorithm run
-- here?  It depends on the machine: where numpy sorts with AVX-512 its sorts
-- were the faster; on one where it did not, 10^6 distinct doubles took its
-- try (a sort, then an argsort) 195-206 ms and the quicksort here 70-88 (the
-- original 96-105).  Each way is timed on the calls it takes, per unit of
-- work and per class of sizes (a factor of 4 apart): numpy's first, then
-- the other, then the faster of the two, the slower again every RETRY-th
-- call of the class (a first call pays for compiling and loading).  The
-- same results either way.
-- race(kind, work, try, own, ...): try(...) -> true when it gave the
-- results, false when it gave up (its time counted), nil when it did not
-- try; else own(...)
local now = require('th.native.pool').now
local RETRY = 16
local paces, log = {}, math.log
local function race(kind, work, try, own, ...)
   local class = kind .. floor(log(work) / log(4))
   local pace = paces[class]
   if not pace then
      pace = {calls = 0}
      paces[class] = pace
   end
   pace.calls = pace.calls + 1
   local numpyturn = not pace.numpy
   if pace.numpy and pace.own then numpyturn = (pace.numpy <= pace.own) ~= (pace.calls % RETRY == 0) end
   if numpyturn then
      local start = now()
      local done = try(...)
      if done ~= nil then pace.numpy = (now() - start) / work end
      if done then return end
      if done == false then return own(...) end
   end
   local start = now()
   own(...)
   pace.own = (now() - start) / work
end

-- Is a line of n values likely to hold no tie, so that numpy's try is worth
-- making (a try that meets a tie has cost a sort of numpy's, a tenth of the
-- quicksort here)?  Values sampled along the line give the grid they lie on
-- (the binary digits they need after the point, at most 64) and their
-- magnitude: n values among the G points of that grid tie in about n^2 / 2G
-- pairs (doubles from torch.rand, on a grid of 2^-32: 116 pairs at 10^6,
-- 1.2 at 10^5).  A wrong guess costs time, never a different result.
local SAMPLES, TIEPAIRS = 64, 2
local function fractionbits(v)
   local k = 0
   while k < 64 and v % 1 ~= 0 do v, k = v * 2, k + 1 end
   return k
end
local function likelydistinct(d, dim)
   checkbounds(d)
   local n, p, step = d.sz[dim], d.st.ptr + d.off, d.str[dim]
   local bits, mag = 0, 0
   for s = 0, SAMPLES - 1 do
      local v = tonumber(p[floor(s * (n - 1) / (SAMPLES - 1)) * step])
      bits, mag = math.max(bits, fractionbits(v)), math.max(mag, math.abs(v))
   end
   local points = 2 * (mag + 1) * 2 ^ bits
   return n * n / (2 * points) <= TIEPAIRS
end

local function swap(v, ix, a, b)
   v[a], v[b] = v[b], v[a]
   ix[a], ix[b] = ix[b], ix[a]
end

-- TH's quicksort in ascending order (after: a NaN compares with nothing and
-- stays where the moves leave it) and descending (before)
local sorts = require 'torch.maths.quicksort'
local networks = require 'torch.maths.networks'
local simd = require 'torch.maths.simd'
local after, before = sorts.ascending, sorts.descending
-- finite: the rows of the pass that rowwise runs have finite values and up
-- to SHORT elements, sorted by finiteline (TH's order, its insertion sort as
-- rank sorts)
local finiteline, SHORT, finite = sorts.finite, sorts.SHORT, false
-- lines up to LINES elements: passes of networks.CHUNK elements, gathered
-- from other dimensions
local LINES = 64

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
         -- (v[R] and v[L] stop these scans; the bounds guard the arrays all the same)
         repeat i = i + 1 until i >= R or not (v[i] < piv)
         repeat j = j - 1 until j <= L or not (v[j] > piv)
         if j < i then break end
         swap(v, ix, i, j)
      end
      swap(v, ix, L, j)
      if j <= k then L = i end
      if j >= k then R = j - 1 end
   end
end

-- rowwise(T, x, dim, rv, ri, m, net, first, f, ...): for each row of x along
-- dim, f(v, ix, n, ...) reorders the values v[0 .. n-1] and their 0-based
-- indices ix and returns the position of the m entries that go to rv and ri
-- (already of their sizes).  The f are functions of this
-- file, not closures made per call: LuaJIT does not compile the making of a
-- closure, and a loop calling sort would run interpreted.
-- The rows' scratch arrays, as pointers (the sorts' traces see one type of
-- array, the results' memory included): up to KEEP elements kept for the
-- next call (a new pair of arrays cost most of a sort of 100 elements),
-- longer ones buffers of th's memory, uninitialised, kept by length until
-- the next collection (LuaJIT's arrays were zeroed, in fresh pages, at every
-- call; a new buffer's page faults made topk of 10^6 twice the original's time)
local rowvalues, rowindices = ffi.typeof('double[?]'), ffi.typeof('int32_t[?]')
local valuesp, indicesp = ffi.typeof('double *'), ffi.typeof('int32_t *')
local KEEP = 65536
local keptn, keptv, keptix, keptarrays = 0, nil, nil, nil
local longvalues, longindices = setmetatable({}, {__mode = 'v'}), setmetatable({}, {__mode = 'v'})
local function long(kept, T, n)      -- (each pointer its buffer's owner)
   local p = kept[n]
   if not p then
      p = select(2, internal.memory.alloc(T, n, true))
      kept[n] = p
   end
   return p
end
local function scratch(n, novalues)
   if n <= keptn then return keptv, keptix end
   if n > KEEP then      -- (no values for a sort in place)
      return not novalues and long(longvalues, types.Double, n) or nil, long(longindices, types.Int, n)
   end
   keptarrays = {rowvalues(n), rowindices(n)}
   keptn, keptv, keptix = n, ffi.cast(valuesp, keptarrays[1]), ffi.cast(indicesp, keptarrays[2])
   return keptv, keptix
end
local iscontiguous = internal.iscontiguous

-- the lines along dim of x, vd and id where they are (each one's other
-- dimensions two evenly spaced runs, as lines.geometry takes them; the
-- results apart from x) -> true when done
local function stridedlines(xd, vd, id, dim, m, f, a, b, c)
   local outer, xo, n, xk, inner, xi = lines.geometry(xd, dim)
   local vouter, vo, _, vk, _, vi = lines.geometry(vd, dim)
   local iouter, io, _, ik, _, ii = lines.geometry(id, dim)
   if not (outer and vouter and iouter) or rawequal(vd.st, xd.st) or rawequal(id.st, xd.st) then return false end
   checkbounds(xd); checkbounds(vd); checkbounds(id)
   finite = false
   local origin = kernels.origin   -- (kept in each tensor: no pointer made per call)
   local sp, vp, ip = origin(xd), origin(vd), origin(id)
   local v, ix = scratch(n)
   for o = 0, outer - 1 do
      for i = 0, inner - 1 do
         local base = o * xo + i * xi
         for j = 0, n - 1 do v[j], ix[j] = tonumber(sp[base + j * xk]), j end
         local first = f(v, ix, n, a, b, c)
         local vb, ib = o * vo + i * vi, o * io + i * ii
         for j = 0, m - 1 do
            vp[vb + j * vk] = v[first + j]
            ip[ib + j * ik] = ix[first + j] + 1
         end
      end
   end
   return true
end

-- emit(v, ix, vp, ip, cnt, n, m, first): the m entries from the place first
-- of each of cnt sorted rows of n in v and ix to vp and ip
local function emit(v, ix, vp, ip, cnt, n, m, first)
   if m == n then
      for i = 0, cnt * n - 1 do vp[i], ip[i] = v[i], ix[i] + 1 end
   elseif m == 1 then
      for r = 0, cnt - 1 do vp[r], ip[r] = v[r * n + first], ix[r * n + first] + 1 end
   else
      for r = 0, cnt - 1 do
         local from, to = r * n + first, r * m
         for j = 0, m - 1 do vp[to + j], ip[to + j] = v[from + j], ix[from + j] + 1 end
      end
   end
end

-- passes(sp, vp, ip, rows, n, m, inplace, net, first, f, ...): rows of n
-- elements one after the other from sp, their m entries to vp and ip
-- (pointers at the first ones), many rows a pass: each loop but the sorts'
-- runs over all the pass's elements, not a row's (a short loop a row cost
-- as much as the sort of a row of 30); inplace: whole rows of doubles
-- reordered in the result's memory (for rows beyond LINES: for a shorter
-- one, its pointer there, a new cdata a row, cost more than copying it
-- back).  With net (true: descending, false: ascending), the m entries
-- from first of the rows sorted are the answer when the rows' values are
-- distinct: rows of networks.MIN to MAX try a sorting network
-- (a pass whose rows were not all distinct makes the next RETRY calls skip
-- the networks: lines of integers or rounded values tie again, and a try
-- that fails costs half the sort; a wrong guess costs time, never a
-- different result)
local RETRY, skips = 8, 0
local function passes(sp, vp, ip, rows, n, m, inplace, net, first, f, a, b, c)
   local per = n > KEEP and 1 or floor((n <= LINES and networks.CHUNK or KEEP) / n)
   local tries = net ~= nil and n >= networks.MIN and n <= networks.MAX
   if tries and skips > 0 then tries, skips = false, skips - 1 end
   finite = false
   for r0 = 0, rows - 1, per do
      local cnt = math.min(per, rows - r0)
      local len = cnt * n
      local base, out = r0 * n, r0 * m
      local v, ix = scratch(len, inplace and not tries)
      if tries and networks.sort(sp, base, len, n, net, v, ix) then
         emit(v, ix, vp + out, ip + out, cnt, n, m, first)
      else
         if tries then tries, skips = false, RETRY end
         if n <= SHORT then      -- (x - x: 0 when finite, NaN from a NaN or an infinity)
            local s0, s1 = 0, 0
            for i = base, base + len - 2, 2 do
               local x, y = tonumber(sp[i]), tonumber(sp[i + 1])
               s0, s1 = s0 + (x - x), s1 + (y - y)
            end
            local z = tonumber(sp[base + len - 1])
            finite = s0 + s1 + (z - z) == 0
         end
         -- (a row at a time, as rows of TH's sorts: their loops inside the
         -- one a row, with the loops copying the row, made LuaJIT compile
         -- them apart; a loop of rows calling them alone took them unrolled
         -- inside, failed, and left them to the interpreter for good: sort
         -- of 64x64 after the other sizes of shortlines.lua 55 -> 235 us)
         for r = 0, cnt - 1 do
            local from, to = base + r * n, out + r * m
            if inplace then
               v = vp + to
               ffi.copy(v, sp + from, n * 8)
               for i = 0, n - 1 do ix[i] = i end
            else
               for i = 0, n - 1 do v[i], ix[i] = tonumber(sp[from + i]), i end
            end
            local at = f(v, ix, n, a, b, c)
            if not inplace then
               for i = 0, m - 1 do vp[to + i] = v[at + i] end
            end
            for i = 0, m - 1 do ip[to + i] = ix[at + i] + 1 end
         end
      end
   end
end

-- gathered(xd, vd, id, dim, m, net, first, f, ...) -> true when done: short
-- lines along dim (up to LINES elements, GATHER in all, each operand's other
-- dimensions two evenly spaced runs) copied one after the other to scratch
-- doubles, through passes, and their entries back where they go (a loop a
-- line at each end, not the loops a line of stridedlines: sort(1) of 30x30
-- 16 -> 10 us)
local GATHER = 16384
local gathers = {}
for k = 1, 3 do gathers[k] = ffi.new('double[?]', GATHER) end
local function gathered(xd, vd, id, dim, m, net, first, f, a, b, c)
   local n = xd.sz[dim]
   if n > LINES or nelement(xd) > GATHER then return false end
   local outer, xo, _, xk, inner, xi = lines.geometry(xd, dim)
   local vouter, vo, _, vk, _, vi = lines.geometry(vd, dim)
   local iouter, io, _, ik, _, ii = lines.geometry(id, dim)
   if not (outer and vouter and iouter) or rawequal(vd.st, xd.st) or rawequal(id.st, xd.st) then return false end
   checkbounds(xd); checkbounds(vd); checkbounds(id)
   local origin = kernels.origin
   local sp, vp, ip = origin(xd), origin(vd), origin(id)
   local g, gv, gi = gathers[1], gathers[2], gathers[3]
   -- (line (o, i) at g[(o * inner + i) * n]; a loop over i, the lines side by side)
   for o = 0, outer - 1 do
      for j = 0, n - 1 do
         local from, to = o * xo + j * xk, o * inner * n + j
         for i = 0, inner - 1 do g[to + i * n] = tonumber(sp[from + i * xi]) end
      end
   end
   passes(g, gv, gi, outer * inner, n, m, false, net, first, f, a, b, c)
   for o = 0, outer - 1 do
      for j = 0, m - 1 do
         local vb, ib, from = o * vo + j * vk, o * io + j * ik, o * inner * m + j
         for i = 0, inner - 1 do
            vp[vb + i * vi], ip[ib + i * ii] = gv[from + i * m], gi[from + i * m]
         end
      end
   end
   return true
end

local warmup   -- (below: run once, before the first rows)

-- (net, first: see passes)
-- A LongTensor holding a value beyond 2^53 does not fit the doubles its
-- lines are sorted in (th's sort, topk, kthvalue, median and mode of 2^60 +
-- k gave 2^60 for every value, its indices in a tie's order): its lines are
-- sorted as the ranks of its values among its distinct ones instead, which
-- compare as the int64 values did in TH, so that every comparison, swap and
-- tie comes out the same, and the values are taken from x by the indices
-- found.  -> true when done so
local rowwise
local function beyonddoubles(x, xd, dim, rv, vd, ri, m, net, first, f, a, b, c)
   -- (a layout bound reads not: that of a contiguous copy)
   local bound = longloops.bound(xd) or longloops.bound(TD[Tensor.contiguous(x)])
   if bound < 2 ^ 53 then return false end   -- (2^53 + 1 reads as 2^53)
   local ranks = newtensor(types.Double, {unpack(xd.sz, 1, xd.nd)}, xd.nd)
   pycall(py.math_dense_ranks, ndview(TD[ranks]), ndview(xd))
   -- (a result sharing x's memory would overwrite values not taken yet)
   if rawequal(vd.st, xd.st) or rawequal(TD[ri].st, xd.st) then x = Tensor.clone(x) end
   rowwise(types.Double, ranks, dim, newtensor(types.Double, {unpack(vd.sz, 1, vd.nd)}, vd.nd), ri,
           m, net, first, f, a, b, c)
   torch.getmetatable('torch.LongTensor').gather(rv, x, dim, ri)
   return true
end

function rowwise(T, x, dim, rv, ri, m, net, first, f, a, b, c)
   local xd, vd, id = TD[x], TD[rv], TD[ri]
   if T == Long and beyonddoubles(x, xd, dim, rv, vd, ri, m, net, first, f, a, b, c) then return end
   if warmup and nelement(xd) > SHORT then
      local w = warmup
      warmup = nil
      w()
   end
   local nd = xd.nd
   -- rows along the last dimension of contiguous tensors are read and written
   -- in place, other lines where they are when their layout allows, the
   -- rest go through contiguous copies
   local direct = dim == nd and iscontiguous(xd) and iscontiguous(vd) and iscontiguous(id) and not rawequal(vd.st, xd.st)
   if not direct and (gathered(xd, vd, id, dim, m, net, first, f, a, b, c)
                      or stridedlines(xd, vd, id, dim, m, f, a, b, c)) then
      return
   end
   local sd = xd
   if not direct then
      sd = TD[Tensor.contiguous(Tensor.transpose(x, dim, nd))]
      local sizes = {unpack(sd.sz, 1, nd)}
      sizes[nd] = m
      vd, id = TD[newtensor(T, sizes, nd)], TD[newtensor(Long, sizes, nd)]
   end
   local n = sd.sz[nd]
   checkbounds(sd); checkbounds(vd); checkbounds(id)
   passes(sd.st.ptr + sd.off, vd.st.ptr + vd.off, id.st.ptr + id.off, nelement(sd) / n, n, m,
          T == types.Double and m == n and n > LINES, net, first, f, a, b, c)
   if not direct then
      copy(TD[Tensor.transpose(rv, dim, nd)], vd)
      copy(TD[Tensor.transpose(ri, dim, nd)], id)
   end
end

local function kthrow(v, ix, n, k)
   quickselect(v, ix, k - 1, n)
   return k - 1
end

-- the last of the longest run in TH's sorted order (the first such run on ties)
local function moderow(v, ix, n)
   if finite then finiteline(v, ix, 0, n, false) else after(v, ix, 0, n) end
   local best, bestrun, run = 0, 0, 0
   for k = 0, n - 1 do
      run = run + 1
      if k == n - 1 or v[k] ~= v[k + 1] then
         if run > bestrun then best, bestrun = k, run end
         run = 0
      end
   end
   return best
end

-- (a line of ARGSORTFROM values or more is first tried with numpy's
-- argsort through the FFI, simd.argsort: the only order there is when the
-- values are distinct; a line of 1000 doubles 38 -> 18-20 us, the
-- original's 19-20; 100x100 212 -> 106 us, the original's 316)
local ARGSORTFROM = 100
local function sortrow(v, ix, n, descending)
   if n >= ARGSORTFROM and simd.argsort(v, ix, n, descending) then return 0 end
   if finite then finiteline(v, ix, 0, n, descending) else sorts.line(v, ix, 0, n, descending) end
   return 0
end

-- whether sort's lines go to numpy's Python call first: not those
-- simd.argsort takes (numpy's sort from Python cost twice as much)
local function numpysorts(d, dim)
   local n = d.sz[dim]
   if n >= ARGSORTFROM and n <= simd.ARGSORTMOST and simd.argsortable() then return false end
   return numpylines(d, dim, SORTLONG, SORTMANY)
end

-- resort(T, x, dim, rv, ri, lines, descending): the lines along dim whose
-- numbers (C order of the other dimensions) the string lists sorted again
-- by rowwise, each through views of one line
local function resort(T, x, dim, rv, ri, lines, descending)
   local sz, nd = TD[x].sz, TD[x].nd
   for line in lines:gmatch('%d+') do
      local rest, lx, lv, li = tonumber(line), x, rv, ri
      for k = nd, 1, -1 do      -- (the last dimension first: the earlier ones keep their numbers)
         if k ~= dim then
            local at = rest % sz[k] + 1
            rest = floor(rest / sz[k])
            lx, lv, li = Tensor.select(lx, k, at), Tensor.select(lv, k, at), Tensor.select(li, k, at)
         end
      end
      rowwise(T, lx, 1, lv, li, sz[dim], nil, 0, sortrow, descending)
   end
end

-- x's lines along dim sorted into rv, ri: numpy's try, when the values are
-- likely distinct, the few lines with ties or NaN again in TH's order (not
-- when the values' result is x itself, which numpy's then overwrote); TH's
-- quicksort
local function numpysort(T, x, xd, dim, rv, ri, descending)
   if not likelydistinct(xd, dim) then return nil end
   local done = pycall(py.math_sort_distinct, ndview(TD[rv]), ndview(TD[ri]), ndview(xd), dim - 1,
                       descending, not rawequal(TD[rv].st, xd.st))
   if done and done ~= true then resort(T, x, dim, rv, ri, tostring(done), descending) end
   return done and true
end
local function ownsort(T, x, xd, dim, rv, ri, descending)
   rowwise(T, x, dim, rv, ri, xd.sz[dim], descending, 0, sortrow, descending)
end

-- topk's k entries: quickselect's order, sorted if asked
local function topkrow(v, ix, n, k, largest, sorted)
   if not largest then
      quickselect(v, ix, k - 1, n)
      if sorted then
         if finite then finiteline(v, ix, 0, k - 1, false) else after(v, ix, 0, k - 1) end
      end
      return 0
   end
   local first = n - k
   if first > 0 then quickselect(v, ix, first - 1, n) end
   if sorted then
      if finite then finiteline(v, ix, first, k, true) else before(v, ix, first, k) end
   end
   return first
end

-- TH's sorts and quickselect run here once on lines of random values, at
-- the first rows of more than SHORT elements in all (not for one line of a
-- few: nn's getParameters sorts a few offsets, and the warm-up was 2-7 ms
-- of its 12): LuaJIT compiles their loops then, each apart, before any
-- program's lines (which in short ones run those loops once or twice each
-- time, and a trace of the loop around them took them unrolled inside,
-- failed, and left them to the interpreter for good: sort of 64x64 after
-- the other sizes of shortlines.lua 55 -> 290 us).  Not as the module
-- loads: 3 ms of every start-up
warmup = function()
   local v, ix = scratch(64)
   local seed = 1
   finite = false   -- (the lines here are longer than finiteline takes)
   for rep = 1, 40 do
      for _, n in ipairs{13, 30, 64} do
         for i = 0, n - 1 do
            seed = (seed * 69069 + 1) % 4294967296
            v[i], ix[i] = seed / 4294967296, i
         end
         if rep % 2 == 0 then sortrow(v, ix, n, rep % 4 == 0) else topkrow(v, ix, n, 3, rep % 3 == 0, false) end
      end
   end
end

-- the k-th values of x's lines along dim into rv, ri: numpy's try, TH's quickselect
local function numpykth(T, x, xd, dim, rv, ri, k)
   return pycall(py.math_kth_distinct, ndview(TD[rv]), ndview(TD[ri]), ndview(xd), dim - 1, k)
end
local function ownkth(T, x, xd, dim, rv, ri, k)
   rowwise(T, x, dim, rv, ri, 1, false, k - 1, kthrow, k)
end

-- kth smallest along dim (default last): median is k = (n + 1) / 2, rounded down
local function kth(fname, T, A, rv, ri, i, k, dim)
   local xd = source(T, fname, A, i)
   dim = indim(xd, dim or xd.nd, i + 2, fname, 'dimension out of range', 3)
   k = k or math.floor((xd.sz[dim] + 1) / 2)
   k = internal.toint(k, i + 1, fname)
   if k < 1 or k > xd.sz[dim] then fail("bad argument #2 to '%s' (selected index out of range)", fname) end
   rv, ri = pair(T, rv, ri, reducedsizes(xd, dim))
   -- (numpy's selection when the k-th value of each line is unique in it)
   if numpylines(xd, dim, KTHLONG, KTHMANY) then
      race('kth', nelement(xd), numpykth, ownkth, T, A[i], xd, dim, rv, ri, k)
   else
      ownkth(T, A[i], xd, dim, rv, ri, k)
   end
   return rv, ri
end

local valued = {
   max = extremum('max'),
   min = extremum('min'),

   median = function(T, ...)
      local A = argtable(...)
      local rv, ri, i = results(T, 'median', A)
      return kth('median', T, A, rv, ri, i, nil, optional(A[i + 1], 'number', i + 1, 'median'))
   end,

   kthvalue = function(T, ...)
      local A = argtable(...)
      local rv, ri, i = results(T, 'kthvalue', A)
      internal.checknumber(A[i + 1], i + 1, 'kthvalue')
      return kth('kthvalue', T, A, rv, ri, i, A[i + 1], optional(A[i + 2], 'number', i + 2, 'kthvalue'))
   end,

   mode = function(T, ...)
      local A = argtable(...)
      local rv, ri, i = results(T, 'mode', A)
      local xd = source(T, 'mode', A, i)
      local dim = dimarg(xd, A[i + 1], i + 2, 'mode', 'dimension out of range', 3)
      rv, ri = pair(T, rv, ri, reducedsizes(xd, dim))
      rowwise(T, A[i], dim, rv, ri, 1, false, 0, moderow)
      return rv, ri
   end,

   -- sort([resval, resind,] x [, dim] [, descending])
   sort = function(T, ...)
      local A = argtable(...)
      local rv, ri, i = results(T, 'sort', A)
      local xd = source(T, 'sort', A, i)
      local dim, desc = A[i + 1], A[i + 2]
      if type(dim) == 'boolean' then dim, desc = nil, dim end
      dim = dimarg(xd, dim, i + 1, 'sort', INVALID, 2)
      rv, ri = pair(T, rv, ri, xd.sz, xd.nd)
      -- long lines of distinct floats: numpy's sort, with the only order
      -- there is, when it is the faster here
      if numpysorts(xd, dim) and not T.integer then
         race('sort', nelement(xd) * log(xd.sz[dim] + 1), numpysort, ownsort, T, A[i], xd, dim, rv, ri, desc == true)
      else
         ownsort(T, A[i], xd, dim, rv, ri, desc == true)
      end
      return rv, ri
   end,

   -- topk([resval, resind,] x, k [, dim] [, largest] [, sorted]): unsorted, the
   -- k entries come in quickselect's order, as in TH
   topk = function(T, ...)
      local A = argtable(...)
      local rv, ri, i = results(T, 'topk', A)
      local xd = source(T, 'topk', A, i)
      -- k (1 by default) and dim are the numbers, largest and sorted the booleans
      local j, k, dim, largest, sorted = i + 1, 1, nil, false, false
      -- (k and dim as the binding read them: a numeric string is its number)
      for q = j, j + 1 do
         if type(A[q]) == 'string' and tonumber(A[q]) then A[q] = tonumber(A[q]) end
      end
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
      dim = dimarg(xd, dim, i + 2, 'topk', 'dim not in range', 3)
      k = internal.toint(k, i + 1, 'topk')
      if k < 1 or k > xd.sz[dim] then fail("bad argument #2 to 'topk' (k not in range for dimension)") end
      local sizes = {unpack(xd.sz, 1, xd.nd)}
      sizes[dim] = k
      rv, ri = pair(T, rv, ri, sizes, xd.nd)
      -- (sorted: the first k of the line sorted, descending for the largest)
      local net = nil
      if sorted then net = largest end
      rowwise(T, A[i], dim, rv, ri, k, net, 0, topkrow, k, largest, sorted)
      return rv, ri
   end,
}

-- (via: which front end the call entered, for its errors: internal.lua)
local via = internal.via
for name, f in pairs(valued) do
   torch[name] = function(...)
      via.torch = true
      return f(dispatch.firsttype(select('#', ...), ...), ...)
   end
   for i = 1, types.count do
      local T = types[i]
      torch.getmetatable(T.tensorname)[name] = function(...) via.torch = false; return f(T, ...) end
   end
end
