-- IndexLinear: a linear layer over sparse inputs given as keys (feature
-- numbers; row key + keysOffset + 1 of weight) and values, concatenated over
-- the batch (sizes[b] of them for sample b).  output[b] = bias + sum of
-- value * weight[row].  Gradients are kept per key (nn accumulates them in
-- `running` buffers) and applied to the rows by updateParameters.
--
-- The max-normalisation mode (nn.IndexLinear(..., normalize = true)): a
-- weight row is [max |x|, its inverse, a learning-rate scale, a per-feature
-- bias, the outputs' weights].  A value x becomes y = x * inverse + bias of
-- the feature; in training the forward first raises the row's max to |x|
-- (and the inverse to 1 / |x|) and sets its scale to 1, in evaluation a
-- value beyond the max counts as its sign.  The gradient of a key is
-- [gradOutput, y * gradOutput]; an update moves the feature's bias by
-- scale * lr * (gradOutput . weights) and the weights by scale * lr * y *
-- gradOutput, after a weight decay of scale * weightDecay.  Without it, the
-- decay is weightDecay * weight, applied by the updates (not the gradient).
-- Each key's update is made in turn (a feature seen twice moves twice).
-- All of this, and the order of the floating-point steps, as the original
-- computed them (found by running it: tests/fixtures/seeds37b_found.lua).
local checks = require 'thnn.checks'
local fail = checks.fail
local K = {}

local function argerror(n, msg)
   fail("bad argument #%d to 'v' (%s)", n, msg)
end

-- contiguous(t, n, msg): THNN's check of an argument's memory
local function contiguous(t, n, msg)
   if not t:isContiguous() then argerror(n, msg) end
end

-- the outputs, a row's width and whether the rows carry the 4 columns of
-- the max-normalisation mode, from the bias's size and the weight's second
-- one (asked of TH: a 1-D weight fails there); THNN took any other width
-- and read its rows past their ends (the last one past the weight): th's error
local function layout(weight, bias)
   if weight:dim() < 2 then argerror(2, ('dimension 2 out of range of %dD tensor'):format(weight:dim())) end
   local outDim, wDim = bias:size(1), weight:size(2)
   if wDim ~= outDim and wDim ~= outDim + 4 then
      fail('IndexLinear: a weight of %d columns for %d outputs (%d, or %d with the normalisation columns, expected)',
           wDim, outDim, outDim, outDim + 4)
   end
   return outDim, wDim, wDim == outDim + 4
end

-- the 1-based weight rows of the keys (THNN read rows outside the weight:
-- th's error)
local function rows(keys, keysOffset, nrows)
   local r = keys:contiguous():view(-1):clone():add(keysOffset + 1)
   if r:nElement() > 0 and (r:min() < 1 or r:max() > nrows) then
      fail('IndexLinear: a key is out of range (rows 1..%d)', nrows)
   end
   return r
end

-- the 0-based sample of each key, by sizes
local function samples(sizes, n)
   local sample = torch.LongTensor(n)
   local at = 1
   for b = 1, sizes:nElement() do
      local k = sizes[b]
      if k > 0 and at + k - 1 <= n then sample:narrow(1, at, k):fill(b - 1) end
      at = at + k
   end
   if at - 1 ~= n then fail('IndexLinear: sizes do not add up to the number of keys') end
   return sample
end

-- t (LongTensor) * mul + add as a DoubleTensor (places for the loops to
-- read without converting 64-bit integers); counting: 0, 1, ... instead
local function offsets(t, mul, add, counting)
   local d = counting and torch.range(0, t:nElement() - 1) or t:double()
   return d:mul(mul):add(add)
end

-- at least n elements of t's memory, read as THNN read them (from its
-- first element on, to the end of its storage: nn's updateParameters hands
-- over a gradient resized smaller than what its storage holds; fewer, THNN
-- read past them: th's error)
local function enough(t, n, name)
   local have = t:nElement()
   if have < n and t:storage() then have = t:storage():size() - t:storageOffset() + 1 end
   if have < n then
      fail('IndexLinear: %s has %d elements, fewer than the %d read', name, t:nElement(), n)
   end
end

-- the keys' part of a kernel, after its contiguity checks: the outputs, a
-- row's width, the normalisation mode, the keys' rows, their count, their
-- samples, the batch size; gradOutput (if given) holding the batch's rows
local function keyed(keys, keysOffset, sizes, weight, bias, gradOutput)
   local outDim, wDim, norm = layout(weight, bias)
   local r = rows(keys, keysOffset, weight:size(1))
   local n = r:nElement()
   local sample = samples(sizes, n)
   local batch = sizes:nElement()
   if gradOutput then enough(gradOutput, batch * outDim, 'gradOutput') end
   return outDim, wDim, norm, r, n, sample, batch
end

function K.IndexLinear_updateOutput(state, keys, keysOffset, values, sizes, cumSumSizes, output,
                                    weight, bias, normalizedValues, train)
   contiguous(weight, 7, 'weight matrix must be contiguous')
   contiguous(bias, 8, 'bias vector must be contiguous')
   local outDim, wDim, norm, r, n, sample, batch = keyed(keys, keysOffset, sizes, weight, bias)
   output:resize(batch, outDim)
   local out = checks.writable(output)
   out:copy(bias:view(1, outDim):expand(batch, outDim))
   if n == 0 then return checks.settle(output, out) end
   local v = values:contiguous():view(-1)
   local nv = norm and normalizedValues:resize(n)
   local rd = checks.rounding(weight)
   local rp, sp, vp, wp, op = r:data(), sample:data(), v:data(), weight:data(), out:data()
   local np = norm and nv:data()
   local learning = train ~= 0 and train ~= false
   local off, ys = 0, vp
   if norm then
      -- each key's y in turn (a row's max raised by one key counts for the next)
      for i = 0, n - 1 do
         local row = wp + (tonumber(rp[i]) - 1) * wDim
         local x = vp[i]
         local ax = math.abs(x)
         local y
         if learning then
            if ax > row[0] then
               row[0] = ax
               row[1] = rd(1 / ax)
            end
            row[2] = 1
            y = rd(rd(x * row[1]) + row[3])
         elseif ax > row[0] then
            y = rd((x > 0 and 1 or -1) + row[3])
         else
            y = rd(rd(x * row[1]) + row[3])
         end
         np[i] = y
      end
      off, ys = 4, np
   end
   -- output[sample] += y * weights, key after key: one loop over every
   -- (key, output) pair (a short inner loop per key never became a trace),
   -- the keys' places in the output and the weight as doubles
   local oo, wo = offsets(sample, outDim, 0), offsets(r, wDim, off - wDim)
   local oop, wop = oo:data(), wo:data()
   local i, j, ob, wb, y = 0, 0, oop[0], wop[0], ys[0]
   for _ = 1, n * outDim do
      op[ob + j] = rd(op[ob + j] + rd(y * wp[wb + j]))
      j = j + 1
      if j == outDim then
         j, i = 0, i + 1
         if i < n then ob, wb, y = oop[i], wop[i], ys[i] end
      end
   end
   checks.settle(output, out)
end

-- gradWeight (one row per key) = scale * value * gradOutput[sample], or in
-- the normalisation mode [scale * gradOutput, scale * y * gradOutput];
-- gradBias += scale * gradOutput of each sample in turn
function K.IndexLinear_accGradParameters(state, keys, keysOffset, values, sizes, cumSumSizes,
                                         gradOutput, gradWeight, gradBias, weight, bias,
                                         valuesBuffer, weightDecay, scale)
   contiguous(gradOutput, 6, 'gradOutput vector must be contiguous')
   contiguous(gradBias, 8, 'gradBias vector must be contiguous')
   contiguous(weight, 9, 'weight must be contiguous')
   contiguous(bias, 10, 'bias vector must be contiguous')
   local outDim, _, norm, r, n, sample, batch = keyed(keys, keysOffset, sizes, weight, bias, gradOutput)
   enough(gradBias, outDim, 'gradBias')
   local width = norm and 2 * outDim or outDim
   gradWeight:resize(n, width)
   local gw = checks.writable(gradWeight)
   local rd = checks.rounding(gradBias)
   scale = rd(scale)
   local gp, bp = gradOutput:data(), gradBias:data()
   if n > 0 then
      local v = values:contiguous():view(-1)
      local vp, gwp = v:data(), gw:data()
      local oop = offsets(sample, outDim, 0):data()
      local i, j, g, sv = 0, 0, gp + oop[0], rd(scale * vp[0])
      for k = 0, n * width - 1 do
         if j >= outDim then
            gwp[k] = rd(sv * g[j - outDim])
         elseif norm then
            gwp[k] = rd(scale * g[j])
         else
            gwp[k] = rd(sv * g[j])
         end
         j = j + 1
         if j == width then
            j, i = 0, i + 1
            if i < n then g, sv = gp + oop[i], rd(scale * vp[i]) end
         end
      end
      checks.settle(gradWeight, gw)
   end
   for k = 0, batch * outDim - 1 do
      local j = k % outDim
      bp[j] = rd(bp[j] + rd(scale * gp[k]))
   end
end

-- the bias's step y += a * x: fused into one rounding for a Double bias, as
-- the original's BLAS axpy made it (measured: 0.5 - 0.1 * 3 came out
-- 0.19999999999999998, not ...996), each step rounded for a Float one
local ffi = require 'ffi'
pcall(ffi.cdef, 'double fma(double, double, double);')
local function fused(rd)
   if rd(0.1) ~= 0.1 then return function(a, x, y) return rd(y + rd(a * x)) end end
   return ffi.C.fma
end

-- one key's update of its row in the normalisation mode: g, the gradient
-- of the outputs (gradOutput of its sample, or the gradient's first half),
-- gy the weights' gradient (y * g), read as gy[j] * f (f: the key's value,
-- or 1), decay the weight decay, lr the rate; the feature's bias moves first
-- (by the weights before this key's step), each weight is decayed, then
-- stepped, each product and difference rounded (the original's last bits:
-- lr * f first, then the row's scale, then the gradient)
local function normstep(rd, row, outDim, g, gy, f, decay, lr)
   local s = row[2]
   local c = rd(lr * s)
   local w = row + 4
   local fb = row[3]
   for j = 0, outDim - 1 do fb = rd(fb - rd(rd(c * g[j]) * w[j])) end
   row[3] = fb
   local sd, ls = rd(s * decay), rd(rd(lr * f) * s)
   for j = 0, outDim - 1 do
      local x = rd(w[j] - rd(sd * w[j]))
      w[j] = rd(x - rd(ls * gy[j]))
   end
end

-- every key's update, key after key: gp + stride * (the key's sample, or
-- its place) its gradient (width elements, the weights' from woff on), fp
-- its values (or nil: 1); without the normalisation, a weight is decayed
-- by decay * weight, then stepped by lr * f * gradient (one loop over every
-- (key, output) pair)
local function update(rd, norm, wp, wDim, rp, n, outDim, gp, sp, stride, woff, fp, decay, lr)
   if norm then
      local rd_, sd_ = rp:data(), sp and sp:data()
      for i = 0, n - 1 do
         local g = gp + (sp and tonumber(sd_[i]) or i) * stride
         normstep(rd, wp + (tonumber(rd_[i]) - 1) * wDim, outDim, g, g + woff, fp and fp[i] or 1, decay, lr)
      end
      return
   end
   local wop = offsets(rp, wDim, -wDim):data()
   local gop = offsets(sp or rp, stride, woff, not sp):data()
   local i, j, wb, gb, lf = 0, 0, wop[0], gop[0], rd(lr * (fp and fp[0] or 1))
   for _ = 1, n * outDim do
      local x = rd(wp[wb + j] - rd(decay * wp[wb + j]))
      wp[wb + j] = rd(x - rd(lf * gp[gb + j]))
      j = j + 1
      if j == outDim then
         j, i = 0, i + 1
         if i < n then wb, gb, lf = wop[i], gop[i], rd(lr * (fp and fp[i] or 1)) end
      end
   end
end

-- the weight rows of the keys and bias move by -scale * gradient at once
function K.IndexLinear_accUpdateGradParameters(state, keys, keysOffset, values, sizes, cumSumSizes,
                                               gradOutput, weight, bias, weightDecay, scale)
   contiguous(gradOutput, 6, 'gradOutput vector must be contiguous')
   contiguous(weight, 7, 'weight matrix must be contiguous')
   contiguous(bias, 8, 'bias matrix must be contiguous')
   local outDim, wDim, norm, r, n, sample, batch = keyed(keys, keysOffset, sizes, weight, bias, gradOutput)
   local rd = checks.rounding(weight)
   local fma = fused(rd)
   scale, weightDecay = rd(scale), rd(weightDecay)
   local gp, wp = gradOutput:data(), weight:data()
   if n > 0 then
      local v = values:contiguous():view(-1)
      update(rd, norm, wp, wDim, r, n, outDim, gp, sample, outDim, 0, v:data(), weightDecay, scale)
   end
   local bp = bias:data()
   for b = 0, batch - 1 do
      local g = gp + b * outDim
      for j = 0, outDim - 1 do bp[j] = fma(-scale, g[j], bp[j]) end
   end
end

-- weight[row of key k] moves by its gradient row k (see step);
-- bias -= learningRate * gradBias
function K.IndexLinear_updateParameters(state, gradWeight, gradBias, weight, bias, runningKeys,
                                        cumSumSizes, keysOffset, weightDecay, learningRate)
   contiguous(gradWeight, 1, 'gradWeight must be contiguous')
   contiguous(gradBias, 2, 'gradBias vector must be contiguous')
   -- (THNN's words for the weight's and the bias's memory)
   contiguous(weight, 3, 'gradBias vector must be contiguous')
   contiguous(bias, 4, 'gradBias vector must be contiguous')
   local outDim, wDim, norm = layout(weight, bias)
   local r = rows(runningKeys, keysOffset, weight:size(1))
   local n = r:nElement()
   local width = norm and 2 * outDim or outDim
   enough(gradWeight, n * width, 'gradWeight')
   enough(gradBias, outDim, 'gradBias')
   local rd = checks.rounding(weight)
   local fma = fused(rd)
   learningRate, weightDecay = rd(learningRate), rd(weightDecay)
   local bp, gbp = bias:data(), gradBias:data()
   for j = 0, outDim - 1 do
      bp[j] = fma(-learningRate, gbp[j], bp[j])
   end
   if n == 0 then return end
   update(rd, norm, weight:data(), wDim, r, n, outDim, gradWeight:data(), nil, width,
          norm and outDim or 0, nil, weightDecay, learningRate)
end

return K
