-- SpatialMaxUnpooling: each input element put back at the place of the
-- oheight x owidth output plane that SpatialMaxPooling's indices name, zeros
-- elsewhere.
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

local GEOM = S.flat{k = {1, 1}, s = {1, 1}, pad = {0, 0}}

local function shapes(input, indices, owidth, oheight)
   -- (THNN's check of the shapes first, in its words)
   local same = S.dims(indices) == S.dims(input)
   for i = 1, S.dims(input) do same = same and S.size(indices, i) == S.size(input, i) end
   if not same then
      S.fail('input and indices shapes do not match: input %s, indices %s', S.shape(input), S.shape(indices))
   end
   local first = S.checkinput(input, 2)
   return S.outshape(input, first, S.size(input, first), {oheight, owidth})
end

function K.SpatialMaxUnpooling_updateOutput(state, input, output, indices, owidth, oheight)
   S.resize(output, shapes(input, indices, owidth, oheight))
   call(py.nn_maxunpool_forward, nd(output), nd(input), nd(indices), GEOM, 'flat', 2)
end

function K.SpatialMaxUnpooling_updateGradInput(state, input, gradOutput, gradInput, indices, owidth, oheight)
   local sizes = shapes(input, indices, owidth, oheight)
   S.checkgrad(gradOutput, sizes, nil, S.dims(input) == 4 and 2 or 1)
   gradOutput = S.firstrows(gradOutput, S.dims(input) == 4 and sizes[1] or nil)
   S.resizeas(gradInput, input)
   call(py.nn_maxunpool_backward, nd(gradInput), nd(gradOutput), nd(indices), GEOM, 'flat', 2)
end

return K
