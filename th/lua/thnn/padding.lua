-- Reflection and replication padding of the last d dimensions, shared by the
-- Padding families.  pads = {before, after} per padded dimension, in the
-- tensor's axis order; negative pads crop.
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local D = {}

local function shapes(input, gradOutput, pads, mode, d)
   S.checkinput(input, d)
   local sizes = S.sizes(input)
   local n = #sizes
   local list = {}
   for i = 1, d do
      local size = sizes[n - d + i]
      local lo, hi = pads[2 * i - 1], pads[2 * i]
      if mode == 'reflect' and (lo >= size or hi >= size) then
         S.argerror(2, 'Padding size should be less than the corresponding input dimension, '
                    .. 'but got: padding (%d, %d) at dimension %d of input %s', lo, hi, n - d + i, S.shape(input))
      end
      sizes[n - d + i] = size + lo + hi
      if sizes[n - d + i] < 1 then
         S.fail('input (%s) is too small. Calculated output %s', table.concat(S.sizes(input), 'x'),
                table.concat(sizes, 'x'))
      end
   end
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes
end

function D.forward(input, output, pads, mode, d)
   S.resize(output, shapes(input, nil, pads, mode, d))
   call(py.nn_pad_forward, nd(output), nd(input), pads, mode, d)
end

function D.backward(input, gradOutput, gradInput, pads, mode, d)
   shapes(input, gradOutput, pads, mode, d)
   S.resizeas(gradInput, input)
   call(py.nn_pad_backward, nd(gradInput), nd(gradOutput), pads, mode, d)
end

return D
