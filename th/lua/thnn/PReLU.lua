-- PReLU: output = input > 0 ? input : w * input, with one learnt w
-- (nOutputPlane == 0) or one per channel (dimension 1 of a 1D or 3D input,
-- 2 of a 2D or 4D one)
local featuredim = require('thnn.checks').featuredim
local K = {}

-- the slopes w, shaped to broadcast over input
local function weights(input, weight, nOutputPlane)
   if nOutputPlane == 0 then
      return input.new():resizeAs(input):fill(weight[1])
   end
   local dim = featuredim(input, 'PReLU')
   local shape = {}
   for i = 1, input:dim() do shape[i] = i == dim and nOutputPlane or 1 end
   return weight:view(torch.LongStorage(shape)):expandAs(input)
end

-- the factor 1 where input > 0, w elsewhere
local function slopes(input, weight, nOutputPlane)
   local pos = input:gt(0)
   local w = input.new():resizeAs(input):copy(weights(input, weight, nOutputPlane))
   w:maskedFill(pos, 1)   -- (maskedFill returns the value, as Torch7's binding did)
   return w
end

function K.PReLU_updateOutput(state, input, output, weight, nOutputPlane)
   output:resizeAs(input):cmul(input, slopes(input, weight, nOutputPlane))
end

function K.PReLU_updateGradInput(state, input, gradOutput, gradInput, weight, nOutputPlane)
   gradInput:resizeAs(input):cmul(gradOutput, slopes(input, weight, nOutputPlane))
end

-- gradWeight += scale * sum over input <= 0 of input * gradOutput (per channel)
function K.PReLU_accGradParameters(state, input, gradOutput, gradInput, weight, gradWeight,
                                   gradWeightBuf, gradWeightBuf2, nOutputPlane, scale)
   local prod = input.new():resizeAs(input):cmul(input, gradOutput)
   prod:maskedFill(input:gt(0), 0)
   if nOutputPlane == 0 then
      gradWeight[1] = gradWeight[1] + scale * prod:sum()
      return
   end
   local dim = featuredim(input, 'PReLU_accGradParameters')
   local perchannel = prod:transpose(1, dim):contiguous():view(nOutputPlane, -1):sum(2)
   gradWeight:add(scale, perchannel:view(nOutputPlane))
end

return K
