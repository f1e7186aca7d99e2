-- SpatialReplicationPadding: pad_l/pad_r columns and pad_t/pad_b rows copied
-- from the image's edges.
local D = require 'thnn.padding'

local K = {}

function K.SpatialReplicationPadding_updateOutput(state, input, output, pad_l, pad_r, pad_t, pad_b)
   D.forward(input, output, {pad_t, pad_b, pad_l, pad_r}, 'edge', 2)
end

function K.SpatialReplicationPadding_updateGradInput(state, input, gradOutput, gradInput, pad_l, pad_r, pad_t, pad_b)
   D.backward(input, gradOutput, gradInput, {pad_t, pad_b, pad_l, pad_r}, 'edge', 2)
end

return K
