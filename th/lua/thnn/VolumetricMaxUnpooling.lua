-- VolumetricMaxUnpooling: each input element put back in the oT x oH x oW
-- output at the window offsets VolumetricMaxPooling's indices hold (windows
-- d apart, starting at -pad), zeros elsewhere.
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

local function shapes(input, indices, oT, oW, oH)
   -- (THNN's check of the shapes first, in its words)
   local same = S.dims(indices) == S.dims(input)
   for i = 1, S.dims(input) do same = same and S.size(indices, i) == S.size(input, i) end
   if not same then
      S.fail('input and indices shapes do not match: input %s, indices %s', S.shape(input), S.shape(indices))
   end
   local first = S.checkinput(input, 3)
   return S.outshape(input, first, S.size(input, first), {oT, oH, oW})
end

local function geom(dT, dW, dH, pT, pW, pH)
   return S.flat{k = {1, 1, 1}, s = {dT, dH, dW}, pad = {pT, pH, pW}}
end

function K.VolumetricMaxUnpooling_updateOutput(state, input, output, indices, oT, oW, oH, dT, dW, dH, pT, pW, pH)
   S.resize(output, shapes(input, indices, oT, oW, oH))
   call(py.nn_maxunpool_forward, nd(output), nd(input), nd(indices), geom(dT, dW, dH, pT, pW, pH), 'packed', 3)
end

function K.VolumetricMaxUnpooling_updateGradInput(state, input, gradOutput, gradInput, indices,
                                                  oT, oW, oH, dT, dW, dH, pT, pW, pH)
   local sizes = shapes(input, indices, oT, oW, oH)
   S.checkgrad(gradOutput, sizes, nil, S.dims(input) == 5 and 2 or 1)
   gradOutput = S.firstrows(gradOutput, S.dims(input) == 5 and sizes[1] or nil)
   S.resizeas(gradInput, input)
   call(py.nn_maxunpool_backward, nd(gradInput), nd(gradOutput), nd(indices), geom(dT, dW, dH, pT, pW, pH),
        'packed', 3)
end

return K
