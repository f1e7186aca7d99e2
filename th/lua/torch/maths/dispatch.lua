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
local offsets, resize, poll = internal.offsets, internal.resize, internal.poll
local type, select, tonumber, concat, unpack = type, select, tonumber, table.concat, unpack

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

-- do the arguments from position first on fit the letters chars[1], chars[2], ...?
-- (arguments are passed on as varargs, not packed in a table: no allocation per call)
local function fitsall(chars, T, first, ...)
   for k = 1, #chars do
      if not fits(chars[k], (select(first + k - 1, ...)), T) then return false end
   end
   return true
end

local function letters(s)
   local chars = {}
   for k = 1, #s do chars[k] = s:sub(k, k) end
   return chars
end

-- the letters of each variant, and those of its method form without its first
-- tensor (omit = that tensor's position), split once rather than at every call
local function compile(variants)
   local forms = {}
   for i, sig in ipairs(variants) do
      local chars, rest = letters(sig), {}
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

-- the number of arguments without the trailing nils
local function count(...)
   local n = select('#', ...)
   while n > 0 and (select(n, ...)) == nil do n = n - 1 end
   return n
end

-- the arguments with x put in at position p
local function insert(p, x, ...)
   if p == 1 then return x, ... end
   return (...), insert(p - 1, x, select(2, ...))
end

-- function form: [res,] variant -> its signature, whether a result comes first
local function parsefunction(spec, T, n, ...)
   for _, form in ipairs(spec.forms) do
      local m = #form.chars
      if n == m and fitsall(form.chars, T, 1, ...) then
         return form.sig, false
      end
      if n == m + 1 and fitsall(form.chars, T, 2, ...) then
         for _, c in ipairs(spec.reschars) do
            if fits(c, (...), T) then return form.sig, true end
         end
      end
   end
   return nil
end

-- method form with self as the result: the first tensor of a variant may be
-- omitted -> its signature, the position self then takes (or nil)
local function parseinplace(spec, T, self, n, ...)
   for _, form in ipairs(spec.forms) do
      local m = #form.chars
      if n == m and fitsall(form.chars, T, 1, ...) then
         return form.sig, nil
      end
      if n == m - 1 and form.rest and fitsall(form.rest, T, 1, ...) then
         return form.sig, form.omit
      end
   end
   return nil
end

-- Torch7 took a numeric string wherever a number was expected (lua_isnumber):
-- a call that fits no variant is tried again with such strings as numbers
local function numericstrings(n, ...)
   for i = 1, n do
      local v = select(i, ...)
      if type(v) == 'string' and tonumber(v) then return true end
   end
   return false
end

local function tonumbers(n, ...)
   local A = {...}
   for i = 1, n do
      if type(A[i]) == 'string' then A[i] = tonumber(A[i]) or A[i] end
   end
   return unpack(A, 1, n)
end

-- define{name =, variants = {...}, impl = function(T, sig, res, ...), inplace =, res =}
-- installs torch[name] and the method on every tensor type (only the types
-- `only(T)` accepts, when given).  impl gets the arguments of the variant,
-- possibly followed by nils.
function dispatch.define(spec)
   local impl, name, only = spec.impl, spec.name, spec.only
   spec.forms, spec.reschars = compile(spec.variants), letters(spec.res or 't')
   local function call(T, n, ...)
      local sig, withres = parsefunction(spec, T, n, ...)
      if not sig then
         if numericstrings(n, ...) then return call(T, n, tonumbers(n, ...)) end
         invalid(spec, T, {...}, n)
      end
      if withres then return impl(T, sig, ...) end
      return impl(T, sig, nil, ...)
   end
   torch[name] = function(...)
      poll()
      local n = count(...)
      local T = firsttype(n, ...)
      if only and not only(T) then
         fail('%s does not implement the torch.%s() function', T.tensorname, name)
      end
      return call(T, n, ...)
   end
   -- a method exists only on the types `only` accepts: it needs no check per call
   for i = 1, types.count do
      local T = types[i]
      local method
      if spec.inplace then
         method = function(self, ...)
            local n = count(...)
            local sig, omit = parseinplace(spec, T, self, n, ...)
            if not sig then
               if numericstrings(n, ...) then return method(self, tonumbers(n, ...)) end
               invalid(spec, T, {self, ...}, n + 1)
            end
            if omit then return impl(T, sig, self, insert(omit, self, ...)) end
            return impl(T, sig, self, ...)
         end
      else
         method = function(...)
            return call(T, count(...), ...)
         end
      end
      if not only or only(T) then
         torch.getmetatable(T.tensorname)[name] = method
      end
   end
end

function dispatch.floating(T) return not T.integer end

---------------------------------------------------------------------------
-- results
---------------------------------------------------------------------------

-- result(T, res, d [, raw]) -> res, its data: a new tensor of d's sizes, or res
-- resized to them (a new one not zeroed when raw: the caller writes every element)
function dispatch.result(T, res, d, raw)
   if res == nil then
      res = internal.newlike(T, d, raw)
      return res, TD[res]
   end
   local r = TD[res]
   if r ~= d then resize(r, d.sz, d.nd, raw) end
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
      box[0] = internal.ccast(T, v)
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

-- the walker of operand d, or the result's (rp, ro, ri, checked already) when
-- d is the result r: an operation in place
local function walkerof(d, r, rp, ro, ri)
   if d == r then return rp, ro, ri end
   return walker(d)
end

-- r[i] = f(x[i], c)
function dispatch.loop1(r, x, f, c)
   local n = nelement(r)
   if n == 0 then return end
   local rp, ro, ri = walker(r)
   local xp, xo, xi = walkerof(x, r, rp, ro, ri)
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
   local xp, xo, xi = walkerof(x, r, rp, ro, ri)
   local yp, yo, yi = walkerof(y, r, rp, ro, ri)
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
   local xp, xo, xi = walkerof(x, r, rp, ro, ri)
   local yp, yo, yi = walkerof(y, r, rp, ro, ri)
   local zp, zo, zi = walkerof(z, r, rp, ro, ri)
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
