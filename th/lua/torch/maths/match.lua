-- match([res,] m1, m2 [, gain]): res[i][j] = gain * the squared distance
-- between row i of m1 and row j of m2, each tensor seen as a matrix of its
-- first dimension by the rest.  The method form x:match(m1, m2 [, gain])
-- writes into x, as Torch7's did.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'
local dispatch = require 'torch.maths.dispatch'

local TD, fail, nelement = internal.tensors, internal.fail, internal.nelement
local tonumber = tonumber

-- rows(t) -> rows, columns, pointer, offset, and the contiguous copy of t they
-- point into (kept by the caller while the pointer is in use)
local function rows(t)
   local c = t:contiguous()
   local d = TD[c]
   local n = d.sz[1]
   return n, nelement(d) / n, d.st.ptr, d.off, c
end

local function match(T, res, m1, m2, gain)
   for argn = 1, 2 do
      local m = argn == 1 and m1 or m2
      local d = TD[m]
      if not d or d.T ~= T then
         fail("bad argument #%d to 'match' (%s expected, got %s)", argn, T.tensorname, torch.type(m))
      end
      if d.nd == 0 then fail("bad argument #%d to 'match' (non-empty tensor expected)", argn) end
   end
   -- (a numeric string is the number, as the binding's lua_isnumber took it)
   if type(gain) == 'string' then gain = tonumber(gain) or gain end
   if gain ~= nil and type(gain) ~= 'number' then
      fail("bad argument #3 to 'match' (number expected, got %s)", type(gain))
   end
   gain = dispatch.cast(T, gain or 1)
   local n1, dim1, p1, o1, keep1 = rows(m1)
   local n2, dim2, p2, o2, keep2 = rows(m2)
   -- (TH's check numbered m2 as its third argument, after the result)
   if dim1 ~= dim2 then fail("bad argument #3 to 'match' (m1 and m2 must have the same inner vector dim)") end
   res = dispatch.resultsized(T, res, {n1, n2}, 2)
   local out = res:contiguous()
   local po, oo = TD[out].st.ptr, TD[out].off
   for i = 0, n1 - 1 do
      for j = 0, n2 - 1 do
         local s = 0
         for k = 0, dim1 - 1 do
            local diff = tonumber(p1[o1 + i * dim1 + k]) - tonumber(p2[o2 + j * dim2 + k])
            s = s + diff * diff
         end
         po[oo + i * n2 + j] = internal.ccast(T, s * gain)
      end
   end
   if out ~= res then res:copy(out) end
   return res, keep1, keep2
end

function torch.match(...)
   local n = select('#', ...)
   local a, b, c, d = ...
   local T = dispatch.firsttype(n, ...)
   if TD[c] then return (match(T, a, b, c, d)) end
   return (match(T, nil, a, b, c))
end
for i = 1, types.count do
   local T = types[i]
   torch.getmetatable(T.tensorname).match = function(self, m1, m2, gain)
      return (match(T, self, m1, m2, gain))
   end
end
