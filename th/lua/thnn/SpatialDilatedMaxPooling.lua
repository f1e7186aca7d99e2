-- SpatialDilatedMaxPooling: SpatialMaxPooling over windows whose taps are
-- dilation apart.
local P = require 'thnn.pool'

local K = {}

local function geom(kW, kH, dW, dH, padW, padH, dilW, dilH)
   return {k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}, dil = {dilH, dilW}}
end

function K.SpatialDilatedMaxPooling_updateOutput(state, input, output, indices, kW, kH, dW, dH, padW, padH,
                                                 dilW, dilH, ceil_mode)
   P.maxforward(input, output, indices, geom(kW, kH, dW, dH, padW, padH, dilW, dilH), ceil_mode, 'flat')
end

function K.SpatialDilatedMaxPooling_updateGradInput(state, input, gradOutput, gradInput, indices,
                                                    kW, kH, dW, dH, padW, padH, dilW, dilH, ceil_mode)
   P.maxbackward(input, gradOutput, gradInput, indices, geom(kW, kH, dW, dH, padW, padH, dilW, dilH),
                 ceil_mode, 'flat')
end

return K
