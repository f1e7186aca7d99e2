-- Sorting networks for many short lines (MIN to MAX elements) of distinct
-- finite values, whose sorted order is the one order there is, the one
-- TH's quicksort gives.  A network is a fixed sequence of compare-exchanges,
-- each a math.min and a math.max (no branch: the branches of a sort of
-- random values mispredict, and each taken one left a LuaJIT trace; TH's
-- quicksort of 30 values here took 225 ns, the network 80).  It moves
-- values alone: each value's place in its line rides in its low 6 bits
-- (a key, within 63 units in the last place of the value), and the sorted
-- keys give the places, then the values as they were.  A line whose values
-- come out not strictly in order (a tie, -0 and 0, values a few units in
-- the last place apart whose keys swapped) or not finite fails: the caller
-- sorts them all again by TH's rules.
local ffi = require 'ffi'
local bit = require 'bit'
local band, bor = bit.band, bit.bor

local networks = {MIN = 12, MAX = 32, CHUNK = 8192}
local STAGE = 40       -- compare-exchanges a loop (more: too many live values for LuaJIT's spill slots)

-- Batcher's odd-even merge sort for 2^k >= n inputs, without the
-- comparators reaching past n (inputs past n taken as +inf: no-ops there)
local function comparators(n)
   local p, list = 1, {}
   while p < n do p = p * 2 end
   local t = 1
   while t < p do
      local k = t
      while k >= 1 do
         for j = k % t, p - 1 - k, 2 * k do
            for i = 0, math.min(k - 1, p - j - k - 1) do
               local a, b = i + j, i + j + k
               if b < n and math.floor(a / (2 * t)) == math.floor(b / (2 * t)) then list[#list + 1] = {a, b} end
            end
         end
         k = math.floor(k / 2)
      end
      t = t * 2
   end
   return list
end

-- the network as loops over the lines, STAGE comparators each, one after
-- the other in one function(v, len) (no loop calling them: LuaJIT would
-- try to compile it with theirs inside, fail, and leave theirs to the
-- interpreter) for the lines of n at v[0 .. len-1], ascending (descending:
-- max first)
local function stages(n, desc)
   local list = comparators(n)
   local lo, hi = desc and 'max' or 'min', desc and 'min' or 'max'
   local text = {'local min, max = math.min, math.max\nreturn function(v, len)'}
   for first = 1, #list, STAGE do
      local seen, order, body = {}, {}, {}
      for c = first, math.min(#list, first + STAGE - 1) do
         local a, b = list[c][1], list[c][2]
         for _, e in ipairs{a, b} do
            if not seen[e] then seen[e], order[#order + 1] = true, e end
         end
         body[#body + 1] = ('a%d, a%d = %s(a%d, a%d), %s(a%d, a%d)'):format(a, b, lo, a, b, hi, a, b)
      end
      text[#text + 1] = ('for o = 0, len - 1, %d do'):format(n)
      for _, e in ipairs(order) do text[#text + 1] = ('local a%d = v[o + %d]'):format(e, e) end
      for _, line in ipairs(body) do text[#text + 1] = line end
      for _, e in ipairs(order) do text[#text + 1] = ('v[o + %d] = a%d'):format(e, e) end
      text[#text + 1] = 'end'
   end
   text[#text + 1] = 'end'
   return assert(loadstring(table.concat(text, '\n'), '=(th network)'))()
end

-- finish(n, desc): function(w, orig, vals, ix, len) -> 0 when every line's
-- values are in strict order (and finite): each key's place (its low 6
-- bits, w its low 32-bit word) gives vals its value as it was and ix its
-- place; each value adds 1 - (1 when in order after the one before) and
-- v - v (NaN unless finite), a line's terms summed as a tree (not one chain
-- of additions)
local function finish(n, desc)
   local text = {'local bit = ...', 'local band, min, max, S = bit.band, math.min, math.max, 2 ^ 600',
                 'return function(w, orig, vals, ix, len)', 'local bad = 0',
                 ('for o = 0, len - 1, %d do'):format(n), 'local o2 = o + o'}
   local terms = {}
   for p = 0, n - 1 do
      text[#text + 1] = ('local s%d = band(band(w[o2 + %d], 63) - o, 63)'):format(p, 2 * p)
      text[#text + 1] = ('local v%d = orig[o + s%d]'):format(p, p)
      text[#text + 1] = ('vals[o + %d], ix[o + %d] = v%d, s%d'):format(p, p, p, p)
      if p == 0 then
         text[#text + 1] = 'local t0 = v0 - v0'
      else
         local a, b = 'v' .. p, 'v' .. (p - 1)
         if desc then a, b = b, a end
         text[#text + 1] = ('local t%d = (1 - min(1, max(0, (%s - %s) * S * S))) + (v%d - v%d)'):format(p, a, b, p, p)
      end
      terms[#terms + 1] = 't' .. p
   end
   while #terms > 1 do
      local pairs_ = {}
      for i = 1, #terms, 2 do pairs_[#pairs_ + 1] = terms[i + 1] and '(' .. terms[i] .. ' + ' .. terms[i + 1] .. ')' or terms[i] end
      terms = pairs_
   end
   text[#text + 1] = 'bad = bad + ' .. terms[1]
   text[#text + 1] = 'end\nreturn bad\nend'
   return assert(loadstring(table.concat(text, '\n'), '=(th network finish)'))(bit)
end

-- the scratch arrays: keys (w: their words), the values as they were
-- (and 64 more: a key's place is read within 63 of its line's first)
local size = networks.CHUNK
local keys = ffi.new('double[?]', size)
local w = ffi.cast('int32_t *', keys)
local orig = ffi.new('double[?]', size + 64)

-- the places (0 .. 63) in the low 6 bits of each key: a loop of its own, on
-- the keys' words alone (LuaJIT takes pointers of two types for two places)
local function mark(len)
   for i = 0, len - 1 do w[i + i] = bor(band(w[i + i], -64), band(i, 63)) end
end

local made = {[false] = {}, [true] = {}}
local function network(n, desc)
   local net = made[desc][n]
   if not net then
      net = {stages = stages(n, desc), finish = finish(n, desc)}
      made[desc][n] = net
   end
   return net
end

-- networks.sort(sp, base, len, n, desc, vals, ix) -> true when the lines of
-- n (MIN .. MAX) elements at sp[base .. base+len-1] (len up to CHUNK) were
-- each distinct and finite: vals (doubles) and ix (0-based places) hold
-- each line sorted, ascending or descending; false (vals and ix spoilt) when not
function networks.sort(sp, base, len, n, desc, vals, ix)
   for i = 0, len - 1 do
      local x = tonumber(sp[base + i])
      keys[i], orig[i] = x, x
   end
   mark(len)
   local net = network(n, desc)
   net.stages(keys, len)
   return net.finish(w, orig, vals, ix, len) == 0
end

return networks
