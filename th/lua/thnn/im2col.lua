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
local checks = require 'thnn.checks'
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
local function im2col(x, xo, cols, co, C, H, W, oH, oW, g)
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
local function col2im(cols, co, x, xo, C, H, W, oH, oW, g)
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

-- Both again, generated for one geometry with the loops along an input row
-- written out (constant offsets): LeNet's rows are 28 and 10 wide, and
-- LuaJIT spent more entering and leaving such short loops than in them.
-- Either the whole row (every tap b and place j: 'row') or, without
-- horizontal padding, one tap's places j in a loop over b ('tap'); longer
-- rows run the loops above (a trace of more statements stops compiling).
-- The order of the adds into each input element stays the columns' (c, a,
-- b): for a given (c, a, i) an element gets at most one add per b, in b's order.
local UNROLL = 64
local generated = {}

local TEMPLATE = [[
local cols, co, x, xo, C, H, oH, kH, sH, pH, dH = ...
local o = co
for c = 0, C - 1 do
   for a = 0, kH - 1 do
      for i = 0, oH - 1 do
         local h = i * sH - pH + a * dH
         local s = o + i * $OW
         if h >= 0 and h < H then
            local d = xo + (c * H + h) * $W
$INSIDE
         else
$OUTSIDE
         end
      end
      o = o + $KWP
   end
end
]]

-- a loop over the taps b around body (d, s advanced to tap b's)
local function taploop(kW, dW, P, body)
   return ('for b = 0, %d do\nlocal d, s = d + b * %d, s + b * %d\n%s\nend'):format(kW - 1, dW, P, body)
end

-- the statements of one row: im2col's copies (zeros in the padding) or
-- col2im's adds, for the taps b0..b1 at tap offsets off(b)
local function statements(kind, b0, b1, off, sW, W, oW, P)
   local out = {}
   for b = b0, b1 do
      for j = 0, oW - 1 do
         local w, c = j * sW + off(b), b * P + j
         if w < 0 or w >= W then
            if kind == 'im2col' then out[#out + 1] = ('cols[s + %d] = 0'):format(c) end
         elseif kind == 'im2col' then
            out[#out + 1] = ('cols[s + %d] = x[d + %d]'):format(c, w)
         else
            out[#out + 1] = ('x[d + %d] = x[d + %d] + cols[s + %d]'):format(w, w, c)
         end
      end
   end
   return table.concat(out, '\n')
end

local function zeros(b0, b1, oW, P)
   local out = {}
   for b = b0, b1 do
      for j = 0, oW - 1 do out[#out + 1] = ('cols[s + %d] = 0'):format(b * P + j) end
   end
   return table.concat(out, '\n')
end

-- the generated function of kind 'im2col' or 'col2im' for this geometry and
-- element size (one per type: see checks.pertype), nil when its rows are too long
local function specialised(kind, size, kW, sW, pW, dW, W, oW, P)
   local key = table.concat({kind, size, kW, sW, pW, dW, W, oW, P}, ',')
   local f = generated[key]
   if f ~= nil then return f or nil end
   local inside, outside
   if kW * oW <= UNROLL then
      inside = statements(kind, 0, kW - 1, function(b) return b * dW - pW end, sW, W, oW, P)
      outside = kind == 'im2col' and zeros(0, kW - 1, oW, P) or ''
   elseif pW == 0 and oW <= UNROLL then
      inside = taploop(kW, dW, P, statements(kind, 0, 0, function() return 0 end, sW, W, oW, P))
      outside = kind == 'im2col' and taploop(kW, 0, P, zeros(0, 0, oW, P)) or ''
   else
      generated[key] = false
      return nil
   end
   local src = TEMPLATE:gsub('%$(%w+)', {INSIDE = inside, OUTSIDE = outside, OW = oW, W = W, KWP = kW * P})
   f = assert(loadstring(src, '=thnn.im2col.' .. kind))
   generated[key] = f
   return f
end

-- (im2col's runs of a tap along a row are ffi.copy's when longer: faster
-- than the written-out copies)
local IM2COL, COL2IM = checks.pertype(im2col), checks.pertype(col2im)

function M.im2col(x, xo, cols, co, C, H, W, oH, oW, g)
   local kH, kW, sH, sW, pH, pW, dH, dW = geometry(g)
   local size = elementsize(x)
   local f = (sW ~= 1 or kW * oW <= UNROLL) and specialised('im2col', size, kW, sW, pW, dW, W, oW, oH * oW)
   if f then return f(cols, co, x, xo, C, H, oH, kH, sH, pH, dH) end
   IM2COL(size)(x, xo, cols, co, C, H, W, oH, oW, g)
end

function M.col2im(cols, co, x, xo, C, H, W, oH, oW, g)
   local kH, kW, sH, sW, pH, pW, dH, dW = geometry(g)
   local size = elementsize(x)
   local f = specialised('col2im', size, kW, sW, pW, dW, W, oW, oH * oW)
   if f then return f(cols, co, x, xo, C, H, oH, kH, sH, pH, dH) end
   COL2IM(size)(cols, co, x, xo, C, H, W, oH, oW, g)
end

return M
