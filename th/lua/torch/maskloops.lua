-- LuaJIT loops of the mask operations (the mask's check, maskedFill,
-- maskedSelect, maskedCopy) for operands that are each one line of memory
-- (contiguous, or one stride once dimensions of size 1 are left out) at
-- every size, and of any strides up to 2048 elements, and of nonzero for
-- vectors and matrices of any strides, of every type and size:
-- no Lua->Python crossing (which costs more than these loops up to 10^4
-- elements; beyond, numpy's boolean indexing makes index arrays first).
--
-- Elements are moved as the bits of their type (a Long is no Lua number,
-- and a double loaded into a Lua number may have its NaN made the canonical
-- one): as one integer unit of their size when every operand has stride 1,
-- through int32 units (two per element of 8 bytes) otherwise.  No branch on
-- the mask (a mask of random zeros and ones mispredicts half of them): where
-- an element goes is computed with bit operations.  One loop is generated
-- per operation, element type and contiguity (monomorphic traces; no
-- closure or vararg in a call).
local ffi = require 'ffi'
local bit = require 'bit'
local internal = require 'torch.internal'
local types = require 'torch.types'
local kernels = require 'torch.maths.kernels'

local checkbounds, origin, recast = internal.checkbounds, kernels.origin, kernels.recast
local nelement = internal.nelement
local cast, bor = ffi.cast, bit.bor
local int32p = ffi.typeof('int32_t *')

local loops = {}

-- the unit each type is read and written through, and the units per element
local units = {
   Byte = {'uint8_t', 1}, Char = {'int8_t', 1}, Short = {'int16_t', 1}, Int = {'int32_t', 1},
   Float = {'int32_t', 1}, Double = {'int32_t', 2}, Long = {'int32_t', 2},
}
local unitptr = {}
for name, u in pairs(units) do unitptr[name] = ffi.typeof(u[1] .. '*') end

-- line(d) -> a pointer to d's first element and the stride between its
-- elements in row-major order, when d is one line of memory; nil otherwise
local function line(d)
   local nd = d.nd
   if nd == 0 or not units[d.T.name] then return nil end
   local sz, str = d.sz, d.str
   local stride, span = 1, nil
   for i = nd, 1, -1 do
      local n = sz[i]
      if n ~= 1 then
         if span and str[i] ~= span then return nil end
         if not span then stride = str[i] end
         span = str[i] * n
      end
   end
   checkbounds(d)
   return origin(d), stride
end

-- generate(key, text, bodies, T, strided) -> the loop of text for elements
-- of T: $Sname multiplies by the stride `name` (nothing when contiguous), $C
-- is true when contiguous, $DOUBLE{a, b} doubles the places a and b when an
-- element is two units (by an addition: an integer multiplication is made a
-- double's in the trace), and $NAME is the code bodies.NAME repeated for
-- each unit of an element (@ made the unit's offset, # its number)
-- (counts are kept as band(k + x, INT), and read as tobit(k), as any
-- number from before the loop: integers in the trace, where the first
-- iteration recorded would make them doubles, whose additions chain at 4
-- cycles each and convert to integers to index)
local cache = {}
local prelude = 'local bit, ffi = ...\nlocal cast, int32p = ffi.cast, ffi.typeof("int32_t *")\nlocal band, bor, bxor, bnot, rshift, lshift, tobit = bit.band, bit.bor, bit.bxor, bit.bnot, bit.rshift, bit.lshift, bit.tobit\n'
   .. 'local INT = 0x7fffffff\n'
local function build(key, text, bodies, T, strided)
   local width = units[T.name][2]
   local src = text:gsub('%$DOUBLE{([%w, ]+)}', function(names)
      if width == 1 then return '' end
      local twice = {}
      for v in names:gmatch('%w+') do twice[#twice + 1] = v .. ' + ' .. v end
      return names .. ' = ' .. table.concat(twice, ', ')
   end)
   src = src:gsub('%$(%u+)', function(name)
      if name == 'C' then return strided and 'false' or 'true' end
      if name == 'S' then return nil end
      local parts = {}
      for u = 0, width - 1 do parts[#parts + 1] = bodies[name]:gsub('@', '+' .. u):gsub('#', u) end
      return table.concat(parts, '\n')
   end)
   src = src:gsub('%$S(%w+)', strided and '*%1' or '')
   return assert(loadstring(prelude .. src, '=(th mask loop ' .. key .. ')'))(bit, ffi)
end

-- (the loops made once, found by key and type: a call makes no closure,
-- which would stop the trace around it)
local function generate(key, text, bodies, T, strided)
   local byT = cache[key]
   if not byT then
      byT = {}
      cache[key] = byT
   end
   local slot = strided and T.name .. '/s' or T.name
   local f = byT[slot]
   if not f then
      f = build(key, text, bodies, T, strided)
      byT[slot] = f
   end
   return f
end

---------------------------------------------------------------------------
-- the mask's check
---------------------------------------------------------------------------

-- the count of the mask's ones and the OR of all its bytes (above 1: a
-- value neither 0 nor 1); a contiguous mask is read 16 bytes at a time, as
-- four int32 words (integer operations in the trace): with every byte 0 or
-- 1, the words' sum w has bytes of at most 4, and the low byte of s + (s >>
-- 8), with s = w + (w >> 16), is the sum of w's bytes (another mask's count
-- is wrong, and not used: its OR is above 1).  One operation a step on each
-- running value's chain of dependencies.
local countbody = [[return function(mp, n, ms, wp)
   local ones, top, i = 0, 0, 0
   if $C then
      for j = 0, 4 * rshift(n, 4) - 1, 4 do
         local a, b, c, d = wp[j], wp[j + 1], wp[j + 2], wp[j + 3]
         top = bor(top, bor(a, b, c, d))
         local w = tobit(a + b + c + d)
         local s = w + rshift(w, 16)
         ones = band(ones + band(s + rshift(s, 8), 255), INT)
      end
      top = bor(band(top, 255), band(rshift(top, 8), 255), band(rshift(top, 16), 255), rshift(top, 24))
      i = n - band(n, 15)
   end
   for j = i, n - 1 do
      local x = mp[j$Sms]
      ones = band(ones + x, INT)
      top = bor(top, x)
   end
   return ones, top
end]]

local nobodies = {}

-- maskcount(m, n) -> number of ones, the OR of the mask; nil when m is no
-- line and has more than WALK elements
local walkcount     -- (below: a mask of any strides)
function loops.maskcount(m, n)
   local mp, ms = line(m)
   if not mp then return walkcount(m, n) end
   return generate('count', countbody, nobodies, types.Byte, ms ~= 1)(mp, n, ms, recast(int32p, mp))
end

-- the OR of a contiguous mask's bytes alone (maskedFill needs no count): 32
-- bytes a step, as eight int32 words
local orbytes = assert(loadstring(prelude .. [[return function(wp, mp, n)
   local top = 0
   for j = 0, 8 * rshift(n, 5) - 1, 8 do
      top = bor(top, bor(wp[j], wp[j + 1], wp[j + 2], wp[j + 3]), bor(wp[j + 4], wp[j + 5], wp[j + 6], wp[j + 7]))
   end
   top = bor(band(top, 255), band(rshift(top, 8), 255), band(rshift(top, 16), 255), rshift(top, 24))
   for j = n - band(n, 31), n - 1 do top = bor(top, mp[j]) end
   return top
end]], '=(th mask loop or)'))(bit, ffi)

-- maskor(m, n) -> the OR of the mask's bytes; nil when m is not contiguous
function loops.maskor(m, n)
   local mp, ms = line(m)
   if not mp or ms ~= 1 then return nil end
   return orbytes(recast(int32p, mp), mp, n)
end

---------------------------------------------------------------------------
-- maskedFill, maskedSelect, maskedCopy: operands of stride 1
---------------------------------------------------------------------------
-- Each element is one unit of its own size (a Double or Long an int64_t:
-- half the loads and stores of two int32 halves), and no branch on the mask:
-- maskedFill and maskedCopy write where the mask is 1 and, where it is 0, at
-- the place 0 (the place band(i, -mask)), whose element is kept in a cell
-- and put back at the end (or given its new value when its mask is 1);
-- maskedSelect writes every element at the result's next place k, which
-- moves on by the mask.  maskedSelect and maskedCopy stop at the last 1
-- (`last`, found from the end: past it k would be past the result's, or the
-- source's, last element).  Four elements a step, their mask values and
-- places first: the trace's guards (the overflow checks of those integer
-- operations) then come before any 64-bit value is loaded, which would
-- otherwise be boxed at every guard (allocation sinking is off); for the
-- same reason no 64-bit value is held from one step to the next (the value
-- is read from a cell), and the element at the place 0 is kept by ffi.copy
-- (SIZE: the unit's bytes).

local wideunits = {Byte = 'uint8_t', Char = 'int8_t', Short = 'int16_t', Int = 'int32_t',
                   Float = 'int32_t', Double = 'int64_t', Long = 'int64_t'}
local wideptr = {}
for name, u in pairs(wideunits) do wideptr[name] = ffi.typeof(u .. '*') end

-- the value cp[0] written where the mask is 1
local widefill = [[return function(rp, mp, n, cp, keep)
   local first, q = mp[0], n - n % 4
   copy(keep, rp, SIZE)
   for i = 0, q - 1, 4 do
      local o0, o1 = band(i, 0 - mp[i]), band(i + 1, 0 - mp[i + 1])
      local o2, o3 = band(i + 2, 0 - mp[i + 2]), band(i + 3, 0 - mp[i + 3])
      local c = cp[0]
      rp[o0] = c; rp[o1] = c; rp[o2] = c; rp[o3] = c
   end
   for i = q, n - 1 do
      rp[band(i, 0 - mp[i])] = cp[0]
   end
   if first == 0 then copy(rp, keep, SIZE) end
end]]

-- every element up to the last 1 written at k (k the count of ones before it)
local wideselect = [[return function(rp, sp, mp, last)
   local k, q = 0, (last + 1) - (last + 1) % 4
   for i = 0, q - 1, 4 do
      k = tobit(k)
      local k1 = k + mp[i]
      local k2 = k1 + mp[i + 1]
      local k3 = k2 + mp[i + 2]
      local k4 = band(k3 + mp[i + 3], INT)
      rp[k] = sp[i]
      rp[k1] = sp[i + 1]
      rp[k2] = sp[i + 2]
      rp[k3] = sp[i + 3]
      k = k4
   end
   for i = q, last do
      k = tobit(k)
      local k1 = band(k + mp[i], INT)
      rp[k] = sp[i]
      k = k1
   end
end]]

-- every element up to the last 1 where the mask is 1 takes the source's
-- element k (k the count of ones before it)
local widecopy = [[return function(rp, sp, mp, last, keep)
   local first, k, q = mp[0], 0, (last + 1) - (last + 1) % 4
   copy(keep, rp, SIZE)
   for i = 0, q - 1, 4 do
      k = tobit(k)
      local m0, m1, m2, m3 = mp[i], mp[i + 1], mp[i + 2], mp[i + 3]
      local k1 = k + m0
      local k2 = k1 + m1
      local k3 = k2 + m2
      local k4 = band(k3 + m3, INT)
      local o0, o1, o2, o3 = band(i, 0 - m0), band(i + 1, 0 - m1), band(i + 2, 0 - m2), band(i + 3, 0 - m3)
      rp[o0] = sp[k]; rp[o1] = sp[k1]; rp[o2] = sp[k2]; rp[o3] = sp[k3]
      k = k4
   end
   for i = q, last do
      k = tobit(k)
      local m = mp[i]
      local k1, o = band(k + m, INT), band(i, 0 - m)
      rp[o] = sp[k]
      k = k1
   end
   if first == 0 then copy(rp, keep, SIZE) else copy(rp, sp, SIZE) end
end]]

local widetexts = {fill = widefill, select = wideselect, copy = widecopy}
local widecache = {fill = {}, select = {}, copy = {}}

-- wide(kind, T) -> the loop of that kind for elements of T
local function wide(kind, T)
   local f = widecache[kind][T]
   if not f then
      local text = widetexts[kind]:gsub('SIZE', ffi.sizeof(wideunits[T.name]))
      f = assert(loadstring(prelude .. 'local copy = ffi.copy\n' .. text, '=(th mask loop ' .. kind .. ')'))(bit, ffi)
      widecache[kind][T] = f
   end
   return f
end

-- the place of the last 1 of a mask of n values (at least one 1)
local function lastone(mp, n)
   local i = n - 1
   while mp[i] == 0 do i = i - 1 end
   return i
end

-- the bits of a value stored as each type, read as its unit; the cell
-- keeping the element at the place 0
local widecells, keeps = {}, {}
for name in pairs(wideunits) do
   local cell = types[name].vla(1)
   widecells[name] = {cell, cast(wideptr[name], cell)}
   keeps[name] = ffi.new(wideunits[name] .. '[1]')
end

---------------------------------------------------------------------------
-- maskedFill, maskedSelect, maskedCopy: strided operands
---------------------------------------------------------------------------
-- No branch on the mask: `last`, the place of the last 1 seen, is chosen
-- from i and itself by bit operations (m1 = mask - 1: 0 or -1; no negation
-- of a number that may be 0, which LuaJIT guards against making -0 of an
-- integer).  maskedFill and maskedCopy write at `last` at every step (where
-- the mask is 0, what they wrote there before); up to the first 1, `last`
-- is the place 0, whose element is put back afterwards unless its mask is 1.
-- Every place is an offset, moved on by its stride (an addition, no
-- multiplication per element).

-- the value's units c0 (c1) written at the place of the 1 seen last
local fillstrided = [[return function(rp, mp, n, rs, ms, c0, c1)
   local first, last, im, io = mp[0], 0, 0, 0
   $SAVE
   for _ = 1, n do
      im, io = tobit(im), tobit(io)
      local m1 = mp[im] - 1
      last = bor(band(io, bnot(m1)), band(last, m1))
      local o = last
      $DOUBLE{o}
      $BODY
      im, io = im + tobit(ms), io + tobit(rs)
   end
   if first == 0 then
      $RESTORE
   end
end]]
local save, restore = 'local s# = rp[0@]', 'rp[0@] = s#'

-- the bits of a value stored as each type
local cells = {}
for name in pairs(units) do
   local cell = types[name].vla(8)   -- (8 bytes at least: read as units)
   cells[name] = {cell, cast(unitptr[name], cell)}
end

-- fill(d, m, n, c) -> true when done: d's n elements where m (with a 1) is 1
-- set to c (a value already converted to d's type)
function loops.fill(d, m, n, c)
   local rp, rs = line(d)
   local mp, ms = line(m)
   if not rp or not mp or rs == 0 then return false end   -- (0: see copy)
   if rs == 1 and ms == 1 then
      local cell = widecells[d.T.name]
      cell[1][0] = c
      wide('fill', d.T)(recast(wideptr[d.T.name], rp), mp, n, cell[2], keeps[d.T.name])
      return true
   end
   local cell = cells[d.T.name]
   cell[1][0] = c
   local f = generate('fill', fillstrided, {BODY = 'rp[o@] = c#', SAVE = save, RESTORE = restore}, d.T, true)
   f(recast(unitptr[d.T.name], rp), mp, n, rs, ms, cell[2][0], cell[2][1])
   return true
end

-- maskedSelect and maskedCopy of operands of any strides (a transposed
-- matrix, a matrix's columns, permuted dimensions) up to WALK elements.
-- An operand that is not one line is a grid once its dimensions are merged
-- (rows of n elements at a stride, a jump more from a row's end to the
-- next row: a transposed matrix, a matrix's columns), whose place moves on
-- with no branch at a row's end (a branch would leave the loop's trace at
-- every row), or its elements' offsets in row-major order are listed first
-- (more dimensions); then loops as the strided ones below (no branch on
-- the mask either).  Beyond WALK, numpy's (measured on a transposed
-- Double matrix: the same time at 1600 elements, 2.2 ns an element here,
-- numpy's 1.7x faster at 8100; a 10x10's maskedSelect into a given result
-- 5.0 -> 0.4 us, the original's time).
local WALK = 2048
local walks = {}        -- the lists, WALK + 1 offsets each (see <ATK>)
for i = 1, 3 do walks[i] = ffi.new('int32_t[?]', WALK + 1) end

-- list(d, offs) -> offs: d's elements' offsets from its first one, in
-- row-major order (the last dimension's run a loop, the others an odometer)
local at = {}
local function list(d, offs)
   local nd, sz, str = d.nd, d.sz, d.str
   local run, step, k, base = sz[nd], str[nd], 0, 0
   for i = 1, nd - 1 do at[i] = 0 end
   while true do
      local o = base
      for j = k, k + run - 1 do
         offs[j] = o
         o = o + step
      end
      k = k + run
      local i = nd - 1
      while i >= 1 do
         at[i], base = at[i] + 1, base + str[i]
         if at[i] < sz[i] then break end
         at[i], base = 0, base - sz[i] * str[i]
         i = i - 1
      end
      if i < 1 then return offs end
   end
end

-- walkcount(m, n) -> as maskcount, for a mask of any strides up to WALK
-- elements (nil beyond: numpy's count)
function walkcount(m, n)
   if m.nd == 0 or n > WALK then return nil end
   checkbounds(m)
   local mp, offs, ones, top = origin(m), list(m, walks[1]), 0, 0
   for i = 0, n - 1 do
      local x = mp[offs[i]]
      ones, top = ones + x, bor(top, x)
   end
   return ones, top
end

-- shape(d, w) -> how d's elements are walked: 'line', its stride; 'grid',
-- the stride in a row, the row's count, the jump at its end; 'list', 0, 0,
-- 0, the offsets listed in walks[w]
local msz, mst = {}, {}
local function shape(d, w)
   local p, stride = line(d)
   if p then return 'line', stride, 0, 0, nil end
   checkbounds(d)
   local k, sz, str = 0, d.sz, d.str
   for i = 1, d.nd do
      if sz[i] ~= 1 then
         if k > 0 and mst[k] == str[i] * sz[i] then
            msz[k], mst[k] = msz[k] * sz[i], str[i]
         else
            k = k + 1
            msz[k], mst[k] = sz[i], str[i]
         end
      end
   end
   if k == 2 then return 'grid', mst[2], msz[2], mst[1] - msz[2] * mst[2], nil end
   return 'list', 0, 0, 0, list(d, walks[w])
end

-- an operand x's code in the loops: <DECL> before the loop, <READ> at the
-- start of a step, <AT> its element i's offset, <STEP> its move to the next
-- element; <ATK>, <STEPK>: the same for the element k, moving on at a 1
-- (x_s: its stride, x_n, x_j: a grid's row count and jump, x_l: a list)
local pieces = {
   line = {DECL = 'local x_o = 0', READ = 'x_o = tobit(x_o)', AT = 'x_o', ATK = 'x_o',
           STEP = 'x_o = x_o + tobit(x_s)', STEPK = 'x_o = x_o + band(tobit(x_s), 0 - m)'},
   grid = {DECL = 'local x_o, x_c = 0, 1', READ = 'x_o, x_c = tobit(x_o), tobit(x_c)', AT = 'x_o', ATK = 'x_o',
           STEP = 'local x_w = rshift(tobit(x_n) - x_c - 1, 31)\n'
              .. 'x_c = x_c + 1 - band(tobit(x_n), 0 - x_w)\n'
              .. 'x_o = x_o + tobit(x_s) + band(tobit(x_j), 0 - x_w)',
           STEPK = 'local x_w = band(rshift(tobit(x_n) - x_c - 1, 31), m)\n'
               .. 'x_c = x_c + m - band(tobit(x_n), 0 - x_w)\n'
               .. 'x_o = x_o + band(tobit(x_s), 0 - m) + band(tobit(x_j), 0 - x_w)'},
   list = {DECL = '', READ = '', AT = 'x_l[i]', ATK = 'x_l[k]', STEP = '', STEPK = ''},
}

-- a selection's step for element p of the source (the mask's m 0 or 1): it
-- goes to the result's place k, or while k is past the end to the last place
-- (top), which moves on by m; the last 1's element is written there again at
-- the end.  PICK(p) in the selection templates below
local function picking(text)
   return (text:gsub('PICK%((%w+)%)', function(p)
      return (([[local o, p = ko - band(tobit(rs), 0 - rshift(tobit(top) - k, 31)), SRC
      $DOUBLE{o, p}
      $BODY
      local m1 = m - 1
      last = bor(band(SRC, bnot(m1)), band(last, m1))
      k = band(k + m, INT)
      ko = ko + band(tobit(rs), bnot(m1))]]):gsub('SRC', p))
   end))
end

-- every element written to the result's next place (as selectstrided below)
local selectwalk = picking([=[return function(rp, sp, mp, n, ones, rs, s_s, s_n, s_j, s_l, m_s, m_n, m_j, m_l)
   local k, last, top, ko = 0, 0, band(ones - 1, INT), 0
   <DECL s> <DECL m>
   for i = 0, n - 1 do
      k, ko = tobit(k), tobit(ko)
      <READ s> <READ m>
      local m, q = mp[<AT m>], <AT s>
      PICK(q)
      <STEP s>
      <STEP m>
   end
   local o, p = top * rs, last
   $DOUBLE{o, p}
   $BODY
end]=])

-- the place of the k-th 1 takes the source's element k (as copystrided
-- below; <ATK s> is read one past the source's last element, where the
-- mask is 0: not used)
local copywalk = [=[return function(rp, sp, mp, n, d_s, d_n, d_j, d_l, s_s, s_n, s_j, s_l, m_s, m_n, m_j, m_l)
   local first, last, ps, k = mp[0], 0, 0, 0
   <DECL d> <DECL s> <DECL m>
   $SAVE
   for i = 0, n - 1 do
      k = tobit(k)
      <READ d> <READ s> <READ m>
      local m = mp[<AT m>]
      local m1 = m - 1
      last = bor(band(<AT d>, bnot(m1)), band(last, m1))
      ps = bor(band(<ATK s>, bnot(m1)), band(ps, m1))
      local o, p = last, ps
      $DOUBLE{o, p}
      $BODY
      k = band(k + m, INT)
      <STEP d>
      <STEP m>
      <STEPK s>
   end
   if first == 0 then
      $RESTORE
   end
end]=]

-- the loop of a text for the operands' shapes (x = the shape of operand x)
-- and T, made once (no string made per call: string.gsub is not compiled)
local function expand(text, shapes)
   return (text:gsub('<(%u+) (%l)>', function(piece, x)
      return (pieces[shapes[x]][piece]:gsub('x_', x .. '_'))
   end))
end
local walkloops = {}
local function walkloop(text, T, body, shapes)
   local byT = walkloops[text] or {}
   walkloops[text] = byT
   local byshape = byT[T] or {}
   byT[T] = byshape
   local key = shapes.d .. shapes.s .. shapes.m
   local f = byshape[key]
   if not f then
      f = build('walk', expand(text, shapes), body, T, true)
      byshape[key] = f
   end
   return f
end

-- walkable(d) -> true when the tensor's elements can be walked
local function walkable(d)
   return d.nd > 0 and units[d.T.name] ~= nil and nelement(d) <= WALK
end

local selectbody = {BODY = 'rp[o@] = sp[p@]'}
local copybody = {BODY = 'rp[o@] = sp[p@]', SAVE = save, RESTORE = restore}
local shapes = {d = 'line'}

-- walkselect(r, s, m, n, ones) -> true when done, as select (r one line)
local function walkselect(r, s, m, n, ones)
   local rp, rs = line(r)
   if not rp or r.T ~= s.T or not (walkable(s) and walkable(m)) then return false end
   local sk, s_s, s_n, s_j, s_l = shape(s, 1)
   local mk, m_s, m_n, m_j, m_l = shape(m, 2)
   shapes.d, shapes.s, shapes.m = 'line', sk, mk
   local f = walkloop(selectwalk, s.T, selectbody, shapes)
   local ptr = unitptr[s.T.name]
   f(recast(ptr, rp), recast(ptr, origin(s)), origin(m), n, ones, rs, s_s, s_n, s_j, s_l, m_s, m_n, m_j, m_l)
   return true
end

-- walkcopy(d, m, s, n) -> true when done, as copy
local function walkcopy(d, m, s, n)
   if d.T ~= s.T or not (walkable(d) and walkable(m) and walkable(s)) then return false end
   for i = 1, d.nd do      -- (an expanded destination: see copy)
      if d.str[i] == 0 and d.sz[i] > 1 then return false end
   end
   local dk, d_s, d_n, d_j, d_l = shape(d, 1)
   local sk, s_s, s_n, s_j, s_l = shape(s, 2)
   local mk, m_s, m_n, m_j, m_l = shape(m, 3)
   shapes.d, shapes.s, shapes.m = dk, sk, mk
   local f = walkloop(copywalk, d.T, copybody, shapes)
   local ptr = unitptr[d.T.name]
   f(recast(ptr, origin(d)), recast(ptr, origin(s)), origin(m), n,
     d_s, d_n, d_j, d_l, s_s, s_n, s_j, s_l, m_s, m_n, m_j, m_l)
   return true
end

-- every element is written to the result's next place (offset ko): PICK above
local selectstrided = picking([[return function(rp, sp, mp, n, ones, rs, ss, ms)
   local k, last, top, ko, im, ip = 0, 0, band(ones - 1, INT), 0, 0, 0
   for _ = 1, n do
      k, ko, im, ip = tobit(k), tobit(ko), tobit(im), tobit(ip)
      local m = mp[im]
      PICK(ip)
      im, ip = im + tobit(ms), ip + tobit(ss)
   end
   local o, p = top * rs, last
   $DOUBLE{o, p}
   $BODY
end]])

-- select(r, s, m, n, ones) -> true when done: r (ones elements, at least
-- one) = the elements of s (n) where m is 1, in order
function loops.select(r, s, m, n, ones)
   local rp, rs = line(r)
   local sp, ss = line(s)
   local mp, ms = line(m)
   if not rp or not sp or not mp or r.T ~= s.T then return walkselect(r, s, m, n, ones) end
   if rs == 1 and ss == 1 and ms == 1 then
      local ptr = wideptr[s.T.name]
      wide('select', s.T)(recast(ptr, rp), recast(ptr, sp), mp, lastone(mp, n))
      return true
   end
   local f = generate('select', selectstrided, {BODY = 'rp[o@] = sp[p@]'}, s.T, true)
   local ptr = unitptr[s.T.name]
   f(recast(ptr, rp), recast(ptr, sp), mp, n, ones, rs, ss, ms)
   return true
end

-- the place of the k-th 1 takes the source's element k (ps: its offset,
-- that of the 1 seen last; read at 0 before the first 1)
local copystrided = [[return function(rp, sp, mp, n, rs, ss, ms)
   local first, last, im, io, ps, ks = mp[0], 0, 0, 0, 0, 0
   $SAVE
   for _ = 1, n do
      im, io, ks = tobit(im), tobit(io), tobit(ks)
      local m = mp[im]
      local m1 = m - 1
      last = bor(band(io, bnot(m1)), band(last, m1))
      ps = bor(band(ks, bnot(m1)), band(ps, m1))
      local o, p = last, ps
      $DOUBLE{o, p}
      $BODY
      ks = ks + band(tobit(ss), bnot(m1))
      im, io = im + tobit(ms), io + tobit(rs)
   end
   if first == 0 then
      $RESTORE
   end
end]]

-- copy(d, m, s, n) -> true when done: the elements of d (n) where m (with a
-- 1) is 1 take the elements of s (enough of them) in order
function loops.copy(d, m, s, n)
   local rp, rs = line(d)
   local sp, ss = line(s)
   local mp, ms = line(m)
   -- (an expanded destination, of stride 0, would have its one element put back)
   if not rp or not sp or not mp or d.T ~= s.T then return walkcopy(d, m, s, n) end
   if rs == 0 then return false end
   if rs == 1 and ss == 1 and ms == 1 then
      local ptr = wideptr[d.T.name]
      wide('copy', d.T)(recast(ptr, rp), recast(ptr, sp), mp, lastone(mp, n), keeps[d.T.name])
      return true
   end
   local f = generate('copy', copystrided, {BODY = 'rp[o@] = sp[p@]', SAVE = save, RESTORE = restore}, d.T, true)
   local ptr = unitptr[d.T.name]
   f(recast(ptr, rp), recast(ptr, sp), mp, n, rs, ss, ms)
   return true
end

---------------------------------------------------------------------------
-- nonzero
---------------------------------------------------------------------------

-- whether the element at p is not 0, as 0 or 1, from its units' bits
-- (nz(y) = 1 when the int32 y is not 0; a float's sign bit left out: -0 is
-- 0, NaN is not; LuaJIT guards against making -0, hence 0 - y, not -y)
local nonzeroof = {
   Byte = 'rshift(xp[p] + 255, 8)',
   Char = 'nz(xp[p])', Short = 'nz(xp[p])', Int = 'nz(xp[p])',
   Float = 'nz(lshift(xp[p], 1))',
   Double = 'nz(bor(xp[p + p], lshift(xp[p + p + 1], 1)))',
   Long = 'nz(bor(xp[p + p], xp[p + p + 1]))',
}

-- count(xp, rows, cols, rs, cs) -> the elements that are not 0 of a matrix
local countnz = [[return function(xp, rows, cols, rs, cs)
   local k = 0
   for r = 0, rows - 1 do
      local p = tobit(r * rs)
      for _ = 1, cols do
         k = band(tobit(k) + NZ, INT)
         p = tobit(p) + tobit(cs)
      end
   end
   return k
end]]

-- one element's step of the two loops below: its subscripts written at row
-- o, k and the last nonzero one's subscripts moved on without a branch
local STEP = [[
      local o = k - rshift(tobit(top) - k, 31)
      ONCE
      SUBSCRIPTS
      local b = NZ
      local b1 = b - 1
      lastr = bor(band(r, bnot(b1)), band(lastr, b1))
      lastc = bor(band(c, bnot(b1)), band(lastc, b1))
      k = band(k + b, INT)]]

-- every element writes its subscripts (1-based) at the result's row k (the
-- last row while k is past the end), k moving on by 1 where it is not 0; the
-- last one's subscripts are written there again at the end
local writenz = [[return function(rp, xp, rows, cols, rs, cs, count)
   local k, top, lastr, lastc = 0, count - 1, 0, 0
   for r = 0, rows - 1 do
      local p = tobit(r * rs)
      for c = 1, cols do
         k = tobit(k)
         STEP
         p = tobit(p) + tobit(cs)
      end
   end
   local o, r, c = top, lastr, lastc
   ONCE
   SUBSCRIPTS
end]]

-- the same over a matrix whose rows follow each other at the one stride:
-- one loop, the column c moving on to 1 of the next row r past cols
local writeflat = [[return function(rp, xp, rows, cols, rs, cs, count)
   local k, top, lastr, lastc, r, c, p = 0, count - 1, 0, 0, 0, 1, 0
   for _ = 1, rows * cols do
      k, r, c = tobit(k), tobit(r), tobit(c)
      STEP
      local wrap = rshift(tobit(cols) - c - 1, 31)
      c = c + 1 - band(tobit(cols), 0 - wrap)
      r = r + wrap
      p = tobit(p) + tobit(cs)
   end
   local o, r, c = top, lastr, lastc
   ONCE
   SUBSCRIPTS
end]]
local subscripts = {'rp[o] = c', 'rp[o] = r + 1; rp[o + 1] = c'}
local templates = {count = countnz, write = (writenz:gsub('STEP', STEP)), flat = (writeflat:gsub('STEP', STEP))}

local nzcache = {}
local function nzloop(kind, T, nd)
   local key = kind .. T.name .. nd
   local f = nzcache[key]
   if not f then
      local text = templates[kind]:gsub('NZ', nonzeroof[T.name])
                   :gsub('ONCE', nd == 2 and 'o = o + o' or ''):gsub('SUBSCRIPTS', subscripts[nd])
      f = assert(loadstring(prelude .. 'local function nz(y) return rshift(bor(y, 0 - y), 31) end\n' .. text,
                            '=(th nonzero loop)'))(bit, ffi)
      nzcache[key] = f
   end
   return f
end

-- the source as a matrix: rows, columns and their strides (a vector: one
-- row), and whether its rows follow each other at the one stride
local function matrix(d)
   if d.nd == 1 then return 1, d.sz[1], 0, d.str[1], true end
   local rows, cols, rs, cs = d.sz[1], d.sz[2], d.str[1], d.str[2]
   return rows, cols, rs, cs, rs == cols * cs or rows == 1
end

-- countnonzero(d) -> the count of d's elements that are not 0, or nil when
-- d is not a vector or matrix of the seven types
function loops.countnonzero(d)
   if d.nd < 1 or d.nd > 2 or not units[d.T.name] then return nil end
   checkbounds(d)
   local rows, cols, rs, cs, flat = matrix(d)
   if flat then rows, cols = 1, rows * cols end
   return nzloop('count', d.T, 1)(cast(unitptr[d.T.name], origin(d)), rows, cols, rs, cs)
end

-- nonzero(r, d, count) -> r (a contiguous count x nd LongTensor, count > 0)
-- = the subscripts of the elements of d that are not 0 (counted by
-- countnonzero), in row-major order
function loops.nonzero(r, d, count)
   checkbounds(d)
   checkbounds(r)
   local rows, cols, rs, cs, flat = matrix(d)
   nzloop(flat and d.nd == 2 and 'flat' or 'write', d.T, d.nd)(origin(r), cast(unitptr[d.T.name], origin(d)), rows, cols, rs, cs, count)
end

return loops
