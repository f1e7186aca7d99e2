-- SpatialUpSamplingBilinear: bilinear interpolation of N x C x H x W images
-- to outputHeight x outputWidth, corners aligned, as THNN computed it: each
-- output from its (up to) four neighbours only (a NaN or inf elsewhere in
-- the image stays there), the source positions in single precision
-- whatever the tensor type, each step of the sums in the element type.  LuaJIT loops, a plane at a time (thnn.shared: many shared with
-- helper threads).
local U = require 'thnn.upsampling'
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'

local K = {}

-- the source row (column) of output row i, its step to the next one (0 on
-- the last), and the weights of the two: the ratio and the position in
-- single precision, the weights in the element type
local WEIGHTS = [[
   local function source(i, ratio, n)
      local r = f32(ratio * i)
      local s = floor(r)
      local l1 = r - s
      return s, s < n - 1 and 1 or 0, rd(1 - l1), l1
   end
   local function ratio(n, o) return o > 1 and f32((n - 1) / (o - 1)) or 0 end
   local rh, rw = ratio(a0, a2), ratio(a1, a3)
]]

-- planes of a0 x a1 (p0) into a2 x a3 (p1)
local FORWARD = shared.loop('upbilinear', WEIGHTS .. [[
   for r = a, b - 1 do
      local src, dst = r * a0 * a1, r * a2 * a3
      for i = 0, a2 - 1 do
         local h, hp, h0, h1 = source(i, rh, a0)
         local top, bottom = src + h * a1, src + (h + hp) * a1
         for j = 0, a3 - 1 do
            local w, wp, w0, w1 = source(j, rw, a1)
            p1[dst + i * a3 + j] = rd(rd(h0 * rd(rd(w0 * p0[top + w]) + rd(w1 * p0[top + w + wp])))
                                      + rd(h1 * rd(rd(w0 * p0[bottom + w]) + rd(w1 * p0[bottom + w + wp]))))
         end
      end
   end]], 16384, 1)

-- gradInput planes of a0 x a1 (p0) from gradOutput (p1, a2 x a3)
local BACKWARD = shared.loop('upbilineargrad', WEIGHTS .. [[
   for r = a, b - 1 do
      local dst, src = r * a0 * a1, r * a2 * a3
      for k = dst, dst + a0 * a1 - 1 do p0[k] = 0 end
      for i = 0, a2 - 1 do
         local h, hp, h0, h1 = source(i, rh, a0)
         local top, bottom = dst + h * a1, dst + (h + hp) * a1
         for j = 0, a3 - 1 do
            local w, wp, w0, w1 = source(j, rw, a1)
            local g = p1[src + i * a3 + j]
            p0[top + w] = p0[top + w] + rd(rd(h0 * w0) * g)
            p0[top + w + wp] = p0[top + w + wp] + rd(rd(h0 * w1) * g)
            p0[bottom + w] = p0[bottom + w] + rd(rd(h1 * w0) * g)
            p0[bottom + w + wp] = p0[bottom + w + wp] + rd(rd(h1 * w1) * g)
         end
      end
   end]], 16384, 1)

function K.SpatialUpSamplingBilinear_updateOutput(state, input, output, outputHeight, outputWidth)
   local sizes = U.linearsizes(input, {outputHeight, outputWidth})
   output:resize(sizes[1], sizes[2], sizes[3], sizes[4])
   local x = input:contiguous()
   local planes, h, w = sizes[1] * sizes[2], x:size(3), x:size(4)
   checks.into(output, function(y)
      shared.run(FORWARD, checks.ctype(x), planes, planes * outputHeight * outputWidth, x:data(), y:data(),
                 nil, nil, h, w, outputHeight, outputWidth)
   end)
end

function K.SpatialUpSamplingBilinear_updateGradInput(state, gradOutput, gradInput, nbatch, nchannels,
                                                     inputHeight, inputWidth, outputHeight, outputWidth)
   U.linearcheck(gradOutput, gradInput, {nbatch, nchannels, inputHeight, inputWidth}, {outputHeight, outputWidth})
   local g = gradOutput:contiguous()
   local planes = nbatch * nchannels
   checks.into(gradInput, function(gi)
      shared.run(BACKWARD, checks.ctype(g), planes, planes * outputHeight * outputWidth, gi:data(), g:data(),
                 nil, nil, inputHeight, inputWidth, outputHeight, outputWidth)
   end)
end

return K
