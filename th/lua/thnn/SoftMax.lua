-- SoftMax over the feature dimension: the only one of a 1D or 3D input (C, or
-- C x H x W), the second of a 2D or 4D one (N x C, N x C x H x W).
-- LuaJIT loops, one line of features at a time (checks.lines), or a block
-- of places of an image's planes at a time (PLANES); thnn.shared: many
-- shared with helper threads.
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local K = {}

-- Features H x W > 1 apart (SpatialSoftMax) take the same steps plane by
-- plane: a unit is a block of up to BLOCK places (a1 = H x W) of an image,
-- whose maxima and sums are kept in rows of their own, feature after
-- feature (a0 features, a2 blocks an image), so that the loops run along
-- rows rather than lines of features 2 KB apart (32 x 16 x 16 x 16 on one
-- thread: forward 1.9 -> 1.3 ms, backward 0.43 -> 0.3 ms)
local BLOCK = 512
local PLANES = ([[
local BLOCK, min, max = %d, math.min, math.max
local best, sum, dot = ffi.new('double[%d]'), ffi.new('double[%d]'), ffi.new('double[%d]')]])
   :format(BLOCK, BLOCK, BLOCK, BLOCK)

-- r, the result of an operation on a and b as x86 gave it: a NaN a, else
-- a NaN b (which LuaJIT's interpreter and choice of registers did not
-- always keep: THNN's NaNs are found again by the exact() below)
local KEPT = [[
local function kept(a, b, r)
   if a ~= a then return a elseif b ~= b then return b end
   return r
end
]]

-- p1 = exp(p0 - max) / sum along each line of a0 features a1 apart, as
-- THNN: the exponentials of x - max taken in the element type, times the
-- reciprocal of the sum.  A line whose sum is NaN is done again by
-- exact(), where of two NaNs the sum kept its own in sum + exp and the
-- exponential its own in exp * (1 / sum) (found on the original)
local EXACTFORWARD = KEPT .. [[
local max = math.max
-- the line of a0 features a1 apart from q
local function exact(p0, p1, q, a0, a1)
   local last = q + (a0 - 1) * a1
   local best, sum = -huge, 0
   for i = q, last, a1 do best = max(p0[i], best) end
   for i = q, last, a1 do
      p1[i] = exp(rd(p0[i] - best))
      local e = p1[i]
      sum = kept(sum, e, sum + e)
   end
   sum = 1 / sum
   for i = q, last, a1 do
      local e = p1[i]
      p1[i] = kept(e, sum, e * sum)
   end
end]]
local FORWARD = shared.loop('softmax', [[
   for r = a, b - 1 do
      local first, last = line(r, a0, a1)
      local max = -huge
      for i = first, last, a1 do if p0[i] > max then max = p0[i] end end
      local sum = 0
      for i = first, last, a1 do
         p1[i] = exp(rd(p0[i] - max))
         sum = sum + p1[i]
      end
      sum = 1 / sum
      for i = first, last, a1 do p1[i] = p1[i] * sum end
      if sum ~= sum then exact(p0, p1, first, a0, a1) end
   end]], 1024, 1, nil, checks.LINE .. '\n' .. EXACTFORWARD)

-- the unit u's block of places: its image, the first place and how many
-- (n), the first and last elements of its first place along the features
local BLOCKPLACES = [[
      local image = floor(u / a2)
      local from = (u - image * a2) * BLOCK
      local n = min(BLOCK, a1 - from)
      local first = image * a0 * a1 + from
      local last = first + (a0 - 1) * a1]]
local function blockloop(text)
   return (text:gsub('%$BLOCKPLACES\n', function() return BLOCKPLACES .. '\n' end))
end

-- The same along features H x W > 1 apart (SpatialSoftMax), plane by plane
-- (PLANES, above): the maxima without a branch (max(x, m) is x > m and x or
-- m, a NaN left out as THNN's test did), a place whose sum is NaN done
-- again by exact()
local PLANESFORWARD = shared.loop('softmaxplanes', blockloop[[
   for u = a, b - 1 do
$BLOCKPLACES
      for q = 0, n - 1 do best[q], sum[q] = -huge, 0 end
      for o = first, last, a1 do
         for q = o, o + n - 1 do best[q - o] = max(p0[q], best[q - o]) end
      end
      for o = first, last, a1 do
         for q = o, o + n - 1 do
            p1[q] = exp(rd(p0[q] - best[q - o]))
            sum[q - o] = sum[q - o] + p1[q]
         end
      end
      for q = 0, n - 1 do sum[q] = 1 / sum[q] end
      for o = first, last, a1 do
         for q = o, o + n - 1 do p1[q] = p1[q] * sum[q - o] end
      end
      for q = 0, n - 1 do
         if sum[q] ~= sum[q] then exact(p0, p1, first + q, a0, a1) end
      end
   end]], 1024, 1, nil, PLANES .. '\n' .. EXACTFORWARD)

-- gradInput p2 = output p0 * (gradOutput p1 - sum(gradOutput * output)).
-- A line whose sum is NaN is done again by exact(), where of two NaNs the
-- sum kept its own in sum + product, gradOutput its own in g - sum, the
-- difference its own in y * (g - sum), and gradOutput its own in g * y
-- but a FloatTensor's along contiguous features, output's (found on the
-- original)
local EXACT = [[
-- the line of a0 features a1 apart from q
local function exact(p0, p1, p2, q, a0, a1)
   local last = q + (a0 - 1) * a1
   local sum = 0
   for i = q, last, a1 do
      local g, y = p1[i], p0[i]
      local product = PRODUCT
      sum = kept(sum, product, sum + product)
   end
   for i = q, last, a1 do
      local g, y = p1[i], p0[i]
      local d = kept(g, sum, g - sum)
      p2[i] = kept(d, y, y * d)
   end
end]]
local function withexact(prelude)
   return {double = prelude .. KEPT .. EXACT:gsub('PRODUCT', 'kept(g, y, g * y)'),
           float = prelude .. KEPT .. EXACT:gsub('PRODUCT', 'a1 == 1 and kept(y, g, g * y) or kept(g, y, g * y)')}
end
local BACKWARD = shared.loop('softmaxgrad', [[
   for r = a, b - 1 do
      local first, last = line(r, a0, a1)
      local dot = 0
      for i = first, last, a1 do dot = dot + p1[i] * p0[i] end
      for i = first, last, a1 do p2[i] = p0[i] * (p1[i] - dot) end
      if dot ~= dot then exact(p0, p1, p2, first, a0, a1) end
   end]], 8192, 1, nil, withexact(checks.LINE .. '\n'))

-- gradInput along features H x W > 1 apart, plane by plane (PLANES).
-- p0 output, p1 gradOutput, p2 gradInput, a0 features, a1 places, a2
-- blocks an image
local PLANESBACKWARD = shared.loop('softmaxgradplanes', blockloop[[
   for u = a, b - 1 do
$BLOCKPLACES
      for q = 0, n - 1 do dot[q] = 0 end
      for o = first, last, a1 do
         for q = o, o + n - 1 do dot[q - o] = dot[q - o] + p1[q] * p0[q] end
      end
      for o = first, last, a1 do
         for q = o, o + n - 1 do p2[q] = p0[q] * (p1[q] - dot[q - o]) end
      end
      for q = 0, n - 1 do
         if dot[q] ~= dot[q] then exact(p0, p1, p2, first + q, a0, a1) end
      end
   end]], 8192, 1, nil, withexact(PLANES .. '\n'))

-- the units of the PLANES loops along `count` lines of features `stride`
-- apart, and how many an image has
local function blocks(count, stride)
   local perimage = math.ceil(stride / BLOCK)
   return count / stride * perimage, perimage
end

function K.SoftMax_updateOutput(state, input, output)
   checks.featuredim(input, 'SoftMax_updateOutput')
   local count, width, stride = checks.lines(input)
   if stride == 1 or input:nElement() == 0 then
      return checks.linesforward(FORWARD, 'SoftMax_updateOutput', input, output)
   end
   local x = input:contiguous()
   local units, perimage = blocks(count, stride)
   local y = checks.writable(output:resizeAs(input))
   shared.run(PLANESFORWARD, checks.ctype(x), units, x:nElement(), x:data(), y:data(), nil, nil, width, stride,
              perimage)
   checks.settle(output, y)
end

function K.SoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   if not input:isSameSizeAs(gradOutput) then
      checks.fail('input and gradOutput shapes do not match: input %s, gradOutput %s',
                  checks.sizes(input), checks.sizes(gradOutput))
   end
   checks.featuredim(output, 'SoftMax_updateGradInput')
   local count, width, stride = checks.lines(output)
   if stride == 1 or output:nElement() == 0 then
      return checks.linesbackward(BACKWARD, 'SoftMax_updateGradInput', output, gradOutput, gradInput)
   end
   checks.samecount(output, gradOutput, 'output', 'gradOutput')
   local y, g = output:contiguous(), gradOutput:contiguous()
   local units, perimage = blocks(count, stride)
   local gi = checks.writable(gradInput:resizeAs(output))
   shared.run(PLANESBACKWARD, checks.ctype(y), units, y:nElement(), y:data(), g:data(), gi:data(), nil, width,
              stride, perimage)
   checks.settle(gradInput, gi)
end

return K
