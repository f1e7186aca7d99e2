-- im2col and col2im of 2D convolutions as LuaJIT loops over FFI data: the
-- windows of one C x H x W image laid out as the columns C*kH*kW x oH*oW
-- (row (c, a, b) holds tap (a, b) of plane c for every output place), and
-- the adjoint, the columns added back at the places they came from.  No
-- Python crossing: for the small images of a LeNet both take microseconds,
-- where numpy needed one operation per kernel tap.
--
-- Geometry g = {k = {kH, kW}, s = {sH, sW}, pad = {pH, pW}, dil = {dH, dW}}
-- (dil optional), as thnn/conv.lua; x and cols are element pointers, xo and
-- co the offsets of the image and of its columns.
local ffi = require 'ffi'
local floor, ceil, max, min = math.floor, math.ceil, math.max, math.min
local copy = ffi.copy
local bytes = ffi.typeof('char*')

local function elementsize(p)
   return tonumber(ffi.cast(bytes, p + 1) - ffi.cast(bytes, p))
end

local M = {}

-- the output columns j0..j1 whose tap at column offset `off` (b * dW - pW)
-- falls inside a row of width W
local function inside(off, sW, W, oW)
   return max(0, ceil(-off / sW)), min(oW - 1, floor((W - 1 - off) / sW))
end

-- Both walk the columns row by row: row (c, a, b), output row i is the
-- segment o = ((c * kH + a) * kW + b) * oH * oW + i * oW, fed by input row
-- h = i * sH - pH + a * dH (none when outside), columns j0..j1 inside the
-- input.  (Written out in each: a shared walker taking a callback needs a
-- closure per call, which LuaJIT does not compile.)

local function geometry(g)
   local dil = g.dil or {1, 1}
   return g.k[1], g.k[2], g.s[1], g.s[2], g.pad[1], g.pad[2], dil[1], dil[2]
end

-- cols[co ...] = the windows of the image x[xo ...] (zeros where padding)
function M.im2col(x, xo, cols, co, C, H, W, oH, oW, g)
   local kH, kW, sH, sW, pH, pW, dH, dW = geometry(g)
   local size = elementsize(x)
   local o = co
   for c = 0, C - 1 do
      for a = 0, kH - 1 do
         for b = 0, kW - 1 do
            local off = b * dW - pW
            local j0, j1 = inside(off, sW, W, oW)
            for i = 0, oH - 1 do
               local h = i * sH - pH + a * dH
               if h < 0 or h >= H then
                  for j = o, o + oW - 1 do cols[j] = 0 end
               else
                  for j = o, o + j0 - 1 do cols[j] = 0 end
                  local src = xo + (c * H + h) * W + off
                  if sW == 1 then
                     -- a contiguous run of the input row
                     if j1 >= j0 then copy(cols + o + j0, x + src + j0, (j1 - j0 + 1) * size) end
                  else
                     for j = j0, j1 do cols[o + j] = x[src + j * sW] end
                  end
                  for j = o + j1 + 1, o + oW - 1 do cols[j] = 0 end
               end
               o = o + oW
            end
         end
      end
   end
end

-- x[xo ...] += the columns cols[co ...] at the places im2col took them from
-- (x is zeroed by the caller)
function M.col2im(cols, co, x, xo, C, H, W, oH, oW, g)
   local kH, kW, sH, sW, pH, pW, dH, dW = geometry(g)
   local o = co
   for c = 0, C - 1 do
      for a = 0, kH - 1 do
         for b = 0, kW - 1 do
            local off = b * dW - pW
            local j0, j1 = inside(off, sW, W, oW)
            for i = 0, oH - 1 do
               local h = i * sH - pH + a * dH
               if h >= 0 and h < H then
                  local dst = xo + (c * H + h) * W + off
                  for j = j0, j1 do
                     local p = dst + j * sW
                     x[p] = x[p] + cols[o + j]
                  end
               end
               o = o + oW
            end
         end
      end
   end
end

return M
