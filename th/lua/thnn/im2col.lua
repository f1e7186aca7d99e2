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
local M = {}

-- Each loop is the text of a chunk returning the function, compiled in the
-- state that runs it (thnn/conv.lua's image loops: this thread's and the
-- helpers'); every one takes (cols, co, x, xo, C, H, W, oH, oW, kH, kW, sH,
-- sW, pH, pW, dH, dW), whatever it uses of them.
--
-- Both general loops walk the columns row by row: row (c, a, b), output row
-- i is the segment o = ((c * kH + a) * kW + b) * oH * oW + i * oW, fed by
-- input row h = i * sH - pH + a * dH (none when outside), columns j0..j1
-- inside the input (inside: those whose tap at column offset `off`, b * dW -
-- pW, falls inside a row of width W).  (Written out in each: a shared walker
-- taking a callback needs a closure per call, which LuaJIT does not compile.)
local GENERAL = {}

local INSIDE = [[
local ffi = require 'ffi'
local floor, ceil, max, min = math.floor, math.ceil, math.max, math.min
local copy = ffi.copy
local function inside(off, sW, W, oW)
   return max(0, ceil(-off / sW)), min(oW - 1, floor((W - 1 - off) / sW))
end
]]

-- cols[co ...] = the windows of the image x[xo ...] (zeros where padding)
GENERAL.im2col = INSIDE .. [[
return function(cols, co, x, xo, C, H, W, oH, oW, kH, kW, sH, sW, pH, pW, dH, dW)
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
                     if j1 >= j0 then copy(cols + o + j0, x + src + j0, (j1 - j0 + 1) * $SIZE) end
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
end]]

-- x[xo ...] += the columns cols[co ...] at the places im2col took them from
-- (x is zeroed by the caller)
GENERAL.col2im = INSIDE .. [[
return function(cols, co, x, xo, C, H, W, oH, oW, kH, kW, sH, sW, pH, pW, dH, dW)
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
end]]

-- Both again, generated for one geometry with the loops along an input row
-- written out (constant offsets): LeNet's rows are 28 and 10 wide, and
-- LuaJIT spent more entering and leaving such short loops than in them.
-- Either the whole row (every tap b and place j: 'row') or, without
-- horizontal padding, one tap's places j in a loop over b ('tap'); longer
-- rows run the loops above (a trace of more statements stops compiling).
-- The order of the adds into each input element stays the columns' (c, a,
-- b): for a given (c, a, i) an element gets at most one add per b, in b's order.
local UNROLL = 64

local TEMPLATE = [[
return function(cols, co, x, xo, C, H, W, oH, oW, kH, kW, sH, sW, pH, pW, dH, dW)
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
end]]

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

-- the text of the written-out loop of kind 'im2col' or 'col2im' for this
-- geometry, nil when its rows are too long
local function written(kind, kW, sW, pW, dW, W, oW, P)
   local inside, outside
   if kW * oW <= UNROLL then
      inside = statements(kind, 0, kW - 1, function(b) return b * dW - pW end, sW, W, oW, P)
      outside = kind == 'im2col' and zeros(0, kW - 1, oW, P) or ''
   elseif pW == 0 and oW <= UNROLL and (oW - 1) * sW + (kW - 1) * dW < W then
      -- (every tap of every place inside the row: the taps' offsets go unchecked)
      inside = taploop(kW, dW, P, statements(kind, 0, 0, function() return 0 end, sW, W, oW, P))
      outside = kind == 'im2col' and taploop(kW, 0, P, zeros(0, 0, oW, P)) or ''
   else
      return nil
   end
   return (TEMPLATE:gsub('%$(%w+)', {INSIDE = inside, OUTSIDE = outside, OW = oW, W = W, KWP = kW * P}))
end

-- kH, kW, sH, sW, pH, pW, dH, dW of geometry g
local function geometry(g)
   local dil = g.dil or {1, 1}
   return g.k[1], g.k[2], g.s[1], g.s[2], g.pad[1], g.pad[2], dil[1], dil[2]
end

M.geometry = geometry

-- M.source(kind, size, g, W, oW, P) -> the text of the loop of this kind
-- for this geometry and element size (bytes): the written-out one, else the
-- general one (im2col's runs of a tap along a row are ffi.copy's when
-- longer: faster than written-out copies)
local sources = {}
function M.source(kind, size, g, W, oW, P)
   local _, kW, _, sW, _, pW, _, dW = geometry(g)
   local key = table.concat({kind, size, kW, sW, pW, dW, W, oW, P}, ',')
   local text = sources[key]
   if not text then
      text = (kind == 'col2im' or sW ~= 1 or kW * oW <= UNROLL) and written(kind, kW, sW, pW, dW, W, oW, P)
      -- (the general loops keyed by element size alone: one copy per type,
      -- as a trace made for double* data fails its guards on float* data)
      if not text then
         key = kind .. ',' .. size
         text = GENERAL[kind]:gsub('%$SIZE', size)
      end
      sources[key] = text
   end
   return text
end

return M
