-- The seven element types of Torch7 and what every module needs to know of
-- them: the C type behind the FFI pointer, the numpy dtype name, the class names.
local ffi = require 'ffi'

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

for i, e in ipairs(list) do
   local name, ctype, integer = e[1], e[2], e[3]
   local T = {
      name = name,
      ctype = ctype,
      integer = integer,
      ptrtype = ffi.typeof(ctype .. '*'),
      vla = ffi.typeof(ctype .. '[?]'),
      size = ffi.sizeof(ctype),
      tensorname = 'torch.' .. name .. 'Tensor',
      storagename = 'torch.' .. name .. 'Storage',
   }
   types[i] = T
   types[name] = T
end

types.count = #list

return types
