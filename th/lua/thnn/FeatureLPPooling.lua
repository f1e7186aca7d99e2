-- FeatureLPPooling: along the feature dimension (1, or 2 in batch mode),
-- output[f] = (sum of input[f * stride + k]^power for k < width)^(1 / power)
local checks = require 'thnn.checks'
local libm = require 'torch.maths.libm'
local fail, data = checks.fail, checks.data
local K = {}

-- batches, features, and elements per feature of input around dimension dim
local function layout(input, dim)
   local b = dim == 2 and input:size(1) or 1
   local f = input:size(dim)
   return b, f, input:nElement() / (b * f)
end

local function featuredim(input, width, batchMode)
   local dim = batchMode and 2 or 1
   local nd = input:dim()
   if nd < dim or nd > dim + 2 then
      -- (THNN's THArgChecks: the input its argument #2, the width #3)
      fail("bad argument #2 to 'v' (input must be %s)", batchMode and '2-4 dimensions for batch mode'
           or '1-3 dimensions for non-batch mode')
   end
   if input:size(dim) < width then
      fail("bad argument #3 to 'v' (input: feature dimension must be >= width)")
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
   local size = input:size()
   size[dim] = math.floor((size[dim] - width) / stride) + 1
   output:resize(size)
   if not input:isContiguous() and input:nElement() > 0 then
      -- (THNN's arithmetic on a contiguous copy: tensor operations rounded
      -- each step of a FloatTensor's sums)
      return K.FeatureLPPooling_updateOutput(state, input:contiguous(), output, power, width, stride, batchMode)
   end
   local x = data(input)
   local y = data(output)
   if x and y then
      local nb, nf, ns = layout(input, dim)
      local nfo = output:size(dim)
      for b = 0, nb - 1 do
         for fo = 0, nfo - 1 do
            for s = 0, ns - 1 do
               local sum = 0
               for k = 0, width - 1 do
                  sum = sum + x[(b * nf + fo * stride + k) * ns + s] ^ power
               end
               y[(b * nfo + fo) * ns + s] = sum ^ (1 / power)
            end
         end
      end
      return
   end
   local _, sums = windows(input, dim, power, width, stride)
   output:copy(sums):pow(1 / power)
end

-- THNN's view of a tensor in four sizes: batch, feature, then two more
-- (1 where the tensor has none); a vector in batch mode or a 4-D tensor
-- out of it failed its asserts; nil past four sizes (which matched none)
local function desc(t, batchMode)
   local s, off = {1, 1, 1, 1}, batchMode and 0 or 1
   if t:dim() == 1 and batchMode then fail("Assertion `!batchMode' failed. ") end
   if t:dim() == 4 and not batchMode then fail("Assertion `batchMode' failed. ") end
   if t:dim() + off > 4 then return nil end
   for i = 1, t:dim() do s[i + off] = t:size(i) end
   return s
end

-- the gradient as THNN took it: of the output's four sizes (trailing sizes
-- of 1 and all), read in order (th had taken any of the output's count)
local function outputgrad(gradOutput, output, batchMode)
   local o, g = desc(output, batchMode), desc(gradOutput, batchMode)
   for i = 1, 4 do
      if not g or o[i] ~= g[i] then
         fail("Assertion `outputDesc.size[i] == gradOutputDesc.size[i]' failed. "
              .. 'output and gradOutput sizes do not match')
      end
   end
   return checks.asshape(gradOutput, output)
end

-- gradInput[f * stride + k] += gradOutput[f] * (input / output[f])^(power - 1),
-- nothing where output[f] is 0 (p > 1)
function K.FeatureLPPooling_updateGradInput(state, gradOutput, input, output, gradInput,
                                            power, width, stride, batchMode)
   local dim = featuredim(input, width, batchMode)
   gradOutput = outputgrad(gradOutput, output, batchMode)
   gradInput:resizeAs(input):zero()
   if input:nElement() > 0 and gradOutput:isSameSizeAs(output)
      and not (input:isContiguous() and output:isContiguous() and gradOutput:isContiguous()) then
      local gi = input.new():resizeAs(input)
      K.FeatureLPPooling_updateGradInput(state, gradOutput:contiguous(), input:contiguous(), output:contiguous(),
                                         gi, power, width, stride, batchMode)
      gradInput:copy(gi)
      return
   end
   local x = data(input)
   local y = data(output)
   local g = data(gradOutput)
   local gi = data(gradInput)
   if x and y and g and gi and gradOutput:isSameSizeAs(output) then
      local nb, nf, ns = layout(input, dim)
      local nfo = output:size(dim)
      -- (go * pow(x / out, p - 1): the quotient in the element type, C's
      -- pow and the product in double, rounded to the type before it is
      -- added, as recorded from the original)
      local rd = checks.rounding(input)
      for b = 0, nb - 1 do
         for fo = 0, nfo - 1 do
            for s = 0, ns - 1 do
               local o = (b * nfo + fo) * ns + s
               local out, go = y[o], g[o]
               if power == 1 or out ~= 0 then
                  for k = 0, width - 1 do
                     local i = (b * nf + fo * stride + k) * ns + s
                     gi[i] = gi[i] + rd(go * libm.pow(rd(x[i] / out), power - 1))
                  end
               end
            end
         end
      end
      return
   end
   local w = input:unfold(dim, width, stride)
   local last = w:dim()
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
