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
-- Larger matrix products, whose sums are exact in doubles (always for
-- Byte, Char and Short, by the operands' bound for Int and Long), are
-- BLAS's dgemm of the operands converted to doubles, then the result
-- wrapped into the element type by a LuaJIT pass: exact integers add up
-- the same in any order, on any number of threads.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'
local kernels = require 'torch.maths.kernels'
local longloops = require 'torch.maths.longloops'
local cblas = require 'torch.maths.cblas'

local nelement, checkbounds = internal.nelement, internal.checkbounds
local origin = kernels.origin
local abs = math.abs
local Long, Int = types.Long, types.Int

local intproducts = {}

-- up to this many multiply-adds (numpy's int64 products win beyond: about
-- 0.4 ns a term and 5 us a call, these loops 0.6-0.8 ns a term, 1.3 for an
-- Int sum whose products are each wrapped)
local LIMIT, WRAPLIMIT = 2 ^ 18, 8192
-- an outer product (ger, addr) up to this many elements: each costs the
-- loop's store, 2-5 ns, where numpy's outer product and scaling pass less
-- (100 x 100: 20-50 us, numpy's 6-15)
local GERLIMIT = 2048
local EXACT = 2 ^ 53

-- r[i][j] = store(sum over l of a[i][l] b[l][j]) for a matrix of m x n by
-- k (a vector has stride 0 in its missing dimension; ger is k = 1), %s the
-- sum, left in acc.  One loop over the results, carrying i and j only: a
-- nested loop of few steps never becomes a trace (LuaJIT aborts a recording
-- that leaves its loop, and after a few such aborts blacklists the loop for
-- good: the interpreter ran 20 to 40 times slower), so short sums are
-- unrolled in full and longer ones loop by four; a batch is a call per
-- matrix (with its index carried too, LuaJIT gave up the side trace of a
-- row's end, "register coalescing too complex", and every row's end went
-- through the interpreter; without a branch, the index arithmetic's chain
-- of dependent steps cost 6 times the loop)
kernels.template('intproduct', [[return function(rp, r1, r2, ap, a1, a2, bp, b1, b2, m, n, k, alpha, beta)
   local k4 = k - k %% 4
   local i, j = 0, 0
   for _ = 1, m * n do
      local pa, pb = i * a1, j * b2
      %s
      local q = i * r1 + j * r2
      rp[q] = %s
      j = j + 1
      if j == n then j, i = 0, i + 1 end
   end
end]])

-- the sum of k terms unrolled (four sums at once: one sum's chain of
-- dependent additions takes four cycles a term; integer sums are exact in
-- any order), or from UNROLLED + 1 terms a loop of four terms a step (at
-- least four steps) and the rest; x and y are locals of each term, a
-- LongTensor's converted to numbers as they are read (int64 cdata carried
-- from one step of a loop to the next were boxed, 10 ns a term, and where
-- a trace left its loop LuaJIT gave up: "register coalescing too complex")
local UNROLLED = 16
local function term(l, v)
   local at = l == 0 and '' or (' + %d * a2'):format(l)
   local bt = l == 0 and '' or (' + %d * b1'):format(l)
   return ('local x, y = LOAD(ap[pa%s]), LOAD(bp[pb%s]); %s = %s + PRODUCT'):format(at, bt, v, v)
end
local function sumtext(k)
   local lines = {'local s0, s1, s2, s3 = 0, 0, 0, 0'}
   if k <= UNROLLED then
      -- (the offsets stepped: no l * a2 for every l held by the trace)
      for l = 0, k - 1 do lines[#lines + 1] = term(0, 's' .. l % 4) .. '; pa, pb = pa + a2, pb + b1' end
   else
      lines[#lines + 1] = 'for _ = 1, k4, 4 do'
      for l = 0, 3 do lines[#lines + 1] = term(l, 's' .. l) end
      lines[#lines + 1] = 'pa, pb = pa + 4 * a2, pb + 4 * b1 end'
      lines[#lines + 1] = ('if k4 < k then %s\nif k4 + 1 < k then %s\nif k4 + 2 < k then %s end end end')
         :format(term(0, 's0'), term(1, 's1'), term(2, 's2'))
   end
   lines[#lines + 1] = 'local acc = (s0 + s1) + (s2 + s3)'
   return table.concat(lines, '\n')
end

-- r[i][j] = store(acc), acc = c[i][j] of a contiguous double matrix (the
-- product by BLAS), in the same single loop
kernels.template('intstore', [[return function(rp, r1, r2, cp, m, n, alpha, beta)
   local i, j = 0, 0
   for c = 0, m * n - 1 do
      local acc, q = cp[c], i * r1 + j * r2
      rp[q] = %s
      j = j + 1
      if j == n then j, i = 0, i + 1 end
   end
end]])

-- a * b wrapped to int32, for int32 values a and b
local function int32product(a, b)
   return ('tobit(tobit(%s * band(%s, 65535)) + lshift(tobit(%s * arshift(%s, 16)), 16))'):format(a, b, a, b)
end
-- per type: the product of x and y, the store of acc (their sum, exact),
-- how an element is read
local narrow = {'x * y', 'tobit(beta * rp[q] + alpha * tobit(acc))'}
local intstore = ('tobit(%s + %s)'):format(int32product('beta', 'rp[q]'), int32product('alpha', 'tobit(acc)'))
local forms = {
   Byte = narrow, Char = narrow, Short = narrow,
   Int = {int32product('x', 'y'), intstore},
   -- (when the operands' bound keeps the plain sum within 2^51, where tobit is exact)
   IntExact = {'x * y', intstore},
   Long = {'x * y', 'beta * tonumber(rp[q]) + alpha * acc', 'tonumber'},
}
-- ops[form][k] (k up to UNROLLED + 1, the loop): an op for kernels.run, made
-- when first used
local ops = {}
for name, f in pairs(forms) do
   local T = types[name:match('^%u%l+')]
   local stored = {name = 'intstore' .. name, exprs = {[T.name] = f[2]}}
   ops[name] = setmetatable({store = f[2], stored = stored}, {__index = function(byk, k)
      local sum = sumtext(k):gsub('PRODUCT', f[1]):gsub('LOAD', f[3] or '')
      local op = {name = 'intproduct' .. name .. k, exprs = {[T.name] = sum}}
      byk[k] = op
      return op
   end})
end
-- the largest |v| of an IntTensor: four running maxima over a contiguous
-- one (one is a chain of dependent steps), strided.lua's fold otherwise
local intbound = kernels.op('intbound', math.huge, {Int = 'max(acc, abs(x))'})
local max, flat = math.max, kernels.flat
local function bound(d)
   local xp = flat(d)
   if not xp then return kernels.fold(intbound, d, 0) end
   local n = nelement(d)
   local m0, m1, m2, m3 = 0, 0, 0, 0
   local last = n - n % 4
   for i = 0, last - 1, 4 do
      m0, m1 = max(m0, abs(xp[i])), max(m1, abs(xp[i + 1]))
      m2, m3 = max(m2, abs(xp[i + 2])), max(m3, abs(xp[i + 3]))
   end
   -- (the last one to three without a loop: a loop of so few steps never
   -- becomes a trace, and is blacklisted)
   if last < n then m0 = max(m0, abs(xp[last])) end
   if last + 1 < n then m1 = max(m1, abs(xp[last + 1])) end
   if last + 2 < n then m2 = max(m2, abs(xp[last + 2])) end
   return max(max(m0, m1), max(m2, m3))
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

-- usable(name, r, a, b) -> whether this module may take the product:
-- integer operands of r's type, r apart from a and b (addbmm, a sum over
-- the batch, is left to numpy); the size limits are product's
function intproducts.usable(name, r, a, b)
   local T = r.T
   if not ops[T.name] or a.T ~= T or b.T ~= T or name == 'addbmm' or rawequal(r.st, a.st) or rawequal(r.st, b.st) then
      return false
   end
   -- (an expanded result, whose elements repeat, is left to numpy)
   for i = 1, r.nd do
      if r.str[i] == 0 and r.sz[i] > 1 then return false end
   end
   return true
end

-- a LongTensor product's steps all exact: |beta r + alpha sum| bounded
local function exactlong(r, beta, alpha, a, b, k)
   local ba, bb = longloops.bound(a), longloops.bound(b)
   local br = beta == 0 and 0 or longloops.bound(r)
   return ba and bb and br and abs(alpha) * ba * bb * k + abs(beta) * br < EXACT
end

-- the IntTensor product's sums within 2^51 (worth a look from BOUNDFROM
-- multiply-adds: two passes over the operands, each about a third of a
-- product's term an element)
local BOUNDFROM = 256
local function exactint(a, b, k)
   local ba = bound(a)
   local bb = ba and bound(b)
   return bb and ba * bb * k < 2 ^ 51
end

-- from this many multiply-adds a matrix product is BLAS's (dgemm 32^3:
-- about 3 us, the loops 25; 16^3: the conversions' cost catches up)
local GEMMFROM = 8192
-- three DoubleTensors of scratch (a, b and their product), grown as needed,
-- and a view of each, its sizes set per product
local scratch, views = {}, {}
for i = 1, 3 do views[i] = {T = types.Double, st = nil, off = 0, nd = 2, sz = {0, 0}, str = {0, 1}} end
local function view(i, rows, cols)
   local t = scratch[i]
   if not t then
      t = torch.DoubleTensor()
      scratch[i] = t
   end
   if t:nElement() < rows * cols then t:resize(rows * cols) end
   local v = views[i]
   v.st, v.sz[1], v.sz[2], v.str[1] = internal.tensors[t].st, rows, cols, cols
   return v
end
-- a matrix of a batch as a view table (a itself when not a batch)
local function matrix(d, t, into)
   if d.nd == 2 then return d end
   into.T, into.st, into.off, into.nd = d.T, d.st, d.off + t * d.str[1], 2
   into.sz[1], into.sz[2], into.str[1], into.str[2] = d.sz[2], d.sz[3], d.str[2], d.str[3]
   return into
end
local at, bt, rt = {sz = {}, str = {}}, {sz = {}, str = {}}, {sz = {}, str = {}}
-- (the views' storages kept no longer than the call)
local function release(done)
   at.st, bt.st, rt.st = nil, nil, nil
   for i = 1, 3 do views[i].st = nil end
   return done
end

-- gemm(o, r, beta, alpha, a, b, nb, m, n, k) -> true when done: each matrix
-- of the batch as dgemm of the operands converted, then stored by o's
-- store; false before anything is written when a step does not apply
local function gemm(o, r, beta, alpha, a, b, nb, m, n, k)
   local A, B, C = view(1, m, k), view(2, k, n), view(3, m, n)
   local store = kernels.loop('intstore', o.stored, r.T)
   for t = 0, nb - 1 do
      if not kernels.copy(A, matrix(a, t, at)) or not kernels.copy(B, matrix(b, t, bt))
         or not cblas.product('mm', C, 0, 1, A, B) then
         return release(false)   -- (at the first matrix: the others have its layout)
      end
      local rd = matrix(r, t, rt)
      store(origin(rd), rd.str[1], rd.str[2], origin(C), m, n, alpha, beta)
   end
   return release(true)
end

-- product(r, beta, alpha, a, b) -> true when done: r = beta r + alpha a b
-- (r already holding what beta scales), when usable
function intproducts.product(r, beta, alpha, a, b)
   local T = r.T
   local r0, r1, r2, a0, a1, a2, b0, b1, b2, nb, m, n, k = layout(r, a, b)
   if T == Long and not exactlong(r, beta, alpha, a, b, k) then return false end
   local o = ops[T.name]
   local exact = T ~= Int or nb * m * n * k >= BOUNDFROM and exactint(a, b, k)
   if T == Int and exact then o = ops.IntExact end
   checkbounds(r); checkbounds(a); checkbounds(b)
   if a.nd > 1 and b.nd > 1 and nb * m * n * k >= GEMMFROM and n > 1 and exact and k < 2 ^ 21
      and gemm(o, r, beta, alpha, a, b, nb, m, n, k) then
      return true
   end
   if nb * m * n * k > (o == ops.Int and WRAPLIMIT or a.nd == 1 and GERLIMIT or LIMIT) then return false end
   local f = kernels.loop('intproduct', o[k <= UNROLLED and k or UNROLLED + 1], T, o.store)
   local rp, ap, bp = origin(r), origin(a), origin(b)
   if nb == 1 then   -- (no pointer made: a cdata per call, allocation sinking being off)
      f(rp, r1, r2, ap, a1, a2, bp, b1, b2, m, n, k, alpha, beta)
      return true
   end
   for t = 0, nb - 1 do
      f(rp + t * r0, r1, r2, ap + t * a0, a1, a2, bp + t * b0, b1, b2, m, n, k, alpha, beta)
   end
   return true
end

return intproducts
