-- SpatialGridSamplerBilinear: output (N x C x H x W) samples input (N x C x
-- IH x IW) bilinearly at the points of grid (N x H x W x 2, x then y in
-- [-1, 1]); corners outside the input count as zeros.  The arithmetic is
-- th/ops/nn.py's (one numpy pass per bilinear corner).
local S = require 'thnn.spatial'

local K = {}

local function check(input, grid)
   if S.dims(input) ~= 4 then
      S.argerror(2, '4D input tensor expected but got: %s', S.shape(input))
   end
   if S.dims(grid) ~= 4 or S.size(grid, 4) ~= 2 or S.size(grid, 1) ~= S.size(input, 1) then
      S.argerror(3, 'grid of size %d x H x W x 2 expected but got: %s', S.size(input, 1), S.shape(grid))
   end
end

function K.SpatialGridSamplerBilinear_updateOutput(state, input, grid, output)
   check(input, grid)
   S.resize(output, {S.size(input, 1), S.size(input, 2), S.size(grid, 2), S.size(grid, 3)})
   S.call(S.py.nn_gridsampler_forward, S.nd(output), S.nd(input), S.nd(grid))
end

function K.SpatialGridSamplerBilinear_updateGradInput(state, input, gradInput, grid, gradGrid, gradOutput)
   check(input, grid)
   S.checkgrad(gradOutput, {S.size(input, 1), S.size(input, 2), S.size(grid, 2), S.size(grid, 3)})
   S.resizeas(gradInput, input)
   S.resizeas(gradGrid, grid)
   S.call(S.py.nn_gridsampler_backward, S.nd(gradInput), S.nd(gradGrid), S.nd(input), S.nd(grid), S.nd(gradOutput))
end

return K
