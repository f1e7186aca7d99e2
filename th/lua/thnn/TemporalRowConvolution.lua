-- TemporalRowConvolution: each feature f convolved along the frames with its
-- own kernel (weight inputFrameSize x 1 x kW, bias inputFrameSize); frames x
-- features, or features x frames when featFirst.
local S = require 'thnn.spatial'

local py, nd, call = S.py, S.nd, S.call

local K = {}

-- THNN's check of a features x frames tensor t (t transposed unless
-- featFirst) of n dimensions, by its words: features then frames (then a
-- batch's size)
local function checksizes(t, name, n, features, frames, batch)
   local dims, want = {n - 1, n, 1}, {features, frames, batch or S.size(t, 1)}
   for k, i in ipairs(dims) do
      if S.dims(t) ~= n or S.size(t, i) ~= want[k] then
         S.fail('Need %s of dimension %d and %s.size[%d] == %d but got %s to be of shape: %s',
                name, n, name, i - 1, want[k], name, S.shape(t))
      end
   end
end

-- checks; returns the output's sizes and the features x frames view maker
-- (THNN checked that view, and named its shape: a transposed input's)
local function shapes(input, gradOutput, weight, kW, dW, padW, featFirst)
   local n = S.dims(input)
   if not featFirst and n < 2 then S.argerror(n == 0 and 1 or 2, 'out of range') end   -- (its transpose)
   local function planes(t)
      return featFirst and t or t:transpose(n - 1, n)
   end
   if n ~= 2 and n ~= 3 then
      S.argerror(1, '2D or 3D (batch mode) input tensor expected, but got :%s', S.shape(planes(input)))
   end
   local rows = planes(input)
   local features, frames = S.size(rows, n - 1), S.size(rows, n)
   checksizes(rows, 'input', n, S.size(weight, 1), frames)
   local nout = S.cdiv(frames + 2 * padW - kW, dW) + 1
   if nout < 1 then
      S.fail('Given input size: (%d x %d). Calculated output size: (%d x %d). Output size is too small',
             features, frames, features, nout)
   end
   local sizes = S.sizes(input)
   sizes[featFirst and n or n - 1] = nout
   if gradOutput then
      if not featFirst and S.dims(gradOutput) < n then S.argerror(1, 'out of range') end   -- (its transpose)
      checksizes(planes(gradOutput), 'gradOutput', n, features, nout, S.size(rows, 1))
   end
   return sizes, function(t) return nd(planes(t)) end
end

function K.TemporalRowConvolution_updateOutput(state, input, output, weight, bias, finput, fgradInput,
                                               kW, dW, padW, featFirst)
   local sizes, planes = shapes(input, nil, weight, kW, dW, padW, featFirst)
   S.resize(output, sizes)
   call(py.nn_rowconv_forward, planes(output), planes(input), nd(weight), nd(bias), kW, dW, padW)
end

function K.TemporalRowConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, finput, fgradInput,
                                                  kW, dW, padW, featFirst)
   local _, planes = shapes(input, gradOutput, weight, kW, dW, padW, featFirst)
   S.resizeas(gradInput, input)
   call(py.nn_rowconv_backward, planes(gradInput), planes(gradOutput), nd(weight), kW, dW, padW)
end

function K.TemporalRowConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput,
                                                    fgradInput, kW, dW, padW, featFirst, scale)
   local _, planes = shapes(input, gradOutput, gradWeight, kW, dW, padW, featFirst)
   call(py.nn_rowconv_accgrad, nd(gradWeight), nd(gradBias), planes(input), planes(gradOutput), kW, dW, padW,
        scale or 1)
end

return K
