-- Max and average pooling over d = 1, 2 or 3 spatial dimensions, shared by
-- the Spatial/Volumetric/Temporal pooling families.  Geometry as in
-- thnn/conv.lua ({k, s, pad, dil}, tensor axis order).  The indices tensor
-- holds what THNN stored there, in one of three formats (nn_spatial._encode):
-- 'flat' (Spatial: 1-based index in the input plane), 'packed' (Volumetric:
-- the t, h, w offsets in the window as bytes), 'tap' (Temporal: 0-based offset).
local ffi = require 'ffi'
local torch = require 'torch'
local S = require 'thnn.spatial'
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'

local py, nd, call, flat = S.py, S.nd, S.call, S.flat
local concat = table.concat

local P = {}

-- THNN's checks of a pooling's arguments and input; returns the output's sizes
function P.shapes(input, gradOutput, g, ceilmode, what)
   local d = #g.k
   for i = 1, d do
      if g.k[i] <= 0 or g.s[i] <= 0 then
         S.argerror(2, 'kernel size and stride should be greater than zero, but got %s',
                    'k: ' .. concat(g.k, ' ') .. ' d: ' .. concat(g.s, ' '))
      end
   end
   local halves = true
   for i = 1, d do
      if g.pad[i] < 0 or g.pad[i] > g.k[i] / 2 then halves = false end
   end
   if not halves then
      local names = d == 2 and {'H', 'W'} or d == 3 and {'T', 'H', 'W'} or {'W'}
      local p, k = {}, {}
      for i = d, 1, -1 do
         p[#p + 1] = ('pad%s = %d'):format(names[i], g.pad[i])
         k[#k + 1] = ('k%s = %d'):format(names[i], g.k[i])
      end
      S.argerror(2, 'pad should be smaller than half of kernel size, but got %s, %s ', concat(p, ', '), concat(k, ', '))
   end
   local first = S.checkinput(input, d, 2, what)
   local osz = S.outsizes(input, first, g.k, g.s, g.pad, g.dil, ceilmode, nil, 'x')
   local sizes = S.outshape(input, first, S.size(input, first), osz)
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes
end

-- Spatial max pooling of contiguous tensors loops in LuaJIT over their FFI
-- data: as fast as THNN's C at every size, where numpy needs several passes
-- per kernel tap.  x, y, ind point to planes x H x W and planes x oH x oW.
local LOWEST = {['torch.FloatTensor'] = -3.4028234663852886e38, ['torch.DoubleTensor'] = -1.7976931348623157e308}

local function maxloop(x, y, ind, planes, H, W, oH, oW, g, lowest)
   local kH, kW, dH, dW, pH, pW = g.k[1], g.k[2], g.s[1], g.s[2], g.pad[1], g.pad[2]
   local lH, lW = g.dil and g.dil[1] or 1, g.dil and g.dil[2] or 1
   local floor, ceil, min = math.floor, math.ceil, math.min
   for p = 0, planes - 1 do
      local xb, ob = p * H * W, p * oH * oW
      for i = 0, oH - 1 do
         local yo = ob + i * oW
         -- a window with nothing above the lowest number (wholly past the
         -- input in ceil mode) keeps that number and index 0
         for j = yo, yo + oW - 1 do y[j] = lowest; ind[j] = 0 end
         -- taps in THNN's order, each over the whole output row (long inner
         -- loops): the first of equal maxima stays, a NaN never wins (as in the
         -- original)
         for a = 0, kH - 1 do
            local h = i * dH - pH + a * lH
            if h >= 0 and h < H then
               local xrow = xb + h * W
               for b = 0, kW - 1 do
                  local off = b * lW - pW
                  local j0 = off < 0 and ceil(-off / dW) or 0
                  local j1 = min(oW - 1, floor((W - 1 - off) / dW))
                  for j = j0, j1 do
                     local w = j * dW + off
                     local v, o = x[xrow + w], yo + j
                     if v > y[o] then
                        y[o] = v
                        ind[o] = h * W + w + 1
                     end
                  end
               end
            end
         end
      end
   end
end

-- 2 x 2 windows wholly inside the input (LeNet's pooling), without a branch
-- on the data: LuaJIT compiled the comparisons' unpredictable branches into
-- side exits costing tens of ns a window (THNN's C: 2 ns).  The max by
-- math.max (maxsd); then the first tap equal to it, from n_t = 1 when tap t
-- differs (a positive difference times 2^1200 is >= 1), 0 when equal; the
-- value is read back from that tap (of +0 and -0, the first).  A window
-- holding a NaN, an infinity or nothing above the lowest number takes the
-- comparisons, as THNN made them: later taps win when greater.
-- Planes [a, b) of a0 x a1 (p0) into a2 x a3 maxima (p1) and their 1-based
-- places (p2), strides a4, a5, the lowest number a6 (thnn.shared: many
-- planes shared with helper threads, as THNN's OpenMP loop over them).
local MAX2X2 = shared.loop('maxpool2x2', [[
   local lowest = a6
   for p = a, b - 1 do
      local xb, ob = p * a0 * a1, p * a2 * a3
      for i = 0, a2 - 1 do
         local row, yo = xb + i * a4 * a1, ob + i * a3
         for j = 0, a3 - 1 do
            local k = row + j * a5
            local v0, v1, v2, v3 = p0[k], p0[k + 1], p0[k + a1], p0[k + a1 + 1]
            local m = fmax(fmax(fmax(v0, v1), v2), v3)
            if (v0 + v1 + v2 + v3) * 0 == 0 and m > lowest then
               local n0 = fmin(1, (m - v0) * BIG * BIG)
               local n1 = fmin(1, (m - v1) * BIG * BIG)
               local n2 = fmin(1, (m - v2) * BIG * BIG)
               local at = k + n0 * (1 + n1 * ((a1 - 1) + n2))
               p1[yo + j], p2[yo + j] = p0[at], at - xb + 1
            else
               local best, at = window(p0, k, a1, lowest)
               p1[yo + j], p2[yo + j] = best, at < 0 and 0 or at - xb + 1
            end
         end
      end
   end]], 16384, 1, {[2] = 'int64_t'}, [[
local BIG = 2 ^ 600
local fmax, fmin = math.max, math.min
local function window(x, k, W, lowest)
   local best, at = lowest, -1
   local v = x[k]
   if v > best then best, at = v, k end
   v = x[k + 1]
   if v > best then best, at = v, k + 1 end
   v = x[k + W]
   if v > best then best, at = v, k + W end
   v = x[k + W + 1]
   if v > best then best, at = v, k + W + 1 end
   return best, at
end]])

-- the windows are 2 x 2, undilated, unpadded and inside the input
local function is2x2(g, H, W, oH, oW)
   return g.k[1] == 2 and g.k[2] == 2 and g.pad[1] == 0 and g.pad[2] == 0
      and (not g.dil or g.dil[1] == 1 and g.dil[2] == 1)
      and (oH - 1) * g.s[1] + 2 <= H and (oW - 1) * g.s[2] + 2 <= W
end

-- planes [a, b) of gradInput (p0, a0 elements each of a2 bytes) zeroed,
-- then += gradOutput (p1, a1 each) at the places p2 names (0: none), each
-- plane by the thread that adds into it, while in its cache; a place outside
-- its plane is skipped and sets p3[0] (checked in the same pass: a pass of
-- its own cost a third of the gradient)
local MAXBACK = shared.loop('maxpoolgrad', [[
   for p = a, b - 1 do
      local gb, ob = p * a0, p * a1
      ffi.fill(p0 + gb, a0 * a2)
      for o = ob, ob + a1 - 1 do
         local k = tonumber(p2[o])
         if k > 0 and k <= a0 then
            p0[gb + k - 1] = p0[gb + k - 1] + p1[o]
         elseif k ~= 0 then
            p3[0] = 1
         end
      end
   end]], 16384, 1, {[2] = 'int64_t', [3] = 'int32_t'})
local invalid = ffi.new('int32_t[1]')

-- the data pointers of contiguous tensors, or nil
local function pointers(...)
   local ptrs = {}
   for i = 1, select('#', ...) do
      local t = select(i, ...)
      if not t:isContiguous() or t:nElement() == 0 then return nil end
      ptrs[i] = t:data()
   end
   return ptrs
end

-- the plane count and plane sizes (2D) of input and output sizes
local function planes(input, sizes)
   local n = #sizes
   return input:nElement() / (input:size(n - 1) * input:size(n)), input:size(n - 1), input:size(n),
          sizes[n - 1], sizes[n]
end

-- the general loop, one copy per element type (checks.pertype says why)
local MAXLOOP = checks.pertype(maxloop)

function P.maxforward(input, output, indices, g, ceilmode, fmt)
   local sizes = P.shapes(input, nil, g, ceilmode)
   S.resize(output, sizes)
   S.resize(indices, sizes)
   local ptr = fmt == 'flat' and LOWEST[torch.type(input)] and pointers(input, output, indices)
   if ptr then
      local np, H, W, oH, oW = planes(input, sizes)
      local lowest = LOWEST[torch.type(input)]
      if is2x2(g, H, W, oH, oW) then
         shared.run(MAX2X2, checks.ctype(input), np, np * H * W, ptr[1], ptr[2], ptr[3], nil,
                    H, W, oH, oW, g.s[1], g.s[2], lowest)
      else
         MAXLOOP(lowest)(ptr[1], ptr[2], ptr[3], np, H, W, oH, oW, g, lowest)
      end
   else
      call(py.nn_maxpool_forward, nd(output), nd(indices), nd(input), flat(g), fmt, #g.k)
   end
end

function P.maxbackward(input, gradOutput, gradInput, indices, g, ceilmode, fmt)
   local sizes = P.shapes(input, gradOutput, g, ceilmode)
   S.resizeas(gradInput, input)
   local ptr = fmt == 'flat' and LOWEST[torch.type(input)] and pointers(gradInput, gradOutput, indices)
   if ptr then
      local np, H, W, oH, oW = planes(input, sizes)
      invalid[0] = 0
      shared.run(MAXBACK, checks.ctype(input), np, np * H * W, ptr[1], ptr[2], ptr[3], invalid, H * W, oH * oW,
                 gradInput:elementSize())
      if invalid[0] ~= 0 then S.fail('Found an invalid max index (input planes are of size %dx%d)', H, W) end
   else
      call(py.nn_maxpool_backward, nd(gradInput), nd(gradOutput), nd(indices), flat(g), fmt, #g.k)
   end
end

-- Spatial average pooling of contiguous Float/Double tensors loops in LuaJIT
-- over planes (thnn.shared: many shared with helper threads): each
-- window's sum in THNN's order, its taps row by row in the element type,
-- then divided; the gradient's shares added window after window in
-- row-major order (within an output row, the taps from the last: a place
-- then meets its windows left to right).  Planes [a, b) of a0 x a1 and
-- a2 x a3; kernel, stride and padding packed as h * 4096 + w in a4, a5,
-- a6; a7 nonzero: the padding counts in the divisor.
local AVGPRELUDE = [[
local min, max = math.min, math.max
-- the window geometry of the packed numbers
local function unpack2(v) return floor(v / 4096), v % 4096 end
-- the divisor of window (i, j) of an H x W input
local function divisor(i, j, H, W, kH, kW, dH, dW, pH, pW, includepad)
   local hs, ws = i * dH - pH, j * dW - pW
   local he, we = min(hs + kH, H + pH), min(ws + kW, W + pW)
   if includepad ~= 0 then return (he - hs) * (we - ws) end
   return (min(he, H) - max(hs, 0)) * (min(we, W) - max(ws, 0))
end
-- the output columns [j0, j1] whose window meets input column j * dW + off
local function columns(off, dW, W, oW)
   return off < 0 and ceil(-off / dW) or 0, min(oW - 1, floor((W - 1 - off) / dW))
end]]

local AVGFORWARD = shared.loop('avgpool', [[
   local kH, kW = unpack2(a4)
   local dH, dW = unpack2(a5)
   local pH, pW = unpack2(a6)
   for p = a, b - 1 do
      local xb, ob = p * a0 * a1, p * a2 * a3
      for i = 0, a2 - 1 do
         local yo = ob + i * a3
         for j = yo, yo + a3 - 1 do p1[j] = 0 end
         for t = 0, kH - 1 do
            local h = i * dH - pH + t
            if h >= 0 and h < a0 then
               local xrow = xb + h * a1
               for u = 0, kW - 1 do
                  local off = u - pW
                  local j0, j1 = columns(off, dW, a1, a3)
                  for j = j0, j1 do p1[yo + j] = p1[yo + j] + p0[xrow + j * dW + off] end
               end
            end
         end
         for j = 0, a3 - 1 do
            p1[yo + j] = p1[yo + j] / divisor(i, j, a0, a1, kH, kW, dH, dW, pH, pW, a7)
         end
      end
   end]], 16384, 1, nil, AVGPRELUDE)

local AVGBACKWARD = shared.loop('avgpoolgrad', [[
   local kH, kW = unpack2(a4)
   local dH, dW = unpack2(a5)
   local pH, pW = unpack2(a6)
   local share = ffi.new('double[?]', a3)
   for p = a, b - 1 do
      local gb, ob = p * a0 * a1, p * a2 * a3
      for k = gb, gb + a0 * a1 - 1 do p0[k] = 0 end
      for i = 0, a2 - 1 do
         local go = ob + i * a3
         for j = 0, a3 - 1 do
            share[j] = rd(p1[go + j] / divisor(i, j, a0, a1, kH, kW, dH, dW, pH, pW, a7))
         end
         for t = 0, kH - 1 do
            local h = i * dH - pH + t
            if h >= 0 and h < a0 then
               local grow = gb + h * a1
               for u = kW - 1, 0, -1 do
                  local off = u - pW
                  local j0, j1 = columns(off, dW, a1, a3)
                  for j = j0, j1 do
                     local k = grow + j * dW + off
                     p0[k] = p0[k] + share[j]
                  end
               end
            end
         end
      end
   end]], 16384, 1, nil, AVGPRELUDE)

-- the packed numbers of a 2D pooling's geometry, or nil (not 2D, dilated,
-- or a size beyond the packing)
local function packed(g)
   if #g.k ~= 2 or g.dil and (g.dil[1] ~= 1 or g.dil[2] ~= 1) then return nil end
   for _, v in ipairs{g.k[1], g.k[2], g.s[1], g.s[2], g.pad[1], g.pad[2]} do
      if v >= 4096 then return nil end
   end
   return g.k[1] * 4096 + g.k[2], g.s[1] * 4096 + g.s[2], g.pad[1] * 4096 + g.pad[2]
end

-- avgloop(L, input, sizes, t0, t1, g, includepad) -> true when loop L ran
-- over tensors t0 (its p0) and t1 (p1), contiguous Float/Double ones with a
-- packable 2D geometry, else false: numpy's turn
local function avgloop(L, input, sizes, t0, t1, g, includepad)
   local k, st, pad = packed(g)
   local ptr = k and LOWEST[torch.type(input)] and pointers(t0, t1)
   if not ptr then return false end
   local np, H, W, oH, oW = planes(input, sizes)
   shared.run(L, checks.ctype(input), np, np * H * W, ptr[1], ptr[2], nil, nil,
              H, W, oH, oW, k, st, pad, includepad and 1 or 0)
   return true
end

function P.avgforward(input, output, g, ceilmode, includepad)
   local sizes = P.shapes(input, nil, g, ceilmode)
   S.resize(output, sizes)
   if not avgloop(AVGFORWARD, input, sizes, input, output, g, includepad) then
      call(py.nn_avgpool_forward, nd(output), nd(input), flat(g), includepad, #g.k)
   end
end

function P.avgbackward(input, gradOutput, gradInput, g, ceilmode, includepad)
   local sizes = P.shapes(input, gradOutput, g, ceilmode)
   S.resizeas(gradInput, input)
   if not avgloop(AVGBACKWARD, input, sizes, gradInput, gradOutput, g, includepad) then
      call(py.nn_avgpool_backward, nd(gradInput), nd(gradOutput), flat(g), includepad, #g.k)
   end
end

return P
