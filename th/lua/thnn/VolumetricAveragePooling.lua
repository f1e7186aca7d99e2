-- VolumetricAveragePooling: the mean of each kT x kH x kW window.
local P = require 'thnn.pool'
local S = require 'thnn.spatial'

local K = {}

local function geom(kT, kW, kH, dT, dW, dH, padT, padW, padH)
   return {k = {kT, kH, kW}, s = {dT, dH, dW}, pad = {padT, padH, padW}}
end

-- THNN's own check here, padding or not: the input at least the kernel
local function checkkernel(input, g)
   local first = S.checkinput(input, 3, 2, true)
   local t, h, w = S.size(input, first + 1), S.size(input, first + 2), S.size(input, first + 3)
   if t < g.k[1] or h < g.k[2] or w < g.k[3] then
      S.argerror(2, 'input image (T: %d H: %d W: %d) smaller than kernel size (kT: %d kH: %d kW: %d)',
                 t, h, w, g.k[1], g.k[2], g.k[3])
   end
   return g
end

function K.VolumetricAveragePooling_updateOutput(state, input, output, kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                 ceil_mode, count_include_pad)
   P.avgforward(input, output, checkkernel(input, geom(kT, kW, kH, dT, dW, dH, padT, padW, padH)), ceil_mode,
                count_include_pad)
end

function K.VolumetricAveragePooling_updateGradInput(state, input, gradOutput, gradInput, kT, kW, kH, dT, dW, dH,
                                                    padT, padW, padH, ceil_mode, count_include_pad)
   P.avgbackward(input, gradOutput, gradInput, checkkernel(input, geom(kT, kW, kH, dT, dW, dH, padT, padW, padH)),
                 ceil_mode, count_include_pad)
end

return K
