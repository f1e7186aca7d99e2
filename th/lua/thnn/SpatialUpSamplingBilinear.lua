-- SpatialUpSamplingBilinear: bilinear interpolation of N x C x H x W images
-- to outputHeight x outputWidth, corners aligned.
local U = require 'thnn.upsampling'

local K = {}

function K.SpatialUpSamplingBilinear_updateOutput(state, input, output, outputHeight, outputWidth)
   U.linearforward(input, output, {outputHeight, outputWidth})
end

function K.SpatialUpSamplingBilinear_updateGradInput(state, gradOutput, gradInput, nbatch, nchannels,
                                                     inputHeight, inputWidth, outputHeight, outputWidth)
   U.linearbackward(gradOutput, gradInput, {nbatch, nchannels, inputHeight, inputWidth},
                    {outputHeight, outputWidth})
end

return K
