-- VolumetricReplicationPadding: the volume's edges copied outwards
-- (left/right in width, top/bottom in height, front/back in time).
local D = require 'thnn.padding'

local K = {}

function K.VolumetricReplicationPadding_updateOutput(state, input, output, pleft, pright, ptop, pbottom,
                                                     pfront, pback)
   D.forward(input, output, {pfront, pback, ptop, pbottom, pleft, pright}, 'edge', 3)
end

function K.VolumetricReplicationPadding_updateGradInput(state, input, gradOutput, gradInput, pleft, pright, ptop,
                                                        pbottom, pfront, pback)
   D.backward(input, gradOutput, gradInput, {pfront, pback, ptop, pbottom, pleft, pright}, 'edge', 3)
end

return K
