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
local ffi = require 'ffi'
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
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

-- THNN read and wrote each channel's number of the weight, bias, running
-- and saved statistics (and their gradients) with get1d/set1d: one of
-- other than one dimension failed at the first channel (th read a 3 x 1
-- weight as a vector), one of fewer elements than the channels at the
-- channel past its end (th's loops had gone past it)
local function perchannel(c, ...)
   for i = 1, select('#', ...) do
      local t = select(i, ...)
      if t and t:dim() ~= 1 then checks.fail("bad argument #1 to 'v' (tensor must have one dimension)") end
   end
   for i = 1, select('#', ...) do
      local t = select(i, ...)
      if t and t:nElement() < c then checks.fail("bad argument #2 to 'v' (out of range)") end
   end
end

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

-- The forward pass, a channel at a time (thnn.shared: many channels shared
-- with helper threads, as THNN's OpenMP loop over them).  p0 input, p1
-- output; p2 the channels' numbers, 8 doubles each: weight, bias, running
-- mean and variance in, then the saved mean and invstd and the new running
-- mean and variance out (p2[-1]: eps); a0..a5 the layout (geometry's count,
-- runs, len, es, rs, s), a6 train (nonzero), a7 momentum.
local FORWARD = shared.loop('batchnorm', [[
   local count, runs, len, es, rs, s, train, momentum = a0, a1, a2, a3, a4, a5, a6 ~= 0, a7
   local eps = p2[-1]
   for f = a, b - 1 do
      local q = f * 8
      local mean, invstd
      if train then
         local sum = 0
         for r = 0, runs - 1 do
            local o = f * s + r * rs
            for i = o, o + (len - 1) * es, es do sum = sum + p0[i] end
         end
         mean = rd(rd(sum) / count)   -- (the sum rounded to the element type first, as recorded)
         local ss = 0
         for r = 0, runs - 1 do
            local o = f * s + r * rs
            for i = o, o + (len - 1) * es, es do
               local d = rd(p0[i] - mean)
               ss = ss + rd(d * d)
            end
         end
         invstd = (ss == 0 and eps == 0) and 0 or rd(1 / sqrt(ss / count + eps))
         p2[q + 4], p2[q + 5] = mean, invstd
         p2[q + 6] = momentum * mean + (1 - momentum) * p2[q + 2]
         p2[q + 7] = momentum * (ss / (count - 1)) + (1 - momentum) * p2[q + 3]
      else
         mean, invstd = p2[q + 2], rd(1 / sqrt(p2[q + 3] + eps))
      end
      local wf, bf = p2[q], p2[q + 1]
      for r = 0, runs - 1 do
         local o = f * s + r * rs
         for i = o, o + (len - 1) * es, es do
            p1[i] = rd(rd(rd(rd(p0[i] - mean) * invstd) * wf) + bf)
         end
      end
   end]], 16384, 1, {[2] = 'double'}, 'local sqrt = math.sqrt')

-- the channels' numbers for FORWARD, kept between calls (grown as needed)
local params, nparams = nil, 0

function K.BatchNormalization_updateOutput(state, input, output, weight, bias, running_mean,
                                           running_var, save_mean, save_std, train, momentum, eps)
   output:resizeAs(input)
   if input:nElement() == 0 then return end
   local G = geometry(input)
   perchannel(G.c, weight, bias, running_mean, running_var)
   if train then
      save_mean:resize(G.c)
      save_std:resize(G.c)
   end
   local x, w, b = dense(input), dense(weight), dense(bias)
   local rm, rv, sm, ss = dense(running_mean), dense(running_var), dense(save_mean), dense(save_std)
   if nparams < G.c then params, nparams = ffi.new('double[?]', 1 + 8 * G.c), G.c end
   local wp, bp, rmp, rvp = ptr(w), ptr(b), rm:data(), rv:data()
   params[0] = eps
   for f = 0, G.c - 1 do
      local q = 1 + 8 * f
      params[q], params[q + 1] = wp and wp[f] or 1, bp and bp[f] or 0
      params[q + 2], params[q + 3] = rmp[f], rvp[f]
   end
   local y = checks.writable(output)
   shared.run(FORWARD, checks.ctype(x), G.c, x:nElement(), x:data(), y:data(), params + 1, nil,
              G.count, G.runs, G.len, G.es, G.rs, G.s, train and 1 or 0, momentum)
   checks.settle(output, y)
   if train then
      local smp, ssp = sm:data(), ss:data()
      for f = 0, G.c - 1 do
         local q = 1 + 8 * f
         smp[f], ssp[f], rmp[f], rvp[f] = params[q + 4], params[q + 5], params[q + 6], params[q + 7]
      end
   end
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
   -- (the shapes, not only the counts: THNN's check, before any other; nn
   -- checks a gradOutput's features only, a 4D one's places not at all)
   if not input:isSameSizeAs(gradOutput) then
      checks.fail('input and gradOutput shapes do not match: input %s, gradOutput %s',
                  checks.sizes(input), checks.sizes(gradOutput))
   end
   if gradInput then gradInput:resizeAs(gradOutput) end
   if input:nElement() == 0 then return end
   local G = geometry(input)
   perchannel(G.c, gradWeight, gradBias, weight, running_mean, running_var, train and save_mean,
              train and save_std)
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
