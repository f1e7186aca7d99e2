-- Max and average pooling over d = 1, 2 or 3 spatial dimensions, shared by
-- the Spatial/Volumetric/Temporal pooling families.  Geometry as in
-- thnn/conv.lua ({k, s, pad, dil}, tensor axis order).  The indices tensor
-- holds what THNN stored there, in one of three formats (nn_spatial._encode):
-- 'flat' (Spatial: 1-based index in the input plane), 'packed' (Volumetric:
-- the t, h, w offsets in the window as bytes), 'tap' (Temporal: 0-based offset,
-- -1 for none; its windows are taps along H, one in T and W).
local ffi = require 'ffi'
local torch = require 'torch'
local S = require 'thnn.spatial'
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'

local py, nd, call, flat = S.py, S.nd, S.call, S.flat
local concat = table.concat

local P = {}

-- positive(v, argn, what, prefix): THNN's THArgCheck that every one of v
-- (tensor axis order: T, H, W) is above 0, "prefixT: 1 prefixH: 2 prefixW: 3"
local AXES = {[2] = {'H', 'W'}, [3] = {'T', 'H', 'W'}}
local function positive(v, argn, what, prefix)
   for i = 1, #v do
      if v[i] <= 0 then
         local got = {}
         for j = 1, #v do got[j] = ('%s%s: %d'):format(prefix, AXES[#v][j], v[j]) end
         S.argerror(argn, '%s, but got %s', what, concat(got, ' '))
      end
   end
end

-- THNN's checks of a pooling's arguments and input; returns the output's sizes
function P.shapes(input, gradOutput, g, ceilmode)
   local d = #g.k
   if d == 1 then
      for i = 1, d do
         if g.k[i] <= 0 or g.s[i] <= 0 then
            S.argerror(2, 'kernel size and stride should be greater than zero, but got %s',
                       'k: ' .. concat(g.k, ' ') .. ' d: ' .. concat(g.s, ' '))
         end
      end
   else
      -- THNN's checks in turn, in its words and argument numbers: kernel,
      -- stride, dilation (a dilation of 0 too, which th had taken)
      positive(g.k, 5, 'kernel size should be greater than zero', 'k')
      positive(g.s, 8, 'stride should be greater than zero', 'd')
      if g.dil then
         positive(g.dil, d == 2 and 12 or 14, d == 2 and 'dilation should be greater than zero'
                  or 'dilation should be greater than 0', 'dilation')
      end
   end
   local halves = true
   for i = 1, d do
      if g.pad[i] < 0 or g.pad[i] > g.k[i] / 2 then halves = false end
   end
   if not halves then
      -- (THNN's words: the volumetric kernels' list of their own)
      if d == 3 then
         S.argerror(2, 'pad should be smaller than half of kernel size, but got kT: %d kW: %d, kH: %d, '
                    .. 'padT: %d, padW: %d, padH: %d', g.k[1], g.k[3], g.k[2], g.pad[1], g.pad[3], g.pad[2])
      end
      local names = d == 2 and {'H', 'W'} or {'W'}
      local p, k = {}, {}
      for i = d, 1, -1 do
         p[#p + 1] = ('pad%s = %d'):format(names[i], g.pad[i])
         k[#k + 1] = ('k%s = %d'):format(names[i], g.k[i])
      end
      S.argerror(2, 'pad should be smaller than half of kernel size, but got %s, %s', concat(p, ', '), concat(k, ', '))
   end
   local first = S.checkinput(input, d, 2, d == 3)
   local osz = S.outsizes(input, first, g.k, g.s, g.pad, g.dil, ceilmode, nil, 'x')
   local sizes = S.outshape(input, first, S.size(input, first), osz)
   if gradOutput then S.checkgrad(gradOutput, sizes, nil, first) end
   return sizes
end

local LOWEST = {['torch.FloatTensor'] = -3.4028234663852886e38, ['torch.DoubleTensor'] = -1.7976931348623157e308}

-- Spatial max pooling over windows of more than TAPS taps (below), a loop
-- of comparisons over the FFI data of contiguous tensors (numpy needs
-- several passes per kernel tap).  x, y, ind point to planes x H x W and
-- planes x oH x oW.
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

-- Max pooling of one geometry (a Spatial one as T = 1 of three axes T, H,
-- W) without a branch on the data, its text written out and compiled once
-- (LuaJIT's side exits on "v > best", taken at random, made a loop of
-- comparisons 12x slower than THNN).  Per window, in THNN's order of its
-- taps, m = math.max(v, m) (v > m and v or m: a NaN never wins, the first
-- of equal values stays) and q, the ordinal of the last tap above all
-- before it, in units U: with the difference d = v - m (a double's times
-- 2^80) at least TAPS U when positive (a float's smallest difference is
-- 2^-149, a double's 2^-1074), min(N U, d) is N U when v > m, else below
-- 0, 0 or NaN; as ordinals grow tap after tap, q = max(min(N U, d), q)
-- (max(NaN, q) is q).  PLACE[q / U] is what the indices tensor holds (0:
-- no max).  Windows inside the input read their taps at constant offsets;
-- the others read them clamped into it, each capped at the lowest number
-- when outside (min(cap, v): the lowest never wins, NaN and -inf stay),
-- the offsets and caps of their rows and columns from tables.
-- Windows of up to TAPS taps.
local TAPS = 64
local NOPLACE = 0xFFFFFF   -- 'packed' with no max: each offset byte -1

local WINDOWS = [[
   for p = a, b - 1 do
      local xb, ob = p * $PLANE, p * $OPLANE
      for t = 0, $OT - 1 do
         for i = 0, $OH - 1 do
            local o, t0, h0 = ob + (t * $OH + i) * $OW, t * $ST - $PT, i * $SH - $PH
            local k0 = xb + (t0 * $H + h0) * $W - $PW   -- window j's corner: k0 + j * $SW
            -- the windows j0 to j1 of this output row are inside the input
            local j0, j1 = 0, -1
            if t >= $T0 and t <= $T1 and i >= $I0 and i <= $I1 then j0, j1 = $J0, $J1 end
            for j = j0, j1 do
               local k, m, q = k0 + j * $SW, LOWEST, 0
               local w = p0 + k
$INSIDE
               local n = q * $INVERSE
               p1[o + j], p2[o + j] = m, $INDEX
            end
            -- the others, j below j0 or above j1
            local inside, f = j1 - j0 + 1, (t * $OH + i) * $KTH
            for u = 0, $OW - 1 - inside do
               local j = u + inside * min(max(u - j0 + 1, 0), 1)
               local k, m, q, e = k0 + j * $SW, LOWEST, 0, j * $KW
$ROWS
$COLUMNS
$EDGE
               local n = q * $INVERSE
               p1[o + j], p2[o + j] = m, $INDEX
            end
         end
      end
   end]]

local WINDOWPRELUDE = [[
local LOWEST, min, max = $LOWEST, math.min, math.max
local PLACE = ffi.new('double[$TAPS]', {$PLACES})
-- coordinate c of an axis of n places clamped into them, and the cap of a
-- tap there: huge inside, else LOWEST
local function clamp(c, n)
   if c < 0 or c >= n then return min(max(c, 0), n - 1), LOWEST end
   return c, huge
end
-- the offsets in the plane of output row (t, i)'s windows' rows of taps
-- clamped into it, and their caps (from (t * $OH + i) * $KTH)
local ROW, ROWCAP = ffi.new('double[$ROWCOUNT]'), ffi.new('double[$ROWCOUNT]')
for t = 0, $OT - 1 do
   for i = 0, $OH - 1 do
      for a = 0, $KT - 1 do
         for b = 0, $KH - 1 do
            local tc, tx = clamp(t * $ST - $PT + a * $LT, $T)
            local hc, hx = clamp(i * $SH - $PH + b * $LH, $H)
            local r = (t * $OH + i) * $KTH + a * $KH + b
            ROW[r], ROWCAP[r] = (tc * $H + hc) * $W, min(tx, hx)
         end
      end
   end
end
-- the columns of window j's taps clamped into the plane, and their caps
-- (from j * $KW)
local COLUMN, CAP = ffi.new('double[$OWK]'), ffi.new('double[$OWK]')
for j = 0, $OW - 1 do
   for c = 0, $KW - 1 do
      COLUMN[j * $KW + c], CAP[j * $KW + c] = clamp(j * $SW - $PW + c * $LW, $W)
   end
end]]

-- what a tap does (%s: its N U), inside the input and across its edge
local TAP = 'q = max(min(%s, $DIFF), q); m = max(v, m)'
local INSIDE = '               do local v = w[%d]; ' .. TAP .. ' end'
local EDGE = '               do local v = min(min(x%d_%d, cx%d), p0[xb + r%d_%d + c%d]); ' .. TAP .. ' end'
local ROW = '               local r%d_%d, x%d_%d = ROW[f + %d], ROWCAP[f + %d]'
local COLUMN = '               local c%d, cx%d = COLUMN[e + %d], CAP[e + %d]'
-- per element type: d, U, the lowest number
local TYPES = {float = {DIFF = 'v - m', unit = 2 ^ -170, LOWEST = '-3.4028234663852886e38'},
               double = {DIFF = '(v - m) * 2 ^ 80', unit = 2 ^ -1010, LOWEST = '-1.7976931348623157e308'}}

-- the pooling's geometry as three axes T, H, W (a 2D one has T of 1):
-- per axis the input and output sizes, kernel, stride, padding, dilation
-- and the outputs whose windows are inside the input, first to last
local function axes(g, input, sizes)
   local d = #g.k
   local A = {}
   for x = 1, 3 do
      local i = x - 3 + d
      local a = {n = 1, o = 1, k = 1, s = 1, p = 0, l = 1}
      if i >= 1 then
         a = {n = input:size(input:dim() - d + i), o = sizes[#sizes - d + i], k = g.k[i], s = g.s[i],
              p = g.pad[i], l = g.dil and g.dil[i] or 1}
      end
      a.first = math.ceil(a.p / a.s)
      a.last = math.min(a.o - 1, math.floor((a.n - 1 - (a.k - 1) * a.l + a.p) / a.s))
      A[x] = a
   end
   return A
end

-- the numbers a geometry's texts name
local function numbers(A)
   local T, H, W = A[1], A[2], A[3]
   local inside = T.first <= T.last and H.first <= H.last and W.first <= W.last
   return {PLANE = T.n * H.n * W.n, OPLANE = T.o * H.o * W.o, T = T.n, H = H.n, W = W.n, OT = T.o, OH = H.o, OW = W.o,
           ST = T.s, SH = H.s, SW = W.s, PT = T.p, PH = H.p, PW = W.p, LT = T.l, LH = H.l, LW = W.l,
           KT = T.k, KH = H.k, KW = W.k, KTH = T.k * H.k, OWK = W.o * W.k, ROWCOUNT = T.o * H.o * T.k * H.k,
           TSTEP = T.l * H.n * W.n, HSTEP = H.l * W.n,
           T0 = inside and T.first or 1, T1 = inside and T.last or 0, I0 = H.first, I1 = H.last,
           J0 = W.first, J1 = W.last}
end

local function fill(text, N)
   return (text:gsub('%$(%u+%d?)', N))
end

-- the key of a geometry's loops
local function keyof(N)
   return concat({N.PLANE, N.T, N.H, N.W, N.OT, N.OH, N.OW, N.ST, N.SH, N.SW, N.PT, N.PH, N.PW,
                  N.LT, N.LH, N.LW, N.KT, N.KH, N.KW}, ',')
end

-- what the indices tensor holds in format fmt for tap ordinal n (1 to K, 0:
-- none) at offset `offset` in the plane from its window's corner, a, b, c
-- taps along T, H, W
local function place(fmt, n, offset, a, b, c)
   if fmt == 'flat' then return n == 0 and 0 or offset + 1 end
   if fmt == 'tap' then return n - 1 end
   return n == 0 and NOPLACE or a + 256 * b + 65536 * c
end

-- the texts of a geometry's taps (N.INSIDE, N.ROWS, N.COLUMNS, N.EDGE) in
-- units U, and PLACE's (for tap ordinals 0, none, to K: the index THNN
-- stored)
local function taps(fmt, A, N, U)
   local inside, rows, columns, edge, places = {}, {}, {}, {}, {place(fmt, 0)}
   for c = 0, A[3].k - 1 do columns[c + 1] = COLUMN:format(c, c, c, c) end
   for a = 0, A[1].k - 1 do
      for b = 0, A[2].k - 1 do
         rows[#rows + 1] = ROW:format(a, b, a, b, #rows, #rows)
         for c = 0, A[3].k - 1 do
            local n, offset = #inside + 1, a * N.TSTEP + b * N.HSTEP + c * A[3].l
            local nu = ('%.17g'):format(n * U)
            inside[n] = INSIDE:format(offset, nu)
            edge[n] = EDGE:format(a, b, c, a, b, c, nu)
            places[n + 1] = place(fmt, n, offset, a, b, c)
         end
      end
   end
   N.INSIDE, N.ROWS, N.COLUMNS, N.EDGE = concat(inside, '\n'), concat(rows, '\n'), concat(columns, '\n'),
                                         concat(edge, '\n')
   N.TAPS, N.PLACES = #places, concat(places, ', ')
end

-- the loop of one geometry and index format, or false (windows of more
-- than TAPS taps); kept per geometry
local windowloops = {}
local function windowloop(fmt, A)
   local N = numbers(A)
   local key = fmt .. keyof(N)
   local L = windowloops[key]
   if L ~= nil then return L end
   L = false
   if A[1].k * A[2].k * A[3].k <= TAPS then
      N.INDEX = fmt == 'flat' and 'PLACE[n] + (k - xb) * min(n, 1)' or 'PLACE[n]'
      -- (the inserted texts name numbers too: filled twice)
      local body, prelude = {}, {}
      for ctype, T in pairs(TYPES) do
         taps(fmt, A, N, T.unit)
         N.DIFF, N.LOWEST, N.INVERSE = T.DIFF, T.LOWEST, ('%.17g'):format(1 / T.unit)
         body[ctype], prelude[ctype] = fill(fill(WINDOWS, N), N), fill(fill(WINDOWPRELUDE, N), N)
      end
      L = shared.loop('maxpool ' .. key, body, 16384, 1, {[2] = 'int64_t'}, prelude)
   end
   windowloops[key] = L
   return L
end

-- planes [a, b) of gradInput (p0, $PLANE elements each of a1 bytes)
-- zeroed, then += gradOutput (p1) at the places the indices (p2; p3: their
-- bytes, little-endian as THNN wrote them) name from the corners of their
-- windows ($PLACE: when the index names one, local k from the corner): a
-- place outside its plane sets the int32 at address a0.  (One loop over a
-- plane's outputs: loops over their rows took twice as long, 8 outputs long
-- in VolumetricMaxPooling(2).)
local PLACESBACK = [[
   local invalid = ffi.cast('int32_t *', a0)
   for p = a, b - 1 do
      local gb, ob = p * $PLANE, p * $OPLANE
      ffi.fill(p0 + gb, $PLANE * a1)
      for r = 0, $OPLANE - 1 do
         local o = ob + r
         $PLACE
            if k >= 0 and k < $PLANE then
               p0[gb + k] = p0[gb + k] + p1[o]
            else
               invalid[0] = 1
            end
         end
      end
   end]]
-- per format: 'packed' names none by NOPLACE, else the tap's t, h, w offsets
-- as bytes; 'tap' none by -1, else its offset along H
local PLACES = {
   packed = [[if p2[o] ~= NOPLACE then
            local c = 8 * o
            local k = CORNER[r] + p3[c] * $TSTEP + p3[c + 1] * $HSTEP + p3[c + 2] * $LW]],
   tap = [[local tap = tonumber(p2[o])
         if tap ~= -1 then
            local k = CORNER[r] + tap * $HSTEP]],
}

-- its prelude: each output's window corner (its place, maybe outside)
local CORNERS = [[
local NOPLACE = $NOPLACE
local CORNER = ffi.new('double[$OPLANE]')
for t = 0, $OT - 1 do
   for i = 0, $OH - 1 do
      for j = 0, $OW - 1 do
         CORNER[(t * $OH + i) * $OW + j] = ((t * $ST - $PT) * $H + i * $SH - $PH) * $W + j * $SW - $PW
      end
   end
end]]

local placesbacks = {}
local function placesback(fmt, A)
   local N = numbers(A)
   local key = fmt .. keyof(N)
   local L = placesbacks[key]
   if not L then
      N.NOPLACE, N.PLACE = NOPLACE, PLACES[fmt]
      -- (the inserted text names numbers too: filled twice)
      L = shared.loop('maxpoolgrad ' .. key, fill(fill(PLACESBACK, N), N), 16384, 1,
                      {[2] = 'int64_t', [3] = 'uint8_t'}, fill(CORNERS, N))
      placesbacks[key] = L
   end
   return L
end

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

-- maxloop, one copy per element type (checks.pertype says why)
local MAXLOOP = checks.pertype(maxloop)

-- whether the LuaJIT loops take these tensors: Float/Double, Long indices
local function maxtypes(input, indices)
   return LOWEST[torch.type(input)] and torch.type(indices) == 'torch.LongTensor'
end

-- the pointers of contiguous Float/Double tensors and Long indices, or nil
local function maxpointers(input, indices, ...)
   return maxtypes(input, indices) and pointers(...)
end

-- P.maxwindows(input, output, indices, g, sizes, fmt) -> whether the window
-- loop of g (above) took the max pooling: Float/Double tensors (strided
-- ones through contiguous copies), Long indices, windows of up to TAPS
-- taps; sizes: the output's
function P.maxwindows(input, output, indices, g, sizes, fmt)
   if not maxtypes(input, indices) or input:nElement() == 0 then return false end
   local A = axes(g, input, sizes)
   local L = windowloop(fmt, A)
   if not L then return false end
   local x, y, ind = input:contiguous(), checks.writable(output), checks.writable(indices)
   shared.run(L, checks.ctype(input), input:nElement() / (A[1].n * A[2].n * A[3].n), input:nElement(),
              x:data(), y:data(), ind:data())
   checks.settle(output, y)
   checks.settle(indices, ind)
   return true
end

-- P.maxplaces(input, gradOutput, gradInput, indices, g, sizes, fmt) ->
-- whether a LuaJIT loop took the gradient (the tensors as maxwindows');
-- an index naming a place outside its plane fails as numpy did
function P.maxplaces(input, gradOutput, gradInput, indices, g, sizes, fmt)
   -- (indices of another size: numpy's error)
   if indices:nElement() ~= gradOutput:nElement() or not maxtypes(input, indices) or input:nElement() == 0 then
      return false
   end
   local go, ind, gi = gradOutput:contiguous(), indices:contiguous(), checks.writable(gradInput)
   invalid[0] = 0
   if fmt == 'flat' then
      local np, H, W, oH, oW = planes(input, sizes)
      shared.run(MAXBACK, checks.ctype(input), np, np * H * W, gi:data(), go:data(), ind:data(), invalid, H * W,
                 oH * oW, gradInput:elementSize())
      if invalid[0] ~= 0 then S.fail('Found an invalid max index (input planes are of size %dx%d)', H, W) end
   else
      local A = axes(g, input, sizes)
      local plane = A[1].n * A[2].n * A[3].n
      shared.run(placesback(fmt, A), checks.ctype(input), input:nElement() / plane, input:nElement(), gi:data(),
                 go:data(), ind:data(), ffi.cast('uint8_t *', ind:data()), tonumber(ffi.cast('intptr_t', invalid)),
                 gradInput:elementSize())
      if invalid[0] ~= 0 then S.fail('Found an invalid max index (input planes have %d elements)', plane) end
   end
   checks.settle(gradInput, gi)
   return true
end

function P.maxforward(input, output, indices, g, ceilmode, fmt)
   local sizes = P.shapes(input, nil, g, ceilmode)
   S.resize(output, sizes)
   S.resize(indices, sizes)
   if P.maxwindows(input, output, indices, g, sizes, fmt) then return end
   local ptr = fmt == 'flat' and maxpointers(input, indices, input, output, indices)
   if ptr then
      local np, H, W, oH, oW = planes(input, sizes)
      local lowest = LOWEST[torch.type(input)]
      MAXLOOP(lowest)(ptr[1], ptr[2], ptr[3], np, H, W, oH, oW, g, lowest)
   else
      call(py.nn_maxpool_forward, nd(output), nd(indices), nd(input), flat(g), fmt, #g.k)
   end
end

function P.maxbackward(input, gradOutput, gradInput, indices, g, ceilmode, fmt)
   local sizes = P.shapes(input, gradOutput, g, ceilmode)
   gradOutput = S.firstrows(gradOutput, #sizes == #g.k + 2 and sizes[1] or nil)
   S.resizeas(gradInput, input)
   if not P.maxplaces(input, gradOutput, gradInput, indices, g, sizes, fmt) then
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
local min, max, abs = math.min, math.max, math.abs
-- the window geometry of the packed numbers
local function unpack2(v) return floor(v / 4096), v % 4096 end
-- the divisor of window (i, j) of an H x W input (its magnitude: a window
-- past the input's end in ceil mode counts a negative number of places,
-- and its mean is +0 in THNN)
local function divisor(i, j, H, W, kH, kW, dH, dW, pH, pW, includepad)
   local hs, ws = i * dH - pH, j * dW - pW
   local he, we = min(hs + kH, H + pH), min(ws + kW, W + pW)
   if includepad ~= 0 then return abs((he - hs) * (we - ws)) end
   return abs((min(he, H) - max(hs, 0)) * (min(we, W) - max(ws, 0)))
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
   gradOutput = S.firstrows(gradOutput, #sizes == #g.k + 2 and sizes[1] or nil)
   S.resizeas(gradInput, input)
   if not avgloop(AVGBACKWARD, input, sizes, gradInput, gradOutput, g, includepad) then
      call(py.nn_avgpool_backward, nd(gradInput), nd(gradOutput), flat(g), includepad, #g.k)
   end
end

return P
