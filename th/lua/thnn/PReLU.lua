-- PReLU: output = input > 0 ? input : w * input, with one learnt w
-- (nOutputPlane == 0) or one per channel: dimension 1 of a 1D input, 2 of
-- any other (batch x channels x ...), as THNN took it
local checks = require 'thnn.checks'
local fail = checks.fail
local K = {}

-- the channel dimension of input, checked against nOutputPlane
local function channeldim(input, nOutputPlane)
   local dim = input:dim() == 1 and 1 or 2
   local n = input:dim() >= dim and input:size(dim) or 0
   if n ~= nOutputPlane then
      fail('Wrong number of input planes. Expected %d but got %d.', nOutputPlane, n)
   end
   return dim
end

-- the slopes w, shaped to broadcast over input: the weight's first
-- nOutputPlane elements, as THNN read its data (a weight of more, set by
-- hand, works; th had failed to view it)
local function weights(input, weight, nOutputPlane)
   if nOutputPlane == 0 then
      return input.new():resizeAs(input):fill(weight[1])
   end
   local dim = channeldim(input, nOutputPlane)
   local shape = {}
   for i = 1, input:dim() do shape[i] = i == dim and nOutputPlane or 1 end
   local w = weight
   if w:nElement() > nOutputPlane then w = w:contiguous():view(-1):narrow(1, 1, nOutputPlane) end
   return w:view(torch.LongStorage(shape)):expandAs(input)
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
   checks.samecount(input, gradOutput, 'input', 'gradOutput')   -- (THNN's words)
   gradInput:resizeAs(input):cmul(checks.asshape(gradOutput, input), slopes(input, weight, nOutputPlane))
end

-- gradWeight += scale * the sum over input <= 0 (not NaN) of gradOutput *
-- input, as THNN added it up: in the element type, per sample and channel
-- (a LuaJIT loop over contiguous copies)
function K.PReLU_accGradParameters(state, input, gradOutput, gradInput, weight, gradWeight,
                                   gradWeightBuf, gradWeightBuf2, nOutputPlane, scale)
   checks.samecount(input, gradOutput, 'input', 'gradOutput')
   local x, g = input:contiguous(), gradOutput:contiguous()
   local xp, gp = x:data(), g:data()
   local rd = checks.rounding(input)
   local samples, planes, per = 1, 1, x:nElement()
   if nOutputPlane > 0 then
      local dim = channeldim(input, nOutputPlane)
      samples = dim == 1 and 1 or x:size(1)
      planes, per = nOutputPlane, x:nElement() / (samples * nOutputPlane)
   end
   -- (THNN wrote the planes' sums from gradWeight's first element on, past
   -- the end of a smaller one: an error here)
   local room = gradWeight:nElement() > 0 and gradWeight:storage():size() - gradWeight:storageOffset() + 1 or 0
   if room < planes then
      fail('gradWeight should have room for %d elements, but got %s', planes, checks.sizes(gradWeight))
   end
   local w = gradWeight:data()
   scale = rd(scale)   -- (THNN took it as a real: a float's scale is rounded first)
   for k = 0, samples * planes - 1 do
      local sum, base = 0, k * per
      for i = base, base + per - 1 do
         if xp[i] <= 0 then sum = rd(sum + rd(gp[i] * xp[i])) end
      end
      local j = k % planes
      w[j] = w[j] + rd(scale * sum)
   end
   return x, g   -- (alive until the loop is done)
end

return K
