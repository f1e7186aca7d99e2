-- VolumetricUpSamplingNearest: each voxel repeated scale_factor times along
-- time, height and width; the gradient sums each block.
local U = require 'thnn.upsampling'

local K = {}

function K.VolumetricUpSamplingNearest_updateOutput(state, input, output, scale_factor)
   U.nearestforward(input, output, scale_factor, 3)
end

function K.VolumetricUpSamplingNearest_updateGradInput(state, input, gradOutput, gradInput, scale_factor)
   U.nearestbackward(input, gradOutput, gradInput, scale_factor, 3)
end

return K
