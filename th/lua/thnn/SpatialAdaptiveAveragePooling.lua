-- SpatialAdaptiveAveragePooling: the mean over oheight x owidth cells tiling
-- the image (cell i covers [floor(i*n/o), ceil((i+1)*n/o))), as THNN took
-- it: the cell's sum element by element in the element type, divided by its
-- width then its height (each quotient rounded); the gradient likewise,
-- added cell by cell (cells overlap).  LuaJIT loops, a plane at a time
-- (thnn.shared: many shared with helper threads).
local S = require 'thnn.spatial'
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'

local K = {}

-- planes of a0 x a1 (p0) into a2 x a3 means (p1)
local FORWARD = shared.loop('adaptiveavg', [[
   for r = a, b - 1 do
      local src, dst = r * a0 * a1, r * a2 * a3
      for i = 0, a2 - 1 do
         local y0, y1 = floor(i * a0 / a2), ceil((i + 1) * a0 / a2)
         for j = 0, a3 - 1 do
            local x0, x1 = floor(j * a1 / a3), ceil((j + 1) * a1 / a3)
            local sum = 0
            for y = y0, y1 - 1 do
               local line = src + y * a1
               for x = x0, x1 - 1 do sum = rd(sum + p0[line + x]) end
            end
            p1[dst + i * a3 + j] = rd(sum / (x1 - x0)) / (y1 - y0)
         end
      end
   end]], 16384, 1)

-- gradInput planes of a0 x a1 (p0) from gradOutput (p1, a2 x a3)
local BACKWARD = shared.loop('adaptiveavggrad', [[
   for r = a, b - 1 do
      local dst, src = r * a0 * a1, r * a2 * a3
      for k = dst, dst + a0 * a1 - 1 do p0[k] = 0 end
      for i = 0, a2 - 1 do
         local y0, y1 = floor(i * a0 / a2), ceil((i + 1) * a0 / a2)
         for j = 0, a3 - 1 do
            local x0, x1 = floor(j * a1 / a3), ceil((j + 1) * a1 / a3)
            local delta = rd(rd(p1[src + i * a3 + j] / (x1 - x0)) / (y1 - y0))
            for y = y0, y1 - 1 do
               local line = dst + y * a1
               for x = x0, x1 - 1 do p0[line + x] = p0[line + x] + delta end
            end
         end
      end
   end]], 16384, 1)

function K.SpatialAdaptiveAveragePooling_updateOutput(state, input, output, owidth, oheight)
   local first, planes, h, w = S.planes(input)
   S.resize(output, S.outshape(input, first, S.size(input, first), {oheight, owidth}))
   local x = input:contiguous()
   checks.into(output, function(y)
      shared.run(FORWARD, checks.ctype(x), planes, planes * h * w, x:data(), y:data(), nil, nil,
                 h, w, oheight, owidth)
   end)
end

function K.SpatialAdaptiveAveragePooling_updateGradInput(state, input, gradOutput, gradInput)
   local _, planes, h, w = S.planes(input)
   local nd = gradOutput:dim()
   local oh, ow = gradOutput:size(nd - 1), gradOutput:size(nd)
   if gradOutput:nElement() ~= planes * oh * ow then
      checks.fail('gradOutput does not match the output of %d planes', planes)
   end
   local g = gradOutput:contiguous()
   S.resizeas(gradInput, input)
   checks.into(gradInput, function(gi)
      shared.run(BACKWARD, checks.ctype(input), planes, planes * h * w, gi:data(), g:data(), nil, nil,
                 h, w, oh, ow)
   end)
end

return K
