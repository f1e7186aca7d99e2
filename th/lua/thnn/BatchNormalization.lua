-- BatchNormalization over dimension 2 of a contiguous N x C (x ...) input:
-- per channel, statistics over the batch and the remaining dimensions.  In
-- training the batch's mean and (biased) variance normalise, save_mean and
-- save_std (1 / sqrt(var + eps)) keep them for the backward pass, and the
-- running statistics move by momentum (the running variance is unbiased); in
-- evaluation the running statistics normalise.
local checks = require 'thnn.checks'
local data, sqrt = checks.data, math.sqrt
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

-- The same in LuaJIT loops, for contiguous tensors (optional per-channel
-- tensors may be nil): x, y point to N x C x S data.
local function updateOutputLoop(x, y, n, c, s, weight, bias, running_mean, running_var,
                                save_mean, save_std, train, momentum, eps)
   local count = n * s
   for ch = 0, c - 1 do
      local mean, invstd
      if train then
         local sum = 0
         for b = 0, n - 1 do
            local base = (b * c + ch) * s
            for i = base, base + s - 1 do sum = sum + x[i] end
         end
         mean = sum / count
         local ss = 0
         for b = 0, n - 1 do
            local base = (b * c + ch) * s
            for i = base, base + s - 1 do
               local d = x[i] - mean
               ss = ss + d * d
            end
         end
         local var = ss / count
         invstd = 1 / sqrt(var + eps)
         save_mean[ch + 1] = mean
         save_std[ch + 1] = invstd
         running_mean[ch + 1] = momentum * mean + (1 - momentum) * running_mean[ch + 1]
         running_var[ch + 1] = momentum * var * count / (count - 1) + (1 - momentum) * running_var[ch + 1]
      else
         mean = running_mean[ch + 1]
         invstd = 1 / sqrt(running_var[ch + 1] + eps)
      end
      local w = weight and weight[ch + 1] or 1
      local bb = bias and bias[ch + 1] or 0
      for b = 0, n - 1 do
         local base = (b * c + ch) * s
         for i = base, base + s - 1 do y[i] = (x[i] - mean) * invstd * w + bb end
      end
   end
end

function K.BatchNormalization_updateOutput(state, input, output, weight, bias, running_mean,
                                           running_var, save_mean, save_std, train, momentum, eps)
   output:resizeAs(input)
   local xp = data(input)
   local yp = data(output)
   if xp and yp then
      local n, c = input:size(1), input:size(2)
      if train then
         save_mean:resize(c)
         save_std:resize(c)
      end
      updateOutputLoop(xp, yp, n, c, input:nElement() / (n * c), weight, bias, running_mean,
                       running_var, save_mean, save_std, train, momentum, eps)
      return
   end
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

local function backwardLoop(x, g, gi, n, c, s, gradWeight, gradBias, weight, running_mean,
                            running_var, save_mean, save_std, train, scale, eps)
   local count = n * s
   for ch = 0, c - 1 do
      local mean, invstd
      if train then
         mean, invstd = save_mean[ch + 1], save_std[ch + 1]
      else
         mean, invstd = running_mean[ch + 1], 1 / sqrt(running_var[ch + 1] + eps)
      end
      local gsum, dotp = 0, 0
      for b = 0, n - 1 do
         local base = (b * c + ch) * s
         for i = base, base + s - 1 do
            gsum = gsum + g[i]
            dotp = dotp + g[i] * (x[i] - mean)
         end
      end
      if gi then
         local w = (weight and weight[ch + 1] or 1) * invstd
         if train then
            local k = dotp * invstd * invstd / count
            local gmean = gsum / count
            for b = 0, n - 1 do
               local base = (b * c + ch) * s
               for i = base, base + s - 1 do gi[i] = (g[i] - gmean - (x[i] - mean) * k) * w end
            end
         else
            for b = 0, n - 1 do
               local base = (b * c + ch) * s
               for i = base, base + s - 1 do gi[i] = g[i] * w end
            end
         end
      end
      if gradWeight then gradWeight[ch + 1] = gradWeight[ch + 1] + scale * dotp * invstd end
      if gradBias then gradBias[ch + 1] = gradBias[ch + 1] + scale * gsum end
   end
end

function K.BatchNormalization_backward(state, input, gradOutput, gradInput, gradWeight, gradBias,
                                       weight, running_mean, running_var, save_mean, save_std,
                                       train, scale, eps)
   if gradInput then gradInput:resizeAs(gradOutput) end
   local xp, np_ = data(input)
   local gp, gn = data(gradOutput)
   local gip = gradInput and data(gradInput)
   if xp and gp and gn == np_ and (gip or not gradInput) then
      local n, c = input:size(1), input:size(2)
      backwardLoop(xp, gp, gip, n, c, input:nElement() / (n * c), gradWeight, gradBias, weight,
                   running_mean, running_var, save_mean, save_std, train, scale, eps)
      return
   end
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
