-- Element-wise mathematical functions: torch.abs, sign, acos ... frac, neg,
-- cinv, pow, atan2.  Each is `[res] torch.f([res,] x)`; `x:f()` works in
-- place and `r:f(x)` writes into r.  Besides abs and sign, they exist
-- for FloatTensor and DoubleTensor only, as in Torch7 (abs also for the
-- Int and Long ones, sign for all).  As in Torch7, the C functions are also offered
-- on numbers: torch.log(2), torch.pow(2, 10), torch.atan2(1, 1).
local ffi = require 'ffi'
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'
local dispatch = require 'torch.maths.dispatch'

local TD, py, pycall, ndview = internal.tensors, internal.py, internal.pycall, internal.ndview
local nelement = internal.nelement
local type, select, tonumber = type, select, tonumber
local result, loop1, loop2, SMALL = dispatch.result, dispatch.loop1, dispatch.loop2, dispatch.SMALL
local abs, ceil, floor, sqrt = math.abs, math.ceil, math.floor, math.sqrt

-- trunc, round, frac and sign without a branch on the element's sign (on
-- data of both signs, a branch missed every other element: 3 ns each, the
-- original's 0.5-0.7), through math.max and math.min.  round's sign:
-- signof(x) is -1 for x < 0 and for -0 (1 / x keeps a zero's sign), else 1,
-- from positive(d), 1 for d > 0, else 0 (NaN and zeros too): d scaled by
-- 2^1200 (the smallest positive double becomes more than 1), then clamped.
-- Numbers from 2^52 on (and NaN) are integers.
local max, min = math.max, math.min
local function positive(d) return min(max(d * 0x1p600 * 0x1p600, 0), 1) end
local function signof(x) return 1 - 2 * positive(-1 / x) end

-- C's trunc, -0 for -1 < x < 0 and for -0: floor(x) for x >= 0 (min(...)
-- is then a zero), ceil(x) for x < 0 (floor(x) the smaller), x * 0 being a
-- zero of x's sign
local function trunc(x)
   if not (abs(x) < 2^52) then return x end
   return max(floor(x), min(ceil(x), x * 0))
end

-- C round(): halfway cases away from zero.  |x| - floor(|x|) is exact, and
-- so is its double, whose floor is 1 from one half on
local function round(x)
   local a = abs(x)
   if not (a < 2^52) then return x end
   local r = floor(a)
   return (r + floor(2 * (a - r))) * signof(x)
end

-- C's functions (libm.lua): Torch7 computed with exp, log... and a
-- FloatTensor's functions with expf, tanhf...; these run here at every size
-- (numpy's vectorised ones, and double functions rounded to float, differ
-- from them in the last bit)
local C = require 'torch.maths.libm'
local f32 = require('torch.maths.kernels').f32
local LIBM = {exp = true, log = true, log1p = true, sin = true, cos = true, tan = true, asin = true,
              acos = true, atan = true, sinh = true, cosh = true, tanh = true, sigmoid = true}

-- (abs and neg leave a NaN as it is, sign bit included, as TH's did)
local functions = {
   abs = function(x) if x ~= x then return x end return abs(x) end,
   -- (x scaled then clamped to -1..1, its zero made +0; NaN: 0, as TH)
   sign = function(x) return x ~= x and 0 or min(max(x * 0x1p600 * 0x1p600, -1), 1) + 0 end,
   neg = function(x) if x ~= x then return x end return -x end,
   ceil = ceil, floor = floor, round = round, sqrt = sqrt, trunc = trunc,
   rsqrt = function(x) return 1 / sqrt(x) end,
   sigmoid = function(x) return 1 / (1 + C.exp(-x)) end,
   frac = function(x) return x - trunc(x) end,
   cinv = function(x) return 1 / x end,
}
local floatfunctions = {
   rsqrt = function(x) return 1 / C.sqrtf(x) end,
   sigmoid = function(x) return 1 / f32(1 + C.expf(-x)) end,
}
for name in pairs(LIBM) do
   if not functions[name] then
      local cd, cf = C[name], C[name .. 'f']
      functions[name] = function(x) return cd(x) end
      floatfunctions[name] = function(x) return cf(x) end
   end
end
floatfunctions.sqrt = function(x) return C.sqrtf(x) end
for name, f in pairs(functions) do floatfunctions[name] = floatfunctions[name] or f end
local alltypes = {sign = true}

-- their LuaJIT loops: the expression of one element (the function itself,
-- called by name, for those written above); integer abs/neg/sign cannot
-- overflow but Long, which stays on the numpy path (neg: floating types only)
local kernels = require 'torch.maths.kernels'
kernels.helpers{sign = functions.sign, round = round, trunc = trunc, frac = functions.frac}
local LIMIT = 16384
local fast = {}
for name in pairs(functions) do
   local expr = ({neg = 'x ~= x and x or -x', abs = 'x ~= x and x or abs(x)', sign = 'sign(x)',
                  round = 'round(x)', trunc = 'trunc(x)', frac = 'frac(x)', rsqrt = '1 / sqrt(x)',
                  sigmoid = '1 / (1 + C.exp(-x))', cinv = '1 / x'})[name]
                or (LIBM[name] and 'C.' .. name .. '(x)') or name .. '(x)'
   local exprs = (name == 'abs' or alltypes[name]) and kernels.alltypes(expr, expr) or kernels.floats(expr)
   exprs.Float = ({rsqrt = '1 / C.sqrtf(x)', sigmoid = '1 / f32(1 + C.expf(-x))', sqrt = 'C.sqrtf(x)'})[name]
                 or (LIBM[name] and 'C.' .. name .. 'f(x)') or exprs.Float
   -- C's functions at every size (shared with helper threads: a C call
   -- costs 5-40 ns, kernels.callsplit); numpy's exact ones beyond LIMIT
   fast[name] = kernels.op(name, LIBM[name] and math.huge or LIMIT, exprs, math.huge)
   if LIBM[name] then kernels.callsplit(fast[name]) end
end

-- frac through numpy's trunc and subtract loops (simd.frac) beyond FRACFROM
-- elements of contiguous tensors (its LuaJIT loop takes 0.4-0.5 ns an
-- element; numpy's vector loops a third of that)
local simd = require 'torch.maths.simd'
local longloops = require 'torch.maths.longloops'
local FRACFROM = 512
local function simdfrac(r, x)
   local n = nelement(r)
   if n <= FRACFROM or x.T ~= r.T or not internal.apart(x, r) then return false end
   local rp, xp = kernels.flat(r), kernels.flat(x)
   return rp and xp and simd.frac(r.T, n, LIMIT, rp, xp) or false
end

-- floor, ceil, trunc, sqrt, cinv and rsqrt of Float and Double tensors
-- through numpy's loops (simd.unary: rsqrt as sqrt, then 1 / x in place)
-- beyond `from` elements of contiguous tensors, once numpy is loaded: the
-- same bits, in vector instructions (measured: at 100 elements sqrt 0.66 ->
-- 0.19 us, rsqrt 0.77 -> 0.28, floor 0.38 -> 0.18).  neg and abs keep a NaN
-- as it is (th's loops do: the NaN a script stored, the one the original's
-- reads gave, README), where numpy's negative and absolute flip or clear
-- its sign bit: neg is x * -1 in numpy's multiply loop (an IEEE product
-- returns its NaN operand), abs numpy's absolute once its maximum loop
-- found no NaN in x
local vectorised = {floor = {'floor', from = 24}, ceil = {'ceil', from = 24}, trunc = {'trunc', from = 48},
                    sqrt = {'sqrt', from = 8}, cinv = {'reciprocal', from = 64},
                    rsqrt = {'sqrt', 'reciprocal', from = 8}, abs = {'absolute', from = 128}, neg = {from = 128}}
local function simdunary(name, r, x)
   local n = nelement(r)
   if n <= vectorised[name].from or x.T ~= r.T or r.T.integer or not internal.apart(x, r) then return false end
   local rp, xp = kernels.flat(r), kernels.flat(x)
   if not rp or not xp then return false end
   local T, import, ops = r.T, kernels.limit(fast[name], r.T), vectorised[name]
   if name == 'neg' then return simd.flat('mul', T, n, import, rp, xp, simd.cell(T, -1), 0) end
   local loops = simd.loops(n > import)   -- (each there before r is written)
   for _, op in ipairs(ops) do
      if not (loops and loops[op] and loops[op][T]) then return false end
   end
   if name == 'abs' and not simd.nanfree(T, n, import, xp) then return false end
   for i, op in ipairs(ops) do simd.unary(op, T, n, import, rp, i == 1 and xp or rp) end
   return true
end

-- Torch7 wrapped abs for the Int and Long tensors only among the integer ones
local function hasabs(T) return not T.integer or T == types.Int or T == types.Long end

for name, f in pairs(functions) do
   dispatch.define{
      elementwise = 'inplace',   -- (a Double's vector paths apply f once to an expanded x)
      name = name, inplace = true, variants = {'t'},
      only = name == 'abs' and hasabs or not alltypes[name] and dispatch.floating or nil,
      impl = function(T, _, res, x)
         local xd = TD[x]
         local r
         res, r = result(T, res, xd, true)
         if name == 'frac' and simdfrac(r, xd) then return res end
         if vectorised[name] and simdunary(name, r, xd) then return res end
         if kernels.map1(fast[name], r, xd) then return res end
         if T == types.Long and longloops.map(name, r, xd) then return res end
         -- (a LongTensor's beyond 2^53 not in doubles: numpy's int64 abs wraps as TH's)
         if nelement(xd) <= SMALL and not (T == types.Long and name == 'abs') or T == types.Float or LIBM[name] then
            loop1(r, xd, T == types.Float and floatfunctions[name] or f)
         elseif nelement(xd) > 0 then   -- (an empty LongTensor's abs: no numpy view)
            pycall(py.math_unary, name, ndview(r), ndview(xd))
         end
         return res
      end,
   }
end

-- C's pow and atan2 (a FloatTensor's pow(x, n) and atan2 were powf and
-- atan2f, its pow(n, x) a double pow of floats, rounded), with the loops of
-- contiguous tensors and the functions of the others
local power = {
   tn = {Double = function(x, n) return C.pow(x, n) end, Float = function(x, n) return C.powf(x, n) end},
   nt = {Double = function(x, n) return C.pow(n, x) end, Float = function(x, n) return C.pow(n, x) end},
}
local fastpower = {tn = kernels.callsplit(kernels.op('powc', math.huge, {Double = 'C.pow(x, c)', Float = 'C.powf(x, c)'})),
                   nt = kernels.callsplit(kernels.op('cpow', math.huge, kernels.floats('C.pow(c, x)')))}
local atan2 = {Double = function(x, y) return C.atan2(x, y) end, Float = function(x, y) return C.atan2f(x, y) end}
local fastatan2 = kernels.callsplit(kernels.op('atan2', math.huge, {Double = 'C.atan2(x, y)', Float = 'C.atan2f(x, y)'}))

-- Torch7's pow took these exponents apart: its results are these formulas'
-- bits, not C pow's (float steps rounded to float)
local POWFORMS = {
   [3] = {Double = 'x * x * x', Float = 'f32(x * x) * x'},
   [0.5] = {Double = 'sqrt(x)', Float = 'C.sqrtf(x)'},
   [-1] = {Double = '1 / x', Float = '1 / x'},
   [-2] = {Double = '1 / (x * x)', Float = '1 / f32(x * x)'},
   [-0.5] = {Double = '1 / sqrt(x)', Float = '1 / C.sqrtf(x)'},
}
local fastpow, powforms = {}, {}
for e, forms in pairs(POWFORMS) do
   fastpow[e] = kernels.op('pow' .. e, math.huge, forms)
   powforms[e] = {}
   for tname, expr in pairs(forms) do
      local chunk = loadstring('local C, f32, sqrt = ... return function(x) return ' .. expr .. ' end')
      powforms[e][tname] = chunk(C, f32, math.sqrt)
   end
end

-- pow(x, n): elements to the power n; pow(n, x): n to the power of the elements
dispatch.define{
   elementwise = true,
   name = 'pow', inplace = true, variants = {'tn', 'nt'}, only = dispatch.floating,
   impl = function(T, sig, res, a, b)
      local x, n = a, b
      if sig == 'nt' then x, n = b, a end
      if T == types.Float then n = f32(n) end   -- the binding read a float
      local xd = TD[x]
      local r
      res, r = result(T, res, xd, true)
      -- x^1 and x^2 were Torch7's copy and cmul (x^1: each bit kept, a
      -- NaN's sign too; nn.Power(2)'s gradient takes it)
      if sig == 'tn' and n == 1 then
         if r ~= xd then internal.copy(r, xd) end
      elseif sig == 'tn' and n == 2 then
         res:cmul(x, x)
      elseif sig == 'tn' and POWFORMS[n] then
         if not kernels.map1(fastpow[n], r, xd) then loop1(r, xd, powforms[n][T.name]) end
      elseif not kernels.map1(fastpower[sig], r, xd, n) then
         loop1(r, xd, power[sig][T.name], n)
      end
      return res
   end,
}

dispatch.define{
   elementwise = true,
   name = 'atan2', inplace = true, variants = {'tt'}, only = dispatch.floating,
   impl = function(T, _, res, x, y)
      local xd, yd = TD[x], TD[y]
      dispatch.samecount('atan2', xd, yd, res)
      local r
      res, r = result(T, res, xd, true)
      if not kernels.map2(fastatan2, r, xd, yd) then loop2(r, xd, yd, atan2[T.name]) end
      return res
   end,
}

-- torch.f(numbers...): f on numbers (numeric strings too, as the bindings
-- read them) of the default type, or of the type a
-- last argument names ('torch.FloatTensor': a float is rounded in and out);
-- any other call goes to the tensor form
local float = ffi.new('float[1]')
local function real(v, T)
   if T ~= types.Float then return v end
   float[0] = v
   return tonumber(float[0])
end

-- the tensor types a last argument may name (not Half: its f was the
-- default type's, which took no name)
local named = {}
for i = 1, types.count do named[types[i].tensorname] = types[i] end

-- torch.abs(number) of the type Int or Long: the number made the type's
-- integer as C's cast made it (truncated; what the type cannot hold, NaN
-- too, its smallest value, as x86 converts), whose abs wraps
local function intabs(T, v)
   local lim = T == types.Int and 2^31 or 2^63
   if v ~= v or v >= lim or v < -lim then return -lim end
   v = (v >= 0 and math.floor(v) or math.ceil(v)) + 0      -- (+ 0: no -0)
   if v == -lim then return v end
   return v < 0 and -v or v
end

-- a number as the bindings read one (lua_isnumber): numeric strings too
local function isnumber(v)
   return type(v) == 'number' or type(v) == 'string' and tonumber(v) ~= nil
end

-- numbersof(arity, ...) -> the type named last (or nil) when the arguments
-- are arity numbers, that type's name after them or not; false otherwise
local function numbersof(arity, ...)
   local n, a, b, c = select('#', ...), ...
   local T
   if n == arity + 1 then
      T = named[select(n, ...)]
      if not T then return false end
   elseif n ~= arity then
      return false
   end
   if not isnumber(a) or arity >= 2 and not isnumber(b) or arity >= 3 and not isnumber(c) then
      return false
   end
   return T
end
dispatch.numbersof = numbersof

local function notimplemented(T, name)
   internal.locate(('%s does not implement the torch.%s() function'):format(T.tensorname, name))
end
dispatch.numbersnotimplemented = notimplemented

-- (of a Double or Float only: another type's f refused numbers, but Int's
-- and Long's abs)
local function numeric(name, f, arity)
   local tensorform = torch[name]
   torch[name] = function(...)
      local T = numbersof(arity, ...)
      if T ~= false then
         local a, b = ...
         a, b = tonumber(a), tonumber(b)
         local given = T
         T = T or dispatch.defaulttype()
         if not T.integer and T ~= types.Half then
            return real(f(real(a, T), arity == 2 and real(b, T) or nil), T)
         elseif name == 'abs' and (T == types.Int or T == types.Long) then
            return intabs(T, a)
         elseif given then
            notimplemented(T, name)
         end
      end
      return tensorform(...)
   end
end

for _, name in ipairs{'log', 'log1p', 'exp', 'cos', 'acos', 'cosh', 'sin', 'asin', 'sinh', 'tan', 'atan', 'tanh',
                      'sqrt', 'round', 'ceil', 'floor', 'trunc', 'abs', 'frac', 'rsqrt', 'sigmoid'} do
   numeric(name, functions[name], 1)
end
numeric('atan2', atan2.Double, 2)
numeric('pow', power.tn.Double, 2)
