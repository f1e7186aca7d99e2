-- VolumetricFractionalMaxPooling: max pooling over windows of poolSizeH x
-- poolSizeW x poolSizeT at pseudo-random places (thnn/fractional.lua); as nn's
-- module, the input is laid out planes x H x W x T (samples: T, W, H).
local F = require 'thnn.fractional'

local K = {}

function K.VolumetricFractionalMaxPooling_updateOutput(state, input, output, outputT, outputW, outputH,
                                                       poolSizeT, poolSizeW, poolSizeH, indices, randomSamples)
   F.forward(input, output, indices, randomSamples, {outputH, outputW, outputT}, {poolSizeH, poolSizeW, poolSizeT})
end

function K.VolumetricFractionalMaxPooling_updateGradInput(state, input, gradOutput, gradInput, outputT, outputW,
                                                          outputH, poolSizeT, poolSizeW, poolSizeH, indices)
   F.backward(input, gradOutput, gradInput, indices, {outputH, outputW, outputT}, {poolSizeH, poolSizeW, poolSizeT})
end

return K
