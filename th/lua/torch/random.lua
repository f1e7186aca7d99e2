-- Random numbers as Torch7 draws them (TH's THRandom.c and THTensorRandom.c):
-- the distributions consume the stream of a torch.Generator (Generator.lua) in
-- the same order, so seeded scripts print the same numbers.  Numbers and
-- tensors are drawn here through FFI, contiguous tensors a block of the
-- generator's words at a time (Generator.filler), strided ones through a
-- contiguous one.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'
local Generator = require 'torch.Generator'

-- (raise: messages that are not argument errors keep the caller's line, as
-- the original's dispatch gave it)
local TD, fail, raise = internal.tensors, internal.fail, internal.raise
local istensor, checktensor, nelement, each = internal.istensor, internal.checktensor, internal.nelement, internal.each
local ffi = require 'ffi'
local kernels     -- torch.maths.kernels, loaded after this file: required on first use
local type, tonumber, select, floor, log, exp, sqrt, sin, cos, tan, pi =
      type, tonumber, select, math.floor, math.log, math.exp, math.sqrt, math.sin, math.cos, math.tan, math.pi

local SMALL = 64             -- tensors up to this many elements are filled in LuaJIT
local TWO32 = 4294967296
local min = math.min

local genrand, isgenerator, generator = Generator.genrand, Generator.isgenerator, Generator.args
local GD = Generator.data

-- the methods' arguments: the generator's data (the default one's without
-- one first), then the two after it (no vararg call: it kept the callers'
-- traces from compiling)
local function optionalgenerator(a, b, c)
   if isgenerator(a) then return GD(a), b, c end
   return GD(torch._gen), a, b
end

---------------------------------------------------------------------------
-- the distributions of one number (THRandom.c)
---------------------------------------------------------------------------

-- a C cast to an integer type: toward zero
local function trunc(x)
   return x >= 0 and floor(x) or -floor(-x)
end

local function uniform01(g)
   return genrand(g) * (1 / TWO32)
end

local function checkstdv(stdv, fname)
   if not (stdv > 0) then
      fail("bad argument #2 to '%s' (standard deviation must be strictly positive)", fname)
   end
end

-- the cached pair's x and rho as numbers: a state set by setRNGState may hold
-- any bytes there, and a negative NaN of large payload is no number to
-- LuaJIT's FFI (nil, or a crash); TH computed with it, a NaN
local u32p = ffi.typeof('uint32_t *')
local XHI = ffi.offsetof('th_generator', 'normal_x') / 4 + 1
local RHOHI = ffi.offsetof('th_generator', 'normal_rho') / 4 + 1
local function cached(g)
   local w = ffi.cast(u32p, g)
   if w[XHI] > 0xfff80000 or w[RHOHI] > 0xfff80000 then return 0 / 0, 0 / 0 end
   return g.normal_x, g.normal_rho
end

-- Box-Muller: a pair of uniforms gives two values, the second one cached
local function normal(g, mean, stdv)
   if g.normal_is_valid == 0 then
      g.normal_x = uniform01(g)
      g.normal_y = uniform01(g)
      g.normal_rho = sqrt(-2 * log(1 - g.normal_y))
      g.normal_is_valid = 1
      return g.normal_rho * cos(2 * pi * g.normal_x) * stdv + mean
   end
   g.normal_is_valid = 0
   local x, rho = cached(g)
   return rho * sin(2 * pi * x) * stdv + mean
end

-- the distributions of one uniform u in [0, 1), by the uniform
local ofuniform = {
   uniform = function(u, a, b) return u * (b - a) + a end,
   exponential = function(u, lambda) return -1 / lambda * log(1 - u) end,
   cauchy = function(u, median, sigma) return median + sigma * tan(pi * (u - 0.5)) end,
   geometric = function(u, p) return trunc(log(1 - u) / log(p)) + 1 end,
   -- u <= p without a branch on the random u (p - u is 0 only when they are
   -- equal, so its sign is exact): a branch made the loop twice as slow
   bernoulli = function(u, p) return min(1, 1 + floor(p - u)) end,
}

local draw = {
   normal = normal,
   logNormal = function(g, mean, stdv) return exp(normal(g, mean, stdv)) end,
}
-- ofoutput[name](z, a, b): the value of a distribution of one uniform from
-- the generator's 32-bit output z + 2^31 (for Generator.filler)
local ofoutput = {}
for name, f in pairs(ofuniform) do
   draw[name] = function(g, a, b) return f(uniform01(g), a, b) end
   ofoutput[name] = function(z, a, b) return f((z + 2147483648) * (1 / TWO32), a, b) end
end

-- the parameters of each distribution: defaults (as TensorMath.lua) and THRandom.c's
-- THArgChecks (numbered as TH's C arguments after the generator)
local params = {
   uniform = {0, 1},
   normal = {0, 1, check = function(_, s) checkstdv(s, 'normal') end},
   logNormal = {1, 2, check = function(_, s) checkstdv(s, 'logNormal') end},
   exponential = {1},
   cauchy = {0, 1},
   geometric = {nil, check = function(p)
      if not (p > 0 and p < 1) then fail("bad argument #1 to 'geometric' (must be > 0 and < 1)") end
   end},
   bernoulli = {0.5, check = function(p)
      if not (p >= 0 and p <= 1) then fail("bad argument #1 to 'bernoulli' (must be >= 0 and <= 1)") end
   end},
}

-- a parameter as luaL_checknumber read it: a number or a numeric string
local function param(v)
   if type(v) == 'string' then return tonumber(v) end
   return v
end

-- readparams(name, a, b [, count [, conv]]) -> the parameters, defaults filled
-- in, converted by conv (a FloatTensor's binding read them as floats: 1e-300
-- is 0 there) and checked; TH checked them as each element was drawn, so that
-- a tensor of count = 0 elements takes any
local function readparams(name, a, b, count, conv)
   local p = params[name]
   if a == nil then a = p[1] end
   if b == nil then b = p[2] end
   a, b = param(a), param(b)
   if type(a) ~= 'number' or (p[2] ~= nil and type(b) ~= 'number') then
      fail("bad argument to '%s' (number expected)", name)
   end
   if conv then a, b = conv(a), b and conv(b) end
   if p.check and count ~= 0 then p.check(a, b) end
   return a, b
end

---------------------------------------------------------------------------
-- filling tensors
---------------------------------------------------------------------------

-- the distributions that take C's log, cos, tan... of uniforms: always drawn
-- here, where those are libm's (numpy's vectorised ones round differently
-- from glibc's on some CPUs: the values would depend on the machine)
local LIBM = {normal = true, logNormal = true, exponential = true, cauchy = true, geometric = true}

-- blockfill(map, d, g, a, b, c, e) -> true when done: d's elements (contiguous)
-- map(y, a, b, c, e) of the next outputs y (Generator.filler's loop for map and
-- d's element type)
local fillers = setmetatable({}, {__mode = 'k'})
local function blockfill(map, d, g, a, b, c, e)
   local rp = kernels.flat(d)
   if not rp then return false end
   local bytype = fillers[map]
   if not bytype then
      bytype = {}
      fillers[map] = bytype
   end
   local run = bytype[d.T]
   if not run then
      run = Generator.filler(map)
      bytype[d.T] = run
   end
   run(g, rp, nelement(d), a, b, c, e)
   return true
end

-- normal and logNormal fills: the Box-Muller of normal() above over the
-- uniforms it would draw one by one, drawn PAIRS pairs at a time by the
-- generator's block loop (normal() of 10^3 to 10^6 values: 21-25 -> 16.3 ns
-- each, Torch7 20.6); the generator keeps the last pair, as normal() leaves
-- it, and its sine for the next draw when the fill did not use it
local PAIRS = 512
local uniforms = ffi.new('double[?]', 2 * PAIRS)
local drawuniforms     -- Generator.filler of the uniforms, made on first use
local function touniform(z) return (z + 2147483648) * (1 / TWO32) end

local function normals(g, rp, n, mean, stdv, lognormal)
   local i = 0
   if g.normal_is_valid ~= 0 then
      local v = normal(g, mean, stdv)
      rp[0] = lognormal and exp(v) or v
      i = 1
   end
   drawuniforms = drawuniforms or Generator.filler(touniform)
   local count = 0
   while i < n do
      count = min(PAIRS, floor((n - i + 1) / 2))
      drawuniforms(g, uniforms, 2 * count)
      for k = 0, count - 1 do
         local x = uniforms[2 * k]
         local rho = sqrt(-2 * log(1 - uniforms[2 * k + 1]))
         local c = rho * cos(2 * pi * x) * stdv + mean
         rp[i] = lognormal and exp(c) or c
         if i + 1 < n then
            local s = rho * sin(2 * pi * x) * stdv + mean
            rp[i + 1] = lognormal and exp(s) or s
         end
         i = i + 2
      end
   end
   if count > 0 then
      local y = uniforms[2 * count - 1]
      g.normal_x, g.normal_y, g.normal_rho = uniforms[2 * count - 2], y, sqrt(-2 * log(1 - y))
      g.normal_is_valid = i > n and 1 or 0
   end
end

-- each element of d (any strides) f(g, a, b), or map(y, a, b, c, e) of an
-- output y: apart from their callers, which a closure would keep from compiling
local function eachdraw(d, f, g, a, b)
   each(d, function(ptr, i) ptr[i] = f(g, a, b) end)
end

local function eachmapped(d, map, g, a, b, c, e)
   each(d, function(ptr, i) ptr[i] = map(genrand(g), a, b, c, e) end)
end

-- A strided tensor's draws go to a contiguous one of its type and sizes
-- (scratch(d) -> cd), then copied into it: its elements so get them in index
-- order, as TH drew them
local function scratch(d)
   return TD[internal.newlike(d.T, d, true)]
end

-- fill(gd, d, name, a, b): contiguous tensors in one loop per distribution,
-- strided ones through a contiguous tensor
local function fill(gd, d, name, a, b)
   local n = nelement(d)
   if n == 0 then return end
   local g, f, map = gd.g, draw[name], ofoutput[name]
   kernels = kernels or require 'torch.maths.kernels'
   if map then
      if blockfill(map, d, g, a, b) then return end
   elseif name == 'normal' or name == 'logNormal' then
      local rp = kernels.flat(d)
      if rp then return normals(g, rp, n, a, b, name == 'logNormal') end
   elseif kernels.draw(f, d, g, a, b) then
      return
   end
   if n <= SMALL then
      eachdraw(d, f, g, a, b)
   else
      local cd = scratch(d)
      fill(gd, cd, name, a, b)
      internal.copy(d, cd)
   end
end

local floattypes = {Float = true, Double = true}
-- the distributions whose parameters Torch7's binding read in the tensor's type
local realparams = {uniform = true, normal = true, logNormal = true, exponential = true, cauchy = true}

-- bernoulli with a tensor of probabilities p: element i of d (in index
-- order) is 1 when the next uniform is at most element i of p.  TH checked
-- each probability as it came to it: the elements before one outside
-- [0, 1] (or NaN) are drawn and written, then the error
local function bernoullis(g, d, p)
   local pd = TD[p:contiguous()]
   local cd = d
   if not internal.iscontiguous(d) then
      cd = scratch(d)
      internal.copy(cd, d)
   end
   internal.checkbounds(pd); internal.checkbounds(cd)
   local pp, rp = pd.st.ptr + pd.off, cd.st.ptr + cd.off
   local bernoulli = ofuniform.bernoulli
   local bad
   for i = 0, nelement(d) - 1 do
      local q = pp[i]
      if not (q >= 0 and q <= 1) then
         bad = true
         break
      end
      rp[i] = bernoulli(uniform01(g), q)
   end
   if cd ~= d then internal.copy(d, cd) end
   if bad then fail("bad argument #1 to 'bernoulli' (must be >= 0 and <= 1)") end
end

-- the tensor method of a distribution (float types only, except bernoulli and geometric)
local function fillmethod(name)
   return internal.fieldmethod(function(self, a, b, c)
      local gd
      gd, a, b = optionalgenerator(a, b, c)
      local d = checktensor(self, 1, name)
      if name == 'bernoulli' and istensor(a) then
         local pd = TD[a]
         if not floattypes[pd.T.name] then
            fail("bad argument #1 to 'bernoulli' (FloatTensor or DoubleTensor of probabilities expected)")
         end
         if nelement(pd) ~= nelement(d) then
            fail('inconsistent tensor size, expected self %s and p %s to have the same number of elements, '
                 .. 'but got %d and %d elements respectively', internal.bracketsizes(d), internal.bracketsizes(pd),
                 nelement(d), nelement(pd))
         end
         if nelement(d) > 0 then bernoullis(gd.g, d, a) end
         return self
      end
      local conv = d.T == types.Float and realparams[name] and require('torch.maths.kernels').f32
      a, b = readparams(name, a, b, nelement(d), conv or nil)
      fill(gd, d, name, a, b)
      return self
   end)
end

-- random([a,] b)'s bounds as TH's random1__/random2__ took them: C longs read by
-- luaL_checklong (numeric strings accepted, fractions cut toward zero)
-- a number as C's cast to a long: toward zero, and LONG_MIN for NaN and
-- what no long holds (x86-64's conversion)
local function clong(v)
   if not (v >= -2^63 and v < 2^63) then return -2^63 end
   return trunc(v)
end

local function randombounds(a, b)
   local la, lb = tonumber(a), tonumber(b)
   if la == nil or (b ~= nil and lb == nil) then fail("bad argument to 'random' (number expected)") end
   la = clong(la)
   if b == nil then
      if la <= 0 then fail("bad argument #1 to 'random' (upper bound must be strictly positive)") end
      return 1, la
   end
   lb = clong(lb)
   if lb < la then fail("bad argument #2 to 'random' (upper bound must be larger than lower bound)") end
   return la, lb
end

-- the modulus TH's random() takes for each type (0: none, the output fits)
local randommodulus = {Byte = 256, Char = 128, Short = 32768, Int = 2^31, Long = 0,
                       Float = 2^24 + 1, Double = 0}

-- y % m of an output y (below 2^32) and an integer m, through 1 / m (a
-- division per element took half the time of random()): (y + 0.5) / m is
-- at least 0.5 / m from an integer, farther than inv's and the product's
-- rounding can move it, so the floor is y's exact quotient
local function remainder(y, m, inv)
   return y - floor((y + 0.5) * inv) * m
end

-- random() for a type's modulus (0: none), and random(a, b), of an output y
local function modulo(y, modulus, inv)
   return modulus > 0 and remainder(y, modulus, inv) or y
end

local function inrange(y, range, a, wrap, inv)
   local v = remainder(y, range, inv) + a
   return v < 0 and v + wrap or v
end

-- the same of the filler's z = y - 2^31
local function zmodulo(z, modulus, inv) return modulo(z + 2147483648, modulus, inv) end
local function zinrange(z, range, a, wrap, inv) return inrange(z + 2147483648, range, a, wrap, inv) end

-- random(a, b) into an integer type (whose store wraps a negative value as
-- C's cast), for a below 2^52 (c = a + 2^31, exact): y % range + a as
-- z - q range + c, one addition less
local function zinrangeint(z, range, c, _, inv)
   return z - floor((z + 2147483648.5) * inv) * range + c
end

-- random(a, b) into a LongTensor for a from 2^52 on (or below -2^52): y %
-- range + a in 64-bit integers, exact as C's long sum (a double would round)
local int64 = ffi.typeof('int64_t')
local function inrange64(y, range, a64, _, inv) return a64 + remainder(y, range, inv) end
local function zinrange64(z, range, a64, _, inv) return inrange64(z + 2147483648, range, a64, _, inv) end
-- the same into a float type: the unsigned sum, rounded once as C converted
-- it, from the halves of a's two's complement (a compiled trace's uint64 to
-- double conversion rounded some twice)
local function inrangeu64(y, range, ahi, alo, inv)
   local lo = alo + remainder(y, range, inv)
   return (ahi + floor(lo / TWO32)) % TWO32 * TWO32 + lo % TWO32
end
local function zinrangeu64(z, range, ahi, alo, inv) return inrangeu64(z + 2147483648, range, ahi, alo, inv) end

-- random([gen,] [a,] [b]) on a tensor: u32 % range + a, in C's unsigned arithmetic
local function tensorrandom(self, a, b, c)
   local gd
   gd, a, b = optionalgenerator(a, b, c)
   local d = checktensor(self, 1, 'random')
   if a ~= nil then a, b = randombounds(a, b) end
   local n = nelement(d)
   if n == 0 then return self end
   local g = gd.g
   kernels = kernels or require 'torch.maths.kernels'
   if a == nil then
      local modulus = randommodulus[d.T.name]
      if blockfill(zmodulo, d, g, modulus, 1 / modulus) then return self end
      if n > SMALL then
         local cd = scratch(d)
         blockfill(zmodulo, cd, g, modulus, 1 / modulus)
         internal.copy(d, cd)
      else
         eachmapped(d, modulo, g, modulus, 1 / modulus)
      end
      return self
   end
   -- (b - a first: exact for close bounds beyond 2^53, where b + 1 is not)
   local range, wrap = b - a + 1, floattypes[d.T.name] and 2^64 or 0
   local map, small, c, e = zinrange, inrange, a, wrap
   if wrap ~= 0 and not (a > -2^52 and a < 2^52) then
      local hi = floor(a / TWO32)      -- (each step exact)
      map, small, c, e = zinrangeu64, inrangeu64, hi % TWO32, a - hi * TWO32
   elseif wrap == 0 and not (a > -2^52 and a < 2^52) then
      if d.T == types.Long then
         map, small, c, e = zinrange64, inrange64, int64(a), 0
      else
         -- (the types of 32 bits or fewer keep the low bits of the sum: a's
         -- below 2^32 do)
         a = a % TWO32
      end
   end
   if map == zinrange and wrap == 0 then map, c, e = zinrangeint, a + 2147483648, 0 end
   if blockfill(map, d, g, range, c, e, 1 / range) then return self end
   if n > SMALL then
      local cd = scratch(d)
      blockfill(map, cd, g, range, c, e, 1 / range)
      internal.copy(d, cd)
   else
      eachmapped(d, small, g, range, small == inrange and a or c, small == inrange and wrap or e, 1 / range)
   end
   return self
end

for _, name in ipairs{'uniform', 'normal', 'logNormal', 'exponential', 'cauchy'} do
   local f = fillmethod(name)
   for T in pairs(floattypes) do torch.getmetatable('torch.' .. T .. 'Tensor')[name] = f end
end
internal.method('bernoulli', fillmethod('bernoulli'))
internal.method('geometric', fillmethod('geometric'))
internal.method('random', internal.fieldmethod(tensorrandom))

---------------------------------------------------------------------------
-- torch.random, uniform, normal, ...: a number, or a tensor filled
---------------------------------------------------------------------------

-- torch.f([gen,] tensor, ...) is the tensor's method f
local function tensorform(name, first, ...)
   local gd, t = generator(first, ...)
   local method = t[name]
   -- (as the original's dispatcher, a C function, said it: internal.locate)
   if not method then internal.locate(("%s does not implement the torch.%s() function"):format(torch.type(t), name)) end
   -- (not tail calls: the method's errors are then torch.f's, named '?')
   if isgenerator(first) then return (method(t, first, select(2, ...))) end
   return (method(t, ...))
end
internal.torchforms[tensorform] = 0

function torch.random(...)
   local gd, a, b = generator(...)
   if istensor(a) then return tensorform('random', ...) end
   local g = gd.g
   if a == nil then return genrand(g) end
   a, b = randombounds(a, b)
   return genrand(g) % (b - a + 1) + a
end

-- the tensor type of a constructor (torch.Tensor is the default type's)
local ctortype = setmetatable({}, {__index = function(t, ctor)
   for i = 1, types.count do
      if torch[types[i].name .. 'Tensor'] == ctor then
         rawset(t, ctor, types[i])
         return types[i]
      end
   end
end})

for name, f in pairs(draw) do
   torch[name] = function(...)
      local gd, a, b = generator(...)
      if istensor(a) then return tensorform(name, ...) end
      -- (the number form went through the default tensor type's binding,
      -- which the integer types had not for the float distributions: an
      -- error without a position, as that dispatch raised it)
      local T = ctortype[torch.Tensor]
      if T and realparams[name] and not floattypes[T.name] then
         fail("%s does not implement the torch.%s() function", T.tensorname, name)
      end
      a, b = readparams(name, a, b)
      return f(gd.g, a, b)
   end
end

---------------------------------------------------------------------------
-- rand, randn, randperm, multinomial
---------------------------------------------------------------------------

-- ([gen,] [res,] ...) or ([res,] [gen,] ...) -> gen data, result tensor (nil when absent), rest
local function generatorresult(...)
   local gd, res, n = nil, nil, 0
   for i = 1, 2 do
      local v = select(i, ...)
      if gd == nil and isgenerator(v) then
         gd = GD(v)
      elseif res == nil and istensor(v) then
         res = v
      else
         break
      end
      n = i
   end
   return gd or GD(torch._gen), res, select(n + 1, ...)
end

-- a size the common call gives: a whole number from 1 on, that a C int holds
local function plainsize(v)
   return type(v) == 'number' and v >= 1 and v < 2^31 and v == floor(v)
end


-- rand/randn([gen,] [res,] sizes): torch.rand(n) and torch.rand(m, n) make
-- their result whole, to be written (no resize of an empty tensor, no
-- zeroing); any other call takes the general way
local function sizedfill(fname, name, a, b)
   local function general(...)
      local gd, res = generatorresult(...)
      res = res or torch.Tensor()
      local d = TD[res]
      if not floattypes[d.T.name] then
         raise(("%s does not implement the torch.%s() function"):format(d.T.tensorname, fname))
      end
      internal.resize(d, internal.readsizes(fname, select(3, generatorresult(...))))
      fill(gd, d, name, a, b)
      return res
   end
   return function(...)
      local m, n = ...
      local count = select('#', ...)
      if count <= 2 and plainsize(m) and (count == 1 or plainsize(n)) then
         local T = ctortype[torch.Tensor]
         if T and floattypes[T.name] then
            local res = internal.newtensor(T, count == 1 and {m} or {m, n}, count, true, true)
            fill(GD(torch._gen), TD[res], name, a, b)
            return res
         end
      end
      return general(...)
   end
end
-- (torch.rand is a torch.f form: internal.torchform)
local rand, randn = sizedfill('rand', 'uniform', 0, 1), sizedfill('randn', 'normal', 0, 1)
torch.rand, torch.randn = internal.torchform(rand), internal.torchform(randn)
-- x:rand(m, n), x:randn(m, n): x resized and filled, as torch.rand(x, m, n)
for T in pairs(floattypes) do
   local mt = torch.getmetatable('torch.' .. T .. 'Tensor')
   mt.rand, mt.randn = rand, randn
end

-- randperm's draws, DRAWS at a time into a buffer kept for them
local DRAWS = 4096
local drawbuf

-- randperm([gen,] [res,] n): TH's in-place shuffle of 0..n-1, then + 1
function torch.randperm(...)
   local gd, res, n = generatorresult(...)
   n = param(n)
   if type(n) ~= 'number' then
      fail("bad argument #1 to 'randperm' (number expected, got %s)", type(n))
   end
   if not (n >= 1) then fail("bad argument #1 to 'randperm' (must be strictly positive)") end
   n = floor(n)
   res = res or torch.Tensor()
   local d = TD[res]
   internal.resize(d, {n}, 1)
   -- shuffled in res itself when it is a contiguous DoubleTensor, else in
   -- one that is copied into it
   local direct = d.T == types.Double and internal.iscontiguous(d)
   local perm = direct and res or torch.DoubleTensor(n)
   local p = perm:data()
   for i = 0, n - 1 do p[i] = i + 1 end
   -- its n - 1 draws (the last element is not swapped), a block at a time
   drawbuf = drawbuf or torch.DoubleTensor(DRAWS)
   kernels = kernels or require 'torch.maths.kernels'
   for first = 0, n - 2, DRAWS do
      local m = math.min(DRAWS, n - 1 - first)
      blockfill(zmodulo, TD[drawbuf:resize(m)], gd.g, 0, 0)
      local w = drawbuf:data() - first
      for i = first, first + m - 1 do
         -- (draw % (n - i), spelled out: LuaJIT's % took 40% longer; exact,
         -- as a draw is below 2^32)
         local a, range = w[i], n - i
         local z = a - floor(a / range) * range + i
         p[i], p[z] = p[z], p[i]
      end
   end
   if not direct then internal.copy(d, TD[perm]) end
   return res
end
-- (a function apart from torch.randperm, whose errors are then named as
-- torch.f's are: the field-call rule of internal.lua's mathform is the methods')
local randperm = torch.randperm
internal.method('randperm', function(...) return randperm(...) end)

-- the categories (1-based) drawn from each row i of pd into row i of rd
-- (ndist x nsample): a cumulative distribution in doubles, normalised by
-- its total, searched with one uniform per sample for the first place not
-- below it; without replacement the drawn category's mass leaves the
-- distribution and the rest is renormalised -> nil, or the error's message
local function drawcategories(g, rd, pd, ndist, nsample, replacement)
   local last = pd.nd == 1 and 1 or 2
   local ncat = pd.sz[last]
   local cum = ffi.new('double[?]', ncat)
   internal.checkbounds(pd); internal.checkbounds(rd)
   local pp, ps, pstep = pd.st.ptr + pd.off, last == 2 and pd.str[1] or 0, pd.str[last]
   local rp, rs, rstep = rd.st.ptr + rd.off, rd.str[1], rd.str[2]
   for i = 0, ndist - 1 do
      local acc = 0
      for j = 0, ncat - 1 do
         -- (negative entries are taken as they are, as TH did)
         acc = acc + pp[i * ps + j * pstep]
         cum[j] = acc
      end
      if not (acc > 0) then return 'invalid multinomial distribution (sum of probabilities <= 0)' end
      for j = 0, ncat - 1 do cum[j] = cum[j] / acc end
      for s = 0, nsample - 1 do
         cum[ncat - 1] = 1
         local u = uniform01(g)
         -- (over [0, ncat): for a cumulative sum that is not monotone,
         -- with negative entries, where the search stops is TH's)
         local lo, hi = 0, ncat
         while lo < hi do
            local mid = lo + floor((hi - lo) / 2)
            if cum[mid] < u then lo = mid + 1 else hi = mid end
         end
         rp[i * rs + s * rstep] = lo + 1
         if not replacement then
            local diff = cum[lo] - (lo > 0 and cum[lo - 1] or 0)
            for j = lo, ncat - 1 do cum[j] = cum[j] - diff end
            for j = 0, ncat - 1 do cum[j] = cum[j] / (1 - diff) end
         end
      end
   end
end

-- multinomial([gen,] [res,] prob, n [, replacement]): category indices (1-based) in a LongTensor
local function multinomial(...)
   local gd, res, prob, nsample, replacement = generatorresult(...)
   if res and not istensor(prob) then
      -- multinomial(prob, n): the tensor taken as result was the distribution
      res, prob, nsample, replacement = nil, res, prob, nsample
   end
   local pd = checktensor(prob, 1, 'multinomial')
   if not floattypes[pd.T.name] then
      internal.locate(("%s does not implement the torch.multinomial() function"):format(pd.T.tensorname))
   end
   -- (TH took a tensor of more dimensions as the matrix of its first two)
   if pd.nd == 0 then
      fail("bad argument #2 to 'multinomial' (dimension 1 out of range of 0D tensor)")
   end
   nsample = param(nsample)
   if type(nsample) ~= 'number' then
      fail("bad argument #2 to 'multinomial' (number expected, got %s)", type(nsample))
   end
   -- a C int: cut toward zero, wrapped to 32 bits (TH's message says "< 0" of all <= 0)
   nsample = (trunc(nsample) + 2^31) % 2^32 - 2^31
   local ncat = pd.sz[pd.nd == 1 and 1 or 2]
   if not (nsample > 0) then fail("bad argument #2 to 'multinomial' (cannot sample n_sample < 0 samples)") end
   if not replacement and nsample > ncat then
      fail("bad argument #2 to 'multinomial' (cannot sample n_sample > prob_dist:size(1) samples without replacement)")
   end
   res = res or torch.LongTensor()
   local rd = checktensor(res, 1, 'multinomial')
   if rd.T ~= types.Long then
      fail("bad argument #1 to 'multinomial' (torch.LongTensor expected for the result, got %s)", rd.T.tensorname)
   end
   local ndist = pd.nd >= 2 and pd.sz[1] or 1
   internal.resize(rd, {ndist, nsample}, 2)
   local err = drawcategories(gd.g, rd, pd, ndist, nsample, replacement)
   if err then fail("bad argument #2 to 'multinomial' (%s)", err) end
   if pd.nd == 1 then internal.resize(rd, {nsample}, 1) end
   return res
end

-- torch.multinomial dispatches on its first tensor, as Torch7 did: with a
-- LongTensor result first it fails, and p.multinomial(res, p, n) is the way
function torch.multinomial(...)
   local _, first = generator(...)
   -- (no tensor first: the default type's, as the original's dispatch)
   local T = istensor(first) and TD[first].T or ctortype[torch.Tensor]
   if T and not floattypes[T.name] then
      internal.locate(("%s does not implement the torch.multinomial() function"):format(T.tensorname))
   end
   return (multinomial(...))     -- (no tail call: its errors are torch.multinomial's)
end
internal.fieldmethod(multinomial)
for T in pairs(floattypes) do torch.getmetatable('torch.' .. T .. 'Tensor').multinomial = multinomial end

return torch
