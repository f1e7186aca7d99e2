-- SpatialAdaptiveMaxPooling: the max over oheight x owidth cells tiling the
-- image, found as THNN did: row by row, the first element greater than all
-- before it and than -FLT_MAX, where the search starts (a NaN never is; a
-- cell without one gives -FLT_MAX).  Cell i of o along n elements covers
-- [floor(i / o * n), ceil((i + 1) / o * n)), computed in float as THNN's
-- macros did (3.2 rounds to 2.99...: 29 / 50 * 200 starts at 115, not 116).
-- indices are 2 x (output's sizes): the 1-based row and column of the max in
-- its cell, stored from its place p in the cell (row-major; -1 for none) as
-- C's p / kw + 1 and p % kw + 1 (none: row 1, column 0, or row 0, column 1
-- in a cell one column wide).  LuaJIT loops, a plane at a time (thnn.shared:
-- many shared with helper threads).
local ffi = require 'ffi'
local S = require 'thnn.spatial'
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local f32 = require('torch.maths.kernels').f32

local K = {}

-- cell j of o along n: its first element and the one past its last
local CELL = [[
local function cell(j, n, o)
   return floor(f32(f32(j / o) * n)), ceil(f32(f32((j + 1) / o) * n))
end
-- the row and column THNN stored for place q of a cell kw wide
local function rowcol(q, kw)
   if q >= 0 then return floor(q / kw) + 1, q % kw + 1 end
   if kw == 1 then return 0, 1 end
   return 1, 0
end
]]
local cell, rowcol = setfenv(assert(loadstring(CELL .. 'return cell, rowcol', '=thnn.adaptivemax')),
                             {floor = math.floor, ceil = math.ceil, f32 = f32})()

-- planes of a0 x a1 (p0) into a2 x a3 maxima (p1), rows p2 and columns p3
-- (any geometry)
local FORWARD = shared.loop('adaptivemax', [[
   local LOWEST = -3.4028234663852886e38   -- -FLT_MAX
   for r = a, b - 1 do
      local src, dst = r * a0 * a1, r * a2 * a3
      for i = 0, a2 - 1 do
         local y0, y1 = cell(i, a0, a2)
         for j = 0, a3 - 1 do
            local x0, x1 = cell(j, a1, a3)
            local kw = x1 - x0
            local best, q = LOWEST, -1
            for y = y0, y1 - 1 do
               local line = src + y * a1
               for x = x0, x1 - 1 do
                  local v = p0[line + x]
                  if v > best then best, q = v, (y - y0) * kw + x - x0 end
               end
            end
            local o = dst + i * a3 + j
            p1[o] = best
            p2[o], p3[o] = rowcol(q, kw)
         end
      end
   end]], 16384, 1, {[2] = 'int64_t', [3] = 'int64_t'}, CELL)

-- The same for one geometry, without a branch on the data (LuaJIT's side
-- exits on "v > best", taken at random, made the loop above 3.5x slower than
-- THNN): an output row's cells walked together, row by row of their input
-- rows, each input row's elements written out.  Per cell j, mJ is the max so
-- far (math.max(v, m) is v > m and v or m, as THNN's test) and qJ the place
-- of the first element above all before it: u = 1 when v > mJ, else 0 (NaN
-- too: math.max(NaN, 0) is 0), from the difference scaled past 1 (the
-- smallest subnormal times 2^1200), and qJ += (place - qJ) u.  Rows of up to
-- WRITTEN elements over all cells, up to CELLS cells (three locals each: a
-- function has at most 200).
local WRITTEN, CELLS = 160, 32
local ROW = [[
   local LOWEST = -3.4028234663852886e38
   local S = 2^600
   local min, max = math.min, math.max
   for r = a, b - 1 do
      local src, dst = r * $H * $W, r * $OH * $OW
      for i = 0, $OH - 1 do
         local y0, y1 = cell(i, $H, $OH)
         $INIT
         for y = y0, y1 - 1 do
            local l, ry = src + y * $W, y - y0
            $CELLS
         end
         local o = dst + i * $OW
         $STORE
      end
   end]]

local rowloops = {}
local function rowloop(h, w, oh, ow)
   local key = table.concat({h, w, oh, ow}, ',')
   local L = rowloops[key]
   if L ~= nil then return L end
   local width = 0
   for j = 0, ow - 1 do
      local x0, x1 = cell(j, w, ow)
      width = width + x1 - x0
   end
   L = false
   if width <= WRITTEN and ow <= CELLS then
      local init, cells, store = {}, {}, {}
      for j = 0, ow - 1 do
         local x0, x1 = cell(j, w, ow)
         local kw = x1 - x0
         init[#init + 1] = ('local m%d, q%d = LOWEST, -1'):format(j, j)
         cells[#cells + 1] = ('local k%d = ry * %d'):format(j, kw)
         for x = x0, x1 - 1 do
            cells[#cells + 1] = ('do local v = p0[l + %d]; local u = min(max((v - m%d) * S * S, 0), 1); '
                                 .. 'q%d = q%d + (k%d + %d - q%d) * u; m%d = max(v, m%d) end')
                                :format(x, j, j, j, j, x - x0, j, j, j)
         end
         store[#store + 1] = ('p1[o + %d] = m%d; p2[o + %d], p3[o + %d] = rowcol(q%d, %d)'):format(j, j, j, j, j, kw)
      end
      local body = ROW:gsub('%$(%w+)', {H = h, W = w, OH = oh, OW = ow, INIT = table.concat(init, '\n'),
                                       CELLS = table.concat(cells, '\n'), STORE = table.concat(store, '\n')})
      L = shared.loop('adaptivemax rows', body, 16384, 1, {[2] = 'int64_t', [3] = 'int64_t'}, CELL)
   end
   rowloops[key] = L
   return L
end

-- gradInput planes of a0 x a1 (p0) = gradOutput (p1, a2 x a3) added at the
-- places of rows p2 and columns p3; a cell without a max adds nowhere, a
-- place outside its cell sets the int32 at address a4 (each plane zeroed by
-- the thread that adds into it).  a5: the address of the cells' bounds
-- (int32: a2 pairs of rows, then a3 pairs of columns, bounds(): cell() once);
-- a6: the bytes of an element
local BACKWARD = shared.loop('adaptivemaxgrad', [[
   local invalid, bound = ffi.cast('int32_t *', a4), ffi.cast('int32_t *', a5)
   for r = a, b - 1 do
      local dst, src = r * a0 * a1, r * a2 * a3
      ffi.fill(p0 + dst, a0 * a1 * a6)
      for i = 0, a2 - 1 do
         local y0, kh = bound[2 * i], bound[2 * i + 1] - bound[2 * i]
         for j = 0, a3 - 1 do
            local x0, kw = bound[2 * (a2 + j)], bound[2 * (a2 + j) + 1] - bound[2 * (a2 + j)]
            local o = src + i * a3 + j
            local row, col = tonumber(p2[o]), tonumber(p3[o])
            if row >= 1 and row <= kh and col >= 1 and col <= kw then
               local k = dst + (y0 + row - 1) * a1 + x0 + col - 1
               p0[k] = p0[k] + p1[o]
            elseif (row - 1) * kw + col ~= 0 then
               invalid[0] = 1
            end
         end
      end
   end]], 16384, 1, {[2] = 'int64_t', [3] = 'int64_t'})

-- the bounds BACKWARD reads for h x w in oh x ow cells (kept per geometry)
local boundsof = {}
local function bounds(h, w, oh, ow)
   local key = table.concat({h, w, oh, ow}, ',')
   local b = boundsof[key]
   if not b then
      b = ffi.new('int32_t[?]', 2 * (oh + ow))
      for i = 0, oh - 1 do b[2 * i], b[2 * i + 1] = cell(i, h, oh) end
      for j = 0, ow - 1 do b[2 * (oh + j)], b[2 * (oh + j) + 1] = cell(j, w, ow) end
      boundsof[key] = b
   end
   return b
end
local invalid = ffi.new('int32_t[1]')

function K.SpatialAdaptiveMaxPooling_updateOutput(state, input, output, indices, owidth, oheight)
   local first, planes, h, w = S.planes(input)
   local sizes = S.outshape(input, first, S.size(input, first), {oheight, owidth})
   local isz = {2}
   for i = 1, #sizes do isz[i + 1] = sizes[i] end
   S.resize(indices, isz)
   S.resize(output, sizes)
   local x = input:contiguous()
   local cells = planes * oheight * owidth
   checks.into(indices, function(idx)
      checks.into(output, function(y)
         local rows = idx:data()
         shared.run(rowloop(h, w, oheight, owidth) or FORWARD, checks.ctype(x), planes, planes * h * w, x:data(),
                    y:data(), rows, rows + cells, h, w, oheight, owidth)
      end)
   end)
end

function K.SpatialAdaptiveMaxPooling_updateGradInput(state, input, gradOutput, gradInput, indices)
   local _, planes, h, w = S.planes(input)
   local oh, ow = indices:size(indices:dim() - 1), indices:size(indices:dim())
   local cells = planes * oh * ow
   if indices:nElement() ~= 2 * cells or gradOutput:nElement() ~= cells then
      checks.fail('gradOutput and indices do not match the output of %d planes of %d x %d', planes, oh, ow)
   end
   local idx, g = indices:contiguous(), gradOutput:contiguous()
   local rows = idx:data()
   S.resizeas(gradInput, input)
   local gi = checks.writable(gradInput)
   invalid[0] = 0
   shared.run(BACKWARD, checks.ctype(input), planes, planes * h * w, gi:data(), g:data(), rows, rows + cells,
              h, w, oh, ow, tonumber(ffi.cast('intptr_t', invalid)),
              tonumber(ffi.cast('intptr_t', bounds(h, w, oh, ow))), gi:elementSize())
   if invalid[0] ~= 0 then checks.fail('Found an invalid max index (a row or column outside its cell)') end
   checks.settle(gradInput, gi)
end

return K
