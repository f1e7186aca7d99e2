-- The convolutions of the Spatial/Volumetric families, in d = 2 or 3
-- dimensions: a direct convolution (weight nOut x nIn x kernel, or its 2D view
-- nOut x nIn*kernel) and a transposed ("full") one (weight nIn x nOut x
-- kernel).  Window geometry is {k = {...}, s = {...}, pad = {...}, dil = {...}}
-- in the tensor's axis order.  The arithmetic is th/ops/nn_spatial.py.
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local C = {}

local function prod(t)
   local p = 1
   for i = 1, #t do p = p * t[i] end
   return p
end

-- the flat list Python reads (nn_spatial._geom)
local function flat(g)
   local v, d = {}, #g.k
   for i = 1, d do
      v[i], v[d + i], v[2 * d + i], v[3 * d + i] = g.k[i], g.s[i], g.pad[i], g.dil and g.dil[i] or 1
   end
   return v
end

local function checkweight(weight, d)
   local n = S.dims(weight)
   if n ~= 2 and n ~= d + 2 then
      S.argerror(4, '2D or %dD weight tensor expected, but got: %s', d + 2, S.shape(weight))
   end
end

-- planes of a direct convolution's weight: nOut, nIn
local function planes(weight, g)
   local nout = S.size(weight, 1)
   return nout, weight:nElement() / nout / prod(g.k)
end

-- check input and (for a backward pass) gradOutput; returns the output sizes,
-- the plane dimension and the batch size (nil when not a batch)
local function shapes(input, gradOutput, g, nin, nout)
   local d = #g.k
   local first, batch = S.checkinput(input, d)
   S.checkplanes(input, first, nin)
   local osz = S.outsizes(input, first, g.k, g.s, g.pad, g.dil, false, nout)
   local sizes = S.outshape(input, first, nout, osz)
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes, osz, batch and S.size(input, 1) or nil
end

-- a columns buffer (finput, fgradInput): nIn*prod(k) x N*prod(out), where
-- THNN had (N x) nIn*prod(k) x prod(out), the same number of elements
local function resizecols(cols, batch, rows, osz)
   if cols then S.resize(cols, {rows, (batch or 1) * prod(osz)}) end
end

function C.forward(input, output, weight, bias, cols, g)
   checkweight(weight, #g.k)
   local nout, nin = planes(weight, g)
   local sizes, osz, batch = shapes(input, nil, g, nin, nout)
   S.resize(output, sizes)
   resizecols(cols, batch, nin * prod(g.k), osz)
   call(py.nn_conv_forward, nd(output), nd(input), nd(weight), nd(bias), nd(cols), flat(g))
end

function C.backward(input, gradOutput, gradInput, weight, gcols, g)
   checkweight(weight, #g.k)
   local nout, nin = planes(weight, g)
   local _, osz, batch = shapes(input, gradOutput, g, nin, nout)
   S.resizeas(gradInput, input)
   resizecols(gcols, batch, nin * prod(g.k), osz)
   call(py.nn_conv_backward, nd(gradInput), nd(gradOutput), nd(weight), nd(gcols), flat(g))
end

function C.accgrad(input, gradOutput, gradWeight, gradBias, cols, g, scale)
   local nout, nin = planes(gradWeight, g)
   shapes(input, gradOutput, g, nin, nout)
   call(py.nn_conv_accgrad, nd(gradWeight), nd(gradBias), nd(input), nd(gradOutput), nd(cols), flat(g), scale or 1)
end

-- transposed convolution: output size (in - 1) * s - 2 * pad + dil * (k - 1) + 1 + adj
local function fullshapes(input, gradOutput, weight, g, adj)
   local d = #g.k
   local nin = S.size(weight, 1)
   local nout = S.size(weight, 2)
   local first, batch = S.checkinput(input, d)
   S.checkplanes(input, first, nin)
   local osz, insz, ok = {}, {}, true
   for i = 1, d do
      insz[i] = S.size(input, first + i)
      osz[i] = (insz[i] - 1) * g.s[i] - 2 * g.pad[i] + (g.dil and g.dil[i] or 1) * (g.k[i] - 1) + 1 + adj[i]
      if osz[i] < 1 then ok = false end
   end
   if not ok then
      S.fail('Given input size: (%d x %s). Calculated output size: (%d x %s). Output size is too small',
             nin, table.concat(insz, ' x '), nout, table.concat(osz, ' x '))
   end
   local sizes = S.outshape(input, first, nout, osz)
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes
end

local function checkfullweight(weight, d)
   if S.dims(weight) ~= d + 2 then
      S.argerror(4, '%dD weight tensor expected (nInputPlane x nOutputPlane x %s), but got: %s',
                 d + 2, d == 2 and 'kH x kW' or 'kT x kH x kW', S.shape(weight))
   end
end

function C.fullforward(input, output, weight, bias, g, adj)
   checkfullweight(weight, #g.k)
   S.resize(output, fullshapes(input, nil, weight, g, adj))
   call(py.nn_fullconv_forward, nd(output), nd(input), nd(weight), nd(bias), flat(g))
end

function C.fullbackward(input, gradOutput, gradInput, weight, g, adj)
   checkfullweight(weight, #g.k)
   fullshapes(input, gradOutput, weight, g, adj)
   S.resizeas(gradInput, input)
   call(py.nn_fullconv_backward, nd(gradInput), nd(gradOutput), nd(weight), flat(g))
end

function C.fullaccgrad(input, gradOutput, gradWeight, gradBias, g, adj, scale)
   checkfullweight(gradWeight, #g.k)
   fullshapes(input, gradOutput, gradWeight, g, adj)
   call(py.nn_fullconv_accgrad, nd(gradWeight), nd(gradBias), nd(input), nd(gradOutput), flat(g), scale or 1)
end

return C
