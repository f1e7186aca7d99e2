-- TemporalRowConvolution: each feature f convolved along the frames with its
-- own kernel (weight inputFrameSize x 1 x kW, bias inputFrameSize); frames x
-- features, or features x frames when featFirst.  As THNN: the columns
-- (finput, F x kW x frames out an image, made in numpy), then image by image
-- one gemm per feature (baddbmm, whose BLAS calls give the last bits); the
-- output starts at the bias, the weight's gradients add in image by image.
local torch = require 'torch'
local S = require 'thnn.spatial'
local f32 = require('torch.maths.kernels').f32
local C = require 'thnn.conv'

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

-- THNN's checks of the weight (or gradWeight) and bias (or gradBias), in its
-- order, after the input's transpose and before the input's shape: a 3-D
-- weight, contiguous, a contiguous bias, then the bias's shape by the
-- weight's first size (th read a weight of other shapes by its count)
local function checkparams(weight, bias)
   if S.dims(weight) ~= 3 then S.argerror(3, '3D weight tensor expected, but got: %s', S.shape(weight)) end
   if not weight:isContiguous() then S.argerror(4, 'weight must be contiguous') end
   if bias then
      if not bias:isContiguous() then S.argerror(5, 'bias must be contiguous') end
      if S.dims(bias) ~= 1 or S.size(bias, 1) ~= S.size(weight, 1) then
         S.fail('Need bias of dimension 1 and bias.size[0] == %d but got bias to be of shape: %s',
                S.size(weight, 1), S.shape(bias))
      end
   end
end

-- The products THNN made per feature, checked in the words of TH's baddbmm
-- (a weight F x a x b that passed the checks above but is no F x 1 x kW):
-- the forward's weight x columns (b against kW, then a 1-row result), the
-- backward's weight transposed x gradOutput (a against 1, then b rows), the
-- gradient's gradOutput x columns transposed into gradWeight (its size)
local function checkproduct(which, weight, kW, To)
   local a, b = S.size(weight, 2), S.size(weight, 3)
   if which == 'forward' and b ~= kW then
      S.argerror(2, 'wrong matrix size, batch1: %dx%d, batch2: %dx%d', a, b, kW, To)
   elseif which == 'backward' and a ~= 1 then
      S.argerror(2, 'wrong matrix size, batch1: %dx%d, batch2: %dx%d', b, a, 1, To)
   end
   if a ~= 1 or b ~= kW then S.argerror(1, 'output tensor of incorrect size') end
end

-- checks; returns the output's sizes and the features x frames view maker
-- (THNN checked that view, and named its shape: a transposed input's)
local function shapes(input, gradOutput, weight, bias, kW, dW, padW, featFirst)
   local n = S.dims(input)
   if not featFirst and n < 2 then S.argerror(n == 0 and 1 or 2, 'out of range') end   -- (its transpose)
   checkparams(weight, bias)
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
   return sizes, planes
end

local function geom(kW, dW, padW)
   return S.flat{k = {kW}, s = {dW}, pad = {padW}}
end

-- t, or a contiguous copy of it
local function dense(t)
   return t:isContiguous() and t or t:contiguous()
end

-- the images N (1 when not a batch), the features F, the frames out To,
-- and the weight, checked as the product `which` used it (checkproduct)
local function layout(rows, out, weight, kW, which)
   local batch = S.dims(rows) == 3
   local F, To = S.size(rows, batch and 2 or 1), S.size(out, S.dims(out))
   checkproduct(which, weight, kW, To)
   return batch, batch and S.size(rows, 1) or 1, F, To, weight
end

-- image n of t (all of t when not a batch)
local function image(t, batch, n)
   return batch and t[n] or t
end

-- the columns (N x) F x kW x To of rows, into cols made contiguous
local function columns(cols, rows, batch, N, F, kW, To, dW, padW)
   S.resize(cols, batch and {N, F, kW, To} or {F, kW, To})
   if not cols:isContiguous() then cols:set(cols.new():resize(cols:size())) end
   call(py.nn_columns, nd(cols), nd(rows), geom(kW, dW, padW), To)
end

function K.TemporalRowConvolution_updateOutput(state, input, output, weight, bias, finput, fgradInput,
                                               kW, dW, padW, featFirst)
   local sizes, planes = shapes(input, nil, weight, bias, kW, dW, padW, featFirst)
   S.resize(output, sizes)
   local rows, out = planes(input), planes(output)
   local batch, N, F, To, w = layout(rows, out, weight, kW, 'forward')
   columns(finput, rows, batch, N, F, kW, To, dW, padW)
   local r = input.new(F, To)
   local r3, b = r:view(F, 1, To), bias and dense(bias):view(F, 1):expand(F, To)
   for n = 1, N do
      if b then r:copy(b) else r:zero() end
      r3:baddbmm(w, image(finput, batch, n))
      image(out, batch, n):copy(r)
   end
end

-- (THNN's gemm made each product alone: rounded products added tap by tap, in numpy)
function K.TemporalRowConvolution_updateGradInput(state, input, gradOutput, gradInput, weight, finput, fgradInput,
                                                  kW, dW, padW, featFirst)
   local _, planes = shapes(input, gradOutput, weight, nil, kW, dW, padW, featFirst)
   layout(planes(input), planes(gradOutput), weight, kW, 'backward')
   S.resizeas(gradInput, input)
   call(py.nn_rowconv_backward, nd(planes(gradInput)), nd(planes(gradOutput)), nd(weight), kW, dW, padW)
end

-- (the forward's columns when they still fit, as THNN used them; made again otherwise)
function K.TemporalRowConvolution_accGradParameters(state, input, gradOutput, gradWeight, gradBias, finput,
                                                    fgradInput, kW, dW, padW, featFirst, scale)
   local _, planes = shapes(input, gradOutput, gradWeight, gradBias, kW, dW, padW, featFirst)
   local rows, gout = planes(input), planes(gradOutput)
   local batch, N, F, To = layout(rows, gout, gradWeight, kW, 'gradient')
   if finput:nElement() ~= N * F * kW * To or not finput:isContiguous() then
      columns(finput, rows, batch, N, F, kW, To, dW, padW)
   end
   scale = scale or 1
   if torch.type(gradWeight) == 'torch.FloatTensor' then scale = f32(scale) end
   local gw, gb = dense(gradWeight), gradBias and dense(gradBias)
   local w3, g = gw:view(F, 1, kW), input.new(F, To)
   local g3 = g:view(F, 1, To)
   for n = 1, N do
      g:copy(image(gout, batch, n))
      w3:baddbmm(1, w3, scale, g3, image(finput, batch, n):transpose(2, 3))
      if gb then C.biasgrad(gb, g, 1, F, To, scale) end   -- (in order, the product rounded)
   end
   if gw ~= gradWeight then gradWeight:copy(gw) end
   if gb and gb ~= gradBias then gradBias:copy(gb) end
end

return K
