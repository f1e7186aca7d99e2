-- BatchNormalization over dimension 2 of an N x C (x ...) input: per
-- channel, statistics over the batch and the remaining dimensions.  In
-- training the batch's mean and (biased) variance normalise, save_mean and
-- save_std (1 / sqrt(var + eps)) keep them for the backward pass, and the
-- running statistics move by momentum (the running variance is unbiased); in
-- evaluation the running statistics normalise.
--
-- LuaJIT loops over FFI data, each channel's values as runs (a 2D input's
-- channel is one strided run of N, a longer loop than N runs of one).  The
-- arithmetic is THNN's, recorded from the original: sums in double in
-- order; for a FloatTensor the mean, x - mean, the squares, invstd and the
-- output's steps rounded to float, the gradient's projection factor from
-- the float-rounded dot product, the gradient itself in double, rounded once.
local checks = require 'thnn.checks'
local f32 = require('torch.maths.kernels').f32
local sqrt = math.sqrt
local K = {}

local function same(v) return v end

-- t's contiguous self or copy (nil stays nil)
local function dense(t)
   if t == nil or t:isContiguous() then return t end
   return t:contiguous()
end

local function ptr(t) return t and t:data() end

-- the channels' layout: runs per channel, their length, the stride of
-- their elements and between runs, the element count per channel
local function layout(input)
   local n, c = input:size(1), input:size(2)
   local s = input:nElement() / (n * c)
   if s == 1 then return c, 1, n, c, 0, n end
   return c, n, s, 1, c * s, n * s
end

-- the geometry as a table of the loops' bounds
local function geometry(input)
   local c, runs, len, es, rs, count = layout(input)
   local s = input:nElement() / (input:size(1) * c)
   return {c = c, runs = runs, len = len, es = es, rs = rs, count = count, s = s}
end

local function forward(x, y, G, w, b, rm, rv, sm, ss_, train, momentum, eps, rd)
   local count = G.count
   for f = 0, G.c - 1 do
      local mean, invstd
      if train then
         local sum = 0
         for r = 0, G.runs - 1 do
            local o = f * G.s + r * G.rs
            for i = o, o + (G.len - 1) * G.es, G.es do sum = sum + x[i] end
         end
         mean = rd(rd(sum) / count)   -- (the sum rounded to the element type first, as recorded)
         local ss = 0
         for r = 0, G.runs - 1 do
            local o = f * G.s + r * G.rs
            for i = o, o + (G.len - 1) * G.es, G.es do
               local d = rd(x[i] - mean)
               ss = ss + rd(d * d)
            end
         end
         invstd = (ss == 0 and eps == 0) and 0 or rd(1 / sqrt(ss / count + eps))
         sm[f], ss_[f] = mean, invstd
         rm[f] = momentum * mean + (1 - momentum) * rm[f]
         rv[f] = momentum * (ss / (count - 1)) + (1 - momentum) * rv[f]
      else
         mean, invstd = rm[f], rd(1 / sqrt(rv[f] + eps))
      end
      local wf, bf = w and w[f] or 1, b and b[f] or 0
      for r = 0, G.runs - 1 do
         local o = f * G.s + r * G.rs
         for i = o, o + (G.len - 1) * G.es, G.es do
            y[i] = rd(rd(rd(rd(x[i] - mean) * invstd) * wf) + bf)
         end
      end
   end
end

-- one copy of the loops per element type (checks.pertype)
local FORWARD = checks.pertype(forward)

function K.BatchNormalization_updateOutput(state, input, output, weight, bias, running_mean,
                                           running_var, save_mean, save_std, train, momentum, eps)
   output:resizeAs(input)
   if input:nElement() == 0 then return end
   local G = geometry(input)
   if train then
      save_mean:resize(G.c)
      save_std:resize(G.c)
   end
   local rd = input:type() == 'torch.FloatTensor' and f32 or same
   local x, w, b = dense(input), dense(weight), dense(bias)
   local rm, rv, sm, ss = dense(running_mean), dense(running_var), dense(save_mean), dense(save_std)
   checks.into(output, function(y)
      FORWARD(input:type())(x:data(), y:data(), G, ptr(w), ptr(b), rm:data(), rv:data(), ptr(train and sm),
              ptr(train and ss), train, momentum, eps, rd)
   end)
   for _, p in ipairs{{rm, running_mean}, {rv, running_var}, {sm, save_mean}, {ss, save_std}} do
      if p[1] ~= p[2] then p[2]:copy(p[1]) end
   end
end

local function backward(x, g, gi, G, gw, gb, w, rm, rv, sm, ss_, train, scale, eps, rd)
   local count = G.count
   for f = 0, G.c - 1 do
      local mean, invstd
      if train then
         mean, invstd = sm[f], ss_[f]
      else
         mean, invstd = rm[f], rd(1 / sqrt(rv[f] + eps))
      end
      local gsum, dotp = 0, 0
      for r = 0, G.runs - 1 do
         local o = f * G.s + r * G.rs
         for i = o, o + (G.len - 1) * G.es, G.es do
            gsum = gsum + g[i]
            dotp = dotp + rd(rd(x[i] - mean) * g[i])
         end
      end
      if gi then
         local wf = w and w[f] or 1
         if train then
            local k = rd(rd(rd(rd(dotp) * invstd) * invstd) / count)
            local gmean = gsum / count
            for r = 0, G.runs - 1 do
               local o = f * G.s + r * G.rs
               for i = o, o + (G.len - 1) * G.es, G.es do
                  gi[i] = rd((g[i] - gmean - rd(rd(x[i] - mean) * k)) * invstd * wf)
               end
            end
         else
            for r = 0, G.runs - 1 do
               local o = f * G.s + r * G.rs
               for i = o, o + (G.len - 1) * G.es, G.es do gi[i] = rd(rd(g[i] * invstd) * wf) end
            end
         end
      end
      if gw then gw[f] = gw[f] + scale * dotp * invstd end
      if gb then gb[f] = gb[f] + scale * gsum end
   end
end

local BACKWARD = checks.pertype(backward)

function K.BatchNormalization_backward(state, input, gradOutput, gradInput, gradWeight, gradBias,
                                       weight, running_mean, running_var, save_mean, save_std,
                                       train, scale, eps)
   checks.samecount(input, gradOutput, 'input', 'gradOutput')
   if gradInput then gradInput:resizeAs(gradOutput) end
   if input:nElement() == 0 then return end
   local G = geometry(input)
   local rd = input:type() == 'torch.FloatTensor' and f32 or same
   local x, g, w = dense(input), dense(gradOutput), dense(weight)
   local gw, gb = dense(gradWeight), dense(gradBias)
   local rm, rv, sm, ss = dense(running_mean), dense(running_var), dense(save_mean), dense(save_std)
   local function run(gi)
      BACKWARD(input:type())(x:data(), g:data(), ptr(gi), G, ptr(gw), ptr(gb), ptr(w), ptr(rm), ptr(rv),
               ptr(train and sm), ptr(train and ss), train, scale, eps, rd)
   end
   if gradInput then checks.into(gradInput, run) else run(nil) end
   if gw ~= gradWeight then gradWeight:copy(gw) end
   if gb ~= gradBias then gradBias:copy(gb) end
end

return K
