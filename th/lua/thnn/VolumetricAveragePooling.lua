-- VolumetricAveragePooling: the mean of each kT x kH x kW window.
local P = require 'thnn.pool'

local K = {}

local function geom(kT, kW, kH, dT, dW, dH, padT, padW, padH)
   return {k = {kT, kH, kW}, s = {dT, dH, dW}, pad = {padT, padH, padW}}
end

function K.VolumetricAveragePooling_updateOutput(state, input, output, kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                 ceil_mode, count_include_pad)
   P.avgforward(input, output, geom(kT, kW, kH, dT, dW, dH, padT, padW, padH), ceil_mode, count_include_pad)
end

function K.VolumetricAveragePooling_updateGradInput(state, input, gradOutput, gradInput, kT, kW, kH, dT, dW, dH,
                                                    padT, padW, padH, ceil_mode, count_include_pad)
   P.avgbackward(input, gradOutput, gradInput, geom(kT, kW, kH, dT, dW, dH, padT, padW, padH), ceil_mode,
                 count_include_pad)
end

return K
