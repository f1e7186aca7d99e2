-- TemporalMaxPooling: the max over each window of kW frames, per feature, of
-- (batches of) nFrames x frameSize sequences; indices hold the 0-based offset
-- of the max in its window, as THNN stored it.  Float and Double tensors
-- with Long indices take thnn.pool's loops (strided ones through contiguous
-- copies), the frames x features of a sequence seen as a plane pooled over
-- windows of kW x 1 (numpy's passes per tap took 10x the original's time);
-- others, and windows of more than 64 frames, numpy's, along the frames of
-- each feature.
local S = require 'thnn.spatial'
local P = require 'thnn.pool'

local py, nd, call = S.py, S.nd, S.call

local K = {}

local function shapes(input, gradOutput, kW, dW)
   -- (THNN's THArgCheck of the step first: th's sizes had divided by it)
   if dW <= 0 then S.argerror(6, 'stride should be greater than zero, but got dW: %d', dW) end
   local n = S.dims(input)
   if n ~= 2 and n ~= 3 then
      S.argerror(2, '2D or 3D (batch mode) tensor expected for input, but got: %s', S.shape(input))
   end
   local frames = S.size(input, n - 1)
   if frames < kW then
      S.argerror(2, 'input sequence smaller than kernel size. Got: %d, Expected: %d', frames, kW)
   end
   local sizes = {math.floor((frames - kW) / dW) + 1, S.size(input, n)}
   if n == 3 then table.insert(sizes, 1, S.size(input, 1)) end
   if gradOutput then S.checkgrad(gradOutput, sizes, nil, n == 3 and 2 or 1) end
   return sizes, n
end

-- the frames x features tensor t seen features x frames
local function planes(t, n)
   return nd(t:transpose(n - 1, n))
end

-- the window geometry of a plane of frames x features
local function windows(kW, dW)
   return {k = {kW, 1}, s = {dW, 1}, pad = {0, 0}}
end

function K.TemporalMaxPooling_updateOutput(state, input, output, indices, kW, dW)
   local sizes, n = shapes(input, nil, kW, dW)
   S.resize(output, sizes)
   S.resize(indices, sizes)
   if P.maxwindows(input, output, indices, windows(kW, dW), sizes, 'tap') then return end
   call(py.nn_maxpool_forward, planes(output, n), planes(indices, n), planes(input, n),
        S.flat{k = {kW}, s = {dW}, pad = {0}}, 'tap', 1)
end

function K.TemporalMaxPooling_updateGradInput(state, input, gradOutput, gradInput, indices, kW, dW)
   local sizes, n = shapes(input, gradOutput, kW, dW)
   gradOutput = S.firstrows(gradOutput, n == 3 and sizes[1] or nil)
   S.resizeas(gradInput, input)
   if P.maxplaces(input, gradOutput, gradInput, indices, windows(kW, dW), sizes, 'tap') then return end
   call(py.nn_maxpool_backward, planes(gradInput, n), planes(gradOutput, n), planes(indices, n),
        S.flat{k = {kW}, s = {dW}, pad = {0}}, 'tap', 1)
end

return K
