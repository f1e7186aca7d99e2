-- IEEE half precision (Torch7's THHalf, numpy's float16) for LuaJIT, which has
-- no such C type: the elements are uint16_t bits, and a HalfStorage's pointer
-- is a small struct whose indexing converts, so `ptr[i]` reads and writes
-- numbers as it does for the other types.  Numbers are rounded to float first
-- and then to half (to nearest, ties to even), as TH converted them.
local ffi = require 'ffi'
local bit = require 'bit'

local floor, frexp, huge = math.floor, math.frexp, math.huge
local bor, band, rshift = bit.bor, bit.band, bit.rshift

local half = {}

local function tohalf(v)
   v = tonumber(ffi.cast('float', v))
   if v ~= v then return 0x7e00 end
   local sign = (v < 0 or (v == 0 and 1 / v < 0)) and 0x8000 or 0
   local a = sign ~= 0 and -v or v
   local function even(x)                        -- x rounded to nearest, ties to even
      local r = floor(x + 0.5)
      if r - x == 0.5 and r % 2 == 1 then r = r - 1 end
      return r
   end
   if a < 2^-14 then return bor(sign, even(a * 2^24)) end   -- subnormal (or 0)
   local m, e = frexp(a)                         -- a = m 2^e, m in [0.5, 1)
   local bits = (e + 14) * 1024 + even((m * 2 - 1) * 1024)  -- a carry moves into the exponent
   if bits >= 0x7c00 then bits = 0x7c00 end     -- overflow: infinity
   return bor(sign, bits)
end
half.tohalf = tohalf

local function tonum(h)
   local e, m = band(rshift(h, 10), 0x1f), band(h, 0x3ff)
   local v
   if e == 0 then
      v = m * 2^-24
   elseif e == 31 then
      v = m == 0 and huge or 0 / 0
   else
      v = (1 + m / 1024) * 2^(e - 15)
   end
   return h >= 0x8000 and -v or v
end
half.tonumber = tonum

if not pcall(ffi.typeof, 'th_halfptr') then
   ffi.cdef 'typedef struct { uint16_t *p; } th_halfptr;'
end
local halfptr
halfptr = ffi.metatype('th_halfptr', {
   __index = function(w, i) return tonum(w.p[i]) end,
   __newindex = function(w, i, v) w.p[i] = tohalf(v) end,
   __add = function(w, off) return halfptr(w.p + off) end,
})
half.ptrtype = halfptr

-- cast(address or pointer) -> the converting pointer
function half.cast(x)
   return halfptr(ffi.cast('uint16_t*', x))
end

-- raw(ptr) -> the uint16_t pointer under a converting one (others unchanged), for ffi.copy
function half.raw(p)
   if ffi.istype(halfptr, p) then return p.p end
   return p
end

return half
