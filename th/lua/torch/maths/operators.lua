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

-- Torch7's operators were C functions that luaT's metamethods called (their
-- errors without a position, named '?'), each of the type T whose metatable
-- Lua found first: a tensor of T with a tensor of T, or with a number (a
-- numeric string too), where the other operand was read as a number
-- (luaL_checknumber: "number expected, got userdata" for a tensor of
-- another type).  fail words them: the metamethod's errors have no position.
local function istype(v, T)
   local d = type(v) == 'userdata' and TD[v]
   return d and d.T == T
end

local function number(v, argn)
   local x = tonumber(v)
   if type(v) ~= 'number' and (type(v) ~= 'string' or not x) then
      local t = type(v)
      fail("bad argument #%d to '?' (number expected, got %s)", argn, t)
   end
   return x
end

-- T: the type whose operator runs (a's, else b's)
local function optype(a, b)
   local d = type(a) == 'userdata' and TD[a]
   if d then return d.T end
   return TD[b].T
end

-- (a and b of T, or one of T and the other a number)
local function binary(a, b)
   local T = optype(a, b)
   if istype(a, T) then
      if istype(b, T) then return a, b end
      return a, number(b, 2)
   end
   return number(a, 1), b
end

-- / and %: a tensor of T by a number (lua_isnumber; an error naming no type)
local function divisor(a, b)
   local T = optype(a, b)
   if not istype(a, T) then fail("bad argument #1 to '?' (%s expected, got boolean)", T.tensorname) end
   local x = tonumber(b)
   if type(b) ~= 'number' and (type(b) ~= 'string' or not x) then
      fail("bad argument #2 to '?' (number expected)")
   end
   return a, x
end

local operators = {
   __add__ = function(a, b)
      a, b = binary(a, b)
      if type(a) == 'number' then return torch.add(b, a) end
      return torch.add(a, b)
   end,

   __sub__ = function(a, b)
      a, b = binary(a, b)
      if type(a) == 'number' then return torch.mul(b, -1):add(a) end
      if type(b) == 'number' then return torch.add(a, -b) end
      return torch.add(a, -1, b)
   end,

   __mul__ = function(a, b)
      a, b = binary(a, b)
      if type(a) == 'number' then return torch.mul(b, a) end
      if type(b) == 'number' then return torch.mul(a, b) end
      local da, db = TD[a].nd, TD[b].nd
      if da == 1 and db == 1 then return torch.dot(a, b) end
      if da == 2 and db == 1 then return torch.mv(a, b) end
      if da == 2 and db == 2 then return torch.mm(a, b) end
      fail('multiplication between %dD and %dD tensors not yet supported', da, db)
   end,

   __div__ = function(a, b)
      a, b = divisor(a, b)
      return torch.div(a, b)
   end,

   __mod__ = function(a, b)
      a, b = divisor(a, b)
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
