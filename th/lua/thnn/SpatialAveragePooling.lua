-- SpatialAveragePooling: the mean of each kH x kW window; with padding, the
-- divisor counts the padded places (count_include_pad) or only the input's.
local P = require 'thnn.pool'

local K = {}

local function geom(kW, kH, dW, dH, padW, padH)
   return {k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}}
end

function K.SpatialAveragePooling_updateOutput(state, input, output, kW, kH, dW, dH, padW, padH,
                                              ceil_mode, count_include_pad)
   P.avgforward(input, output, geom(kW, kH, dW, dH, padW, padH), ceil_mode, count_include_pad)
end

function K.SpatialAveragePooling_updateGradInput(state, input, gradOutput, gradInput, kW, kH, dW, dH, padW, padH,
                                                 ceil_mode, count_include_pad)
   P.avgbackward(input, gradOutput, gradInput, geom(kW, kH, dW, dH, padW, padH), ceil_mode, count_include_pad)
end

return K
