-- The element types of Torch7 and what every module needs to know of them:
-- the C type behind the FFI pointer, the numpy dtype name, the class names
-- (Half, numpy's float16, see half.lua).
local ffi = require 'ffi'
local half = require 'torch.half'

local types = {}

local list = {
   -- name      C type       integer
   {'Byte',   'uint8_t',   true},
   {'Char',   'int8_t',    true},
   {'Short',  'int16_t',   true},
   {'Int',    'int32_t',   true},
   {'Long',   'int64_t',   true},
   {'Float',  'float',     false},
   {'Double', 'double',    false},
}

-- Half (float16) comes last: a storage type with the Tensor core methods and
-- conversions, but no maths, as in Torch7.  Loops over types.count see the
-- seven maths types, loops over types.all the eight.
list[#list + 1] = {'Half', 'uint16_t', false}

for i, e in ipairs(list) do
   local name, ctype, integer = e[1], e[2], e[3]
   local ptrtype = ffi.typeof(ctype .. '*')
   local T = {
      name = name,
      ctype = ctype,
      integer = integer,
      ptrtype = ptrtype,
      rawptr = ptrtype,   -- the C pointer type (ptrtype is a converting one for Half)
      -- cast(address or cdata) -> the element pointer FFI code indexes
      cast = function(x) return ffi.cast(ptrtype, x) end,
      vla = ffi.typeof(ctype .. '[?]'),
      size = ffi.sizeof(ctype),
      tensorname = 'torch.' .. name .. 'Tensor',
      storagename = 'torch.' .. name .. 'Storage',
   }
   types[i] = T
   types[name] = T
end
types.Half.cast, types.Half.ptrtype = half.cast, half.ptrtype

types.all = #list
types.count = #list - 1

return types
