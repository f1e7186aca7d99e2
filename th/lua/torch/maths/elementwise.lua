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
local abs, acos, asin, atan, atan2, ceil, cos, cosh, exp, floor, log, sin, sinh, sqrt, tan, tanh =
      math.abs, math.acos, math.asin, math.atan, math.atan2, math.ceil, math.cos, math.cosh, math.exp,
      math.floor, math.log, math.sin, math.sinh, math.sqrt, math.tan, math.tanh

-- trunc and ceil give -0 for -1 < x < 0, as C's (and Torch7's) did
local function trunc(x)
   if x >= 0 then return floor(x) end
   return ceil(x)
end

-- C round(): halfway cases away from zero
local function round(x)
   local r = trunc(x)
   if abs(x - r) >= 0.5 then
      return x > 0 and r + 1 or r - 1
   end
   return r
end

-- C's functions where Lua has none, and C's float ones: Torch7 computed a
-- FloatTensor's functions with expf, tanhf... (numpy's float32 loops, and the
-- double functions rounded once, differ from them in the last bit)
pcall(ffi.cdef, [[
double log1p(double);
float expf(float); float logf(float); float log1pf(float); float sqrtf(float);
float sinf(float); float cosf(float); float tanf(float); float asinf(float); float acosf(float);
float atanf(float); float sinhf(float); float coshf(float); float tanhf(float);
float powf(float, float); float atan2f(float, float);
]])
local C = ffi.C

local function log1p(x) return C.log1p(x) end
local f32 = require('torch.maths.kernels').f32

local functions = {
   abs = abs,
   sign = function(x) if x > 0 then return 1 elseif x < 0 then return -1 end return 0 end,
   neg = function(x) return -x end,
   acos = acos, asin = asin, atan = atan, ceil = ceil, cos = cos, cosh = cosh, exp = exp,
   floor = floor, log = function(x) return log(x) end, log1p = log1p, round = round, sin = sin, sinh = sinh,
   sqrt = sqrt, tan = tan, tanh = tanh, trunc = trunc,
   rsqrt = function(x) return 1 / sqrt(x) end,
   sigmoid = function(x) return 1 / (1 + exp(-x)) end,
   frac = function(x) return x - trunc(x) end,
   cinv = function(x) return 1 / x end,
}
local alltypes = {sign = true}

-- their LuaJIT loops: the expression of one element (the function itself,
-- called by name, for those written above); integer abs/neg/sign cannot
-- overflow but Long, which stays on the numpy path (neg: floating types only)
-- the C float function of each function that has one, and the float
-- computations of the others that round in between
local floatnames = {exp = 'expf', log = 'logf', log1p = 'log1pf', sqrt = 'sqrtf', sin = 'sinf', cos = 'cosf',
                    tan = 'tanf', asin = 'asinf', acos = 'acosf', atan = 'atanf', sinh = 'sinhf',
                    cosh = 'coshf', tanh = 'tanhf'}
local floatfunctions = {
   rsqrt = function(x) return 1 / C.sqrtf(x) end,
   sigmoid = function(x) return 1 / f32(1 + C.expf(-x)) end,
}
for name, cname in pairs(floatnames) do
   local cf = C[cname]
   floatfunctions[name] = function(x) return cf(x) end
end
for name, f in pairs(functions) do floatfunctions[name] = floatfunctions[name] or f end

local kernels = require 'torch.maths.kernels'
kernels.helpers{sign = functions.sign, round = round, log1p = log1p, trunc = trunc,
                frac = functions.frac, C = C}
local LIMIT = 16384
local fast = {}
for name in pairs(functions) do
   local expr = ({neg = '-x', sign = 'sign(x)', round = 'round(x)', log1p = 'log1p(x)',
                  trunc = 'trunc(x)', frac = 'frac(x)', rsqrt = '1 / sqrt(x)', sigmoid = '1 / (1 + exp(-x))',
                  cinv = '1 / x', log = 'log(x)'})[name] or name .. '(x)'
   local exprs = (name == 'abs' or alltypes[name]) and kernels.alltypes(expr, expr) or kernels.floats(expr)
   exprs.Float = floatnames[name] and ('C.%s(x)'):format(floatnames[name])
                 or ({rsqrt = '1 / C.sqrtf(x)', sigmoid = '1 / f32(1 + C.expf(-x))'})[name] or exprs.Float
   -- the float loops run at every size: numpy has no float function of C's
   -- (tanh: numpy's double one differs from C's too)
   fast[name] = kernels.op(name, name == 'tanh' and math.huge or LIMIT, exprs, math.huge)
end

-- Torch7 wrapped abs for the Int and Long tensors only among the integer ones
local function hasabs(T) return not T.integer or T == types.Int or T == types.Long end

for name, f in pairs(functions) do
   dispatch.define{
      name = name, inplace = true, variants = {'t'},
      only = name == 'abs' and hasabs or not alltypes[name] and dispatch.floating or nil,
      impl = function(T, _, res, x)
         local xd = TD[x]
         local r
         res, r = result(T, res, xd, true)
         if kernels.map1(fast[name], r, xd) then return res end
         if nelement(xd) <= SMALL or T == types.Float or name == 'tanh' then
            loop1(r, xd, T == types.Float and floatfunctions[name] or f)
         else
            pycall(py.math_unary, name, ndview(r), ndview(xd))
         end
         return res
      end,
   }
end

local function power(x, n) return x ^ n end
local function tpower(x, n) return n ^ x end
local function powerf(x, n) return C.powf(x, n) end
local function atan2f(x, y) return C.atan2f(x, y) end

-- Torch7's pow took these exponents apart: its results are these formulas'
-- bits, not C pow's (float steps rounded to float)
local POWFORMS = {
   [2] = {Double = 'x * x', Float = 'x * x'},
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
   name = 'pow', inplace = true, variants = {'tn', 'nt'}, only = dispatch.floating,
   impl = function(T, sig, res, a, b)
      local x, n = a, b
      if sig == 'nt' then x, n = b, a end
      local xd = TD[x]
      local r
      res, r = result(T, res, xd, true)
      if sig == 'tn' and POWFORMS[n] then
         if not kernels.map1(fastpow[n], r, xd) then loop1(r, xd, powforms[n][T.name]) end
      elseif sig == 'tn' and T == types.Float then
         loop1(r, xd, powerf, n)   -- C's powf, as Torch7 (n ^ x was a double pow, rounded)
      elseif nelement(xd) <= SMALL then
         loop1(r, xd, sig == 'tn' and power or tpower, n)
      elseif sig == 'tn' then
         pycall(py.math_binary, 'pow', ndview(r), ndview(xd), n)
      else
         pycall(py.math_binary, 'pow', ndview(r), n, ndview(xd))
      end
      return res
   end,
}

dispatch.define{
   name = 'atan2', inplace = true, variants = {'tt'}, only = dispatch.floating,
   impl = function(T, _, res, x, y)
      local xd, yd = TD[x], TD[y]
      dispatch.samecount('atan2', xd, yd)
      local r
      res, r = result(T, res, xd, true)
      if nelement(xd) <= SMALL or T == types.Float then
         loop2(r, xd, yd, T == types.Float and atan2f or atan2)
      else
         pycall(py.math_binary, 'atan2', ndview(r), ndview(xd), ndview(yd))
      end
      return res
   end,
}

-- torch.f(numbers...): f on numbers of the default type (a float is rounded
-- in and out); any other call goes to the tensor form
local float = ffi.new('float[1]')
local function real(v)
   if dispatch.defaulttype() ~= types.Float then return v end
   float[0] = v
   return tonumber(float[0])
end

local function numeric(name, f, arity)
   local tensorform = torch[name]
   torch[name] = function(...)
      local a, b = ...
      if select('#', ...) == arity and type(a) == 'number' and (arity == 1 or type(b) == 'number') then
         return real(f(real(a), arity == 2 and real(b) or nil))
      end
      return tensorform(...)
   end
end

for _, name in ipairs{'log', 'log1p', 'exp', 'cos', 'acos', 'cosh', 'sin', 'asin', 'sinh', 'tan', 'atan', 'tanh',
                      'sqrt', 'round', 'ceil', 'floor', 'trunc', 'abs', 'frac', 'rsqrt', 'sigmoid'} do
   numeric(name, functions[name], 1)
end
numeric('atan2', atan2, 2)
numeric('pow', power, 2)
