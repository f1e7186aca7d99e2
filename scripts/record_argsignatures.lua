-- Run under the original Torch7 (/opt/torch7-ref/bin/th scripts/record_argsignatures.lua
-- > th/lua/torch/maths/argsignatures.lua): records, for every function of Torch7's maths
-- bindings, the "expected arguments" list its "invalid arguments" error prints, per
-- tensor type, for the method x:f and for torch.f (they differ: x is marked *x* as
-- the result of a method).  A call ending in a function value matches no signature.
local names = {}
for line in io.lines(arg[1] or '/work/shared/reference/callforms.txt') do
   local f = line:match('^%a+Tensor torch%.([%w_]+)%(') or line:match('^%a+Tensor x:([%w_]+)%(')
   if f and not names[f] then names[f] = true; names[#names + 1] = f end
end
table.sort(names)
local typenames = {'Byte', 'Char', 'Short', 'Int', 'Long', 'Float', 'Double'}
local real = {Byte = 'unsigned char', Char = 'char', Short = 'short', Int = 'int',
              Long = 'long', Float = 'float', Double = 'double'}

local function expected(f, ...)
   local ok, msg = pcall(f, ...)
   return not ok and type(msg) == 'string' and msg:match('^invalid arguments: .-\nexpected arguments: (.*)$')
end

-- the text with the type's names replaced by @ (XTensor...) and $ (its C element type)
local function template(s, T)
   return (s:gsub('%f[%w]' .. T, '@'):gsub('%f[%w]' .. real[T] .. '%f[%W]', '$'))
end

local function q(s) return string.format('%q', s) end
local function say(s) io.write(s, '\n') end

say('-- The "expected arguments" lists of the original\'s "invalid arguments" errors,')
say('-- recorded from Torch7 by scripts/record_argsignatures.lua (observed behaviour).')
say('-- [name] = {method = {default, [T] = text}, torch = {...}}: in a default, @ stands')
say('-- for the type\'s name (Double of DoubleTensor) and $ for its C element type;')
say('-- a type whose text differs has its own entry; no entry: no such function.')
say('return {')
for _, f in ipairs(names) do
   local parts = {}
   for _, form in ipairs{'method', 'torch'} do
      local texts, counts = {}, {}
      for _, T in ipairs(typenames) do
         local x = torch[T .. 'Tensor'](1)
         local s
         if form == 'method' then
            s = x[f] and expected(x[f], x, print)
         else
            s = torch[f] and expected(torch[f], x, print)
         end
         if s then
            texts[T] = s
            local t = template(s, T)
            counts[t] = (counts[t] or 0) + 1
         end
      end
      local best, n = nil, 0
      for t, c in pairs(counts) do
         if c > n or (c == n and t < best) then best, n = t, c end
      end
      if best then
         local entries = {q(best)}
         for _, T in ipairs(typenames) do
            if texts[T] and template(texts[T], T) ~= best then
               entries[#entries + 1] = T .. ' = ' .. q(texts[T])
            elseif not texts[T] then
               entries[#entries + 1] = T .. ' = false'
            end
         end
         parts[#parts + 1] = form .. ' = {' .. table.concat(entries, ', ') .. '}'
      end
   end
   if #parts > 0 then say('   ' .. f .. ' = {' .. table.concat(parts, ', ') .. '},') end
end
say('}')
