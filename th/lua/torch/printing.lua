-- tostring of tensors and storages, byte for byte as Torch7 printed them.
-- One number format is chosen from all the elements: integers print as %Nd,
-- fractions as %N.4f (with a common scale line such as `1e-05 *` when the
-- magnitudes are large or small), wide ranges as %11.4e; any NaN falls back
-- to %f.  Matrices are cut into `Columns a to b` blocks within 80 characters;
-- tensors of 3 and more dimensions print as 2-D slices `(i,j,.,.) = `.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'

local TD, SD = internal.tensors, internal.storages
local format, floor, log10, abs, huge = string.format, math.floor, math.log10, math.abs, math.huge
local concat, tonumber, unpack, rep = table.concat, tonumber, unpack, string.rep

-- numberformat(values, n) -> format, scale or nil, width
local function numberformat(values, n)
   local intmode, nan = true, false
   local minabs, maxabs = huge, 0
   for i = 1, n do
      local v = values[i]
      if v ~= v then
         nan = true
      else
         if intmode and v ~= math.ceil(v) then intmode = false end
         local a = abs(v)
         if a < minabs then minabs = a end
         if a > maxabs then maxabs = a end
      end
   end
   if nan then return '%f', nil, 0 / 0 end   -- NaN made Torch7's exponents NaN: %f, no column blocks
   if n == 0 then minabs = 0 end
   local expmin = minabs ~= 0 and floor(log10(minabs)) + 1 or 1
   local expmax = maxabs ~= 0 and floor(log10(maxabs)) + 1 or 1
   if intmode then
      if expmax > 9 then
         return '%11.4e', nil, 11
      end
      return '%' .. (expmax + 1) .. '.0f', nil, expmax + 1
   end
   if expmax - expmin > 4 then
      local width = 11
      if abs(expmax) > 99 or abs(expmin) > 99 then width = 12 end
      return '%' .. width .. '.4e', nil, width
   end
   if expmax > 5 or expmax < 0 then
      return '%7.4f', 10 ^ (expmax - 1), 7
   end
   local width = (expmax == 0 and 1 or expmax) + 6
   return '%' .. width .. '.4f', nil, width
end

-- the elements of a tensor data d in row-major order, as Lua numbers
local function values(d)
   local v, n = {}, 0
   internal.each(d, function(ptr, i) n = n + 1; v[n] = tonumber(ptr[i]) end)
   return v, n
end

local function scaleline(scale)
   return format('%g', scale) .. ' *'
end

-- numbers are formatted BATCH at a time, by one string.format on the format
-- repeated (a call per number made printing big tensors 2-4x slower)
local BATCH = 64

-- the n numbers of a row from column `first` (storage position base), formatted
-- and separated by spaces
-- what is added to each number before formatting: 0 turns -0 into 0 for the
-- integer format (Torch7 printed it " 0"), -0 changes nothing (-0.0000 stays)
local NEGZERO = -1 / huge
local function zeroshift(fmt)
   if fmt:find('%.0f$') then return 0 end
   return NEGZERO
end

local function rowstring(fmt, ptr, base, cs, first, n, divisor)
   local parts, v = {}, {}
   local c = first
   local z = zeroshift(fmt)
   while n > 0 do
      local k = math.min(n, BATCH)
      for j = 1, k do v[j] = tonumber(ptr[base + (c + j - 2) * cs]) / divisor + z end
      parts[#parts + 1] = format(rep(fmt, k, ' '), unpack(v, 1, k))
      c, n = c + k, n - k
   end
   return concat(parts, ' ')
end

-- the rows of a matrix (2-D data d), formatted, with column blocks
local function matrix(out, d, fmt, scale, width, indent)
   local rows, cols = d.sz[1], d.sz[2]
   local ptr, off, rs, cs = d.st.ptr, d.off, d.str[1], d.str[2]
   local divisor = scale or 1
   local percolumn = width == width and floor((80 - #indent) / (width + 1)) or cols
   local rowindent = scale and indent .. ' ' or indent
   local first = 1
   out[#out + 1] = indent
   while first <= cols do
      local last = math.min(first + percolumn - 1, cols)
      if percolumn < cols then
         if first ~= 1 then out[#out + 1] = '\n' end
         out[#out + 1] = 'Columns ' .. first .. ' to ' .. last .. '\n' .. indent
      end
      if scale then
         out[#out + 1] = scaleline(scale) .. '\n ' .. indent
      end
      for r = 1, rows do
         out[#out + 1] = rowstring(fmt, ptr, off + (r - 1) * rs, cs, first, last - first + 1, divisor)
         out[#out + 1] = r ~= rows and '\n' .. rowindent or '\n'
      end
      first = last + 1
   end
end

-- the 2-D slices of a tensor of 3 or more dimensions, first index fastest
local function slices(out, d, fmt, scale, width)
   local nd = d.nd
   local counter = {}
   for i = 1, nd - 2 do counter[i] = 1 end
   local firstslice = true
   while true do
      if not firstslice then out[#out + 1] = '\n' end
      firstslice = false
      local off = d.off
      local head = {}
      for i = 1, nd - 2 do
         off = off + (counter[i] - 1) * d.str[i]
         head[i] = counter[i]
      end
      out[#out + 1] = '(' .. concat(head, ',') .. ',.,.) = \n'
      matrix(out, {st = d.st, off = off, sz = {d.sz[nd - 1], d.sz[nd]}, str = {d.str[nd - 1], d.str[nd]}},
             fmt, scale, width, ' ')
      local i = 1
      while i <= nd - 2 do
         counter[i] = counter[i] + 1
         if counter[i] <= d.sz[i] then break end
         counter[i] = 1
         i = i + 1
      end
      if i > nd - 2 then break end
   end
end

-- one number a line (1-D tensors and storages), in batches
local function lines(out, fmt, v, n, divisor)
   local w = {}
   local z = zeroshift(fmt)
   for i = 1, n, BATCH do
      local k = math.min(BATCH, n - i + 1)
      for j = 1, k do w[j] = v[i + j - 1] / divisor + z end
      out[#out + 1] = format(rep(fmt .. '\n', k), unpack(w, 1, k))
   end
end

local function sizestring(d)
   local s = {}
   for i = 1, d.nd do s[i] = d.sz[i] end
   return concat(s, 'x')
end

local function tensorstring(self)
   local d = TD[self] or internal.badself(self)
   local name = d.T.tensorname
   if d.nd == 0 then
      return '[' .. name .. ' with no dimension]\n'
   end
   internal.checkbounds(d)
   local v, n = values(d)
   local fmt, scale, width = numberformat(v, n)
   local out = {}
   if d.nd == 1 then
      if scale then out[1] = scaleline(scale) .. '\n' end
      lines(out, fmt, v, n, scale or 1)
   elseif d.nd == 2 then
      matrix(out, d, fmt, scale, width, '')
   else
      slices(out, d, fmt, scale, width)
   end
   out[#out + 1] = '[' .. name .. ' of size ' .. sizestring(d) .. ']\n'
   return concat(out)
end

local function storagestring(self)
   local s = SD[self]
   local v, n = {}, s.n
   for i = 1, n do v[i] = tonumber(s.ptr[i - 1]) end
   local out = {}
   if n > 0 then
      local fmt, scale = numberformat(v, n)
      if scale then out[1] = scaleline(scale) .. '\n' end
      lines(out, fmt, v, n, scale or 1)
   end
   out[#out + 1] = '[' .. s.T.storagename .. ' of size ' .. n .. ']\n'
   return concat(out)
end

for i = 1, types.all do
   torch.getmetatable(types[i].tensorname).__tostring = tensorstring
   torch.getmetatable(types[i].storagename).__tostring = storagestring
end

internal.sizestring = sizestring
