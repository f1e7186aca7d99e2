-- Fractional max pooling (Graham, 2014) over d = 2 or 3 dimensions, shared by
-- the Spatial/Volumetric FractionalMaxPooling families: plane p's windows of
-- poolSize start at places drawn from randomSamples[p] (one sample in [0, 1)
-- per dimension, width first); indices hold the 1-based place of the max in
-- its input plane.
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local F = {}

-- THNN's names of the pooled dimensions, in the input's order, and the
-- number of each one's pool size among its kernel's arguments
local NAMES = {
   [2] = {{'H', 'height', 7}, {'W', 'width', 6}},
   [3] = {{'H', 'height', 9}, {'W', 'width', 8}, {'T', 'time', 7}},
}

local function shapes(input, gradOutput, osz, pool)
   local d = #osz
   local first = S.checkinput(input, d)
   for i = 1, d do
      local size = S.size(input, first + i)
      if osz[i] + pool[i] - 1 > size then
         local short, long, argn = unpack(NAMES[d][i])
         S.argerror(argn, 'poolSize%s (%d) too large relative to input %s (%d)', short, pool[i], long, size)
      end
   end
   local sizes = S.outshape(input, first, S.size(input, first), osz)
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes
end

function F.forward(input, output, indices, samples, osz, pool)
   local sizes = shapes(input, nil, osz, pool)
   S.resize(output, sizes)
   S.resize(indices, sizes)
   call(py.nn_fractional_forward, nd(output), nd(indices), nd(input), nd(samples), pool)
end

function F.backward(input, gradOutput, gradInput, indices, osz, pool)
   shapes(input, gradOutput, osz, pool)
   S.resizeas(gradInput, input)
   call(py.nn_fractional_backward, nd(gradInput), nd(gradOutput), nd(indices), #osz)
end

return F
