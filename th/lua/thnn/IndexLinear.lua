-- IndexLinear: a linear layer over sparse inputs given as keys (feature
-- numbers; row key + keysOffset + 1 of weight) and values, concatenated over
-- the batch (sizes[b] of them for sample b).  output[b] = bias + sum of
-- value * weight[row].  Gradients are kept per key (nn accumulates them in
-- `running` buffers) and applied to the rows by updateParameters.  The
-- max-normalisation mode (weight with 4 extra columns) is not provided.
local fail = require('torch.internal').fail
local K = {}

local CHUNK = 65536   -- keys handled per pass, bounding the temporaries (chunk x outputSize)

-- the 1-based weight rows of the keys and the 1-based sample of each key
local function rows(keys, keysOffset, sizes, nrows)
   local r = keys:contiguous():view(-1):clone():add(keysOffset + 1)
   if r:nElement() > 0 and (r:min() < 1 or r:max() > nrows) then
      fail('IndexLinear: a key is out of range (rows 1..%d)', nrows)
   end
   local sample = torch.LongTensor(r:nElement())
   local at = 1
   for b = 1, sizes:nElement() do
      local n = sizes[b]
      if n > 0 then sample:narrow(1, at, n):fill(b) end
      at = at + n
   end
   if at - 1 ~= r:nElement() then fail('IndexLinear: sizes do not add up to the number of keys') end
   return r, sample
end

local function plain(weight, bias)
   if weight:size(2) ~= bias:nElement() then
      fail('IndexLinear: the max-normalisation mode is not available in th')
   end
end

-- f(first, n) for each chunk of n keys
local function chunks(total, f)
   for first = 1, total, CHUNK do f(first, math.min(CHUNK, total - first + 1)) end
end

-- value * gradOutput[sample] for keys first..first+n-1
local function keygrads(values, g, sample, first, n)
   local v = values:contiguous():view(-1):narrow(1, first, n)
   local gk = g:index(1, sample:narrow(1, first, n))
   return gk:cmul(v:view(n, 1):expandAs(gk))
end

function K.IndexLinear_updateOutput(state, keys, keysOffset, values, sizes, cumSumSizes, output,
                                    weight, bias, normalizedValues, train)
   plain(weight, bias)
   local r, sample = rows(keys, keysOffset, sizes, weight:size(1))
   local batch = sizes:nElement()
   output:resize(batch, bias:nElement()):copy(bias:view(1, -1):expand(batch, bias:nElement()))
   local v = values:contiguous():view(-1)
   chunks(r:nElement(), function(first, n)
      local w = weight:index(1, r:narrow(1, first, n))
      w:cmul(v:narrow(1, first, n):view(n, 1):expandAs(w))
      output:indexAdd(1, sample:narrow(1, first, n), w)
   end)
end

-- gradWeight (one row per key) = scale * value * gradOutput[sample] (+ weightDecay * weight[row])
function K.IndexLinear_accGradParameters(state, keys, keysOffset, values, sizes, cumSumSizes,
                                         gradOutput, gradWeight, gradBias, weight, bias,
                                         valuesBuffer, weightDecay, scale)
   plain(weight, bias)
   local r, sample = rows(keys, keysOffset, sizes, weight:size(1))
   local g = gradOutput:view(-1, bias:nElement())
   gradWeight:resize(r:nElement(), bias:nElement())
   chunks(r:nElement(), function(first, n)
      local gw = gradWeight:narrow(1, first, n)
      gw:copy(keygrads(values, g, sample, first, n)):mul(scale)
      if weightDecay ~= 0 then gw:add(weightDecay, weight:index(1, r:narrow(1, first, n))) end
   end)
   gradBias:add(scale, g:sum(1):view(-1))
end

-- the weight rows of the keys and bias move by -scale * gradient at once
function K.IndexLinear_accUpdateGradParameters(state, keys, keysOffset, values, sizes, cumSumSizes,
                                               gradOutput, weight, bias, weightDecay, scale)
   plain(weight, bias)
   local r, sample = rows(keys, keysOffset, sizes, weight:size(1))
   local g = gradOutput:view(-1, bias:nElement())
   chunks(r:nElement(), function(first, n)
      local step = keygrads(values, g, sample, first, n)
      local rr = r:narrow(1, first, n)
      if weightDecay ~= 0 then step:add(weightDecay, weight:index(1, rr)) end
      weight:indexAdd(1, rr, step:mul(-scale))
   end)
   bias:add(-scale, g:sum(1):view(-1))
end

-- weight[row of key k] -= learningRate * gradWeight[k]; bias -= learningRate * gradBias
function K.IndexLinear_updateParameters(state, gradWeight, gradBias, weight, bias, runningKeys,
                                        cumSumSizes, keysOffset, weightDecay, learningRate)
   plain(weight, bias)
   local r = runningKeys:contiguous():view(-1):clone():add(keysOffset + 1)
   if r:nElement() > 0 and (r:min() < 1 or r:max() > weight:size(1)) then
      fail('IndexLinear: a key is out of range (rows 1..%d)', weight:size(1))
   end
   local gw = gradWeight:view(-1, bias:nElement())
   chunks(r:nElement(), function(first, n)
      weight:indexAdd(1, r:narrow(1, first, n), gw:narrow(1, first, n):clone():mul(-learningRate))
   end)
   bias:add(-learningRate, gradBias)
end

return K
