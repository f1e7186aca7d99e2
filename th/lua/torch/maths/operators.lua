-- The tensor operators + - * / % and unary minus, as Torch7's
-- TensorOperator: they always return a new tensor (or, for vector * vector,
-- the dot product).  + and - take tensors with the same number of elements
-- or a number on either side; tensor * tensor is dot, mv or mm by the
-- dimensions; / and % only take tensor <op> number.  `#t` is the size and
-- `==` identity (class.lua's defaults, which look these up as __add__ ...).
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'

local TD, fail = internal.tensors, internal.fail
local type, tonumber = type, tonumber

-- The metamethod is the left operand's class's when it is a tensor, else
-- the right one's (class.lua).  Torch7's checks, their messages without a
-- position (TensorOperator.c was C):
-- + - *: the other operand a number or a tensor of the same type; a tensor
--   of another type, or anything else, is "number expected, got userdata"
--   (#2; #1 when the left operand is no tensor)
-- / %: only tensor / number ("number expected" without a type; a left
--   operand that is no tensor was "torch.DoubleTensor expected, got boolean")
-- A numeric string on the right is its number (lua_isnumber); + - * of an
-- integer type read it as an integer, the digits before any '.' or exponent
-- ('1e2' is 1, '0x10' 16), as its elements' stores do (Torch7 read the
-- string with C's strtol: base 0 made '010' 8, and a string that is no
-- number was 0, '12abc' 12: th takes '010' as 10 and refuses what is no
-- number, as a DoubleTensor did).

-- the right operand when it is no tensor of a's type (da: a's data): its
-- number, or #2's error
local function second(da, b)
   local v = type(b) == 'string' and tonumber(b)
   if not v then fail("bad argument #2 to '?' (number expected, got %s)", type(b)) end
   if da.T.integer then
      local i = internal.integerstring(da.T, b)
      if type(i) == 'number' then return i end
   end
   return v
end

-- the left operand when it is no tensor (b is): a number, or #1's error
local function first(a)
   if type(a) ~= 'number' then fail("bad argument #1 to '?' (number expected, got %s)", type(a)) end
   return a
end

-- the divisor of / and %: a number or a numeric string
local function divisor(a, b)
   if not TD[a] then fail("bad argument #1 to '?' (%s expected, got boolean)", TD[b].T.tensorname) end
   local v = tonumber(b)
   if type(b) == 'table' or not v then fail("bad argument #2 to '?' (number expected)") end
   return v
end

local operators = {
   __add__ = function(a, b)
      local da = TD[a]
      if da then
         if type(b) ~= 'number' then
            local db = TD[b]
            if not db or db.T ~= da.T then b = second(da, b) end
         end
         return torch.add(a, b)
      end
      return torch.add(b, first(a))
   end,

   __sub__ = function(a, b)
      local da = TD[a]
      if da then
         if type(b) == 'number' then return torch.add(a, -b) end
         local db = TD[b]
         if db and db.T == da.T then return torch.add(a, -1, b) end
         return torch.add(a, -second(da, b))
      end
      return torch.mul(b, -1):add(first(a))
   end,

   __mul__ = function(a, b)
      local da = TD[a]
      if not da then return torch.mul(b, first(a)) end
      if type(b) == 'number' then return torch.mul(a, b) end
      local db = TD[b]
      if not db or db.T ~= da.T then return torch.mul(a, second(da, b)) end
      local na, nb = da.nd, db.nd
      if na == 1 and nb == 1 then return torch.dot(a, b) end
      if na == 2 and nb == 1 then return torch.mv(a, b) end
      if na == 2 and nb == 2 then return torch.mm(a, b) end
      fail('multiplication between %dD and %dD tensors not yet supported', na, nb)
   end,

   __div__ = function(a, b)
      if type(b) ~= 'number' or not TD[a] then b = divisor(a, b) end
      return torch.div(a, b)
   end,

   __mod__ = function(a, b)
      if type(b) ~= 'number' or not TD[a] then b = divisor(a, b) end
      return torch.remainder(a, b)
   end,

   __unm__ = function(a)
      return torch.mul(a, -1)
   end,
}

for i = 1, types.count do
   local mt = torch.getmetatable(types[i].tensorname)
   for name, f in pairs(operators) do mt[name] = f end
end
