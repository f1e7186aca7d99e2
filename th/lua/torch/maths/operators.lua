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

local function istensor(v) return type(v) == 'userdata' and TD[v] ~= nil end

-- both operands must be numbers or tensors: Torch7 raised an argument error
local function operand(op, argn, v)
   if type(v) ~= 'number' and not istensor(v) then
      fail("bad argument #%d to '%s' (number or tensor expected, got %s)", argn, op, torch.type(v))
   end
end

local function operands(op, a, b)
   operand(op, 1, a)
   operand(op, 2, b)
end

-- a numeric string on the right is a number (Torch7's bindings read it with
-- luaL_checknumber); on the left Lua's string arithmetic fails first
local function right(b)
   if type(b) == 'string' then return tonumber(b) or b end
   return b
end

local operators = {
   __add__ = function(a, b)
      b = right(b)
      operands('__add', a, b)
      if type(a) == 'number' then return torch.add(b, a) end
      return torch.add(a, b)
   end,

   __sub__ = function(a, b)
      b = right(b)
      operands('__sub', a, b)
      if type(a) == 'number' then return torch.mul(b, -1):add(a) end
      if type(b) == 'number' then return torch.add(a, -b) end
      return torch.add(a, -1, b)
   end,

   __mul__ = function(a, b)
      b = right(b)
      operands('__mul', a, b)
      if type(a) == 'number' then return torch.mul(b, a) end
      if type(b) == 'number' then return torch.mul(a, b) end
      local da, db = TD[a].nd, istensor(b) and TD[b].nd
      if da == 1 and db == 1 then return torch.dot(a, b) end
      if da == 2 and db == 1 then return torch.mv(a, b) end
      if da == 2 and db == 2 then return torch.mm(a, b) end
      fail('multiplication between %dD and %dD tensors not yet supported', da, db or 0)
   end,

   __div__ = function(a, b)
      b = right(b)
      if not istensor(a) or type(b) ~= 'number' then
         fail('only tensor / number division is supported')
      end
      return torch.div(a, b)
   end,

   __mod__ = function(a, b)
      b = right(b)
      if not istensor(a) or type(b) ~= 'number' then
         fail('only tensor % number is supported')
      end
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
