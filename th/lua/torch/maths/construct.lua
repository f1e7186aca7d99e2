-- Construction and extraction: zeros, ones, range, linspace, logspace, eye,
-- diag, tril, triu, histc, bhistc, cat, reshape.
-- Without a tensor argument the result has the default tensor type; as a
-- method, zeros/ones/range/linspace/logspace/eye fill self, the others
-- return a new tensor (x:reshape(2, 3) is torch.reshape(x, 2, 3)).
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'
local dispatch = require 'torch.maths.dispatch'

local TD, py, pycall, ndview, fail = internal.tensors, internal.py, internal.pycall,
      internal.ndview, internal.fail
local nelement, readsizes, checkbounds = internal.nelement, internal.readsizes, internal.checkbounds
local resultsized, SMALL = dispatch.resultsized, dispatch.SMALL
local Tensor = internal.Tensor
local type, select, floor, ipairs, max = type, select, math.floor, ipairs, math.max
local toint = internal.toint
local ffi = require 'ffi'
local loops = require 'torch.maths.vectorloops'
local dense = loops.dense
local cast, copy, fill, u8 = ffi.cast, ffi.copy, ffi.fill, ffi.typeof('uint8_t *')

local MAXDIM = 1024     -- the most dimensions cat makes a result of

-- installs torch[name](...), typed by its first tensor argument, and the
-- method x:name(...) as f(T, x, ...): f reads an optional leading result, so
-- x is the result when a source follows it (or none is taken), else the source
-- (floats: a method of Float and Double tensors only, as in Torch7, whose
-- torch.f said that an integer type does not implement it)
-- (four: f takes four arguments after T, which the methods pass by name:
-- forwarding varargs cost a third of a small cat)
-- (torch[name] is a torch.f form: internal.torchform)
local function install(name, f, floats, four)
   torch[name] = internal.torchform(function(...)
      return f(dispatch.firsttype(select('#', ...), ...), ...)
   end)
   for i = 1, types.count do
      local T = types[i]
      if not (floats and T.integer) then
         torch.getmetatable(T.tensorname)[name] = four and function(a1, a2, a3, a4) return f(T, a1, a2, a3, a4) end
                                                  or function(...) return f(T, ...) end
      end
   end
end

-- the optional leading result tensor: res, index of the next argument
local function leading(T, fname, a)
   local d = type(a) == 'userdata' and TD[a]
   if not d then return nil, 1 end
   if d.T ~= T then fail("bad argument #1 to '%s' (%s expected, got %s)", fname, T.tensorname, d.T.tensorname) end
   return a, 2
end

local function number(v, argn, fname)
   return internal.checknumber(v, argn, fname)
end

-- zeros/ones([res,] sizes...): a new tensor is zeroed already (when first
-- used: an untouched one costs no memset); a new one of ones is not zeroed first
for name, value in pairs{zeros = 0, ones = 1} do
   install(name, function(T, ...)
      local res, i = leading(T, name, ...)
      local sizes, n = readsizes(name, select(i, ...))
      if res == nil then
         res = internal.newtensor(T, sizes, n, value ~= 0)
         return value == 0 and res or Tensor.fill(res, value)
      end
      return Tensor.fill(resultsized(T, res, sizes, n), value)
   end)
end

-- fillindex(res, f): the k-th element of res (0-based, row-major) = f(k)
local function fillindex(res, f)
   local k = -1
   internal.each(TD[res], function(p, i) k = k + 1; p[i] = f(k) end)
end

-- the result of n values: res as it is when it holds n elements (Torch7
-- resized only when the counts differed), else res resized (or a new vector)
local function vector(T, res, n)
   if res and nelement(TD[res]) == n then return res end
   return resultsized(T, res, {n}, 1)
end

-- range([res,] from, to [, step]): from, from + step, ... up to to
install('range', function(T, ...)
   local res, i = leading(T, 'range', ...)
   local a, b, step = select(i, ...)
   a, b = number(a, i, 'range'), number(b, i + 1, 'range')
   step = step == nil and 1 or number(step, i + 2, 'range')
   if T.integer then   -- TH took the bounds and the step as integers (its accreal, a long)
      a, b, step = toint(a, i, 'range'), toint(b, i + 1, 'range'), toint(step, i + 2, 'range')
   end
   -- (TH's checks and their numbers, a result given or not; NaN fails both)
   if not (step > 0 or step < 0) then fail("bad argument #3 to 'range' (step must be a non-null number)") end
   if not (step > 0 and b >= a or step < 0 and b <= a) then
      fail("bad argument #2 to 'range' (upper bound and larger bound incoherent with step sign)")
   end
   local n = floor((b - a) / step) + 1
   res = vector(T, res, n)
   local r = TD[res]
   if r.nd == 1 then
      checkbounds(r)
      internal.overwriting(r)
      loops[T].arith(r.st.ptr + r.off, r.str[1], n, a, step)
   elseif n <= SMALL then
      fillindex(res, function(k) return a + k * step end)
   else
      pycall(py.math_range, ndview(TD[res]), a, step)
   end
   return res
end)

-- the k-th of n points from a to b as Torch7 computed it: a + (b - a) * k /
-- (n - 1) in the element type (a FloatTensor's in float, each step rounded),
-- and 10 to that power (C's pow, powf)
local C = require 'torch.maths.libm'
local f32 = require('torch.maths.kernels').f32
local points = {
   Double = function(a, b, n, k) return a + (b - a) * k / (n - 1) end,
   Float = function(a, b, n, k) return f32(a + f32(f32(f32(b - a) * k) / (n - 1))) end,
}
local powers = {Double = function(v) return C.pow(10, v) end, Float = function(v) return C.powf(10, v) end}

-- p[k * s] = the k-th of n points (stride s), or 10 to its power
local function spaced(p, s, n, a, b, point, power)
   for k = 0, n - 1 do
      local v = n == 1 and a or point(a, b, n, k)
      if power then v = power(v) end
      p[k * s] = v
   end
end

-- linspace/logspace([res,] a, b [, n = 100])
for name, log in pairs{linspace = false, logspace = true} do
   install(name, function(T, ...)
      local res, i = leading(T, name, ...)
      if T.integer then internal.locate(('%s does not implement the torch.%s() function'):format(T.tensorname, name)) end
      local a, b, n = select(i, ...)
      a, b = number(a, i, name), number(b, i + 1, name)
      n = n == nil and 100 or toint(number(n, i + 2, name), i + 2, name)
      if n < 1 or (n == 1 and a ~= b) then fail("bad argument #3 to '%s' (invalid number of points)", name) end
      res = vector(T, res, n)
      -- (TH set its one point with set1d: a result of one element kept in
      -- more dimensions failed)
      if n == 1 and TD[res].nd ~= 1 then fail("bad argument #1 to '%s' (tensor must have one dimension)", name) end
      local point, power = points[T.name], powers[T.name]
      if T == types.Float then a, b = f32(a), f32(b) end   -- the binding read floats
      local r = TD[res]
      if r.nd == 1 then
         checkbounds(r)
         internal.overwriting(r)
         spaced(r.st.ptr + r.off, r.str[1], n, a, b, point, log and power)
      else
         fillindex(res, function(k)
            local v = n == 1 and a or point(a, b, n, k)
            if log then return power(v) end
            return v
         end)
      end
      return res
   end, true)
end

-- eye([res,] n [, m])
install('eye', function(T, ...)
   local res, i = leading(T, 'eye', ...)
   local n, m = select(i, ...)
   n = toint(number(n, i, 'eye'), i, 'eye')
   m = m == nil and 0 or toint(number(m, i + 1, 'eye'), i + 1, 'eye')
   if n <= 0 then fail("bad argument #1 to 'eye' (invalid argument)") end
   if m <= 0 then m = n end        -- as TH did: eye(n, 0) is eye(n)
   res = Tensor.fill(resultsized(T, res, {n, m}, 2), 0)
   local d = TD[res]
   local p = d.st.ptr
   for k = 0, (n < m and n or m) - 1 do p[d.off + k * (d.str[1] + d.str[2])] = 1 end
   return res
end)

-- the k-th diagonal of a matrix data d: offset, length (<= 0 when it is
-- empty), stride
local function diagonal(d, k)
   local off, n
   if k >= 0 then
      n = d.sz[2] - k < d.sz[1] and d.sz[2] - k or d.sz[1]
      off = d.off + k * d.str[2]
   else
      n = d.sz[1] + k < d.sz[2] and d.sz[1] + k or d.sz[2]
      off = d.off - k * d.str[1]
   end
   return off, n, d.str[1] + d.str[2]
end

-- diag([res,] x [, k]): a vector's diagonal matrix, or a matrix's k-th diagonal
install('diag', function(T, ...)
   local res, i = leading(T, 'diag', ...)
   if res and not TD[select(i, ...)] then res, i = nil, 1 end
   local x, k = select(i, ...)
   local xd = internal.checktensor(x, i, 'diag')
   k = k == nil and 0 or toint(number(k, i + 1, 'diag'), i + 1, 'diag')
   local r, off, n, step
   if xd.nd == 1 then
      n = xd.sz[1] + (k >= 0 and k or -k)
      res, r = resultsized(T, res, {n, n}, 2)
      Tensor.fill(res, 0)
      off, n, step = diagonal(r, k)
      -- (the vector copied along the diagonal: another view of its memory
      -- element by element in TH's order)
      checkbounds(xd)
      loops[T].copy(r.st.ptr + off, step, xd.st.ptr + xd.off, xd.str[1], n)
      return res
   elseif xd.nd == 2 then
      -- a diagonal beyond the matrix is an error, as in Torch7
      off, n, step = diagonal(xd, k)
      if n <= 0 then fail("bad argument #2 to 'diag' (diagonal %d out of range)", k) end
      res, r = resultsized(T, res, {n}, 1)
      checkbounds(xd)
      checkbounds(r)
      if not rawequal(r.st, xd.st) then internal.overwriting(r) end   -- (every element written)
      loops[T].copy(r.st.ptr + r.off, r.str[1], xd.st.ptr + off, step, n)
      return res
   end
   fail("bad argument #1 to 'diag' (matrix or a vector expected)")
end)

-- triangle(r, x, k, upper) -> true when done: r (of x's sizes, rows of
-- stride 1, x itself or in another storage) = x's elements on the triangle
-- (tril: columns j <= i + k of row i; triu: j >= i + k), zeros off it; row by
-- row as bytes (x's rows of another stride copied whole first)
local function triangle(r, x, k, upper)
   if r.str[2] ~= 1 or (rawequal(r.st, x.st) and r ~= x) then return false end
   checkbounds(r); checkbounds(x)
   local rows = x.str[2] == 1 and r ~= x     -- the kept part copied row by row
   if rows then
      internal.overwriting(r)
   elseif r ~= x then
      internal.copy(r, x)
   end
   local m, n, size = r.sz[1], r.sz[2], r.T.size
   local rp, xp = cast(u8, r.st.ptr + r.off), cast(u8, x.st.ptr + x.off)
   local rstep, xstep = r.str[1] * size, x.str[1] * size
   for i = 0, m - 1 do
      local c = i + k + (upper and 0 or 1)   -- the columns before c and those from c differ
      c = c < 0 and 0 or c > n and n or c
      local row, xrow, a, b = rp + i * rstep, xp + i * xstep, c * size, (n - c) * size
      if upper then
         fill(row, a)
         if rows then copy(row + a, xrow + a, b) end
      else
         if rows then copy(row, xrow, a) end
         fill(row + a, b)
      end
   end
   return true
end

-- tril/triu([res,] x [, k])
for name, upper in pairs{tril = false, triu = true} do
   install(name, function(T, ...)
      local res, i = leading(T, name, ...)
      if res and not TD[select(i, ...)] then res, i = nil, 1 end
      local x, k = select(i, ...)
      local xd = internal.checktensor(x, i, name)
      if xd.nd ~= 2 then fail("bad argument #1 to '%s' (expected a matrix)", name) end
      k = k == nil and 0 or toint(number(k, i + 1, name), i + 1, name)
      local r
      res, r = dispatch.result(T, res, xd)
      if not triangle(r, xd, k, upper) then pycall(py.math_triangle, ndview(r), ndview(xd), k, upper) end
      return res
   end)
end

-- histc/bhistc([res,] x [, nbins = 100 [, min = 0 [, max = 0]]]): min == max
-- takes the range of the data; bhistc makes one histogram per row of a matrix
for name, rows in pairs{histc = false, bhistc = true} do
   install(name, function(T, ...)
      local res, i = leading(T, name, ...)
      if res and not TD[select(i, ...)] then res, i = nil, 1 end
      if T.integer then internal.locate(('%s does not implement the torch.%s() function'):format(T.tensorname, name)) end
      local x, nbins, lo, hi = select(i, ...)
      local xd = internal.checktensor(x, i, name)
      nbins = nbins == nil and 100 or toint(number(nbins, i + 1, name), i + 1, name)
      lo = lo == nil and 0 or number(lo, i + 2, name)
      hi = hi == nil and 0 or number(hi, i + 3, name)
      if nbins <= 0 and not rows then fail("bad argument #%d to 'histc' (number of bins must be positive)", i + 1) end
      -- (TH's words: its check of the size of dimension 2 first, then of the rank)
      if rows and xd.nd < 2 then fail("bad argument #2 to 'bhistc' (invalid dimension 2)") end
      if rows and xd.nd > 2 then
         fail("bad argument #2 to 'bhistc' (invalid dimension %d, the input must be a 2d tensor)", xd.nd)
      end
      -- (bhistc checked no count of bins: its rows x nbins histogram, resized
      -- with nbins <= 0, ended at its rows, a vector, which TH's size check
      -- refused)
      if nbins <= 0 then
         fail('inconsistent tensor size, expected tensor [%d x %d] and hist [%d] to have the same number of dimensions',
              xd.sz[1], xd.sz[2], xd.sz[1])
      end
      -- (the data's range of no data: TH's min of an empty tensor failed)
      if not rows and lo == hi and nelement(xd) == 0 then
         fail("bad argument #1 to 'histc' (tensor must have one dimension)")
      end
      -- (a histogram counted in LuaJIT over a vector or the elements of a
      -- contiguous tensor, another one's contiguous copy: the order of the
      -- elements makes no difference)
      local src = xd
      if not rows and xd.nd > 1 and not dense(xd) then src = TD[internal.clone(xd)] end
      local vec = not rows and nelement(src) > 0
      local xp, xs, n
      if vec then
         checkbounds(src)
         xp, xs, n = src.st.ptr + src.off, src.nd == 1 and src.str[1] or 1, nelement(src)
      end
      if lo == hi and nelement(xd) > 0 then
         if vec then
            lo, hi = loops[T].minmax(xp, xs, n)
            lo, hi = tonumber(lo), tonumber(hi)
         else
            lo, hi = pycall(py.math_minmax, ndview(xd))
         end
      end
      if lo == hi then lo, hi = lo - 1, hi + 1 end
      if rows then
         res = resultsized(T, res, {xd.sz[1], nbins}, 2)
      else
         res = resultsized(T, res, {nbins}, 1)
      end
      Tensor.fill(res, 0)
      local r = TD[res]
      if vec and r.nd == 1 then
         checkbounds(r)
         loops[T].histc(r.st.ptr + r.off, r.str[1], xp, xs, n, nbins, lo, hi)
      elseif nelement(xd) > 0 then
         pycall(py.math_histc, ndview(r), ndview(xd), nbins, lo, hi)
      end
      return res
   end, true)
end

-- the data of r's view of n indices along dim from index at (0-based)
local function narrowed(r, dim, at, n)
   local sz, str = {}, {}
   for k = 1, r.nd do sz[k], str[k] = r.sz[k], r.str[k] end
   sz[dim] = n
   return {T = r.T, st = r.st, off = r.off + at * r.str[dim], nd = r.nd, sz = sz, str = str, nv = false}
end

-- the inputs copied into res (r its data, nd dimensions) side by side along
-- dim, in order, the empty ones skipped: a contiguous input in another
-- storage than a contiguous result as blocks of bytes (one for every index
-- before dim), the others into a view of res element by element, in TH's
-- order.  res itself as an input has res's new sizes by now (empty before,
-- it is not skipped), as in TH, which narrowed res for it where it did not
-- fit: TH's narrow's error (#3 its first index, #4 its size)
local function place(res, r, inputs, dim, nd)
   local whole, size, inner, outer = dense(r), r.T.size, 1, 1
   for k = dim + 1, nd do inner = inner * r.sz[k] end
   for k = 1, dim - 1 do outer = outer * r.sz[k] end
   local row = r.sz[dim] * inner * size      -- the bytes of res for one index before dim
   local shared = false                      -- (does an input read res's memory?)
   for _, d in ipairs(inputs) do
      checkbounds(d)
      shared = shared or rawequal(d.st, r.st)
      if d == r then whole = false end
   end
   if whole and not shared then internal.overwriting(r) end   -- (nothing fails from here)
   local at = 0
   for _, d in ipairs(inputs) do
      local n = d.sz[dim] or 1
      if d.nd == 0 then   -- (skipped)
      elseif whole and not rawequal(d.st, r.st) and dense(d) then
         local bytes = n * inner * size
         local rp, xp = cast(u8, r.st.ptr + r.off) + at * inner * size, cast(u8, d.st.ptr + d.off)
         for o = 0, outer - 1 do copy(rp + o * row, xp + o * bytes, bytes) end
      elseif at + n <= r.sz[dim] then   -- (into the data of res's view: no tensor made)
         internal.copy(narrowed(r, dim, at, n), d)
      else
         fail("bad argument #%d to '?' (out of range)", at < r.sz[dim] and 4 or 3)
      end
      if d.nd > 0 then at = at + n end
   end
end

-- cat([res,] a, b [, dim]) or cat([res,] {a, b, ...} [, dim]): empty tensors
-- are skipped; dim defaults to the largest dimension count among the inputs
local function cat(T, a1, a2, a3, a4)
   local res, list, dim
   if type(a1) == 'table' then
      list, dim = a1, a2
   elseif type(a2) == 'table' then
      res, list, dim = a1, a2, a3
   elseif TD[a3] then
      res, list, dim = a1, {a2, a3}, a4
   else
      list, dim = {a1, a2}, a3
   end
   if #list == 0 then
      -- (the original's bindings matched {DoubleTensor+} to a table of one tensor or more)
      local n = a4 ~= nil and 4 or a3 ~= nil and 3 or a2 ~= nil and 2 or a1 ~= nil and 1 or 0
      dispatch.argerror('cat', T, internal.via.torch and 'torch' or 'method', unpack({a1, a2, a3, a4}, 1, n))
   end
   local inputs, first, maxnd = {}, nil, 0   -- (first: the first input not empty)
   for k, t in ipairs(list) do
      local d = TD[t]
      if not d or d.T ~= T then fail('expected %s in tensor array', T.tensorname:match('%a+$')) end
      inputs[k] = d
      if d.nd > 0 then
         first = first or d
         maxnd = max(maxnd, d.nd)
      end
   end
   if dim == nil or dim == -1 then dim = max(maxnd, 1) end
   dim = internal.toint(number(dim, 3, 'cat'), 3, 'cat')
   -- Torch7 made a result of dim dimensions (and hung or crashed on huge
   -- ones); its check was #4, a result given or not
   if dim < 1 then fail("bad argument #4 to 'cat' (invalid dimension %d)", dim) end
   if dim > MAXDIM then fail("bad argument #4 to 'cat' (dimension %d out of range 1..%d)", dim, MAXDIM) end
   if not first then
      if res then return res end   -- (as Torch7: nothing to write, res as it was)
      return internal.emptytensor(T)
   end
   local nd = max(maxnd, dim)
   local sizes, total = {}, 0
   for k = 1, nd do sizes[k] = first.sz[k] or 1 end
   for _, d in ipairs(inputs) do
      if d.nd > 0 then
         for k = 1, nd do
            if k ~= dim and (d.sz[k] or 1) ~= sizes[k] then
               fail('inconsistent tensor sizes')
            end
         end
         total = total + (d.sz[dim] or 1)
      end
   end
   sizes[dim] = total
   local r
   res, r = resultsized(T, res, sizes, nd)
   place(res, r, inputs, dim, nd)
   return res
end
install('cat', cat, false, true)
-- torch.cat({a, b, ...}) has the type of the table's first tensor, else of
-- the first tensor given (cat reads four arguments at most: no varargs,
-- which cost a third of a small cat)
function torch.cat(a1, a2, a3, a4)
   local first = type(a1) == 'table' and a1[1] or type(a2) == 'table' and not TD[a1] and a2[1] or a1
   local d = TD[first]
   local T = d and d.T
   -- (HalfTensors have no cat: the default type's, which refuses them)
   if not T or T == types.Half then T = dispatch.firsttype(4, a1, a2, a3, a4) end
   if T == types.Half then T = dispatch.mathsdefault() end
   return cat(T, a1, a2, a3, a4)
end

-- reshape([res,] x, sizes...): a copy of x's elements with the given sizes
install('reshape', function(T, ...)
   local res, i = leading(T, 'reshape', ...)
   if res and not TD[select(i, ...)] then res, i = nil, 1 end
   local x = select(i, ...)
   local xd = internal.checktensor(x, i, 'reshape')
   local sizes, n = readsizes('reshape', select(i + 1, ...))
   res = resultsized(T, res, sizes, n)
   internal.copy(TD[res], xd)   -- (copy's error when the counts differ, as in Torch7)
   return res
end)
