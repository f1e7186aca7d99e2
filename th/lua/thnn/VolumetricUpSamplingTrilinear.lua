-- VolumetricUpSamplingTrilinear: trilinear interpolation of N x C x T x H x W
-- volumes to outputDepth x outputHeight x outputWidth, corners aligned.
local U = require 'thnn.upsampling'

local K = {}

function K.VolumetricUpSamplingTrilinear_updateOutput(state, input, output, outputDepth, outputHeight, outputWidth)
   U.linearforward(input, output, {outputDepth, outputHeight, outputWidth})
end

function K.VolumetricUpSamplingTrilinear_updateGradInput(state, gradOutput, gradInput, nbatch, nchannels,
                                                         inputDepth, inputHeight, inputWidth,
                                                         outputDepth, outputHeight, outputWidth)
   U.linearbackward(gradOutput, gradInput, {nbatch, nchannels, inputDepth, inputHeight, inputWidth},
                    {outputDepth, outputHeight, outputWidth})
end

return K
