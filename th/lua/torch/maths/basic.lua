-- Basic operations: equal, add, csub, mul, div, fmod, remainder, mod, clamp,
-- the element-wise cmul, cpow, cdiv, cfmod, cremainder, cmod, cmax, cmin,
-- addcmul, addcdiv, lerp and the bit operations of integer tensors.
-- Tensor operands need the same number of elements, not the same sizes; the
-- result takes the sizes of the first one.  A number operand is first cast
-- to the element type (so an IntTensor divided by 2.5 is divided by 2).
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'
local dispatch = require 'torch.maths.dispatch'

local TD, py, pycall, ndview = internal.tensors, internal.py, internal.pycall, internal.ndview
local nelement, samesize, fail = internal.nelement, internal.samesize, internal.fail
local result, cast, samecount, SMALL = dispatch.result, dispatch.cast, dispatch.samecount, dispatch.SMALL
local loop1, loop2, loop3 = dispatch.loop1, dispatch.loop2, dispatch.loop3
local kernels = require 'torch.maths.kernels'
local fused = require 'torch.maths.fused'
local simd = require 'torch.maths.simd'
local minmax = require 'torch.maths.minmax'
local vectorloops = require 'torch.maths.vectorloops'
local longloops = require 'torch.maths.longloops'
local bitops = require 'torch.maths.bitops'
local f32 = kernels.f32
local op, alltypes, floats = kernels.op, kernels.alltypes, kernels.floats
local type, select, floor, fmod = type, select, math.floor, math.fmod
local ffi = require 'ffi'
local C = require 'torch.maths.libm'

local scalar = {
   add = function(a, b) return a + b end,
   sub = function(a, b) return a - b end,
   mul = function(a, b) return a * b end,
   div = function(a, b) return a / b end,       -- stored truncated in integer tensors
   fmod = fmod,
   remainder = function(a, b) return a - b * floor(a / b) end,
   pow = function(a, b) return C.pow(a, b) end,
   max = function(a, b) if a > b then return a end return b end,
   min = function(a, b) if a < b then return a end return b end,
}

local function integer(T) return T.integer end
local dividing = {div = true, fmod = true, remainder = true}

-- TH's integer remainder (kernels.lua: C's a % b moved by b as C's int
-- arithmetic had it)
local intremainder = kernels.intremainder

-- the same in C's long (operands below 2^53 here: exactlong): a product
-- beyond 2^63 wraps around, computed in int64
local function longremainder(a, b)
   local r = fmod(a, b)
   if r == 0 then return r end
   local p = r * b
   if p > -2 ^ 62 and p < 2 ^ 62 then
      if p < 0 then return r + b end
      return r
   end
   if ffi.new('int64_t', r) * b < 0 then return r + b end
   return r
end

-- integer results of div and pow go through TH's C cast (internal.ccast):
-- truncated toward zero explicitly (LuaJIT's compiled store of a negative
-- fraction into a narrow integer rounds it down), INT_MIN beyond the range
local integerscalar = {}
for i = 1, types.count do
   local T = types[i]
   if T.integer then
      local function cast(f) return function(a, b) return internal.ccast(T, f(a, b)) end end
      integerscalar[T] = {div = cast(scalar.div), pow = cast(scalar.pow),
                          remainder = T == types.Long and longremainder or intremainder}
   end
end
-- a FloatTensor's remainder: its quotient rounded to a float before the floor
local floatscalar = setmetatable({remainder = function(a, b) return a - b * floor(f32(a / b)) end},
                                 {__index = scalar})

-- a Long element beyond 2^53 is not exact as a Lua number: Long operations
-- with such operands are computed by numpy in int64 (wrapping around as C)
local EXACT = 2 ^ 53
local function exact(acc, v) return acc and v > -EXACT and v < EXACT end
local function exactlong(T, xd, y, yd)
   if T ~= types.Long then return true end
   if yd then return dispatch.fold(xd, exact, true) and dispatch.fold(yd, exact, true) end
   return exact(true, y) and dispatch.fold(xd, exact, true)
end

-- a product of Int or Long elements can pass 2^53, where doubles stop being
-- exact: numpy computes it in the tensor's own type, wrapping around as C did
local function exactproducts(T) return not T.integer or T.size < 4 end

local function nonzero(acc, v) return acc and v ~= 0 end
-- the zeros among a contiguous tensor's elements
local zerocount = kernels.op('zerocount', math.huge, kernels.alltypes('acc + (x == 0 and 1 or 0)',
                                                                     'acc + (x == 0 and 1 or 0)'))
-- (a LongTensor's without a branch: a cdata live at a branch's exit is boxed)
zerocount.exprs.Long = 'acc + (1 - min(1, abs(tonumber(x))))'

-- an integer division by zero crashed Torch7 (SIGFPE): here it is an error
local function checkdivisor(T, fname, xd, y, yd)
   if not T.integer or nelement(xd) == 0 then return end   -- nothing to divide: a no-op
   local ok
   if not yd then
      ok = y ~= 0
   elseif nelement(yd) <= SMALL then
      ok = dispatch.fold(yd, nonzero, true)
   else
      local zeros = kernels.fold(zerocount, yd, 0)
      if zeros then
         ok = zeros == 0
      else
         ok = pycall(py.count_nonzero, ndview(yd)) == nelement(yd)
      end
   end
   if not ok then fail("bad argument #2 to '%s' (integer division by zero)", fname) end
end

-- the LuaJIT loops of the operations, with a number (c) or a tensor (y):
-- IntTensor sums wrap as int32 (tobit); a product of two int32 values can
-- exceed what a double holds exactly, so an IntTensor's is made of two
-- exact ones, by the low and the (signed) high 16 bits of b, each wrapped.
-- Limits from scripts/bench/crossover.lua: numpy's call costs about 3 us,
-- its loops run two to four elements per instruction
local LIMIT = 16384
local LIMITC, LIMITY, FLOATLIMIT = 32768, 8192, 4096
local fast = {}
local function int32product(b)
   return ('tobit(tobit(x * band(%s, 65535)) + lshift(tobit(x * arshift(%s, 16)), 16))'):format(b, b)
end
-- an expression for the integer types up to 32 bits (a LongTensor's are not
-- Lua numbers) and one for the floating ones
local function intsfloats(ints, fl)
   return {Byte = ints, Char = ints, Short = ints, Int = ints, Float = fl, Double = fl}
end
for name, e in pairs{add = '+', sub = '-', mul = '*', div = '/'} do
   local function exprs(b)
      local expr = 'x ' .. e .. ' ' .. b
      if name == 'div' then return intsfloats('trunc(' .. expr .. ')', expr) end
      return alltypes(expr, name ~= 'mul' and 'tobit(' .. expr .. ')' or int32product(b))
   end
   fast[name] = {op(name .. 'c', LIMITC, exprs('c'), FLOATLIMIT), op(name .. 'y', LIMITY, exprs('y'), FLOATLIMIT)}
end
-- (TH's x > c ? x : c without a branch: LuaJIT's max and min give their
-- second operand when the two are equal or one is NaN, as the test does;
-- as tests, random elements took a side exit every other one: 3 ns an
-- element, the original's 0.3-0.9)
fast.max = {op('maxc', LIMIT, alltypes('max(x, c)', 'max(x, c)')),
            op('maxy', LIMIT, alltypes('max(x, y)', 'max(x, y)'))}
fast.min = {op('minc', LIMIT, alltypes('min(x, c)', 'min(x, c)')),
            op('miny', LIMIT, alltypes('min(x, y)', 'min(x, y)'))}
-- C's fmod (through the FFI: LuaJIT does not compile math.fmod), C's pow
-- (a FloatTensor's cpow was a double pow, rounded) and the remainder's
-- formula on doubles (a FloatTensor's in double too, rounded once), at every
-- size: shared with helper threads as Torch7's OpenMP loops were (fmod and
-- pow cost 10-40 ns an element: kernels.callsplit; the remainder a few:
-- from SPLIT * 4 elements, SPLIT being where a loop of a nanosecond an
-- element gains from sharing)
local SPLIT, split, callsplit = 16384, kernels.split, kernels.callsplit
fast.fmod = {callsplit(op('fmodc', math.huge, intsfloats('C.fmod(x, c)', 'C.fmod(x, c)'))),
             callsplit(op('fmody', math.huge, intsfloats('C.fmod(x, y)', 'C.fmod(x, y)')))}
fast.pow = {nil, callsplit(op('powy', math.huge, floats('C.pow(x, y)')))}
-- (a FloatTensor's quotient is a float's, rounded before the floor: 10 % 0.1
-- is -1.5e-07 in a FloatTensor, 10 / 0.1 being 100 in floats)
local function remainders(b)
   local e = intsfloats('intremainder(x, ' .. b .. ')', ('x - %s * floor(x / %s)'):format(b, b))
   e.Float = ('x - %s * floor(f32(x / %s))'):format(b, b)
   return e
end
fast.remainder = {split(op('remainderc', math.huge, remainders('c')), SPLIT * 4),
                  split(op('remaindery', math.huge, remainders('y')), SPLIT * 4)}

-- numpy's SIMD loops (simd.lua) beyond this many elements, where the
-- LuaJIT loops' scalar code falls behind their fixed cost (a float loop,
-- converting each element to double and back, sooner)
-- (a LongTensor has no LuaJIT loop here: 64-bit integers are not Lua numbers)
local FLOATSIMDFROM = 256
local SIMDFROM = {[types.Float] = FLOATSIMDFROM, [types.Long] = 0, other = 512}
local simdops = {add = true, sub = true, mul = true, div = true}
-- cmax/cmin through numpy's maximum/minimum and a fix-up pass (minmax.lua)
-- beyond this many elements, where the LuaJIT loops' branch on each element
-- falls behind
local MINMAXFROM = 192

-- a number for py's functions: lupa hands -0 to Python as the integer 0, so
-- its sign goes as the string '-0' (which _scalar reads)
local function pynumber(v)
   if v == 0 and 1 / v < 0 then return '-0' end
   return v
end

-- res = x <op> y for y a tensor or a number
local function elementwise(T, fname, op, res, x, y)
   local xd = TD[x]
   local yd = type(y) ~= 'number' and TD[y]
   if yd then samecount(fname, xd, yd, res) else y = cast(T, y) end
   if dividing[op] then checkdivisor(T, fname, xd, y, yd) end
   local r
   res, r = result(T, res, xd, true)
   -- (TH's integer cremainder moved a remainder of the wrong sign by the
   -- divisor after writing it, reading the divisor from the result: into
   -- the divisor itself, it left C's remainder, fmod's)
   if op == 'remainder' and r == yd and T.integer then op = 'fmod' end
   local k = fast[op]
   if (op == 'max' or op == 'min')
      and minmax.map(op, r, xd, yd or y, MINMAXFROM, kernels.limit(k[yd and 2 or 1], T)) then
      return res
   end
   if simdops[op] and (nelement(r) > FLOATSIMDFROM or r.nd == 1 and r.str[1] ~= 1 or T == types.Long)
      and simd.map(op, r, xd, yd or y, SIMDFROM[T] or SIMDFROM.other, kernels.limit(k[yd and 2 or 1], T)) then
      return res
   end
   if k and (yd and kernels.map2(k[2], r, xd, yd) or not yd and kernels.map1(k[1], r, xd, y)) then
      return res
   end
   if T == types.Long and longloops.map(op, r, xd, yd, y) then return res end
   local f = T.integer and integerscalar[T][op] or (T == types.Float and floatscalar or scalar)[op]
   if f and (nelement(xd) <= SMALL or op == 'pow' and not T.integer) and (op ~= 'mul' or exactproducts(T))
      and exactlong(T, xd, y, yd) then
      if yd then loop2(r, xd, yd, f) else loop1(r, xd, f, y) end
   elseif nelement(xd) > 0 then
      pycall(py.math_binary, op, ndview(r), ndview(xd), yd and ndview(yd) or pynumber(y))
   end
   return res
end

local function binary(name, op, variants, only, alone)
   dispatch.define{
      elementwise = true,
      name = name, inplace = true, variants = variants, only = only, alone = alone,
      impl = function(T, _, res, x, y) return elementwise(T, name, op, res, x, y) end,
   }
end

binary('mul', 'mul', {'tn'})
binary('div', 'div', {'tn'})
binary('fmod', 'fmod', {'tn'})
binary('remainder', 'remainder', {'tn'})
binary('mod', 'fmod', {'tn'})              -- deprecated name of fmod
binary('cmul', 'mul', {'tt'})
binary('cdiv', 'div', {'tt'})
binary('cpow', 'pow', {'tt'})
binary('cfmod', 'fmod', {'tt'})
binary('cremainder', 'remainder', {'tt'})
binary('cmod', 'fmod', {'tt'})             -- deprecated name of cfmod
-- cmax/cmin (listed with the dimension-wise functions) are element-wise too
-- x:cmax() alone was no argument error in the original: cwrap's defaults
-- made it cmax(r, r, x) of a new empty r, TH's size error unless x is empty
-- (then r)
local function alone(name, op)
   return function(T, x)
      local r = internal.newtensor(T, {}, 0)
      return elementwise(T, name, op, r, r, x)
   end
end
binary('cmax', 'max', {'tt', 'tn'}, nil, alone('cmax', 'max'))
binary('cmin', 'min', {'tt', 'tn'}, nil, alone('cmin', 'min'))

-- the bit operations (bitops.lua's loops; numpy's Python path for the rest)
local function bitwise(T, fname, op, res, x, y)
   local xd = TD[x]
   local yd = type(y) ~= 'number' and TD[y]
   if yd then samecount(fname, xd, yd, res) else y = cast(T, y) end
   local r
   res, r = result(T, res, xd, true)
   if nelement(r) > 0 and not bitops.run(op, r, xd, yd, y) then
      pycall(py.math_binary, op, ndview(r), ndview(xd), yd and ndview(yd) or y)
   end
   return res
end
for _, op in ipairs{'bitand', 'bitor', 'bitxor'} do
   for name, variants in pairs{[op] = {'tn'}, ['c' .. op] = {'tt'}} do
      dispatch.define{
         elementwise = true,
         name = name, inplace = true, variants = variants,
         impl = function(T, _, res, x, y)
            -- (Float and Double had the methods, which TH refused)
            if not T.integer then fail('%s is only supported for integer type tensors', name) end
            return bitwise(T, name, op, res, x, y)
         end,
      }
   end
end

-- bit shifts; Float and Double tensors are multiplied or divided by 2^n, as in Torch7
local function shift(name, op, variants)
   dispatch.define{
      elementwise = true,
      name = name, inplace = true, variants = variants,
      impl = function(T, _, res, x, y)
         if T.integer then return bitwise(T, name, op, res, x, y) end
         local scale = op == 'lshift' and 'mul' or 'div'
         if type(y) == 'number' then return elementwise(T, name, scale, res, x, 2 ^ y) end
         return elementwise(T, name, scale, res, x, y.new():resizeAs(y):fill(2):cpow(y))
      end,
   }
end
for _, op in ipairs{'lshift', 'rshift'} do
   shift(op, op, {'tn'})
   shift('c' .. op, op, {'tt'})
end

local function addscaled(a, b, v) return a + v * b end
local function addscaledfloat(a, b, v) return a + f32(v * b) end
local axpyexpr = 'x + c * y'
-- (one pass where numpy makes two: the loop wins up to the thread split)
local fastaxpy = op('axpy', 2^20 - 1, {Byte = axpyexpr, Char = axpyexpr, Short = axpyexpr, Double = axpyexpr,
                                       Float = 'x + f32(c * y)'})

-- res = x + v * y
local function axpy(T, fname, res, x, v, y)
   local xd, yd = TD[x], TD[y]
   samecount(fname, xd, yd, res)
   v = cast(T, v)
   local r
   res, r = result(T, res, xd, true)
   local n = nelement(xd)
   if not T.integer and n > 0 then
      -- where Torch7 fused the multiply-add, as it did
      local rp, xp, yp = kernels.flat(r), kernels.flat(xd), kernels.flat(yd)
      if rp and xp and yp then
         fused.axpy(T, rp, xp, yp, n, v, r == xd)
         return res
      end
   end
   if kernels.map2(fastaxpy, r, xd, yd, v) then return res end
   if nelement(xd) <= SMALL and exactproducts(T) then
      loop2(r, xd, yd, T == types.Float and addscaledfloat or addscaled, v)
   elseif nelement(xd) > 0 then
      pycall(py.math_addscaled, ndview(r), ndview(xd), pynumber(v), ndview(yd))
   end
   return res
end

-- add([res,] x, value), add([res,] x, y), add([res,] x, value, y)
dispatch.define{
   elementwise = true,
   name = 'add', inplace = true, variants = {'tn', 'tt', 'tnt'},
   impl = function(T, sig, res, x, a, b)
      if sig == 'tnt' then return axpy(T, 'add', res, x, a, b) end
      if sig == 'tt' and res == x and not T.integer then return axpy(T, 'add', res, x, 1, a) end   -- (Torch7's BLAS axpy)
      return elementwise(T, 'add', 'add', res, x, a)
   end,
}

-- csub([res,] x, value), csub([res,] x, y), csub([res,] x, value, y): x - value * y
dispatch.define{
   elementwise = true,
   name = 'csub', inplace = true, variants = {'tn', 'tt', 'tnt'},
   impl = function(T, sig, res, x, a, b)
      if sig == 'tnt' then return axpy(T, 'csub', res, x, -cast(T, a), b) end
      if sig == 'tt' then return axpy(T, 'csub', res, x, -1, a) end
      return elementwise(T, 'csub', 'sub', res, x, a)
   end,
}

-- clamp's two bounds as two LuaJIT passes (a NaN stays, as in TH's
-- x < lo ? lo : x > hi ? hi : x; with lo > hi that gives lo, one pass does);
-- beyond CLIPFROM elements numpy's clip loop called from LuaJIT wins
-- (minmax.lua), and beyond CLAMPLIMIT its Python call.  max(c, x) and
-- min(c, x) are TH's tests without a branch: LuaJIT's max and min give
-- their second operand when the two are equal (x's zero keeps its sign) or
-- one is NaN (x's NaN stays).  (As tests, random elements took a side exit
-- every other one, and the trace LuaJIT made of that differed from one
-- process to the next: 10,000 elements 5-9 ns each or 1)
local CLIPFROM, CLAMPLIMIT = 64, 1024
local clamplow = op('clamplow', CLAMPLIMIT, alltypes('max(c, x)', 'max(c, x)'))
local clamphigh = op('clamphigh', CLAMPLIMIT, alltypes('min(c, x)', 'min(c, x)'))

dispatch.define{
   elementwise = true,
   name = 'clamp', inplace = true, variants = {'tnn'},
   impl = function(T, _, res, x, lo, hi)
      local xd = TD[x]
      lo, hi = cast(T, lo), cast(T, hi)
      local r
      res, r = result(T, res, xd, true)
      if minmax.clamp(r, xd, lo, hi, CLIPFROM, CLAMPLIMIT) then return res end
      -- (should the second pass not take r, the paths below redo it all)
      if lo <= hi and kernels.map1(clamplow, r, xd, lo) and kernels.map1(clamphigh, r, r, hi) then
         return res
      end
      if T == types.Long and nelement(xd) <= SMALL then
         -- (a LongTensor's elements as int64, compared and kept exactly: as
         -- numbers, 2^60 - 10 read as 2^60 and was stored back so)
         local L, H = ffi.new('int64_t', lo), ffi.new('int64_t', hi)
         dispatch.rawloop1(r, xd, function(a)
            if a < L then return L elseif a > H then return H end
            return a
         end)
      elseif nelement(xd) <= SMALL then
         loop1(r, xd, function(a)
            if a < lo then return lo elseif a > hi then return hi end
            return a
         end)
      else
         pycall(py.math_clamp, ndview(r), ndview(xd), pynumber(lo), pynumber(hi))
      end
      return res
   end,
}

local function addcmul(a, b, c, v) return a + v * b * c end
local function addcdiv(a, b, c, v) return a + v * b / c end
-- (FloatTensors round each step to a float, as Torch7 computed them; integer
-- arithmetic wraps each step, as numpy's does)
local floataddc = {addcmul = function(a, b, c, v) return a + f32(f32(v * b) * c) end,
                   addcdiv = function(a, b, c, v) return a + f32(f32(v * b) / c) end}
-- (a DoubleTensor's loops at every size, shared with helper threads from
-- SPLIT elements: numpy's temporaries made 10^6 elements twice the
-- original's time; a FloatTensor's rounding of each step, in numpy's float
-- loops from FLOATLIMIT elements, is faster than f32's)
local fastaddc = {addcmul = split(op('addcmul', math.huge, {Double = 'x + c * y * z', Float = 'x + f32(f32(c * y) * z)'}, FLOATLIMIT), SPLIT),
                  addcdiv = split(op('addcdiv', math.huge, {Double = 'x + c * y / z', Float = 'x + f32(f32(c * y) / z)'}, FLOATLIMIT), SPLIT)}

-- addcmul/addcdiv([res,] x [, value], t1, t2): x + value * t1 .* t2 (or ./ t2)
for name, f in pairs{addcmul = addcmul, addcdiv = addcdiv} do
   dispatch.define{
      elementwise = 'copyfirst',
      name = name, inplace = true, variants = {'ttt', 'tntt'},
      impl = function(T, sig, res, x, a, b, c)
         local v, t1, t2 = 1, a, b
         if sig == 'tntt' then v, t1, t2 = cast(T, a), b, c end
         local xd, d1, d2 = TD[x], TD[t1], TD[t2]
         dispatch.samecount3(name, xd, d1, d2, res)
         local r
         res, r = result(T, res, xd, true)
         if r ~= xd and r.st ~= nil and (rawequal(r.st, d1.st) or rawequal(r.st, d2.st)) then
            -- (TH copies x into the result first, then adds in place: a
            -- result that is t1 or t2 gives x + v * x .* t2 and the like)
            internal.copy(r, xd)
            xd = r
         end
         -- (after that copy: an integer divisor it zeroed killed the original)
         if name == 'addcdiv' then checkdivisor(T, name, xd, nil, d2) end
         if kernels.map3(fastaddc[name], r, xd, d1, d2, v) then return res end
         if nelement(xd) <= SMALL and exactproducts(T) and not (T.integer and name == 'addcdiv') then
            loop3(r, xd, d1, d2, T == types.Float and floataddc[name] or f, v)
         elseif nelement(xd) > 0 then
            pycall(py.math_addc, name, ndview(r), ndview(xd), pynumber(v), ndview(d1), ndview(d2))
         end
         return res
      end,
   }
end

local function lerp(a, b, w) return a + w * (b - a) end
local function floatlerp(a, b, w) return a + f32(f32(w) * f32(b - a)) end
local fastlerp = split(op('lerp', math.huge, {Double = 'x + c * (y - x)', Float = 'x + f32(f32(c) * f32(y - x))'}, FLOATLIMIT), SPLIT)

-- lerp([res,] a, b, weight): a + weight * (b - a); numbers give a number
dispatch.define{
   elementwise = 'inplace',
   name = 'lerp', inplace = true, variants = {'ttn'}, only = dispatch.floating,
   impl = function(T, _, res, a, b, w)
      local ad, bd = TD[a], TD[b]
      samecount('lerp', ad, bd)
      local r
      res, r = result(T, res, ad, true)
      if kernels.map2(fastlerp, r, ad, bd, w) then return res end
      if nelement(ad) <= SMALL then
         loop2(r, ad, bd, T == types.Float and floatlerp or lerp, w)
      else
         pycall(py.math_lerp, ndview(r), ndview(ad), ndview(bd), pynumber(w))
      end
      return res
   end,
}
local tensorlerp = torch.lerp
-- torch.lerp(a, b, w) of numbers (numeric strings too, as the binding read
-- them) is the default type's, or the type's a last argument names: a
-- Float's in float, an integer type's "does not implement", Half's the
-- tensor form's error
function torch.lerp(...)
   local n = select('#', ...)
   local a, b, w, name = ...
   local T = n == 4 and dispatch.numbersof(3, tonumber(a), tonumber(b), tonumber(w), name)
   if (n == 3 or T) and type(a) ~= 'userdata' and type(b) ~= 'userdata' and type(w) ~= 'userdata' then
      a, b, w = tonumber(a), tonumber(b), tonumber(w)
      if a and b and w then
         local given = T
         T = T or dispatch.defaulttype()
         if T == types.Double then return lerp(a, b, w) end
         if T == types.Float then return f32(floatlerp(f32(a), f32(b), w)) end
         if given then dispatch.numbersnotimplemented(T, 'lerp') end
      end
   end
   return tensorlerp(...)   -- (the arguments as given: an error lists no nil the call did not give)
end

-- equal's LuaJIT loop goes up to EQUALLOOP elements; beyond, it looks at
-- the first EQUALHEAD of the first row before numpy compares the whole
local EQUALLOOP, EQUALHEAD = 2048, 256

-- x and y (n elements of the same sizes) as m rows of matrices (strides
-- r1, r2 and s1, s2): contiguous ones as one row, matrices as they are; nil
-- for the others
local function matrixof(xd, yd, n)
   if vectorloops.dense(xd) and vectorloops.dense(yd) then return 1, 0, 1, 0, 1 end
   if xd.nd == 2 then return xd.sz[1], xd.str[1], xd.str[2], yd.str[1], yd.str[2] end
   if xd.nd == 1 then return 1, 0, xd.str[1], 0, yd.str[1] end
end

-- equal(x, y): same sizes and the same values
dispatch.define{
   name = 'equal', variants = {'tt'}, scalar = {'tt'},
   impl = function(T, _, _, x, y)
      local xd, yd = TD[x], TD[y]
      if not samesize(xd, yd) then return false end
      local n = nelement(xd)
      if n == 0 then return true end
      local m, r1, r2, s1, s2 = matrixof(xd, yd, n)
      if m then
         internal.checkbounds(xd)
         internal.checkbounds(yd)
         local equal, xp, yp = vectorloops[T].equal, xd.st.ptr + xd.off, yd.st.ptr + yd.off
         if n <= EQUALLOOP then return equal(xp, r1, r2, yp, s1, s2, m, n / m) end
         -- (beyond, numpy's loop is faster, but reads everything: a
         -- difference near the start is found here first)
         if not equal(xp, r1, r2, yp, s1, s2, 1, n / m < EQUALHEAD and n / m or EQUALHEAD) then return false end
      end
      if n <= SMALL then
         internal.checkbounds(xd)
         internal.checkbounds(yd)
         local xo, yo = internal.offsets(xd), internal.offsets(yd)
         local xp, yp = xd.st.ptr, yd.st.ptr
         for i = 1, n do
            if xp[xo[i]] ~= yp[yo[i]] then return false end
         end
         return true
      end
      return pycall(py.math_equal, ndview(xd), ndview(yd))
   end,
}
