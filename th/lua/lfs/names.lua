-- File names handed to Python (th/ops/lfs.py).  lupa decodes Lua strings as
-- UTF-8 on the way, so a name with other bytes (Latin-1...) would fail there:
-- such a name travels as a NUL (which no real name holds first) then each of
-- its bytes as one character, which Python turns back into the exact bytes.
-- As C did, a name ends at its first NUL.
local floor, char, byte = math.floor, string.char, string.byte

local function onebyte(c)
   local b = byte(c)
   return char(0xC0 + floor(b / 64), 0x80 + b % 64)
end

return function(name)
   name = name:match('^%Z*')
   if not name:find('[\128-\255]') then return name end
   return '\0' .. name:gsub('[\128-\255]', onebyte)
end
