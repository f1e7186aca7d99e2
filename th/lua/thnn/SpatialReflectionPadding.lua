-- SpatialReflectionPadding: pad_l/pad_r columns and pad_t/pad_b rows mirrored
-- from the image (the edge itself not repeated).
local D = require 'thnn.padding'

local K = {}

function K.SpatialReflectionPadding_updateOutput(state, input, output, pad_l, pad_r, pad_t, pad_b)
   D.forward(input, output, {pad_t, pad_b, pad_l, pad_r}, 'reflect', 2)
end

function K.SpatialReflectionPadding_updateGradInput(state, input, gradOutput, gradInput, pad_l, pad_r, pad_t, pad_b)
   D.backward(input, gradOutput, gradInput, {pad_t, pad_b, pad_l, pad_r}, 'reflect', 2)
end

return K
