-- VolumetricMaxPooling: the max of each kT x kH x kW window; indices hold the
-- t, h, w offsets of the max in its window packed as bytes (THNN's format,
-- read by VolumetricMaxUnpooling).
local P = require 'thnn.pool'

local K = {}

local function geom(kT, kW, kH, dT, dW, dH, pT, pW, pH)
   return {k = {kT, kH, kW}, s = {dT, dH, dW}, pad = {pT, pH, pW}}
end

function K.VolumetricMaxPooling_updateOutput(state, input, output, indices, kT, kW, kH, dT, dW, dH, pT, pW, pH,
                                             ceilMode)
   P.maxforward(input, output, indices, geom(kT, kW, kH, dT, dW, dH, pT, pW, pH), ceilMode, 'packed')
end

function K.VolumetricMaxPooling_updateGradInput(state, input, gradOutput, gradInput, indices,
                                                kT, kW, kH, dT, dW, dH, pT, pW, pH, ceilMode)
   P.maxbackward(input, gradOutput, gradInput, indices, geom(kT, kW, kH, dT, dW, dH, pT, pW, pH), ceilMode, 'packed')
end

return K
