-- string.format and tostring formatting numbers as Torch7's LuaJIT
-- (2.1.0-beta3) did, so that printed tensors and numbers match the original
-- digit for digit.  Two differences of lupa's LuaJIT are corrected:
--  * a number exactly halfway between two outputs (%.4f of 0.03125, %.0f of
--    2.5, tostring(2^-21)) rounded away from zero in Torch7 (0.0313, 3) and
--    rounds to even in lupa's (0.0312, 2);
--  * %f of a number below about 1e-152 prints garbage digits in lupa's
--    (Torch7 printed 0.000000).
-- Every other call goes straight to the raw functions; only a tie or a tiny
-- %f argument is formatted here, from its exact decimal digits.
-- io.write and a file's write are wrapped too.  Not covered: a number turned
-- into a string by `..` (LuaJIT's VM does it without calling tostring).
local rawformat, rawtostring = string.format, tostring
local type, tonumber, unpack, select = type, tonumber, unpack, select
local floor, fmod, log10, abs, huge = math.floor, math.fmod, math.log10, math.abs, math.huge
local sub, find, rep, concat = string.sub, string.find, string.rep, table.concat

-- the exponent of a's leading decimal digit (a > 0, finite)
local function exponent10(a)
   local e = floor(log10(a))
   if 10 ^ e > a then e = e - 1 elseif 10 ^ (e + 1) <= a then e = e + 1 end
   return e
end

-- whether a (> 0, finite) lies exactly halfway between two numbers of d
-- decimals (d < 0: between multiples of 10^-d).  a*10^d = j + 1/2 holds
-- exactly when a*2^(d+1) is an odd integer (5^d is odd), which doubles
-- compute exactly; above 2^53 every double is even.
local function tie(a, d)
   if d >= 0 then
      if d > 1022 then return false end
      local q = a * 2 ^ (d + 1)
      return q < 2 ^ 53 and q % 2 == 1
   end
   local m = -d
   if m > 22 then return false end   -- (2j+1)*5^m no longer fits in 53 bits
   return fmod(a, 10 ^ m) == 5 * 10 ^ (m - 1)
end

-- the decimal digits (no leading zeros) and point position p (value =
-- 0.digits * 10^p) of a rounded at d decimals, an exact tie, away from zero
local function roundaway(a, d)
   local s = rawformat('%.' .. (d >= 0 and d + 1 or 0) .. 'f', a)   -- exact: a has at most d+1 decimals
   local int, frac = s:match('^(%d+)%.?(%d*)$')
   local digits, p = int .. frac, #int
   local lead = #digits:match('^0*')
   digits, p = sub(digits, lead + 1), p - lead
   local kept = sub(digits, 1, p + d)
   -- add one unit in the last kept place
   local i = #kept
   while i > 0 and sub(kept, i, i) == '9' do i = i - 1 end
   if i == 0 then
      return '1' .. rep('0', #kept), p + 1
   end
   return sub(kept, 1, i - 1) .. string.char(kept:byte(i) + 1) .. rep('0', #kept - i), p
end

-- digits/p written with n decimals, and as d.ddd with n decimals and exponent
local function fixed(digits, p, n, alt)
   local int = p > 0 and sub(digits, 1, p) .. rep('0', p - #digits) or '0'
   local frac = p >= 0 and sub(digits, p + 1) or rep('0', -p) .. digits
   frac = sub(frac .. rep('0', n), 1, n)
   if n == 0 then return alt and int .. '.' or int end
   return int .. '.' .. frac
end

local function scientific(digits, p, n, alt, conv)
   digits = sub(digits .. rep('0', n + 1), 1, n + 1)
   local mant = sub(digits, 1, 1)
   if n > 0 or alt then mant = mant .. '.' .. sub(digits, 2) end
   return mant .. (conv == 'E' and 'E' or 'e') .. rawformat('%+03d', p - 1)
end

local function stripzeros(s)
   local mant, exp = s:match('^([^eE]*)(.*)$')
   if find(mant, '.', 1, true) then mant = mant:gsub('0+$', ''):gsub('%.$', '') end
   return mant .. exp
end

-- the digits of a (> 0) as a conversion prec/conv/alt would write them,
-- rounded away from zero; nil when a is not an exact tie for it
local function tiedigits(a, conv, prec, alt)
   if conv == 'f' or conv == 'F' then
      if not tie(a, prec) or prec + 1 > 99 then return nil end
      local digits, p = roundaway(a, prec)
      return fixed(digits, p, prec, alt)
   end
   local e = exponent10(a)
   if conv == 'e' or conv == 'E' then
      if not tie(a, prec - e) or prec - e + 1 > 99 then return nil end
      local digits, p = roundaway(a, prec - e)
      return scientific(digits, p, prec, alt, conv)
   end
   local P = prec == 0 and 1 or prec   -- g, G
   if not tie(a, P - 1 - e) or P - e > 99 then return nil end
   local digits, p = roundaway(a, P - 1 - e)
   local x = p - 1
   local s
   if x < P and x >= -4 then
      s = fixed(digits, p, P - 1 - x, alt)
   else
      s = scientific(digits, p, P - 1, alt, conv == 'G' and 'E' or 'e')
   end
   return alt and s or stripzeros(s)
end

local function tostringnumber(v)
   if v ~= v or v == huge or v == -huge or v == 0 then return nil end
   local s = tiedigits(abs(v), 'g', 14, false)
   return s and (v < 0 and '-' .. s or s)
end

local function numbertostring(v)
   if type(v) == 'number' then
      local s = tostringnumber(v)
      if s then return s end
   end
   return rawtostring(v)
end

-- a conversion's result from its digits: sign, then width by its flags
local function pad(body, negative, flags, width)
   local sign = negative and '-' or find(flags, '+', 1, true) and '+' or find(flags, ' ', 1, true) and ' ' or ''
   local n = width - #sign - #body
   if n <= 0 then return sign .. body end
   if find(flags, '-', 1, true) then return sign .. body .. rep(' ', n) end
   if find(flags, '0', 1, true) then return sign .. rep('0', n) .. body end
   return rep(' ', n) .. sign .. body
end

-- the number conversions of a format string, each {argument index, first
-- and last position, flags, width, precision, conversion}; false when none
local specs, nspecs = {}, 0

local function parse(fmt)
   local list, arg, pos = {}, 0, 1
   while true do
      local s = find(fmt, '%', pos, true)
      if not s then break end
      if sub(fmt, s + 1, s + 1) == '%' then
         pos = s + 2
      else
         local _, e, flags, width, prec, conv = find(fmt, '^([-+ #0]*)(%d*)%.?(%d*)(.)', s + 1)
         if not e then return false end
         arg = arg + 1
         if find('fFeEgGsq', conv, 1, true) then
            local dot = find(sub(fmt, s, e), '.', 1, true)
            list[#list + 1] = {arg, s, e, flags, tonumber(width) or 0,
                               tonumber(prec) or (dot and 0 or 6), conv}
         end
         pos = e + 1
      end
   end
   return #list > 0 and list
end

local function specsof(fmt)
   local list = specs[fmt]
   if list == nil then
      if nspecs >= 4096 then specs, nspecs = {}, 0 end
      list = parse(fmt)
      specs[fmt], nspecs = list, nspecs + 1
   end
   return list
end

-- the replacement of one argument for its conversion (a string to print by
-- %s, or a signed zero), or nil when the raw format gets it right
local function replacement(v, c)
   local conv = c[7]
   if conv == 's' or conv == 'q' then
      return type(v) == 'number' and tostringnumber(v) or nil, false
   end
   if type(v) == 'string' then v = tonumber(v) end
   if type(v) ~= 'number' or v ~= v or v == huge or v == -huge or v == 0 then return nil end
   local a = abs(v)
   if a < 1e-100 and (conv == 'f' or conv == 'F') then
      return v < 0 and -0.0 or 0.0, false   -- rounds to 0 at any precision Lua allows
   end
   local flags = c[4]
   local digits = tiedigits(a, conv, c[6], find(flags, '#', 1, true) ~= nil)
   return digits and pad(digits, v < 0, flags, c[5]), true
end

local function format(...)
   local fmt = ...
   local list = type(fmt) == 'string' and specsof(fmt)
   if not list then return rawformat(...) end
   local args, n, pieces, last
   for i = 1, #list do
      local c = list[i]
      local v = select(c[1] + 1, ...)
      local new, whole = replacement(v, c)
      if new ~= nil then
         if not args then args, n, pieces, last = {select(2, ...)}, select('#', ...) - 1, {}, 1 end
         args[c[1]] = new
         if whole then   -- the conversion becomes a plain %s
            pieces[#pieces + 1] = sub(fmt, last, c[2] - 1)
            pieces[#pieces + 1] = '%s'
            last = c[3] + 1
         end
      end
   end
   if not args then return rawformat(...) end
   pieces[#pieces + 1] = sub(fmt, last)
   return rawformat(concat(pieces), unpack(args, 1, n))
end

-- io.write and file:write as the raw ones, with numbers written by tostring
local function numberwriter(raw)
   return function(...)
      local n = select('#', ...)
      for i = 1, n do
         local v = select(i, ...)
         if type(v) == 'number' and tostringnumber(v) then
            local args = {...}
            for j = i, n do
               if type(args[j]) == 'number' then args[j] = numbertostring(args[j]) end
            end
            return raw(unpack(args, 1, n))
         end
      end
      return raw(...)
   end
end

string.format = format
tostring = numbertostring
io.write = numberwriter(io.write)
local filemethods = getmetatable(io.stdout).__index
filemethods.write = numberwriter(filemethods.write)

return {format = format, tostring = numbertostring, rawformat = rawformat, rawtostring = rawtostring}
