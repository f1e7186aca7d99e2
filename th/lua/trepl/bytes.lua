-- Lua strings are bytes, which lupa would decode as UTF-8 (and fail on any
-- other byte) when they cross into Python: the host receives instead the
-- address and length of a string's bytes (th/luabytes.py reads them), valid
-- until the next call, which releases the string.
local ffi = require 'ffi'

local held
return function(s)
   held = s
   return tonumber(ffi.cast('intptr_t', ffi.cast('const char *', s))), #s
end
