-- The bit operations of integer tensors in LuaJIT loops and numpy's SIMD
-- loops: bitand, bitor, bitxor with a number, cbitand, cbitor, cbitxor with
-- a tensor, lshift, rshift by a number, clshift, crshift by a tensor's
-- elements, with TH's results (tests/fixtures/parity_bitops):
-- - rshift is logical: the bits of the element type's unsigned counterpart
--   (a CharTensor's -1 >> 1 is 127);
-- - a narrow type's shifted bits beyond its width are lost in the store (a
--   ByteTensor's 255 << 1 is 254);
-- - a count by a tensor is taken modulo 32 (64 for a LongTensor), as x86's
--   shift instructions took C's; a count by a number outside [0, width) gives
--   0 (C's undefined case: Torch7 gave 0 in its vectorised loop's elements,
--   numpy gives 0), left to the numpy path.
-- LuaJIT's bit library works on 32-bit values: a LongTensor's elements are
-- read and written as their two int32 halves (low first), the shifts
-- carrying bits from one half to the other, so no 64-bit value is made.
local ffi = require 'ffi'
local types = require 'torch.types'
local internal = require 'torch.internal'
local kernels = require 'torch.maths.kernels'
local simd = require 'torch.maths.simd'

local nelement, iscontiguous, apart = internal.nelement, internal.iscontiguous, internal.apart
local flat, within, recast = kernels.flat, kernels.within, kernels.recast
local floor, type = math.floor, type
local Long = types.Long
local int32p = ffi.typeof('int32_t *')

local bitops = {}

-- contiguous LongTensors as int32 pairs: one expression list gives the low
-- and high halves of an element from lo, hi (and y's ylo, yhi)
kernels.template('longhalves1', [[return function(rp, xp, n, c, d)
   for i = 0, 2 * n - 2, 2 do local lo, hi = xp[i], xp[i + 1]; rp[i], rp[i + 1] = %s end
end]])
kernels.template('longhalves2', [[return function(rp, xp, yp, n)
   for i = 0, 2 * n - 2, 2 do
      local lo, hi, ylo, yhi = xp[i], xp[i + 1], yp[i], yp[i + 1]
      rp[i], rp[i + 1] = %s
   end
end]])

-- numpy's SIMD loops called through the FFI from SIMDFROM contiguous
-- elements, once numpy is loaded (a call costs about 50 ns, as the LuaJIT
-- loop of 32 elements; 4096 Ints: 0.2 us, the loop 1.1), from STRIDEDSIMD
-- for other layouts (a row at a time: a call per row); LuaJIT loops below,
-- and up to LIMIT elements until numpy is loaded (beyond, numpy is imported
-- for the operation: its Python path)
local SIMDFROM, STRIDEDSIMD, LIMIT = 32, 1024, 4096
-- shifts by a tensor's elements: LuaJIT at every size until numpy is
-- loaded (then simdshift, below, from SIMDFROM contiguous elements)
local CLIMIT = math.huge

local function ints(e) return {Byte = e, Char = e, Short = e, Int = e} end
-- the unsigned bits of an element, for the logical right shift
local function unsigned(e)
   local t = ints(e:format('x'))
   t.Char, t.Short = e:format('band(x, 255)'), e:format('band(x, 65535)')
   return t
end

-- Long's shifts: by a number below 32, by 32 to 63 (c: the count, d: 32
-- less), by a tensor (the count's low 6 bits: m all ones when it is 32 or
-- more, the two cases' halves picked by it without a branch)
local LONGLSHIFT = 'lshift(lo, c), bor(lshift(hi, c), rshift(rshift(lo, 1), 31 - c))'
local LONGLSHIFT32 = '0, lshift(lo, d)'
local LONGRSHIFT = 'bor(rshift(lo, c), lshift(lshift(hi, 1), 31 - c)), rshift(hi, c)'
local LONGRSHIFT32 = 'rshift(hi, d), 0'
local M = 'arshift(lshift(ylo, 26), 31)'
local function pick(a, b) return ('bxor(%s, band(%s, bxor(%s, %s)))'):format(b, M, a, b) end
local LONGCLSHIFT = ('band(bnot(%s), lshift(lo, ylo)), %s'):format(M,
   pick('lshift(lo, ylo)', 'bor(lshift(hi, ylo), rshift(rshift(lo, 1), bnot(ylo)))'))
local LONGCRSHIFT = ('%s, band(bnot(%s), rshift(hi, ylo))'):format(
   pick('rshift(hi, ylo)', 'bor(rshift(lo, ylo), lshift(lshift(hi, 1), bnot(ylo)))'), M)

local op = kernels.op
local function withlong(exprs, long)
   exprs.Long = long
   return exprs
end
-- ops[name] = {kernel with a number, kernel with a tensor, numpy's loop
-- name (simd.lua), Long's kernel for counts 32 to 63}
local ops = {}
for _, name in ipairs{'bitand', 'bitor', 'bitxor'} do
   local f = 'b' .. name:sub(4)
   ops[name] = {op(name .. 'c', LIMIT, withlong(ints(f .. '(x, c)'), ('%s(lo, c), %s(hi, d)'):format(f, f))),
                op(name .. 'y', LIMIT, withlong(ints(f .. '(x, y)'), ('%s(lo, ylo), %s(hi, yhi)'):format(f, f))),
                name}
end
ops.lshift = {op('lshiftc', LIMIT, withlong(ints('lshift(x, c)'), LONGLSHIFT)),
              op('lshifty', CLIMIT, withlong(ints('lshift(x, y)'), LONGCLSHIFT)),
              'lshift', op('lshiftc32', LIMIT, {Long = LONGLSHIFT32})}
ops.rshift = {op('rshiftc', LIMIT, withlong(unsigned('rshift(%s, c)'), LONGRSHIFT)),
              op('rshifty', CLIMIT, withlong(unsigned('rshift(%s, y)'), LONGCRSHIFT)),
              'rshift', op('rshiftc32', LIMIT, {Long = LONGRSHIFT32})}
local shifts = {lshift = true, rshift = true}

-- a number's int32 halves (an integer within int64's range)
local function halves(c)
   local hi = floor(c / 4294967296)
   return bit.tobit(c - hi * 4294967296), bit.tobit(hi)
end

-- long(k, r, x, y, c, d) -> true when done: a LongTensor op's loop over
-- the halves, contiguous or strided (kernels.halves)
local function long(k, r, x, y, c, d)
   local n = nelement(r)
   if not within(n, kernels.limit(k, Long)) or x.T ~= Long or y and y.T ~= Long then return false end
   local expr = k.exprs.Long
   local rp, xp, yp = flat(r), flat(x), y and flat(y)
   if rp and xp and (not y or yp) then
      if y then
         kernels.run('longhalves2', k, Long, nil, recast(int32p, rp), recast(int32p, xp), recast(int32p, yp), n)
      else
         kernels.run('longhalves1', k, Long, nil, recast(int32p, rp), recast(int32p, xp), n, c, d)
      end
      return true
   end
   return kernels.halves(y and 'halves2' or 'halves1', k, expr, r, x, y, c, d)
end

-- Operands of one layout, a transposed contiguous matrix, are walked as
-- the block of memory they cover: each element meets its partners there,
-- in memory order (a transposed 100x100 lshift: 5.5 us by the strided
-- loops, the original 4.4)
local blocks = {{nd = 1, sz = {0}, str = {1}}, {nd = 1, sz = {0}, str = {1}}, {nd = 1, sz = {0}, str = {1}}}
local function transposed(d, r)
   return d.nd == 2 and d.str[1] == 1 and d.str[2] == d.sz[1] and (r == nil or d.sz[1] == r.sz[1]
      and d.sz[2] == r.sz[2] and d.str[2] == r.str[2])
end
-- block(k, d, n) -> blocks[k] as the block of d's n elements
local function block(k, d, n)
   local v = blocks[k]
   v.T, v.st, v.off, v.sz[1] = d.T, d.st, d.off, n
   return v
end

-- Shifts by a tensor through numpy's loops, whose counts must be in range:
-- block by block, the counts taken modulo the width (TH's C took them so on
-- x86: a ByteTensor's 255 << 33 is 254) into scratch by the bitand loop,
-- then the shift; r, x and the counts contiguous, x and the counts apart
-- from r (or r itself); false when that does not apply
local BLOCK = 2048
local scratch = {}
local function simdshift(name, r, x, y, n)
   local loops = simd.loops(false)
   local T = r.T
   local shift, mask = loops and loops[name] and loops[name][T], loops and loops.bitand and loops.bitand[T]
   if not shift or not mask or not apart(x, r) or not apart(y, r) then return false end
   local s = scratch[T]
   if not s then
      s = T.vla(BLOCK)
      scratch[T] = s
   end
   return simd.counted(shift, mask, T, flat(r), flat(x), flat(y), s, BLOCK, n, T == Long and 63 or 31)
end

local run

-- bitops.run(name, r, x, y, c) -> true when done: r = x <name> (y or the
-- number c, already cast to the element type), r of x's sizes; false when
-- no loop here applies (the caller's numpy path then)
function bitops.run(name, r, x, y, c)
   local n = nelement(r)
   if n > 1 and transposed(r) and transposed(x, r) and (not y or transposed(y, r)) then
      local done = run(name, block(1, r, n), block(2, x, n), y and block(3, y, n), c)
      for k = 1, 3 do blocks[k].st = nil end   -- (kept no longer)
      return done
   end
   return run(name, r, x, y, c)
end

function run(name, r, x, y, c)
   local T, n = r.T, nelement(r)
   local o = ops[name]
   if n == 0 or x.T ~= T or y and y.T ~= T then return false end
   if not y and shifts[name] and (c < 0 or c >= 8 * T.size) then return false end
   local contiguous = iscontiguous(r) and iscontiguous(x) and (not y or iscontiguous(y))
   if y and shifts[name] then
      if contiguous and n >= SIMDFROM and simdshift(name, r, x, y, n) then return true end
   elseif simd.map(o[3], r, x, y or c, contiguous and SIMDFROM or STRIDEDSIMD, LIMIT) then
      return true
   end
   if T ~= Long then
      if y then return kernels.map2(o[2], r, x, y) end
      return kernels.map1(o[1], r, x, c)
   end
   if y then return long(o[2], r, x, y) end
   if not shifts[name] then return long(o[1], r, x, nil, halves(c)) end
   if c < 32 then return long(o[1], r, x, nil, c) end
   return long(o[4], r, x, nil, c, c - 32)
end

return bitops
