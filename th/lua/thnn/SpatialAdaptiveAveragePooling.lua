-- SpatialAdaptiveAveragePooling: the mean over oheight x owidth cells tiling
-- the image (cell i covers [floor(i*n/o), ceil((i+1)*n/o))).
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

function K.SpatialAdaptiveAveragePooling_updateOutput(state, input, output, owidth, oheight)
   local first = S.checkinput(input, 2)
   S.resize(output, S.outshape(input, first, S.size(input, first), {oheight, owidth}))
   call(py.nn_adaptive_avg_forward, nd(output), nd(input))
end

function K.SpatialAdaptiveAveragePooling_updateGradInput(state, input, gradOutput, gradInput)
   S.checkinput(input, 2)
   S.resizeas(gradInput, input)
   call(py.nn_adaptive_avg_backward, nd(gradInput), nd(gradOutput))
end

return K
