-- The connection-table convolutions, SpatialConvolutionMap and its transposed
-- SpatialFullConvolutionMap: kernel k (weight nConn x kH x kW) links input
-- plane connTable[k][1] to output plane connTable[k][2].  kernels(name, full)
-- makes a family's three kernels.  Both families' sums on Float and Double
-- tensors add up in Torch7's order (thnn/convmapsums.lua); the rest is
-- nn_spatial.py's nn_convmap_* (the dense convolution the table amounts to:
-- the last bits of its sums differ).  SpatialFullConvolutionMap takes 3D
-- inputs only, as the original (whose gradients read a batch as garbage).
local S = require 'thnn.spatial'
local sums = require 'thnn.convmapsums'

local py, nd, call = S.py, S.nd, S.call

local function geom(weight, dW, dH)
   return {k = {S.size(weight, 2), S.size(weight, 3)}, s = {dH, dW}, pad = {0, 0}}
end

-- output size: the valid convolution's, or (in - 1) * d + k transposed
local function outsizes(input, first, g, nout, full)
   if not full then
      if S.size(input, first + 1) < g.k[1] or S.size(input, first + 2) < g.k[2] then
         S.argerror(2, 'input image smaller than kernel size')
      end
      return S.outsizes(input, first, g.k, g.s, g.pad, nil, false, nout)
   end
   local osz = {}
   for i = 1, 2 do osz[i] = (S.size(input, first + i) - 1) * g.s[i] + g.k[i] end
   return osz
end

local function shapes(input, gradOutput, g, nin, nout, full)
   if full and S.dims(input) ~= 3 then S.argerror(2, '3D tensor expected') end
   -- (the direct map's words: no sizes shown)
   if not full and S.dims(input) ~= 3 and S.dims(input) ~= 4 then
      S.argerror(2, '3D or 4D(batch mode) tensor expected')
   end
   local first = S.checkinput(input, 2)
   if S.size(input, first) < nin then    -- it may have more planes than the table uses
      S.argerror(2, 'invalid number of input planes')
   end
   local sizes = S.outshape(input, first, nout, outsizes(input, first, g, nout, full))
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes
end

return function(name, full)
   local K = {}

   K[name .. '_updateOutput'] = function(state, input, output, weight, bias, connTable, nin, nout, dW, dH)
      local g = geom(weight, dW, dH)
      S.resize(output, shapes(input, nil, g, nin, nout, full))
      sums.check(connTable, weight, input, nout, 4)
      local T = sums.type(output, input, weight, bias)
      if T and not sums.takes(input, weight, full and input or output, dW) then T = nil end
      if T and full then return sums.fullforward(T, input, output, weight, bias, connTable, dW, dH) end
      if T then return sums.forward(T, input, output, weight, bias, connTable, dW, dH) end
      call(py.nn_convmap_forward, nd(output), nd(input), nd(weight), nd(bias), nd(connTable), nin, nout,
           S.flat(g), full)
   end

   K[name .. '_updateGradInput'] = function(state, input, gradOutput, gradInput, weight, bias, connTable,
                                            nin, nout, dW, dH)
      local g = geom(weight, dW, dH)
      shapes(input, gradOutput, g, nin, nout, full)
      S.resizeas(gradInput, input)
      sums.check(connTable, weight, input, nout, 5)
      local T = sums.type(gradInput, gradOutput, weight)
      if T and not sums.takes(input, weight, full and input or gradOutput, dW) then T = nil end
      if T and full then return sums.fullgradinput(T, input, gradOutput, gradInput, weight, connTable, dW, dH) end
      if T then return sums.gradinput(T, input, gradOutput, gradInput, weight, connTable, dW, dH) end
      call(py.nn_convmap_backward, nd(gradInput), nd(gradOutput), nd(weight), nd(connTable), nin, nout,
           S.flat(g), full)
   end

   K[name .. '_accGradParameters'] = function(state, input, gradOutput, gradWeight, gradBias, connTable,
                                              nin, nout, dW, dH, scale)
      local g = geom(gradWeight, dW, dH)
      shapes(input, gradOutput, g, nin, nout, full)
      sums.check(connTable, gradWeight, input, nout, 5)
      local T = sums.type(gradWeight, input, gradOutput, gradBias or gradWeight)
      if T and full then   -- (gradBias exact; gradWeight's largest fused sums the dense product's)
         if sums.fullaccgrad(T, input, gradOutput, gradWeight, gradBias, connTable, dW, dH, scale or 1) then return end
         return call(py.nn_convmap_accgrad, nd(gradWeight), nil, nd(input), nd(gradOutput), nd(connTable),
                     nin, nout, S.flat(g), full, scale or 1)
      end
      if T and not full and sums.accgradtakes(input, gradWeight, gradOutput) then
         return sums.accgrad(T, input, gradOutput, gradWeight, gradBias, connTable, dW, dH, scale or 1)
      end
      call(py.nn_convmap_accgrad, nd(gradWeight), nd(gradBias), nd(input), nd(gradOutput), nd(connTable),
           nin, nout, S.flat(g), full, scale or 1)
   end

   return K
end
