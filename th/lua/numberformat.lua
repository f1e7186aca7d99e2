-- string.format and tostring formatting numbers as Torch7's LuaJIT
-- (2.1.0-beta3) did, so that printed tensors and numbers match the original
-- digit for digit.  Torch7's LuaJIT rounded every conversion from the
-- number's exact decimal value, an exact tie away from zero.  lupa's LuaJIT
-- differs:
--  * a number exactly halfway between two outputs (%.4f of 0.03125, %.0f of
--    2.5, tostring(2^-21)) rounds to even in lupa's (0.0312, 2), away from
--    zero in Torch7 (0.0313, 3);
--  * a number only close to halfway is taken for a tie, and rounded to even,
--    now and then: %.4e of 9.61485e-131 (...4850000000000000270e-131) gives
--    9.6148e-131 in lupa's, 9.6149e-131 in Torch7, tostring of
--    1.0262330365724503e+91 ...724e+91 for ...725e+91; %.0g of 8.5e-36 8e-36;
--  * %f of a number below about 1e-152 prints garbage digits in lupa's
--    (Torch7 printed 0.000000).
-- lupa's digits themselves are right (its %.30e matches the exact value to
-- the last digit), and it errs only when the digit after the last one kept
-- is a 5.  So a conversion (%e, %f, %g, tostring) goes to the raw function
-- unless that digit is a 5 (found by double arithmetic when it clearly is
-- not, else by a raw %e with one digit more); then it is formatted here from
-- lupa's digits 20 places past the rounding position, rounded here, and when
-- those cannot tell (5000... or 4999...), by an exact tie test or from the
-- exact decimal digits (big integer arithmetic).
-- io.write and a file's write are wrapped too.  Not covered: a number turned
-- into a string by `..` (LuaJIT's VM does it without calling tostring).
local rawformat, rawtostring = string.format, tostring
local type, tonumber, unpack, select = type, tonumber, unpack, select
local floor, fmod, log10, abs, huge = math.floor, math.fmod, math.log10, math.abs, math.huge
local sub, find, rep, concat = string.sub, string.find, string.rep, table.concat

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

-- the exact decimal digits of a (> 0, finite) and point position p (a =
-- 0.digits * 10^p): a = m * 2^q, m an integer below 2^53, is m * 2^q or
-- m * 5^-q * 10^q, multiplied out in limbs of 7 digits (least significant
-- first)
local function exactdigits(a)
   local f, ex = math.frexp(a)
   local m, q = f * 2 ^ 53, ex - 53
   local limbs = {m % 1e7, floor(m / 1e7) % 1e7, floor(m / 1e14)}
   local base, step, k = q >= 0 and 2 or 5, q >= 0 and 23 or 10, q >= 0 and q or -q
   while k > 0 do
      local f = base ^ (k >= step and step or k)
      k = k - step
      local carry = 0
      for i = 1, #limbs do
         local x = limbs[i] * f + carry
         limbs[i] = x % 1e7
         carry = floor(x / 1e7)
      end
      while carry > 0 do
         limbs[#limbs + 1] = carry % 1e7
         carry = floor(carry / 1e7)
      end
   end
   while #limbs > 1 and limbs[#limbs] == 0 do limbs[#limbs] = nil end
   local parts = {rawformat('%d', limbs[#limbs])}
   for i = #limbs - 1, 1, -1 do parts[#parts + 1] = rawformat('%07d', limbs[i]) end
   local digits = concat(parts):gsub('0+$', '')
   return digits, #concat(parts) + (q < 0 and q or 0)
end

-- lupa's first k significant digits of a (> 0, finite), rounded by it, and
-- point position p (a = 0.digits * 10^p)
local EFORMATS = {}
for k = 1, 100 do EFORMATS[k] = '%.' .. (k - 1) .. 'e' end
local function rawdigits(a, k)
   local s = rawformat(EFORMATS[k], a)
   if k == 1 then return sub(s, 1, 1), tonumber(sub(s, 3)) + 1 end
   return sub(s, 1, 1) .. sub(s, 3, k + 1), tonumber(sub(s, k + 3)) + 1
end

-- the digits/p of a (> 0, finite) kept by a conversion, rounded as Torch7
-- did: digits/p are a's first digits, count(p) how many are kept (<= 0: a
-- unit 10^(p - count) and up; '' when a rounds to 0)
local function rounded(a, count, digits, p)
   local n = count(p)
   if n < 0 then return '', p end
   local kept, tail = sub(digits, 1, n), sub(digits, n + 1)
   local up
   local first = tail:byte(1)
   if (first == 53 or first == 52) and (find(tail, '^50*$') or find(tail, '^49*$')) then
      if tie(a, n - p) then
         up = true
      else
         local exact, ep = exactdigits(a)
         if ep ~= p then return rounded(a, count, exact, ep) end
         up = (exact:byte(n + 1) or 0) >= 53   -- '5' and more
      end
   else
      up = (tail:byte(1) or 0) >= 53
   end
   if not up then return kept, p end
   local i = #kept
   while i > 0 and kept:byte(i) == 57 do i = i - 1 end   -- '9'
   if i == 0 then return '1' .. rep('0', #kept), p + 1 end
   return sub(kept, 1, i - 1) .. string.char(kept:byte(i) + 1) .. rep('0', #kept - i), p
end

-- the digits/p of a (> 0, finite) kept by a conversion keeping count(p)
-- digits, at most n + 1 of them: lupa's 20 digits past them, or the exact
-- ones when lupa's would be more than 100
local EXTRA = 20
local function digitsfor(a, n, count)
   local k = (n > 0 and n or 0) + 1 + EXTRA
   local digits, p
   if k > 100 then
      digits, p = exactdigits(a)
   else
      digits, p = rawdigits(a, k)
   end
   return rounded(a, count, digits, p)
end

-- (the closures are made apart: a function that makes one closes its
-- upvalues on return, which LuaJIT's traces do not compile)
local function plus(prec) return function(p) return p + prec end end
local function constant(n) return function() return n end end
local FIXEDCOUNTS, COUNTS = {}, {}
local function fixedcount(prec)
   local f = FIXEDCOUNTS[prec]
   if not f then f = plus(prec); FIXEDCOUNTS[prec] = f end
   return f
end
local function count(n)
   local f = COUNTS[n]
   if not f then f = constant(n); COUNTS[n] = f end
   return f
end
local COUNT14 = count(14)

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

-- the text of a (> 0, finite) by a conversion e, E, f, F, g or G, its
-- precision and '#' flag
local function converted(a, conv, prec, alt)
   if conv == 'f' or conv == 'F' then
      -- (log10's exponent can be one short: one digit more)
      local digits, p = digitsfor(a, floor(log10(a)) + 2 + prec, fixedcount(prec))
      return fixed(digits, p, prec, alt)
   end
   if conv == 'e' or conv == 'E' then
      local digits, p = digitsfor(a, prec + 1, count(prec + 1))
      return scientific(digits, p, prec, alt, conv)
   end
   local P = prec == 0 and 1 or prec   -- g, G
   local digits, p = digitsfor(a, P, count(P))
   local x = p - 1
   local s
   if x < P and x >= -4 then
      s = fixed(digits, p, P - 1 - x, alt)
   else
      s = scientific(digits, p, P - 1, alt, conv == 'G' and 'E' or 'e')
   end
   return alt and s or stripzeros(s)
end

-- whether lupa's conversion of a (> 0, finite) keeping n significant
-- digits (count(p) of them, n an estimate no smaller) may be wrong: when the
-- next digit is 5 (the only place it errs) or a %f rounds a at or above its
-- first digit (where a tiny a's digits are garbage).  One raw %e with one
-- digit more: its rounding there can make digit n + 1 a 5 (a false alarm)
-- but not hide a 5 followed by 0, the only tail lupa's gets wrong.
local function suspect(a, n, count)
   local k = (n > 0 and n or 0) + 1
   if k > 100 then return true end
   local s = rawformat(EFORMATS[k], a)
   local epos = k == 1 and 2 or k + 2
   local m = count(tonumber(sub(s, epos + 1)) + 1)
   if m < 1 then return true end
   return s:byte(m + 2) == 53   -- digit m + 1 (after the point at 2) is '5'
end

-- whether y (>= 0, a number scaled to keep its integer part) is clear of
-- a 5 after its last kept digit, by double arithmetic: the common case,
-- without formatting anything.  (The bounds leave room for y's rounding
-- errors, below 5e-16 y: 1e14 keeps tostring's 14 digits in.)
local function clear(y)
   if y >= 1e14 then return false end
   local f, err = y - floor(y), 5e-16 * y
   return f < 0.49 - err or f > 0.61 + err
end

-- whether a conversion of a (> 0, finite) to n significant digits is clear
-- of a 5 after them (log10's exponent can be one off: then not)
local function clearsignificant(a, n)
   if a < 1e-290 or a >= 1e290 then return false end
   local y = a * 10 ^ (n - 1 - floor(log10(a)))
   return y > 10 ^ (n - 1) * (1 + 1e-9) and y < 10 ^ n * (1 - 1e-9) and clear(y)
end

local function tostringnumber(v)
   if v ~= v or v == huge or v == -huge or v == 0 then return nil end
   local a = abs(v)
   if a < 1e14 and a == floor(a) then return nil end   -- 14 digits or fewer
   if clearsignificant(a, 14) or not suspect(a, 14, COUNT14) then return nil end
   local s = converted(a, 'g', 14, false)
   return v < 0 and '-' .. s or s
end

local getinfo = debug.getinfo
local function numbertostring(...)
   local v = ...
   if type(v) == 'number' then
      local s = tostringnumber(v)
      if s then return s end
   elseif v == nil and select('#', ...) == 0 then
      -- (LuaJIT's C tostring's error, at the caller's line, named as called)
      local me = getinfo(1, 'n')
      error(("bad argument #1 to '%s' (value expected)"):format(me and me.name or '?'), 2)
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
         if not e or #width > 2 or #prec > 2 then return false end   -- the raw one's error
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
   local a, prec = abs(v), c[6]
   if conv == 'f' or conv == 'F' then
      if a >= 1e-100 and prec <= 22 and clear(a * 10 ^ prec) then return nil end
      -- (log10's exponent can be one short: one digit more)
      if not suspect(a, floor(log10(a)) + 2 + prec, fixedcount(prec)) then return nil end
   else
      local n = prec + ((conv == 'e' or conv == 'E') and 1 or prec == 0 and 1 or 0)
      if clearsignificant(a, n) or not suspect(a, n, count(n)) then return nil end
   end
   local flags = c[4]
   return pad(converted(a, conv, prec, find(flags, '#', 1, true) ~= nil), v < 0, flags, c[5]), true
end

-- the k-th of four arguments (nil beyond)
local function pick(k, a1, a2, a3, a4)
   if k == 1 then return a1 elseif k == 2 then return a2 elseif k == 3 then return a3 elseif k == 4 then return a4 end
   return nil
end

-- the raw string.format of fmt and n - 1 of the four arguments after it (n
-- counts fmt: `string.format()` keeps its "no value")
local function rawcall(n, fmt, a1, a2, a3, a4)
   if n <= 2 then
      if n == 2 then return rawformat(fmt, a1) end
      if n == 1 then return rawformat(fmt) end
      return rawformat()
   end
   if n == 3 then return rawformat(fmt, a1, a2) end
   if n == 4 then return rawformat(fmt, a1, a2, a3) end
   return rawformat(fmt, a1, a2, a3, a4)
end

-- conversion c of fmt made a plain %s: the text from last up to it, then
-- %s, added to pieces -> where the text goes on
local function plain(pieces, last, fmt, c)
   pieces[#pieces + 1] = sub(fmt, last, c[2] - 1)
   pieces[#pieces + 1] = '%s'
   return c[3] + 1
end

-- string.format of any number of arguments: those beyond four in a table
local function formatmany(...)
   local fmt = ...
   local list = type(fmt) == 'string' and specsof(fmt)
   if not list then return rawformat(...) end
   local args, n, pieces, last = {select(2, ...)}, select('#', ...) - 1, {}, 1
   for i = 1, #list do
      local c = list[i]
      local new, whole = replacement(args[c[1]], c)
      if new ~= nil then
         args[c[1]] = new
         if whole then last = plain(pieces, last, fmt, c) end
      end
   end
   pieces[#pieces + 1] = sub(fmt, last)
   return rawformat(concat(pieces), unpack(args, 1, n))
end

-- string.format: its usual calls, four arguments or fewer after the format,
-- taken as fixed ones.  (A vararg function passing its `...` on whole is not
-- compiled once a trace starts inside it: every format had run interpreted.)
local function format(...)
   local n = select('#', ...)
   if n > 5 then return formatmany(...) end
   local fmt, a1, a2, a3, a4 = ...
   local list = type(fmt) == 'string' and specsof(fmt)
   if not list then return rawcall(n, fmt, a1, a2, a3, a4) end
   local pieces, last
   for i = 1, #list do
      local c = list[i]
      local k = c[1]
      local new, whole = replacement(pick(k, a1, a2, a3, a4), c)
      if new ~= nil then
         if k == 1 then a1 = new elseif k == 2 then a2 = new elseif k == 3 then a3 = new else a4 = new end
         if whole then
            pieces = pieces or {}
            last = plain(pieces, last or 1, fmt, c)
         end
      end
   end
   if pieces then
      pieces[#pieces + 1] = sub(fmt, last)
      fmt = concat(pieces)
   end
   return rawcall(n, fmt, a1, a2, a3, a4)
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
