-- Max and average pooling over d = 1, 2 or 3 spatial dimensions, shared by
-- the Spatial/Volumetric/Temporal pooling families.  Geometry as in
-- thnn/conv.lua ({k, s, pad, dil}, tensor axis order).  The indices tensor
-- holds what THNN stored there, in one of three formats (nn_spatial._encode):
-- 'flat' (Spatial: 1-based index in the input plane), 'packed' (Volumetric:
-- the t, h, w offsets in the window as bytes), 'tap' (Temporal: 0-based offset).
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call
local concat = table.concat

local P = {}

local function flat(g)
   local v, d = {}, #g.k
   for i = 1, d do
      v[i], v[d + i], v[2 * d + i], v[3 * d + i] = g.k[i], g.s[i], g.pad[i], g.dil and g.dil[i] or 1
   end
   return v
end
P.flat = flat

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

function P.maxforward(input, output, indices, g, ceilmode, fmt)
   local sizes = P.shapes(input, nil, g, ceilmode)
   S.resize(output, sizes)
   S.resize(indices, sizes)
   call(py.nn_maxpool_forward, nd(output), nd(indices), nd(input), flat(g), fmt, #g.k)
end

function P.maxbackward(input, gradOutput, gradInput, indices, g, ceilmode, fmt)
   P.shapes(input, gradOutput, g, ceilmode)
   S.resizeas(gradInput, input)
   call(py.nn_maxpool_backward, nd(gradInput), nd(gradOutput), nd(indices), flat(g), fmt, #g.k)
end

function P.avgforward(input, output, g, ceilmode, includepad)
   local sizes = P.shapes(input, nil, g, ceilmode)
   S.resize(output, sizes)
   call(py.nn_avgpool_forward, nd(output), nd(input), flat(g), includepad, #g.k)
end

function P.avgbackward(input, gradOutput, gradInput, g, ceilmode, includepad)
   P.shapes(input, gradOutput, g, ceilmode)
   S.resizeas(gradInput, input)
   call(py.nn_avgpool_backward, nd(gradInput), nd(gradOutput), flat(g), includepad, #g.k)
end

return P
