-- torch.Generator: a Mersenne Twister as TH's THRandom.c kept it.  Its state is
-- a buffer laid out as TH's THGenerator struct on 64-bit Linux, so that
-- getRNGState/setRNGState and the .t7 form of a generator are the original's
-- bytes, drawn through FFI (torch.random: numbers, and tensors a block of
-- the generator's words at a time).  A new generator (the default one,
-- torch._gen, included) is seeded from the system's entropy, as Torch7's were.
local torch = require 'torch'
local ffi = require 'ffi'
local bit = require 'bit'
local types = require 'torch.types'
local class = require 'torch.class'
local internal = require 'torch.internal'

local TD, fail, istensor = internal.tensors, internal.fail, internal.istensor
local band, bor, bxor, lshift, rshift, arshift = bit.band, bit.bor, bit.bxor, bit.lshift, bit.rshift, bit.arshift
local type, tonumber, floor = type, tonumber, math.floor

local N, M = 624, 397        -- Mersenne Twister state size and shift
local TWO32 = 4294967296

-- THGenerator; each unsigned long is two 32-bit halves (little-endian, the
-- high half is 0 for the 32-bit state words)
if not pcall(ffi.typeof, 'th_generator') then
   ffi.cdef [[
      typedef struct {
         uint32_t seed, seed_hi;
         int32_t left, seeded;
         uint32_t next, next_hi;
         uint32_t state[1248];
         double normal_x, normal_y, normal_rho;
         int32_t normal_is_valid, pad;
      } th_generator;
   ]]
end
local GENSIZE = ffi.sizeof('th_generator')
local genptr = ffi.typeof('th_generator*')

local Generator = {GENSIZE = GENSIZE}

-- init_genrand with the 64-bit seed hi:lo; also forgets the cached normal
-- value (the whole struct starts blank), as TH's manualSeed does
local function manualseed(g, lo, hi)
   ffi.fill(g, GENSIZE)
   g.left = 1
   g.seed, g.seed_hi = lo, hi
   local s = g.state
   s[0] = lo
   for j = 1, N - 1 do
      local prev = s[2 * (j - 1)]
      local x = bxor(prev, rshift(prev, 30)) % TWO32
      -- 1812433253 * x + j modulo 2^32, split to stay exact in doubles
      local xlo, xhi = x % 65536, floor(x / 65536)
      s[2 * j] = ((1812433253 * xlo) % TWO32 + ((1812433253 * xhi) % 65536) * 65536 + j) % TWO32
   end
   g.seeded = 1
end

-- a Lua number as a C long (luaL_checklong: cut toward zero, INT64_MIN beyond
-- the range), split into the two 32-bit halves of its two's complement
local function halves(v)
   v = v >= 0 and floor(v) or -floor(-v)
   if not (v >= -2^63 and v < 2^63) then return 0, 2^31 end
   if v >= 0 then return v % TWO32, floor(v / TWO32) end
   local u = -v
   local ulo, uhi = u % TWO32, floor(u / TWO32)
   return (TWO32 - ulo) % TWO32, (TWO32 - uhi - (ulo ~= 0 and 1 or 0)) % TWO32
end

-- the seed hi:lo as the signed C long Torch7 returned (a Lua number)
local function seedvalue(lo, hi)
   if hi >= 2^31 then return (hi - TWO32) * TWO32 + lo end
   return hi * TWO32 + lo
end

-- 64 bits from the system's entropy (the clock when there is none)
local function freshseed()
   local f = io.open('/dev/urandom', 'rb')
   if f then
      local s = f:read(8)
      f:close()
      if s and #s == 8 then
         local a, b, c, d, e, f2, g, h = s:byte(1, 8)
         return ((d * 256 + c) * 256 + b) * 256 + a, ((h * 256 + g) * 256 + f2) * 256 + e
      end
   end
   return halves(os.time())
end

-- word j of the next state from words j, j + 1 (v) and the one M later (w):
-- words before j are already the new ones, as in TH's in-place loop.  The
-- words are read and written as int32 (the same bits): no conversion to an
-- unsigned number on the way
local int32p = ffi.typeof('int32_t *')
local function twist(u, v, w)
   local y = bor(band(u, 0x80000000), band(v, 0x7fffffff))
   return bxor(w, rshift(y, 1), band(arshift(lshift(v, 31), 31), 0x9908b0df))   -- (v odd: all ones)
end

-- the next 624 words; three loops, as TH's, so that no index wraps around
-- (word j + 1 read once, kept for the next step)
local function nextstate(g)
   g.left, g.next = N, 0
   local s = ffi.cast(int32p, g.state)
   local u = s[0]
   for j = 0, N - M - 1 do
      local v = s[2 * j + 2]
      s[2 * j] = twist(u, v, s[2 * (j + M)])
      u = v
   end
   for j = N - M, N - 2 do
      local v = s[2 * j + 2]
      s[2 * j] = twist(u, v, s[2 * (j + M - N)])
      u = v
   end
   s[2 * (N - 1)] = twist(u, s[0], s[2 * (M - 1)])
end

-- genrand(g) -> one tempered 32-bit output
function Generator.genrand(g)
   g.left = g.left - 1
   -- (or a state set with left and next that disagree reaching the end of
   -- its words: TH read beyond its array)
   if g.left == 0 or g.next >= N then nextstate(g) end
   local y = g.state[2 * g.next]
   g.next = g.next + 1
   y = bxor(y, rshift(y, 11))
   y = bxor(y, band(lshift(y, 7), 0x9d2c5680))
   y = bxor(y, band(lshift(y, 15), 0xefc60000))
   y = bxor(y, rshift(y, 18))
   return y + rshift(y, 31) * TWO32
end

-- Generator.filler(map) -> fill(g, rp, n, a, b, c, e): rp[i] = map(z, a, b,
-- c, e) for the next n outputs y (z = y - 2^31, y unsigned), as n calls of
-- genrand would give them, but a block of words at a time with the position
-- stored once per block, and a whole new block tempered as it is twisted (one
-- pass over the state): twice genrand's speed.  One loop per map (and per element
-- type of rp, by the caller), so that each is its own trace.  The words left
-- in the state are drawn in the function, the blocks after regenerations in
-- another (a loop holding a loop, met by a trace coming from the caller,
-- would abort it).

-- rp[O + j] = map of the output of word y
local OUTPUT = [[
      y = bxor(y, rshift(y, 11))
      y = bxor(y, band(lshift(y, 7), 0x9d2c5680))
      y = bxor(y, band(lshift(y, 15), 0xefc60000))
      y = bxor(y, rshift(y, 18))
      -- y with its top bit flipped: the unsigned y - 2^31, as an int32
      rp[O + j] = map(bxor(y, 0x80000000), a, b, c, e)]]
-- words FIRST .. LAST of the state s, as they are
local DRAWN = [[
   for j = FIRST, LAST do
      local y = s[2 * j]
]] .. OUTPUT .. [[

   end]]
-- word j twisted (its new value stored) and drawn; word j + 1 is u's next
-- value, word j + M (- N) w's
local TWIST = [[
      local v = s[2 * j + 2]
      local y = twist(u, v, s[2 * (j + W)])
      s[2 * j] = y
      u = v
]] .. OUTPUT
-- words FIRST .. LAST so, two a step (half the loop's own work), the odd
-- last one after
local TWISTED = [[
   for i = FIRST, LAST - 1, 2 do
      do
         local j = i
]] .. TWIST .. [[

      end
      do
         local j = i + 1
]] .. TWIST .. [[

      end
   end
   if (LAST - FIRST) % 2 == 0 then
      local j = LAST
]] .. TWIST .. [[

   end]]
local function loop(text, first, last, o, w)
   local function enclosed(v) return v and '(' .. v .. ')' end
   return (text:gsub('%u+', {FIRST = enclosed(first), LAST = enclosed(last), O = enclosed(o), W = enclosed(w)}))
end
local FILLER = [[
local map, nextstate, twist, N, M, int32p = ...
local bxor, band, rshift, lshift, min, cast = bit.bxor, bit.band, bit.rshift, bit.lshift, math.min, require('ffi').cast

-- rp[i .. n - 1], a block after each regeneration: a whole one twisted and
-- drawn in one pass (TH's three loops), the last part one drawn after nextstate
local function blocks(g, s, rp, i, n, a, b, c, e)
   for start = i, n - 1, N do
      local k = n - start
      if k >= N then
         local u = s[0]
]] .. loop(TWISTED, '0', 'N - M - 1', 'start', 'M') .. '\n'
   .. loop(TWISTED, 'N - M', 'N - 2', 'start', 'M - N') .. '\n' .. [[
         local j, y = N - 1, twist(u, s[0], s[2 * (M - 1)])
         s[2 * j] = y
]] .. loop(OUTPUT, nil, nil, 'start') .. [[

         k = N
      else
         nextstate(g)
]] .. loop(DRAWN, '0', 'k - 1', 'start') .. [[

      end
      g.left, g.next = N + 1 - k, k
   end
end

-- the words left in the state (the draw finding left at 1 regenerates)
return function(g, rp, n, a, b, c, e)
   local s = cast(int32p, g.state)
   local left, first = g.left, g.next
   -- (N - first: a state set with left and next that disagree reads no word
   -- past the state's, where TH read beyond its array)
   local k = min(n, left - 1, N - first)
]] .. loop(DRAWN, 'first', 'first + k - 1', '-first') .. [[

   g.left, g.next = left - k, first + k
   if k < n then blocks(g, s, rp, k, n, a, b, c, e) end
end]]
function Generator.filler(map)
   return assert(loadstring(FILLER, '=(th generator fill)'))(map, nextstate, twist, N, M, int32p)
end

---------------------------------------------------------------------------
-- the objects
---------------------------------------------------------------------------

local GD = setmetatable({}, {__mode = 'kv'})   -- generator proxy -> {buf = memory, g = struct pointer}
local genproto = newproxy(true)
local genmt = getmetatable(genproto)

local function newgenerator()
   local _, bytes, buf = internal.memory.alloc(types.Byte, GENSIZE)
   local g = ffi.cast(genptr, bytes)
   manualseed(g, freshseed())
   return internal.attach(GD, newproxy(genproto), {buf = buf, g = g})
end

local function isgenerator(v)
   return type(v) == 'userdata' and GD[v] ~= nil
end
Generator.isgenerator = isgenerator

-- data(v) -> the generator data of v
function Generator.data(v)
   return GD[v]
end

-- args(...) -> the generator data of an optional generator first argument
-- (the default generator's without one), then the remaining arguments
function Generator.args(first, ...)
   if isgenerator(first) then return GD[first], ... end
   return GD[torch._gen], first, ...
end
local args = Generator.args

-- the .t7 form: the THGenerator bytes, written raw
-- (the arguments checked as the original's C functions checked them; its
-- file error numbered #2 of '?' in every form of call)
local function checkfile(self, file, fname)
   if not isgenerator(self) then
      fail("bad argument #1 to '%s' (torch.Generator expected, got %s)", fname, torch.type(self))
   end
   if not torch.isTypeOf(file, 'torch.File') then
      fail("bad argument #2 to '?' (torch.File expected, got %s)", torch.type(file))
   end
   -- (a file it cannot use: TH's check at the C function's #1, the
   -- generator, "calling 'write' on bad self" for a method call)
   local why = internal.files.unusable(file, fname == 'read')
   if why then fail("bad argument #0 to '%s' (%s)", fname, why) end
end

local function write(self, file)
   checkfile(self, file, 'write')
   local s = torch.ByteStorage(GENSIZE)
   ffi.copy(s:data(), GD[self].g, GENSIZE)
   file:writeByte(s)
end

local function read(self, file)
   checkfile(self, file, 'read')
   local s = file:readByte(GENSIZE)
   if torch.type(s) ~= 'torch.ByteStorage' or s:size() ~= GENSIZE then
      fail('corrupted file: a torch.Generator needs %d bytes', GENSIZE)
   end
   ffi.copy(GD[self].g, s:data(), GENSIZE)
end

class.define('torch.Generator', nil, newgenerator, newgenerator, nil, genmt)
genmt.new, genmt.write, genmt.read = newgenerator, write, read
-- (a field written into a generator: luaT's error, the userdata has no fields)
genmt.__newindex = function() internal.raise('the class torch.Generator cannot be indexed') end
torch._gen = newgenerator()

---------------------------------------------------------------------------
-- the seed and state functions
---------------------------------------------------------------------------

-- invalid(expected, ...): the original's binding error for these arguments
-- (their types as it named them, each followed by a space)
local luatypes = {number = true, string = true, boolean = true, ['nil'] = true, table = true, userdata = true}
local function invalid(expected, ...)
   local n = select('#', ...)
   local names = {}
   for i = 1, n do
      local v = select(i, ...)
      local name = torch.typename(v)
      if type(v) == 'string' and tonumber(v) then name = 'number' end   -- (lua_isnumber's)
      -- (a function, thread or cdata had no name there: '???')
      names[i] = (name and name:gsub('^torch%.', '') or luatypes[type(v)] and type(v) or '???') .. ' '
   end
   fail('invalid arguments: %s\nexpected arguments: %s', n == 0 and 'no arguments provided' or table.concat(names), expected)
end

-- nothing but an optional generator: the default generator's data, or the error
local function onlygenerator(...)
   local n = select('#', ...)
   if n > 1 or (n == 1 and not isgenerator((...))) then invalid('[Generator]', ...) end
   return args(...)
end

function torch.seed(...)
   local gd = onlygenerator(...)
   local lo, hi = freshseed()
   manualseed(gd.g, lo, hi)
   return seedvalue(lo, hi)
end

function torch.manualSeed(...)
   local gd, seed = args(...)
   local v = type(seed) ~= 'table' and tonumber(seed)   -- numeric strings count, as luaL_checklong had it
   if not v or select('#', ...) > (isgenerator((...)) and 2 or 1) then invalid('[Generator] long', ...) end
   manualseed(gd.g, halves(v))
end

function torch.initialSeed(...)
   local g = onlygenerator(...).g
   return seedvalue(g.seed, g.seed_hi)
end

-- ([gen,] [state]) -> the generator's data, the ByteTensor given (a new one
-- when none is), or the binding's error
local function stateargs(...)
   local n, first = select('#', ...), ...
   local skip = isgenerator(first) and 1 or 0
   local t = select(skip + 1, ...)
   if n > skip + 1 or (n == skip + 1 and not (istensor(t) and TD[t].T == types.Byte)) then
      invalid('[Generator] [*ByteTensor*]', ...)
   end
   return args(first), t or torch.ByteTensor()
end

-- getRNGState([gen,] [state]): a ByteTensor (state, resized, when given)
-- holding the generator's THGenerator bytes
function torch.getRNGState(...)
   local gd, t = stateargs(...)
   local d = TD[t]
   internal.resize(d, {GENSIZE}, 1)
   if not internal.iscontiguous(d) then fail("bad argument #1 to 'getRNGState' (RNG state needs to be contiguous)") end
   ffi.copy(t:data(), gd.g, GENSIZE)
   return t
end

function torch.setRNGState(...)
   local gd, state = stateargs(...)
   local d = TD[state]
   if internal.nelement(d) ~= GENSIZE then fail("bad argument #1 to 'setRNGState' (RNG state is wrong size)") end
   if not internal.iscontiguous(d) then fail("bad argument #1 to 'setRNGState' (RNG state needs to be contiguous)") end
   local g = ffi.cast(genptr, state:data())
   -- (next is an unsigned long: its high half counts)
   if g.seeded ~= 1 or g.left < 1 or g.left > N or g.next > N or g.next_hi ~= 0 then
      fail("bad argument #1 to 'setRNGState' (Invalid RNG state)")
   end
   ffi.copy(gd.g, g, GENSIZE)
   return state
end

return Generator
