-- VolumetricDilatedMaxPooling: VolumetricMaxPooling over windows whose taps
-- are dilation apart (indices hold tap offsets, packed as bytes).
local P = require 'thnn.pool'

local K = {}

local function geom(kT, kW, kH, dT, dW, dH, pT, pW, pH, dilT, dilW, dilH)
   return {k = {kT, kH, kW}, s = {dT, dH, dW}, pad = {pT, pH, pW}, dil = {dilT, dilH, dilW}}
end

function K.VolumetricDilatedMaxPooling_updateOutput(state, input, output, indices, kT, kW, kH, dT, dW, dH,
                                                    pT, pW, pH, dilT, dilW, dilH, ceilMode)
   P.maxforward(input, output, indices, geom(kT, kW, kH, dT, dW, dH, pT, pW, pH, dilT, dilW, dilH), ceilMode,
                'packed')
end

function K.VolumetricDilatedMaxPooling_updateGradInput(state, input, gradOutput, gradInput, indices,
                                                       kT, kW, kH, dT, dW, dH, pT, pW, pH, dilT, dilW, dilH,
                                                       ceilMode)
   P.maxbackward(input, gradOutput, gradInput, indices, geom(kT, kW, kH, dT, dW, dH, pT, pW, pH, dilT, dilW, dilH),
                 ceilMode, 'packed')
end

return K
