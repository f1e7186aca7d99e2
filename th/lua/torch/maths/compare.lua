-- Logical operations: lt, le, gt, ge, eq, ne compare a tensor with a number
-- or another tensor element by element, giving 0/1 in a new ByteTensor (or
-- in a given result, a ByteTensor or a tensor of the operands' type); all
-- and any reduce a ByteTensor to a boolean.  The masked assignment
-- `a[mask] = v` belongs to torch.selection.
local types = require 'torch.types'
local internal = require 'torch.internal'
local dispatch = require 'torch.maths.dispatch'

local TD, py, pycall, ndview = internal.tensors, internal.py, internal.pycall, internal.ndview
local nelement, newlike, fail = internal.nelement, internal.newlike, internal.fail
local loop1, loop2, fold, SMALL = dispatch.loop1, dispatch.loop2, dispatch.fold, dispatch.SMALL

local comparisons = {
   lt = function(a, b) return a < b and 1 or 0 end,
   le = function(a, b) return a <= b and 1 or 0 end,
   gt = function(a, b) return a > b and 1 or 0 end,
   ge = function(a, b) return a >= b and 1 or 0 end,
   eq = function(a, b) return a == b and 1 or 0 end,
   ne = function(a, b) return a ~= b and 1 or 0 end,
}

-- their LuaJIT loops, the same expression for every result type (a branch
-- per element that data decides: beyond a few thousand elements numpy wins)
local kernels = require 'torch.maths.kernels'
local LIMIT = 4096
local fast = {}
for name, cmp in pairs{lt = '<', le = '<=', gt = '>', ge = '>=', eq = '==', ne = '~='} do
   local function op(b)
      local e = ('x %s %s and 1 or 0'):format(cmp, b)
      local exprs = kernels.alltypes(e, e)
      exprs.Long = e
      return kernels.op(name .. b, LIMIT, exprs)
   end
   fast[name] = {op('c'), op('y')}
end

-- the same without a branch per element (a branch that data decides costs a
-- misprediction in every other element): the sign of d = x - c (or x - y)
-- as a 0/1 through math.max and min (d scaled by 2^1200: the smallest
-- positive double becomes more than 1); false when a NaN comes up (x or
-- c NaN, inf - inf: the loops above then answer, as TH compared)
local positive = {gt = 'P(d)', lt = 'P(-d)', ge = '1 - P(-d)', le = '1 - P(d)',
                  ne = 'P(d) + P(-d)', eq = '1 - P(d) - P(-d)'}
for name, e in pairs(positive) do
   positive[name] = e:gsub('P%(([^()]*)%)', 'min(max(%1 * 0x1p600 * 0x1p600, 0), 1)')
end
for kind, operand in pairs{sign1 = 'c', sign2 = 'yp[i]'} do
   kernels.template(kind, [[return function(rp, xp, yp, n, c)
   for i = 0, n - 1 do
      local d = xp[i] - ]] .. operand .. [[

      if d ~= d then return false end
      rp[i] = %s
   end
   return true
end]])
end
local SIGNS = 32768   -- elements: beyond, numpy's vector loops win
-- (strided operands: numpy's loops from this many, 100x100 transposed 5.4 us, these 12)
local STRIDEDSIGNS = 4096
-- numpy's comparison loops called from LuaJIT (simd.lua) beyond this many
-- elements, once numpy is loaded (beyond SIGNS, imported for them)
local SIMDFROM = 64
local simd = require 'torch.maths.simd'
local signs = {}
for name, e in pairs(positive) do
   local exprs = kernels.alltypes(e, e)
   signs[name] = kernels.op('sign' .. name, SIGNS, exprs)
end

-- signed(name, r, a, b, c) -> true when done: the loops above (strided.lua's
-- for strided operands), r sharing no memory with a or b
local function signed(name, r, a, b, c)
   local op = signs[name]
   if not kernels.within(nelement(a), SIGNS) or not op.exprs[a.T.name] or b and b.T ~= a.T or rawequal(r.st, a.st)
      or b and rawequal(r.st, b.st) then
      return false
   end
   local rp, ap, bp = kernels.flat(r), kernels.flat(a), b and kernels.flat(b)
   if not rp or not ap or b and not bp then
      if not kernels.within(nelement(a), STRIDEDSIGNS) then return false end
      local done, ok = kernels.strided(b and 'sign2' or 'sign1', op, op.exprs[a.T.name], r, a, b or nil, nil, c)
      return done and ok
   end
   return kernels.run(b and 'sign2' or 'sign1', op, a.T, nil, rp, ap, bp, nelement(a), c)
end

-- doubles(a, b, c) -> whether a's elements compare with b's (or with the
-- number c, cast to a's type) as doubles the way they do in their own type:
-- a LongTensor's only while every |v| is below 2^53 (2^63 - 1 == 2^63 as
-- doubles)
local longloops = require 'torch.maths.longloops'
local EXACT = 2 ^ 53
local function doubles(a, b, c)
   if a.T ~= types.Long then return true end
   local ba, bb = longloops.bound(a)
   if b then bb = longloops.bound(b) else bb = math.abs(c) end
   return ba ~= nil and bb ~= nil and ba < EXACT and bb < EXACT
end

for name, f in pairs(comparisons) do
   dispatch.define{
      -- (an expanded result that is x itself in TH's element order too: a
      -- LongTensor's numpy path compared every element at once)
      elementwise = 'inplace',
      name = name, variants = {'tn', 'tt'}, res = 'Bt',
      impl = function(T, sig, res, a, b)
         local ad = TD[a]
         local bd = sig == 'tt' and TD[b]
         if bd then dispatch.samecount(name, ad, bd, res) else b = dispatch.cast(T, b) end
         local r
         if res == nil then
            res = newlike(types.Byte, ad, true)
            r = TD[res]
         else
            res, r = dispatch.result(TD[res].T, res, ad)
         end
         local k = fast[name]
         local n = nelement(ad)
         if n > SIMDFROM and simd.compare(name, r, ad, bd or b, SIGNS) then return res end
         if n > 16 and signed(name, r, ad, bd, b) then return res end
         if bd and kernels.map2(k[2], r, ad, bd) or not bd and kernels.map1(k[1], r, ad, b) then
            return res
         end
         if nelement(ad) <= SMALL and doubles(ad, bd, b) then
            if bd then loop2(r, ad, bd, f) else loop1(r, ad, f, b) end
         else
            pycall(py.math_compare, name, ndview(r), ndview(ad), bd and ndview(bd) or b)
         end
         return res
      end,
   }
end

local function isbyte(T) return T == types.Byte end
local function both(acc, v) return acc and v ~= 0 end
local function either(acc, v) return acc or v ~= 0 end

local fastlogical = {all = kernels.op('all', LIMIT, {Byte = 'acc and x ~= 0'}),
                     any = kernels.op('any', LIMIT, {Byte = 'acc or x ~= 0'})}

for name, f in pairs{all = both, any = either} do
   dispatch.define{
      name = name, variants = {'t'}, scalar = {'t'}, only = isbyte,
      impl = function(T, _, _, x)
         local d = TD[x]
         if d.nd == 0 then fail("bad argument #1 to '%s' (empty Tensor)", name) end
         local v = kernels.fold(fastlogical[name], d, name == 'all')
         if v ~= nil then return v end
         if nelement(d) <= SMALL then return fold(d, f, name == 'all') end
         return pycall(py.math_reduceall, name, ndview(d))
      end,
   }
end
