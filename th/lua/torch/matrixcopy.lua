-- Copies between matrices of one type and any strides, in TH's order: the
-- elements go one by one in row-major order (when the two share memory, a
-- later element reads what an earlier one wrote, as in Torch7), except that
-- a contiguous result of at least BLOCKED elements taken from a transposed
-- contiguous matrix goes in square tiles through a buffer, tile by tile
-- along the source's rows (what Torch7 gave for an overlapping A:copy(A:t()):
-- tiles of 60, a ByteTensor's of 120).
-- One loop per element type (LuaJIT keeps each trace monomorphic); a
-- LongTensor's elements go as int64 values from one int64 pointer to another
-- (never through a Lua number, which would round them beyond 2^53).
-- Tensors of up to four dimensions in separate storages whose rows are
-- contiguous blocks go a memcpy a block (blocks).
local types = require 'torch.types'

local BLOCKED = 3600

local text = [[
local TILE, size = ...
local copy = require('ffi').copy
return function(rp, r1, r2, xp, x1, x2, m, n)
   for i = 0, m - 1 do
      local pr, px = i * r1, i * x1
      for _ = 1, n do rp[pr] = xp[px]; pr = pr + r2; px = px + x2 end
   end
end, function(rp, r1, xp, x1, x2, m, n)
   local odd = n % 2 == 1
   for i = 0, m - 1 do
      local px, last = i * x1, i * r1 + n - 1
      for j = i * r1, last - 1, 2 do rp[j] = xp[px]; rp[j + 1] = xp[px + x2]; px = px + 2 * x2 end
      if odd then rp[last] = xp[px] end
   end
end, function(rp, xp, m, n, buf)
   for R = 0, m - 1, TILE do
      local rows = m - R < TILE and m - R or TILE
      for C = 0, n - 1, TILE do
         local cols = n - C < TILE and n - C or TILE
         for c = 0, cols - 1 do copy(buf + c * TILE, xp + (R + (C + c) * m), rows * size) end
         local quads = cols - cols % 4
         for r = 0, rows - 1 do
            local p, b = (R + r) * n + C, r
            for c = 0, quads - 1, 4 do
               rp[p + c], rp[p + c + 1] = buf[b], buf[b + TILE]
               rp[p + c + 2], rp[p + c + 3] = buf[b + 2 * TILE], buf[b + 3 * TILE]
               b = b + 4 * TILE
            end
            for c = quads, cols - 1 do rp[p + c] = buf[b]; b = b + TILE end
         end
      end
   end
end]]

local loops = {}
for i = 1, types.count do
   local T = types[i]
   local tile = T == types.Byte and 120 or 60
   local inorder, rowwise, tiled = assert(loadstring(text, '=(th matrix copy)'))(tile, T.size)
   loops[T] = {inorder = inorder, rowwise = rowwise, tiled = tiled, buf = T.vla(tile * tile)}
end

local matrixcopy = {}

local copy = require('ffi').copy

-- joint(d, s, i): is dimension i of d and of s evenly spaced with the next
-- one, so that the two make one (d and s of the same sizes)?
local function joint(d, s, i)
   local n = d.sz[i + 1]
   return d.str[i] == d.str[i + 1] * n and s.str[i] == s.str[i + 1] * n
end

-- rowsof(d, s) -> rows, length, d's and s's row strides: d and s (of the
-- same sizes, up to four dimensions) as rows of contiguous blocks, the
-- last dimensions that are contiguous in both the block, the others one
-- evenly spaced dimension in each; nil when they are not, or are all
-- contiguous.  (No loop over the dimensions: LuaJIT blacklisted such short
-- loops, and then every trace through them, nelement's note says.)
local function rowsof(d, s)
   local nd = d.nd
   if nd < 2 or nd > 4 or d.str[nd] ~= 1 or s.str[nd] ~= 1 then return nil end
   local k = nd - 1            -- the last dimension before the block
   if joint(d, s, k) then
      k = k - 1
      if k > 0 and joint(d, s, k) then k = k - 1 end
      if k > 0 and joint(d, s, k) then k = k - 1 end
   end
   if k == 0 or k > 1 and not joint(d, s, 1) or k > 2 and not joint(d, s, 2) then return nil end
   local sz = d.sz
   local rows, length = sz[1], sz[nd]
   if k > 1 then rows = rows * sz[2] end
   if k > 2 then rows = rows * sz[3] end
   if nd - k > 1 then length = length * sz[nd - 1] end
   if nd - k > 2 then length = length * sz[nd - 2] end
   return rows, length, d.str[k], s.str[k]
end

-- blocks(d, s, least) -> true when done: d = s for tensors of one type and
-- the same sizes in separate storages, when both are rows of contiguous
-- blocks of at least `least` elements (rowsof): a memcpy a block (numpy's
-- strided copy of a 32 x 256 block into a narrowed 32 x 512 took 8.2 us,
-- the element loop too, the original 5.4; a memcpy a row, 1.3).  (The
-- pointers made in the call's arguments: no cdata per row.)
function matrixcopy.blocks(d, s, least)
   local rows, length, r1, x1 = rowsof(d, s)
   if not rows or length < least then return false end
   local rp, xp, bytes, r0, x0 = d.st.ptr, s.st.ptr, length * d.T.size, d.off, s.off
   for i = 0, rows - 1 do copy(rp + (r0 + i * r1), xp + (x0 + i * x1), bytes) end
   return true
end

-- tiled(d, s): does d = s go in tiles (a contiguous d, s its transpose's layout)?
function matrixcopy.tiled(d, s)
   local m, n = d.sz[1], d.sz[2]
   return m * n >= BLOCKED and s.str[1] == 1 and s.str[2] == m and d.str[2] == 1 and d.str[1] == n
end

-- copy(rp, d, xp, s) -> true when done: d = s for matrices d and s of one
-- type and the same sizes, rp and xp pointers to their first elements
function matrixcopy.copy(rp, d, xp, s)
   local k = loops[d.T]
   if not k or s.T ~= d.T then return false end
   local m, n = d.sz[1], d.sz[2]
   if matrixcopy.tiled(d, s) then
      k.tiled(rp, xp, m, n, k.buf)
   elseif d.str[2] == 1 then   -- (a result's rows: their index is the loop's, an integer; two a step)
      k.rowwise(rp, d.str[1], xp, s.str[1], s.str[2], m, n)
   else
      k.inorder(rp, d.str[1], d.str[2], xp, s.str[1], s.str[2], m, n)
   end
   return true
end

return matrixcopy
