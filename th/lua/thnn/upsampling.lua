-- Nearest and linear upsampling of the last d dimensions (2 Spatial, 3
-- Volumetric), shared by the UpSampling families.
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local U = {}

function U.nearestshape(input, gradOutput, factor, d)
   S.checkinput(input, d)
   if factor <= 1 then S.argerror(4, 'scale_factor must be greater than 1, but got: %d', factor) end
   local sizes = S.sizes(input)
   local n = #sizes
   for i = n - d + 1, n do sizes[i] = sizes[i] * factor end
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes
end

function U.nearestforward(input, output, factor, d)
   S.resize(output, U.nearestshape(input, nil, factor, d))
   call(py.nn_upnearest_forward, nd(output), nd(input), factor, d)
end

function U.nearestbackward(input, gradOutput, gradInput, factor, d)
   U.nearestshape(input, gradOutput, factor, d)
   S.resizeas(gradInput, input)
   call(py.nn_upnearest_backward, nd(gradInput), nd(gradOutput), factor, d)
end

-- linear: input N x C x (spatial), output sizes given
-- linearsizes(input, osz) -> the output's sizes (checked)
function U.linearsizes(input, osz)
   local d = #osz
   if S.dims(input) ~= d + 2 then
      S.argerror(2, '%dD input tensor expected but got: %s', d + 2, S.shape(input))
   end
   local sizes = {S.size(input, 1), S.size(input, 2)}
   for i = 1, d do
      if S.size(input, 2 + i) < 1 or osz[i] < 1 then
         S.fail('input and output sizes should be greater than 0, but got input (%s) output (%s)',
                table.concat(S.sizes(input), ', '), table.concat(osz, ', '))
      end
      sizes[2 + i] = osz[i]
   end
   return sizes
end

function U.linearforward(input, output, osz)
   S.resize(output, U.linearsizes(input, osz))
   call(py.nn_uplinear_forward, nd(output), nd(input), #osz)
end

-- linearcheck(gradOutput, gradInput, insizes, osz): gradOutput checked,
-- gradInput of the input's sizes
function U.linearcheck(gradOutput, gradInput, insizes, osz)
   local sizes = {insizes[1], insizes[2]}
   for i = 1, #osz do sizes[2 + i] = osz[i] end
   S.checkgrad(gradOutput, sizes)
   S.resize(gradInput, insizes)
end

function U.linearbackward(gradOutput, gradInput, insizes, osz)
   U.linearcheck(gradOutput, gradInput, insizes, osz)
   call(py.nn_uplinear_backward, nd(gradInput), nd(gradOutput), #osz)
end

return U
