-- The argument forms shared by the maths functions, defined once.
--
-- A function is declared with its argument variants (as the docs list them,
-- without the optional result) and becomes both `torch.f` and the method `f`
-- of every tensor type:
--   torch.f(args)        a new result          torch.f(res, args)   into res
--   x:f(...) with inplace = true: x is the result and the first tensor
--     argument defaults to x (x:add(y) is torch.add(x, x, y));
--   x:f(...) otherwise: the same as torch.f(x, ...) (x:sum(2) is new).
-- torch.f dispatches on its first tensor argument, as Torch7 did: the tensors
-- of a call must then be of that type (except the ByteTensor/LongTensor ones
-- a variant names).  Element loops over small tensors stay in LuaJIT.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'

local TD, SD, fail = internal.tensors, internal.storages, internal.fail
local nelement, iscontiguous, checkbounds = internal.nelement, internal.iscontiguous, internal.checkbounds
local offsets, resize = internal.offsets, internal.resize
local type, select, unpack, tonumber, concat = type, select, unpack, tonumber, table.concat

local dispatch = {}

dispatch.SMALL = 64     -- up to this many elements, loops stay in LuaJIT

function dispatch.defaulttype()
   return types[torch.getdefaulttensortype():match('^torch%.(%a+)Tensor$')]
end

-- the element type of the first tensor among the arguments (else the default one)
local function firsttype(n, ...)
   for i = 1, n do
      local d = TD[(select(i, ...))]
      if d then return d.T end
   end
   return dispatch.defaulttype()
end
dispatch.firsttype = firsttype

-- does v fit the variant letter c?  n number, b boolean, t tensor of type T,
-- B ByteTensor, L LongTensor, a any tensor
local function fits(c, v, T)
   if c == 'n' then return type(v) == 'number' end
   if c == 'b' then return type(v) == 'boolean' end
   local d = type(v) == 'userdata' and TD[v]
   if not d then return false end
   if c == 't' then return d.T == T end
   if c == 'B' then return d.T == types.Byte end
   if c == 'L' then return d.T == types.Long end
   return c == 'a'
end

-- do A[first], A[first + 1], ... fit the letters chars[1], chars[2], ...?
local function fitsall(chars, A, first, T)
   for k = 1, #chars do
      if not fits(chars[k], A[first + k - 1], T) then return false end
   end
   return true
end

-- the letters of each variant, and those of its method form without its first
-- tensor (omit = that tensor's position), split once rather than at every call
local function compile(variants)
   local forms = {}
   for i, sig in ipairs(variants) do
      local chars, rest = {}, {}
      for k = 1, #sig do chars[k] = sig:sub(k, k) end
      local omit = sig:find('t', 1, true)
      for k = 1, #sig do
         if k ~= omit then rest[#rest + 1] = chars[k] end
      end
      forms[i] = {sig = sig, chars = chars, rest = omit and rest, omit = omit}
   end
   return forms
end

local function describe(A, n)
   local kinds = {}
   for i = 1, n do kinds[i] = torch.type(A[i]) end
   return concat(kinds, ', ')
end

local names = {n = 'number', b = 'boolean', t = 'tensor', B = 'ByteTensor', L = 'LongTensor', a = 'tensor'}
local function expected(spec)
   local forms = {}
   for i, sig in ipairs(spec.variants) do
      local f = {}
      for k = 1, #sig do f[k] = names[sig:sub(k, k)] end
      forms[i] = '(' .. concat(f, ', ') .. ')'
   end
   return concat(forms, ' or ')
end

local function invalid(spec, T, A, n)
   fail("invalid arguments to '%s' for %s (%s); expected [result,] %s",
        spec.name, T.tensorname, describe(A, n), expected(spec))
end

local function trimmed(...)
   local n = select('#', ...)
   local A = {...}
   while n > 0 and A[n] == nil do n = n - 1 end
   return A, n
end

-- function form: [res,] variant
local function parsefunction(spec, T, A, n)
   local resk = spec.res or 't'
   for _, form in ipairs(spec.forms) do
      local m = #form.chars
      if n == m and fitsall(form.chars, A, 1, T) then
         return form.sig, nil, 1
      end
      if n == m + 1 and fitsall(form.chars, A, 2, T) then
         for k = 1, #resk do
            if fits(resk:sub(k, k), A[1], T) then return form.sig, A[1], 2 end
         end
      end
   end
   invalid(spec, T, A, n)
end

-- method form with self as the result: the first tensor of a variant may be omitted
local function parseinplace(spec, T, self, A, n)
   for _, form in ipairs(spec.forms) do
      local m = #form.chars
      if n == m and fitsall(form.chars, A, 1, T) then
         return form.sig, self, A
      end
      if n == m - 1 and form.rest and fitsall(form.rest, A, 1, T) then
         local p = form.omit
         local B = {}
         for i = 1, p - 1 do B[i] = A[i] end
         B[p] = self
         for i = p, n do B[i + 1] = A[i] end
         return form.sig, self, B
      end
   end
   invalid(spec, T, {self, unpack(A, 1, n)}, n + 1)
end

-- define{name =, variants = {...}, impl = function(T, sig, res, ...), inplace =, res =}
-- installs torch[name] and the method on every tensor type (only the types
-- `only(T)` accepts, when given)
function dispatch.define(spec)
   local impl, name = spec.impl, spec.name
   spec.forms = compile(spec.variants)
   local function call(T, A, n)
      if spec.only and not spec.only(T) then
         fail("'%s' is not available for %s", name, T.tensorname)
      end
      local sig, res, first = parsefunction(spec, T, A, n)
      return impl(T, sig, res, unpack(A, first, first + #sig - 1))
   end
   torch[name] = function(...)
      local A, n = trimmed(...)
      return call(firsttype(n, ...), A, n)
   end
   for i = 1, types.count do
      local T = types[i]
      local method
      if spec.inplace then
         method = function(self, ...)
            local A, n = trimmed(...)
            if spec.only and not spec.only(T) then
               fail("'%s' is not available for %s", name, T.tensorname)
            end
            local sig, res, B = parseinplace(spec, T, self, A, n)
            return impl(T, sig, res, unpack(B, 1, #sig))
         end
      else
         method = function(...)
            local A, n = trimmed(...)
            return call(T, A, n)
         end
      end
      if not spec.only or spec.only(T) then
         torch.getmetatable(T.tensorname)[name] = method
      end
   end
end

function dispatch.floating(T) return not T.integer end

---------------------------------------------------------------------------
-- results
---------------------------------------------------------------------------

-- result(T, res, d) -> res, its data: a new tensor of d's sizes, or res resized to them
function dispatch.result(T, res, d)
   if res == nil then
      res = internal.newlike(T, d)
      return res, TD[res]
   end
   local r = TD[res]
   if r ~= d then resize(r, d.sz, d.nd) end
   return res, r
end

-- resultsized(T, res, sizes, n) -> res, data: a new tensor or res resized
function dispatch.resultsized(T, res, sizes, n)
   if res == nil then
      res = internal.newtensor(T, sizes, n)
      return res, TD[res]
   end
   local r = TD[res]
   resize(r, sizes, n)
   return res, r
end

-- a number as TH casts it to the element type: C truncation for integers,
-- wrapping into the type's range (a ByteTensor compares with -1 as with 255),
-- rounding to float for a FloatTensor (whose eq(0.1) then holds for 0.1)
local boxes = {}
for i = 1, types.count do
   if types[i] ~= types.Double then boxes[types[i]] = types[i].vla(1) end
end
function dispatch.cast(T, v)
   local box = boxes[T]
   if box then
      box[0] = v
      return tonumber(box[0])
   end
   return v
end

-- the sizes of d with dimension dim set to 1 (the shape of a reduction)
function dispatch.reducedsizes(d, dim)
   local sz = {}
   for i = 1, d.nd do sz[i] = d.sz[i] end
   sz[dim] = 1
   return sz, d.nd
end

function dispatch.samecount(fname, a, b)
   if nelement(a) ~= nelement(b) then
      fail("inconsistent tensor size in '%s': %d elements vs %d", fname, nelement(a), nelement(b))
   end
end

---------------------------------------------------------------------------
-- element loops in LuaJIT (small tensors); operands hold the same count
---------------------------------------------------------------------------

-- pointer, base offset and (for non-contiguous views) the offsets array
local function walker(d)
   checkbounds(d)
   if iscontiguous(d) then return SD[d.st].ptr, d.off, nil end
   return SD[d.st].ptr, 0, (offsets(d))
end

-- r[i] = f(x[i], c)
function dispatch.loop1(r, x, f, c)
   local n = nelement(r)
   if n == 0 then return end
   local rp, ro, ri = walker(r)
   local xp, xo, xi = walker(x)
   if not ri and not xi then
      for i = 0, n - 1 do rp[ro + i] = f(tonumber(xp[xo + i]), c) end
   else
      ri = ri or offsets(r)
      xi = xi or offsets(x)
      for i = 1, n do rp[ri[i]] = f(tonumber(xp[xi[i]]), c) end
   end
end

-- r[i] = f(x[i], y[i], c)
function dispatch.loop2(r, x, y, f, c)
   local n = nelement(r)
   if n == 0 then return end
   local rp, ro, ri = walker(r)
   local xp, xo, xi = walker(x)
   local yp, yo, yi = walker(y)
   if not ri and not xi and not yi then
      for i = 0, n - 1 do rp[ro + i] = f(tonumber(xp[xo + i]), tonumber(yp[yo + i]), c) end
   else
      ri, xi, yi = ri or offsets(r), xi or offsets(x), yi or offsets(y)
      for i = 1, n do rp[ri[i]] = f(tonumber(xp[xi[i]]), tonumber(yp[yi[i]]), c) end
   end
end

-- r[i] = f(x[i], y[i], z[i], c)
function dispatch.loop3(r, x, y, z, f, c)
   local n = nelement(r)
   if n == 0 then return end
   local rp, ro, ri = walker(r)
   local xp, xo, xi = walker(x)
   local yp, yo, yi = walker(y)
   local zp, zo, zi = walker(z)
   if not ri and not xi and not yi and not zi then
      for i = 0, n - 1 do
         rp[ro + i] = f(tonumber(xp[xo + i]), tonumber(yp[yo + i]), tonumber(zp[zo + i]), c)
      end
   else
      ri, xi, yi, zi = ri or offsets(r), xi or offsets(x), yi or offsets(y), zi or offsets(z)
      for i = 1, n do
         rp[ri[i]] = f(tonumber(xp[xi[i]]), tonumber(yp[yi[i]]), tonumber(zp[zi[i]]), c)
      end
   end
end

-- fold(d, f, acc) -> f(...f(f(acc, x1), x2)..., xn) over d's elements in order
function dispatch.fold(d, f, acc)
   local n = nelement(d)
   if n == 0 then return acc end
   local p, o, idx = walker(d)
   if not idx then
      for i = o, o + n - 1 do acc = f(acc, tonumber(p[i])) end
   else
      for i = 1, n do acc = f(acc, tonumber(p[idx[i]])) end
   end
   return acc
end

return dispatch
