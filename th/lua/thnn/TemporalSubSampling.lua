-- TemporalSubSampling: per feature f, weight[f] times the sum over each
-- window of kW frames, plus bias[f].
local S = require 'thnn.spatial'

local ffi = require 'ffi'
local types = require 'torch.types'
local fused = require 'torch.maths.fused'
local TD = require('torch.internal').tensors

local py, nd, call = S.py, S.nd, S.call

local K = {}

local function shapes(input, gradOutput, kW, dW, frameSize)
   local n = S.dims(input)
   if n ~= 2 then    -- THNN took no batch here
      S.argerror(2, '2D or 3D (batch mode) tensor expected for input, but got: %s', S.shape(input))
   end
   if frameSize and S.size(input, n) ~= frameSize then
      S.argerror(2, 'invalid input frame size.  Got: %d, Expected: %d', S.size(input, n), frameSize)
   end
   local frames = S.size(input, n - 1)
   if frames < kW then
      S.argerror(2, 'input sequence smaller than kernel size.  Got %d, Expected: %d', frames, kW)
   end
   local sizes = {math.floor((frames - kW) / dW) + 1, S.size(input, n)}
   if gradOutput then S.checkgrad(gradOutput, sizes) end
   return sizes, n
end

local function planes(t, n)
   return nd(t:transpose(n - 1, n))
end

local function geom(kW, dW)
   return S.flat{k = {kW}, s = {dW}, pad = {0}}
end

-- THNN summed each window of the input as it was given, with TH's sum
-- along the frames: in double when the frames are adjacent in memory
-- (stride 1: one feature of a contiguous input, or a transposed input),
-- else in the element type, frame after frame
local function wide(input, n)
   return input:stride(n - 1) == 1
end

-- THNN's words when a weight or bias (set by hand) has another count than
-- the C features: its cmul and cadd of each output frame (1 x C) by them,
-- and updateGradInput's cmul of them by each gradOutput frame (C)
local function frameop(t, C)
   if t and t:nElement() ~= C then
      S.fail('inconsistent tensor size, expected r_ [1 x %d], t [1 x %d] and src %s to have the same number of '
             .. 'elements, but got %d, %d and %d elements respectively', C, C, S.shape(t), C, C, t:nElement())
   end
end
local function gradop(t, C)
   if t:nElement() ~= C then
      S.fail('inconsistent tensor size, expected r_ %s, t %s and src [%d] to have the same number of elements, '
             .. 'but got %d, %d and %d elements respectively', S.shape(t), S.shape(t), C, t:nElement(),
             t:nElement(), C)
   end
end

function K.TemporalSubSampling_updateOutput(state, input, output, weight, bias, kW, dW, inputFrameSize)
   local sizes, n = shapes(input, nil, kW, dW, inputFrameSize)
   S.resize(output, sizes)   -- (before the frames' products, as THNN's)
   frameop(weight, sizes[2])
   frameop(bias, sizes[2])
   call(py.nn_subsampling_forward, planes(output, n), planes(input, n), nd(weight), nd(bias), geom(kW, dW), 1,
        wide(input, n))
end

function K.TemporalSubSampling_updateGradInput(state, input, gradOutput, gradInput, weight, kW, dW)
   local sizes, n = shapes(input, gradOutput, kW, dW)
   gradop(weight, sizes[2])
   S.resizeas(gradInput, input)
   call(py.nn_subsampling_backward, planes(gradInput, n), planes(gradOutput, n), nd(weight), geom(kW, dW), 1)
end

-- frame by frame, as THNN did (the bits recorded from the original): the
-- window's sum per feature (in the element type, or in double when the
-- input's frames are adjacent: wide() above), then
-- gradWeight += (scale * sum) * gradOutput frame (addcmul's roundings) and
-- gradBias += scale * gradOutput frame (the in-place add's BLAS axpy)
local f32 = ffi.new('float[1]')

local function round(T, v)
   if T == types.Float then f32[0] = v; return f32[0] end
   return v
end

local function accgrad(T, xp, gp, wp, bp, F, C, kW, dW, scale, wide)
   for k = 0, F - 1 do
      local x, g = xp + k * dW * C, gp + k * C
      for f = 0, C - 1 do
         local sum = 0
         for i = 0, kW - 1 do
            sum = sum + x[i * C + f]
            if not wide then sum = round(T, sum) end
         end
         wp[f] = wp[f] + round(T, round(T, scale * round(T, sum)) * g[f])
      end
      if bp then fused.axpy(T, bp, bp, g, C, scale, true) end
   end
end

function K.TemporalSubSampling_accGradParameters(state, input, gradOutput, gradWeight, gradBias, kW, dW, scale)
   local F, n = shapes(input, gradOutput, kW, dW)
   -- (THNN added each frame's products to gradWeight by addcmul, its
   -- gradient to gradBias by cadd, in their words when the counts
   -- differed; th's loop had written past a smaller one)
   if gradWeight:nElement() ~= F[2] then
      S.fail('inconsistent tensor size, expected r_ %s, src1 [1 x %d] and src2 [%d] to have the same number of '
             .. 'elements, but got %d, %d and %d elements respectively', S.shape(gradWeight), F[2], F[2],
             gradWeight:nElement(), F[2], F[2])
   end
   if gradBias then gradop(gradBias, F[2]) end
   local T = TD[gradWeight].T
   if (T ~= types.Float and T ~= types.Double) or TD[input].T ~= T or TD[gradOutput].T ~= T
      or gradBias and TD[gradBias].T ~= T or not gradWeight:isContiguous()
      or gradBias and not gradBias:isContiguous() then
      return call(py.nn_subsampling_accgrad, nd(gradWeight), nd(gradBias), planes(input, n), planes(gradOutput, n),
                  geom(kW, dW), 1, scale or 1)
   end
   local x, g = input:contiguous(), gradOutput:contiguous()
   accgrad(T, x:data(), g:data(), gradWeight:data(), gradBias and gradBias:data(), F[1], F[2], kW, dW,
           round(T, scale or 1), wide(input, n))
end

return K
