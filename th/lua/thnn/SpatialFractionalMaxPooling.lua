-- SpatialFractionalMaxPooling: max pooling over poolSizeH x poolSizeW windows
-- at pseudo-random places (thnn/fractional.lua).
local F = require 'thnn.fractional'

local K = {}

function K.SpatialFractionalMaxPooling_updateOutput(state, input, output, outputW, outputH, poolSizeW, poolSizeH,
                                                    indices, randomSamples)
   F.forward(input, output, indices, randomSamples, {outputH, outputW}, {poolSizeH, poolSizeW})
end

function K.SpatialFractionalMaxPooling_updateGradInput(state, input, gradOutput, gradInput, outputW, outputH,
                                                       poolSizeW, poolSizeH, indices)
   F.backward(input, gradOutput, gradInput, indices, {outputH, outputW}, {poolSizeH, poolSizeW})
end

return K
