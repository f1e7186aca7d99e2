-- SpatialAdaptiveMaxPooling: the max over oheight x owidth cells tiling the
-- image (cell i covers [floor(i*n/o), ceil((i+1)*n/o))), found as THNN did:
-- row by row, the first element greater than all before it and than
-- -FLT_MAX, where the search starts (a NaN never is; a cell without one
-- gives -FLT_MAX).  indices are 2 x (output's sizes): the 1-based row and
-- column of the max in its cell (row 1, column 0 when there is none).
-- LuaJIT loops, a plane at a time (thnn.shared: many shared with helper
-- threads).
local S = require 'thnn.spatial'
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'

local K = {}

-- planes of a0 x a1 (p0) into a2 x a3 maxima (p1), rows p2 and columns p3
local FORWARD = shared.loop('adaptivemax', [[
   local LOWEST = -3.4028234663852886e38   -- -FLT_MAX
   for r = a, b - 1 do
      local src, dst = r * a0 * a1, r * a2 * a3
      for i = 0, a2 - 1 do
         local y0, y1 = floor(i * a0 / a2), ceil((i + 1) * a0 / a2)
         for j = 0, a3 - 1 do
            local x0, x1 = floor(j * a1 / a3), ceil((j + 1) * a1 / a3)
            local best, row, col = LOWEST, 1, 0
            for y = y0, y1 - 1 do
               local line = src + y * a1
               for x = x0, x1 - 1 do
                  local v = p0[line + x]
                  if v > best then best, row, col = v, y - y0 + 1, x - x0 + 1 end
               end
            end
            local o = dst + i * a3 + j
            p1[o], p2[o], p3[o] = best, row, col
         end
      end
   end]], 16384, 1, {[2] = 'int64_t', [3] = 'int64_t'})

-- gradInput planes of a0 x a1 (p0) = gradOutput (p1, a2 x a3) added at the
-- places of rows p2 and columns p3 (checked before)
local BACKWARD = shared.loop('adaptivemaxgrad', [[
   for r = a, b - 1 do
      local dst, src = r * a0 * a1, r * a2 * a3
      for k = dst, dst + a0 * a1 - 1 do p0[k] = 0 end
      for i = 0, a2 - 1 do
         local y0 = floor(i * a0 / a2)
         for j = 0, a3 - 1 do
            local o = src + i * a3 + j
            local col = tonumber(p3[o])
            if col ~= 0 then
               local k = dst + (y0 + tonumber(p2[o]) - 1) * a1 + floor(j * a1 / a3) + col - 1
               p0[k] = p0[k] + p1[o]
            end
         end
      end
   end]], 16384, 1, {[2] = 'int64_t', [3] = 'int64_t'})

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
         shared.run(FORWARD, checks.ctype(x), planes, planes * h * w, x:data(), y:data(), rows, rows + cells,
                    h, w, oheight, owidth)
      end)
   end)
end

-- every place indices name is inside its cell (the loops index memory with them)
local function checkplaces(rows, cols, h, w, oh, ow, planes)
   for i = 0, oh - 1 do
      local kh = math.ceil((i + 1) * h / oh) - math.floor(i * h / oh)
      for j = 0, ow - 1 do
         local kw = math.ceil((j + 1) * w / ow) - math.floor(j * w / ow)
         for r = 0, planes - 1 do
            local o = (r * oh + i) * ow + j
            local row, col = tonumber(rows[o]), tonumber(cols[o])
            if col ~= 0 and (row < 1 or row > kh or col < 1 or col > kw) then
               checks.fail('Found an invalid max index (row %d, column %d in a cell of %d x %d)', row, col, kh, kw)
            end
         end
      end
   end
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
   checkplaces(rows, rows + cells, h, w, oh, ow, planes)
   S.resizeas(gradInput, input)
   checks.into(gradInput, function(gi)
      shared.run(BACKWARD, checks.ctype(input), planes, planes * h * w, gi:data(), g:data(), rows, rows + cells,
                 h, w, oh, ow)
   end)
end

return K
