-- BLAS operations: dot, mv, mm, bmm, ger and the accumulating addmv, addmm,
-- addr, addbmm, baddbmm ([res,] [v1,] M, [v2,] a, b: res = v1 * M + v2 * a b).
-- The products run in BLAS (cblas.lua; numpy's as a fallback), small integer
-- ones in LuaJIT loops (intproducts.lua), larger ones in numpy's int64.
-- As in Torch7, a result given to mv, mm, bmm or ger must already have the
-- size of the product; addmv, addmm, addr, addbmm and baddbmm resize it.
local types = require 'torch.types'
local internal = require 'torch.internal'
local dispatch = require 'torch.maths.dispatch'

local TD, py, pycall, ndview, fail = internal.tensors, internal.py, internal.pycall,
      internal.ndview, internal.fail
local nelement, offsets, checkbounds = internal.nelement, internal.offsets, internal.checkbounds
local tonumber, SMALL = tonumber, dispatch.SMALL
local kernels = require 'torch.maths.kernels'
local cblas = require 'torch.maths.cblas'
local longloops = require 'torch.maths.longloops'
local intproducts = require 'torch.maths.intproducts'
local dotexpr = 'acc + x * y'
-- up to this many elements a generated loop; beyond, BLAS's dot (through the
-- FFI, cblas.lua), faster once its call costs less than the loop
local DOTLOOP = 2048
local fastdot = kernels.op('dot', DOTLOOP, {Byte = dotexpr, Char = dotexpr, Short = dotexpr,
                                          Float = dotexpr, Double = dotexpr})

local function checkdims(fname, d, nd, argn)
   if d.nd ~= nd then
      fail("bad argument #%d to '%s' (%dD tensor expected, got %dD)", argn, fname, nd, d.nd)
   end
end

-- sizes as TH's messages give them: [2 x 3]
local function brackets(sizes, n)
   return '[' .. table.concat(sizes, ' x ', 1, n) .. ']'
end

-- the sizes of the product of a and b, checking they conform (TH's words):
-- -> n, its n sizes (numbers, not a table: the accumulating products, hot
-- in nn's layers, made one a call)
local function productsizes(fname, a, b)
   local k1, k2
   if a.nd == 1 then             -- ger
      return 2, a.sz[1], b.sz[1]
   elseif b.nd == 1 then         -- mv
      k1, k2 = a.sz[2], b.sz[1]
      if k1 ~= k2 then fail('size mismatch, %s, %s', brackets(a.sz, a.nd), brackets(b.sz, b.nd)) end
      return 1, a.sz[1]
   end
   local n, s1, s2, s3
   if a.nd == 2 then             -- mm
      k1, k2, n, s1, s2 = a.sz[2], b.sz[1], 2, a.sz[1], b.sz[2]
   else                          -- bmm
      if a.sz[1] ~= b.sz[1] then
         fail("bad argument #2 to '%s' (equal number of batches expected, got %d, %d)", fname, a.sz[1], b.sz[1])
      end
      k1, k2, n, s1, s2, s3 = a.sz[3], b.sz[2], 3, a.sz[1], a.sz[2], b.sz[3]
      if k1 ~= k2 then
         fail("bad argument #2 to '%s' (wrong matrix size, batch1: %dx%d, batch2: %dx%d)", fname,
              a.sz[2], a.sz[3], b.sz[2], b.sz[3])
      end
   end
   if k1 ~= k2 then
      fail('size mismatch, m1: %s, m2: %s', brackets(a.sz, a.nd), brackets(b.sz, b.nd))
   end
   return n, s1, s2, s3
end

-- does d have the n sizes s1, s2, s3?
local function hassizes(d, n, s1, s2, s3)
   return d.nd == n and d.sz[1] == s1 and (n < 2 or d.sz[2] == s2) and (n < 3 or d.sz[3] == s3)
end

local function product(ad, bd, out, beta, c, alpha, batchsum)
   if ad.nd == 1 then
      pycall(py.math_ger, out, beta, c, alpha, ndview(ad), ndview(bd))
   else
      pycall(py.math_gemm, out, beta, c, alpha, ndview(ad), ndview(bd), batchsum)
   end
end

-- a number converted to the element type: TH's BLAS dot sums in `real`, so a
-- FloatTensor's dot is rounded to float and an integer one wraps
local boxes = {}   -- (one per type: no array made per call)
local function asreal(T, v)
   if T == types.Double then return v end
   local box = boxes[T]
   if not box then box = T.vla(1); boxes[T] = box end
   box[0] = v
   return tonumber(box[0])
end

-- a contiguous tensor's data seen as a vector of its n elements (TH's dot
-- took contiguous tensors whole, as one stretch), in `as` (one kept per
-- operand: no table made per call); d itself otherwise
local flatx, flaty = {nd = 1, sz = {0}, str = {1}}, {nd = 1, sz = {0}, str = {1}}
local function flat(d, n, as)
   if d.nd == 1 or not internal.iscontiguous(d) then return d end
   as.T, as.st, as.off, as.sz[1] = d.T, d.st, d.off, n
   return as
end

-- the sections of TH_TENSOR_APPLY2 in d: how many elements in order it took
-- as one evenly spaced stretch (all of a contiguous tensor; else the last
-- dimension and those before it that continue its spacing, a size-1 one
-- included), their spacing, and the last dimension before them
local function section(d, n)
   if internal.iscontiguous(d) then return n, 1, 0 end
   local nd, sz, str = d.nd, d.sz, d.str
   local len = sz[nd]
   for i = nd - 1, 1, -1 do
      if str[i] ~= str[i + 1] * sz[i + 1] then return len, str[nd], i end
      len = len * sz[i]
   end
   return len, str[nd], 0
end

-- the offset of the next section of d after the one at off (dimensions
-- 1..last counted in idx, as an odometer)
local function nextsection(d, idx, last, off)
   local sz, str = d.sz, d.str
   for k = last, 1, -1 do
      if idx[k] < sz[k] then
         idx[k] = idx[k] + 1
         return off + str[k]
      end
      off = off - (sz[k] - 1) * str[k]
      idx[k] = 1
   end
   return off
end

-- TH's dot of floating tensors of other layouts: a BLAS dot of each stretch
-- both operands hold evenly spaced (an expanded one's spacing 0), each
-- rounded to the element type, added up in a double -> nil without the
-- library Torch7 used
local ix, iy = {}, {}   -- (the odometers, kept: no table made per call)
local function sectiondots(T, xd, yd, n)
   local dot = cblas.dotfn(T, n)
   if not dot then return nil end
   checkbounds(xd)
   checkbounds(yd)
   local rx, sx, lx = section(xd, n)
   local ry, sy, ly = section(yd, n)
   for k = 1, lx do ix[k] = 1 end
   for k = 1, ly do iy[k] = 1 end
   local xp, yp = xd.st.ptr, yd.st.ptr
   local ox, oy, px, py = xd.off, yd.off, 0, 0
   local s, i = 0, 0
   while i < n do
      local len = rx - px
      if ry - py < len then len = ry - py end
      if len == 1 then
         s = s + tonumber(dot(1, xp + (ox + px * sx), 1, yp + (oy + py * sy), 1))
      else
         s = s + tonumber(dot(len, xp + (ox + px * sx), sx, yp + (oy + py * sy), sy))
      end
      i, px, py = i + len, px + len, py + len
      if px == rx then px, ox = 0, nextsection(xd, ix, lx, ox) end
      if py == ry then py, oy = 0, nextsection(yd, iy, ly, oy) end
   end
   return s
end

-- dot(x, y): both seen as vectors of the same length
dispatch.define{
   name = 'dot', variants = {'tt'}, scalar = {'tt'},
   impl = function(T, _, _, x, y)
      local xd, yd = TD[x], TD[y]
      dispatch.samecount('dot', xd, yd)
      local n = nelement(xd)
      if n == 0 then return 0 end
      -- (Torch7's BLAS, when th has it, sums as Torch7 did: no loop of th's)
      local s = not (cblas.isexact() and not T.integer) and kernels.fold2(fastdot, xd, yd, 0)
      if s then return asreal(T, s) end
      s = longloops.dot(xd, yd, n)   -- (contiguous integer ones: Long and Int at every size, others beyond the loop)
      if s then return s end
      s = cblas.dot(flat(xd, n, flatx), flat(yd, n, flaty), n)
      flatx.st, flaty.st = nil, nil   -- (kept no longer than the call)
      if s then return asreal(T, s) end
      s = not T.integer and cblas.isexact() and sectiondots(T, xd, yd, n)
      if s then return s end
      -- (integer ones at every size: TH summed each stretch both hold evenly
      -- spaced in the element type, wrapping around, and added those in a long)
      if T.integer then return pycall(py.math_dot, ndview(xd), ndview(yd)) end
      if n > SMALL then return asreal(T, pycall(py.math_dot, ndview(xd), ndview(yd))) end
      checkbounds(xd)
      checkbounds(yd)
      local xo, yo = offsets(xd), offsets(yd)
      local xp, yp = xd.st.ptr, yd.st.ptr
      local s = 0
      for i = 1, n do s = s + tonumber(xp[xo[i]]) * tonumber(yp[yo[i]]) end
      return asreal(T, s)
   end,
}

-- resulterror(name, t, a, b): TH's error for a result (or an addend) t
-- of the wrong sizes for the product of a and b (each of TH's addmm, addr
-- and addmv worded its dimension check its own way)
local function resulterror(name, t, a, b)
   local bt, ba, bb = brackets(t.sz, t.nd), brackets(a.sz, a.nd), brackets(b.sz, b.nd)
   if name == 'bmm' or name == 'baddbmm' or name == 'addbmm' then
      fail("bad argument #1 to '%s' (output tensor of incorrect size)", name)
   elseif (name == 'mm' or name == 'addmm') and t.nd ~= 2 then
      fail('matrix expected, got %dD tensor for t', t.nd)
   elseif (name == 'ger' or name == 'addr') and t.nd ~= 2 then
      fail('expected matrix, got %dD tensor for t', t.nd)
   elseif (name == 'mv' or name == 'addmv') and t.nd ~= 1 then
      fail('vector expected, got t: %dD', t.nd)
   elseif name == 'mv' or name == 'addmv' then
      fail('size mismatch, t: %s, mat: %s', bt, ba)
   elseif name == 'ger' or name == 'addr' then
      fail('size mismatch, t: %s, vec1: %s, vec2: %s', bt, ba, bb)
   end
   fail('size mismatch, t: %s, m1: %s, m2: %s', bt, ba, bb)
end

-- mv, mm, bmm, ger([res,] a, b)
local plain = {mv = {2, 1}, mm = {2, 2}, bmm = {3, 3}, ger = {1, 1}}
for name, dims in pairs(plain) do
   dispatch.define{
      name = name, inplace = true, explicit = true, variants = {'tt'}, dims = dims,
      impl = function(T, _, res, a, b)
         local ad, bd = TD[a], TD[b]
         checkdims(name, ad, dims[1], 1)
         checkdims(name, bd, dims[2], 2)
         local n, s1, s2, s3 = productsizes(name, ad, bd)
         local r
         if res == nil then
            -- (not zeroed: every path below writes each element, ger's BLAS
            -- call zeroing r itself band by band, as TH zeroed it first)
            res = internal.newtensor(T, {s1, s2, s3}, n, true)
            r = TD[res]
         else
            r = TD[res]
            -- (the product's own sizes: a result of as many elements in
            -- another shape is TH's size error)
            if not hassizes(r, n, s1, s2, s3) then resulterror(name, r, ad, bd) end
         end
         local small = T.integer and intproducts.usable(name, r, ad, bd) and intproducts.product(r, 0, 1, ad, bd)
                       or not cblas.isexact()
                          and (name == 'mm' and kernels.mm(r, ad, bd) or name == 'mv' and kernels.mv(r, ad, bd))
         if nelement(r) > 0 and not small and not cblas.product(name, r, 0, 1, ad, bd) then
            product(ad, bd, ndview(r), 0, nil, 1, false)
         end
         return res
      end,
   }
end

-- whether the result r holds what beta scales (M's values), copying them
-- there as TH does when r is another tensor; false when r shares M's memory
-- some other way (the numpy path reads M before writing r)
local function holds(r, md, beta)
   if beta == 0 or r == md then return true end
   if rawequal(r.st, md.st) then
      if r.off ~= md.off then return false end
      for i = 1, r.nd do
         if r.sz[i] ~= md.sz[i] or r.str[i] ~= md.str[i] then return false end
      end
      return true
   end
   internal.copy(r, md)
   return true
end

-- addmv, addmm, addr, addbmm, baddbmm([res,] [v1,] M, [v2,] a, b)
local accumulating = {
   addmv = {1, 2, 1}, addmm = {2, 2, 2}, addr = {2, 1, 1}, addbmm = {2, 3, 3}, baddbmm = {3, 3, 3},
}
for name, dims in pairs(accumulating) do
   dispatch.define{
      name = name, inplace = true, variants = {'ttt', 'tntt', 'nttt', 'ntntt'}, dims = dims, selfdim = dims[1],
      impl = function(T, sig, res, ...)
         local beta, M, alpha, a, b = 1, nil, 1, nil, nil
         if sig == 'ttt' then M, a, b = ...
         elseif sig == 'tntt' then M, alpha, a, b = ...
         elseif sig == 'nttt' then beta, M, a, b = ...
         else beta, M, alpha, a, b = ... end
         local md, ad, bd = TD[M], TD[a], TD[b]
         checkdims(name, md, dims[1], 1)
         checkdims(name, ad, dims[2], 2)
         checkdims(name, bd, dims[3], 3)
         local n, s1, s2, s3 = productsizes(name, ad, bd)
         if name == 'addbmm' then n, s1, s2, s3 = 2, s2, s3, nil end
         if not hassizes(md, n, s1, s2, s3) then resulterror(name, md, ad, bd) end
         beta, alpha = dispatch.cast(T, beta), dispatch.cast(T, alpha)
         local r
         res, r = dispatch.result(T, res, md)
         if nelement(r) > 0
            and not (intproducts.usable(name, r, ad, bd) and holds(r, md, beta)
                     and intproducts.product(r, beta, alpha, ad, bd))
            and not (cblas.usable(r, ad, bd) and holds(r, md, beta) and cblas.product(name, r, beta, alpha, ad, bd)) then
            product(ad, bd, ndview(r), beta, ndview(md), alpha, name == 'addbmm')
         end
         return res
      end,
   }
end
