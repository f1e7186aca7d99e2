-- FeatureLPPooling: along the feature dimension (1, or 2 in batch mode),
-- output[f] = (sum of input[f * stride + k]^power for k < width)^(1 / power)
local fail = require('torch.internal').fail
local K = {}

local function featuredim(input, width, batchMode)
   local dim = batchMode and 2 or 1
   local nd = input:dim()
   if nd < dim or nd > dim + 2 then
      fail('FeatureLPPooling: input must be %s', batchMode and '2D, 3D or 4D (batch mode)' or '1D, 2D or 3D')
   end
   if input:size(dim) < width then
      fail('FeatureLPPooling: input feature size %d is smaller than the width %d', input:size(dim), width)
   end
   return dim
end

-- the windows of input (an extra last dimension of size width) and their power sums
local function windows(input, dim, power, width, stride)
   local w = input:unfold(dim, width, stride)
   local last = w:dim()
   return w, w.new():pow(w, power):sum(last):select(last, 1)
end

function K.FeatureLPPooling_updateOutput(state, input, output, power, width, stride, batchMode)
   local dim = featuredim(input, width, batchMode)
   local _, sums = windows(input, dim, power, width, stride)
   output:resizeAs(sums):copy(sums):pow(1 / power)
end

-- gradInput[f * stride + k] += gradOutput[f] * (input / output[f])^(power - 1),
-- nothing where output[f] is 0 (p > 1)
function K.FeatureLPPooling_updateGradInput(state, gradOutput, input, output, gradInput,
                                            power, width, stride, batchMode)
   local dim = featuredim(input, width, batchMode)
   local w = input:unfold(dim, width, stride)
   local last = w:dim()
   gradInput:resizeAs(input):zero()
   local gw = gradInput:unfold(dim, width, stride)
   local dead = power ~= 1 and output:eq(0)
   for k = 1, width do
      local x = w:select(last, k)
      local term = x.new():resizeAs(x):copy(x):cdiv(output):pow(power - 1):cmul(gradOutput)
      if dead then term:maskedFill(dead, 0) end
      gw:select(last, k):add(term)
   end
end

return K
