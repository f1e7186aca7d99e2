-- BatchNormalization over dimension 2 of a contiguous N x C (x ...) input:
-- per channel, statistics over the batch and the remaining dimensions.  In
-- training the batch's mean and (biased) variance normalise, save_mean and
-- save_std (1 / sqrt(var + eps)) keep them for the backward pass, and the
-- running statistics move by momentum (the running variance is unbiased); in
-- evaluation the running statistics normalise.
local K = {}

-- input as N x C x S, and the count of values per channel
local function channels(t)
   local n, c = t:size(1), t:size(2)
   local s = t:nElement() / (n * c)
   return t:view(n, c, s), n * s
end

-- a per-channel vector broadcast over x (N x C x S)
local function spread(v, x)
   return v:view(1, x:size(2), 1):expandAs(x)
end

-- sum over N and S: a vector of C
local function channelsum(x)
   return x:sum(1):sum(3):view(x:size(2))
end

-- mean and 1 / sqrt(var + eps) of the channels, as the mode asks
local function statistics(x, count, running_mean, running_var, train, eps)
   if not train then
      return running_mean, running_var.new():resizeAs(running_var):copy(running_var):add(eps):sqrt():pow(-1)
   end
   local mean = channelsum(x):div(count)
   local centred = x.new():resizeAs(x):copy(x):add(-1, spread(mean, x))
   local var = channelsum(centred:cmul(centred)):div(count)
   return mean, var.new():resizeAs(var):copy(var):add(eps):sqrt():pow(-1), var
end

function K.BatchNormalization_updateOutput(state, input, output, weight, bias, running_mean,
                                           running_var, save_mean, save_std, train, momentum, eps)
   local x, count = channels(input)
   local mean, invstd, var = statistics(x, count, running_mean, running_var, train, eps)
   if train then
      save_mean:resizeAs(mean):copy(mean)
      save_std:resizeAs(invstd):copy(invstd)
      running_mean:mul(1 - momentum):add(momentum, mean)
      running_var:mul(1 - momentum):add(momentum * count / (count - 1), var)
   end
   output:resizeAs(input)
   local y = channels(output)
   y:copy(x):add(-1, spread(mean, x)):cmul(spread(invstd, x))
   if weight then y:cmul(spread(weight, x)) end
   if bias then y:add(spread(bias, x)) end
end

function K.BatchNormalization_backward(state, input, gradOutput, gradInput, gradWeight, gradBias,
                                       weight, running_mean, running_var, save_mean, save_std,
                                       train, scale, eps)
   local x, count = channels(input)
   local g = channels(gradOutput)
   local mean, invstd
   if train then
      mean, invstd = save_mean, save_std
   else
      mean, invstd = statistics(x, count, running_mean, running_var, false, eps)
   end
   local centred = x.new():resizeAs(x):copy(x):add(-1, spread(mean, x))
   local gsum = channelsum(g)
   local dotp = channelsum(centred.new():resizeAs(centred):cmul(centred, g))
   if gradInput then
      gradInput:resizeAs(gradOutput)
      local gi = channels(gradInput)
      local w = invstd.new():resizeAs(invstd):copy(invstd)
      if weight then w:cmul(weight) end
      if train then
         local k = dotp.new():resizeAs(dotp):cmul(dotp, invstd):cmul(invstd):div(count)
         centred:cmul(spread(k, x))
         gi:copy(g):add(-1, spread(gsum:clone():div(count), x)):add(-1, centred):cmul(spread(w, x))
      else
         gi:copy(g):cmul(spread(w, x))
      end
   end
   if gradWeight then gradWeight:add(scale, dotp:cmul(invstd)) end
   if gradBias then gradBias:add(scale, gsum) end
end

return K
