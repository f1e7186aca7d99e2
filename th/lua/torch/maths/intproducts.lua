-- Products of small integer matrices and vectors (mm, mv, ger, bmm and
-- their accumulating addmm, addmv, addr, baddbmm) in LuaJIT loops: r = beta
-- r + alpha a b in the element type, wrapping around as TH's integer loops
-- did (tests/fixtures/parity_intproducts).  Integer sums wrap the same in
-- any order, so each element is a plain sum, reduced to the type at the end:
-- - Byte, Char, Short: products and their sum exact in a double, wrapped by
--   tobit and the store;
-- - Int: each product wrapped to 32 bits (of two exact halves, as basic.lua's
--   IntTensor cmul), their sum exact, then wrapped;
-- - Long: in doubles while a bound on the operands shows every step exact
--   (below 2^53), else false: the caller's numpy path wraps in int64.
local types = require 'torch.types'
local internal = require 'torch.internal'
local kernels = require 'torch.maths.kernels'
local longloops = require 'torch.maths.longloops'

local nelement, checkbounds = internal.nelement, internal.checkbounds
local origin = kernels.origin
local abs = math.abs
local Long, Int = types.Long, types.Int

local intproducts = {}

-- up to this many multiply-adds (numpy's int64 products win beyond)
local LIMIT = 2 ^ 18
local EXACT = 2 ^ 53

-- r[t][i][j] = store(sum over l of a[t][i][l] b[t][l][j]) for nb matrices of
-- m x n by k (a vector has stride 0 in its missing dimension)
kernels.template('intproduct', [[return function(rp, r0, r1, r2, ap, a0, a1, a2, bp, b0, b1, b2, nb, m, n, k, alpha, beta)
   for t = 0, nb - 1 do
      for i = 0, m - 1 do
         for j = 0, n - 1 do
            local acc, pa, pb = 0, t * a0 + i * a1, t * b0 + j * b2
            for _ = 1, k do local x, y = ap[pa], bp[pb]; acc = %s; pa = pa + a2; pb = pb + b1 end
            local q = t * r0 + i * r1 + j * r2
            rp[q] = %s
         end
      end
   end
end]])

-- a * b wrapped to int32, for int32 values a and b
local function int32product(a, b)
   return ('tobit(tobit(%s * band(%s, 65535)) + lshift(tobit(%s * arshift(%s, 16)), 16))'):format(a, b, a, b)
end
local narrow = {'acc + x * y', 'tobit(beta * rp[q] + alpha * tobit(acc))'}
local forms = {
   Byte = narrow, Char = narrow, Short = narrow,
   Int = {'acc + ' .. int32product('x', 'y'),
          ('tobit(%s + %s)'):format(int32product('beta', 'rp[q]'), int32product('alpha', 'tobit(acc)'))},
   Long = {'acc + tonumber(x) * tonumber(y)', 'beta * tonumber(rp[q]) + alpha * acc'},
}
local ops = {}
for name, f in pairs(forms) do
   ops[types[name]] = {op = kernels.op('intproduct' .. name, LIMIT, {[name] = f[1]}), store = f[2]}
end

-- the operands' layouts by kind of product: batch, row and column strides
-- of r, a and b (0 for a vector's missing dimension), and nb, m, n, k
local function layout(r, a, b)
   local rs, as, bs = r.str, a.str, b.str
   if a.nd == 1 then   -- ger: a column times a row
      return 0, rs[1], rs[2], 0, as[1], 0, 0, 0, bs[1], 1, a.sz[1], b.sz[1], 1
   elseif b.nd == 1 then   -- mv
      return 0, rs[1], 0, 0, as[1], as[2], 0, bs[1], 0, 1, a.sz[1], 1, a.sz[2]
   elseif a.nd == 2 then   -- mm
      return 0, rs[1], rs[2], 0, as[1], as[2], 0, bs[1], bs[2], 1, a.sz[1], b.sz[2], a.sz[2]
   end
   return rs[1], rs[2], rs[3], as[1], as[2], as[3], bs[1], bs[2], bs[3], a.sz[1], a.sz[2], b.sz[3], a.sz[3]
end

-- usable(name, r, a, b) -> whether the loops take this product: integer
-- operands of r's type, r apart from a and b, within LIMIT multiply-adds
-- (addbmm, a sum over the batch, is left to numpy)
function intproducts.usable(name, r, a, b)
   local T = r.T
   if not ops[T] or a.T ~= T or b.T ~= T or name == 'addbmm' or rawequal(r.st, a.st) or rawequal(r.st, b.st) then
      return false
   end
   local _, _, _, _, _, _, _, _, _, nb, m, n, k = layout(r, a, b)
   return nb * m * n * k <= LIMIT
end

-- a LongTensor product's steps all exact: |beta r + alpha sum| bounded
local function exactlong(r, beta, alpha, a, b, k)
   local ba, bb = longloops.bound(a), longloops.bound(b)
   local br = beta == 0 and 0 or longloops.bound(r)
   return ba and bb and br and abs(alpha) * ba * bb * k + abs(beta) * br < EXACT
end

-- product(r, beta, alpha, a, b) -> true when done: r = beta r + alpha a b
-- (r already holding what beta scales), when usable
function intproducts.product(r, beta, alpha, a, b)
   local T = r.T
   local r0, r1, r2, a0, a1, a2, b0, b1, b2, nb, m, n, k = layout(r, a, b)
   if T == Long and not exactlong(r, beta, alpha, a, b, k) then return false end
   checkbounds(r); checkbounds(a); checkbounds(b)
   local o = ops[T]
   kernels.run('intproduct', o.op, T, o.store, origin(r), r0, r1, r2, origin(a), a0, a1, a2,
               origin(b), b0, b1, b2, nb, m, n, k, alpha, beta)
   return true
end

return intproducts
