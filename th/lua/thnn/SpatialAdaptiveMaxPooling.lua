-- SpatialAdaptiveMaxPooling: the max over oheight x owidth cells tiling the
-- image (cell i covers [floor(i*n/o), ceil((i+1)*n/o))); indices are
-- 2 x (output's sizes): the 1-based row and column of the max in its cell.
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

function K.SpatialAdaptiveMaxPooling_updateOutput(state, input, output, indices, owidth, oheight)
   local first = S.checkinput(input, 2)
   local sizes = S.outshape(input, first, S.size(input, first), {oheight, owidth})
   S.resize(output, sizes)
   local isz = {2}
   for i = 1, #sizes do isz[i + 1] = sizes[i] end
   S.resize(indices, isz)
   call(py.nn_adaptive_max_forward, nd(output), nd(indices), nd(input))
end

function K.SpatialAdaptiveMaxPooling_updateGradInput(state, input, gradOutput, gradInput, indices)
   S.checkinput(input, 2)
   S.resizeas(gradInput, input)
   call(py.nn_adaptive_max_backward, nd(gradInput), nd(gradOutput), nd(indices))
end

return K
