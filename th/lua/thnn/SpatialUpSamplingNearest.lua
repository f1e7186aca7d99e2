-- SpatialUpSamplingNearest: each pixel repeated scale_factor times along
-- height and width; the gradient sums each block.
local U = require 'thnn.upsampling'

local K = {}

function K.SpatialUpSamplingNearest_updateOutput(state, input, output, scale_factor)
   U.nearestforward(input, output, scale_factor, 2)
end

function K.SpatialUpSamplingNearest_updateGradInput(state, input, gradOutput, gradInput, scale_factor)
   U.nearestbackward(input, gradOutput, gradInput, scale_factor, 2)
end

return K
