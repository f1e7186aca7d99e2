-- SpatialMaxPooling: the max of each kH x kW window (padding counts as
-- -inf); indices hold the 1-based position of the max in its input plane.
local P = require 'thnn.pool'

local K = {}

local function geom(kW, kH, dW, dH, padW, padH)
   return {k = {kH, kW}, s = {dH, dW}, pad = {padH, padW}}
end

function K.SpatialMaxPooling_updateOutput(state, input, output, indices, kW, kH, dW, dH, padW, padH, ceil_mode)
   P.maxforward(input, output, indices, geom(kW, kH, dW, dH, padW, padH), ceil_mode, 'flat')
end

function K.SpatialMaxPooling_updateGradInput(state, input, gradOutput, gradInput, indices,
                                             kW, kH, dW, dH, padW, padH, ceil_mode)
   P.maxbackward(input, gradOutput, gradInput, indices, geom(kW, kH, dW, dH, padW, padH), ceil_mode, 'flat')
end

return K
