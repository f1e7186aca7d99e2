-- SpatialConvolutionMap: a convolution whose kernel k (weight nConn x kH x kW)
-- links input plane connTable[k][1] to output plane connTable[k][2]; worked
-- out as the plain convolution by the dense weight it amounts to.
local S = require 'thnn.spatial'
local P = require 'thnn.pool'

local py, nd, call = S.py, S.nd, S.call

local K = {}

local function geom(weight, dW, dH)
   return {k = {S.size(weight, 2), S.size(weight, 3)}, s = {dH, dW}, pad = {0, 0}}
end

local function shapes(input, gradOutput, g, nin, nout)
   local first = S.checkinput(input, 2)
   -- the input may have more planes than the table uses
   if S.size(input, first) < nin then
      S.argerror(2, 'invalid number of input planes')
   end
   local sizes = S.outshape(input, first, nout, S.outsizes(input, first, g.k, g.s, g.pad, nil, false, nout))
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes
end

function K.SpatialConvolutionMap_updateOutput(state, input, output, weight, bias, connTable, nin, nout, dW, dH)
   local g = geom(weight, dW, dH)
   S.resize(output, shapes(input, nil, g, nin, nout))
   call(py.nn_convmap_forward, nd(output), nd(input), nd(weight), nd(bias), nd(connTable), nin, nout, P.flat(g), false)
end

function K.SpatialConvolutionMap_updateGradInput(state, input, gradOutput, gradInput, weight, bias, connTable,
                                                 nin, nout, dW, dH)
   local g = geom(weight, dW, dH)
   shapes(input, gradOutput, g, nin, nout)
   S.resizeas(gradInput, input)
   call(py.nn_convmap_backward, nd(gradInput), nd(gradOutput), nd(weight), nd(connTable), nin, nout, P.flat(g), false)
end

function K.SpatialConvolutionMap_accGradParameters(state, input, gradOutput, gradWeight, gradBias, connTable,
                                                   nin, nout, dW, dH, scale)
   local g = geom(gradWeight, dW, dH)
   shapes(input, gradOutput, g, nin, nout)
   call(py.nn_convmap_accgrad, nd(gradWeight), nd(gradBias), nd(input), nd(gradOutput), nd(connTable), nin, nout,
        P.flat(g), false, scale or 1)
end

return K
