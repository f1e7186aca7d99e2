-- SpatialConvolutionMap's output and gradInput on Float and Double tensors
-- (SpatialFullConvolutionMap's: further down),
-- added up in Torch7's order (found by experiment on the original:
-- tests/fixtures/nn_convmap_bits.lua), every step in the tensor's type:
--   output: each plane starts at its bias; the connections add in table
--     order.  With an output row stride of 1 and 4 or more columns, a
--     connection adds tap by tap (kernel rows, then columns), each tap
--     fused (out = fma(w, x, out)) over the output's rows; otherwise it adds
--     each window's sum (its products added in order from 0, each product
--     and sum rounded), rounded.
--   gradInput: from 0, in table order, per gradOutput element (rows, then
--     columns) and kernel element in order: fused (gin = fma(w, g, gin))
--     under the same condition, else the rounded product added, rounded.
--   gradWeight: per connection, image and gradOutput element in order,
--     z = scale g rounded, then per kernel element in order: fused (gw =
--     fma(z, x, gw)) under the same condition, else z x rounded added,
--     rounded.  gradBias: per plane, image and element, scale g rounded
--     added, rounded.  Each kernel element's sum is one chain of roundings,
--     a multiply-add through C's fma at a time (3.5 ns each; Torch7's SIMD
--     loops took 0.1): sums.ACCGRADMOST of them at most, beyond which the
--     dense convolution (nn_spatial.py) adds up in its own order, 30-100x
--     faster (a full 16 -> 32 map, 5 x 5 on 64 x 64: 171 ms here, the
--     original 4.5).
-- Fused, a tap is one fused run (torch.maths.fused) over all the rows at
-- once, cut in blocks: the output planes are laid in a buffer as wide as
-- the input's rows, so the tap reads the input as one run (the columns past
-- the output's are dropped), and gradOutput likewise, its extra columns
-- zero.  For one gradInput element the original's order visits kernel rows
-- from the last and columns from the first, which the taps here follow.
-- (3 planes of 128 x 128 by 9 x 9 of doubles: forward 4.3 -> 0.6 ms, the
-- original 0.3; gradInput 10.6 -> 0.8 ms, the original 0.4.)
local ffi = require 'ffi'
local types = require 'torch.types'
local fused = require 'torch.maths.fused'
local S = require 'thnn.spatial'
local internal = require 'torch.internal'
local TD = internal.tensors

local fail, floor, min, max = S.fail, math.floor, math.min, math.max
-- the elements of a block (16 KB of doubles)
local BLOCK = 2048

local sums = {}

local Float, Double = types.Float, types.Double
local f32 = ffi.new('float[1]')
local huge = math.huge

local function rounded(T, v)
   if T == Float then f32[0] = v; return f32[0] end
   return v
end

-- a buffer of at least n elements of T, kept from call to call (a new one
-- of 400 KB made the forward of 3 planes of 128 x 128 three times slower)
local buffers = {}
local function buffer(T, n)
   local b = buffers[T]
   if not b or b.n < n then
      b = {n = n, p = T.vla(n)}
      buffers[T] = b
   end
   return b.p
end

-- whether this connection's taps are fused (see above)
local function fusing(ow, dW)
   return dW == 1 and ow >= 4
end

-- the tensors' element type when all are Float or Double of one type, else nil
function sums.type(...)
   local T = TD[(...)].T
   if T ~= Float and T ~= Double then return nil end
   for i = 1, select('#', ...) do
      if TD[select(i, ...)].T ~= T then return nil end
   end
   return T
end

-- connection k's input and output planes, counted from 0, checked against
-- the planes there are (the original read outside its tensors), and the
-- weight's shape (argn: its argument's number, for THNN's message)
local function links(connTable, weight, nin, nout, argn)
   local cd, wd = TD[connTable], TD[weight]
   if cd.nd ~= 2 or cd.sz[2] ~= 2 then
      fail('connection table expected of 2 columns, got %s', S.shape(connTable))
   end
   local n = cd.sz[1]
   if wd.nd ~= 3 or wd.sz[1] ~= n then
      S.argerror(argn, '3D weight tensor expected (connTable:size(1) x kH x kW)')
   end
   local ins, outs = {}, {}
   local p = connTable:contiguous():data()
   for k = 0, n - 1 do
      local i, o = tonumber(p[2 * k]), tonumber(p[2 * k + 1])
      if i ~= floor(i) or i < 1 or i > nin or o ~= floor(o) or o < 1 or o > nout then
         fail('connection %d (input plane %s to output plane %s) out of range: %d input, %d output planes',
              k + 1, i, o, nin, nout)
      end
      ins[k], outs[k] = i - 1, o - 1
   end
   return n, ins, outs
end

-- images, input planes, height and width of a 3D or 4D input
local function images(input)
   local d = TD[input]
   if d.nd == 4 then return d.sz[1], d.sz[2], d.sz[3], d.sz[4] end
   return 1, d.sz[1], d.sz[2], d.sz[3]
end

-- the connection table and the weight checked as links does, for the
-- numpy path too (where a plane 0 would have been the last one)
function sums.check(connTable, weight, input, nout, argn)
   local _, nin = images(input)
   links(connTable, weight, nin, nout, argn)
end

-- f(t') with t' t or a contiguous stand-in, copied back after
local function contiguously(t, f)
   if t:isContiguous() then return f(t) end
   local c = t:contiguous()
   f(c)
   t:copy(c)
end

-- out (oh x ow) += each window of x (rows iw apart) by w (kh x kw), the
-- window's sum rounded first
local function windows(T, out, x, iw, w, kh, kw, oh, ow, dH, dW)
   for yy = 0, oh - 1 do
      for xx = 0, ow - 1 do
         local s = 0
         for ky = 0, kh - 1 do
            local xr, wr = (yy * dH + ky) * iw + xx * dW, ky * kw
            for kx = 0, kw - 1 do s = rounded(T, s + rounded(T, x[xr + kx] * w[wr + kx])) end
         end
         local o = yy * ow + xx
         out[o] = rounded(T, out[o] + s)
      end
   end
end

-- gin (rows iw apart) += g (oh x ow) spread by w, element by element
local function scatter(T, gin, iw, g, w, kh, kw, oh, ow, dH, dW)
   for yy = 0, oh - 1 do
      for xx = 0, ow - 1 do
         local z = g[yy * ow + xx]
         for ky = 0, kh - 1 do
            local o, wr = (yy * dH + ky) * iw + xx * dW, ky * kw
            for kx = 0, kw - 1 do gin[o + kx] = rounded(T, gin[o + kx] + rounded(T, z * w[wr + kx])) end
         end
      end
   end
end

-- whether n elements at p are all finite
local function finite(p, n)
   for i = 0, n - 1 do
      local v = p[i]
      if v ~= v or v == huge or v == -huge then return false end
   end
   return true
end

-- dst (rows of rowlen) += src (rows x len) spread by the kernel wk, row by
-- row (row y to dst's rows y dH + ky), tap by tap, fused: the order of
-- spread without its zero columns
local function spreadrows(T, dst, rowlen, src, rows, len, wk, kh, kw, dH)
   for yy = 0, rows - 1 do
      for ky = 0, kh - 1 do
         for kx = 0, kw - 1 do
            fused.addfused(T, dst + (yy * dH + ky) * rowlen + kx, src + yy * len, len, wk[ky * kw + kx])
         end
      end
   end
end

-- dst[j] = fma(tap, src[j + the tap's offset], dst[j]), j in [0, run), the
-- taps (rows of w) in order, block by block: a block stays in the cache
-- through the taps (whole planes went through memory at every tap: 3x
-- slower)
local function gather(T, dst, src, run, w, wk, kh, kw)
   for j = 0, run - 1, BLOCK do
      local len = min(BLOCK, run - j)
      for ky = 0, kh - 1 do
         for kx = 0, kw - 1 do fused.addfused(T, dst + j, src + j + ky * w + kx, len, wk[ky * kw + kx]) end
      end
   end
end

-- dst[j + the tap's offset] = fma(tap, src[j], that), j in [0, run), over
-- dst's [0, size) block by block, kernel rows from the last
local function spread(T, dst, size, src, run, w, wk, kh, kw)
   for e = 0, size - 1, BLOCK do
      local stop = min(size, e + BLOCK)
      for ky = kh - 1, 0, -1 do
         for kx = 0, kw - 1 do
            local off = ky * w + kx
            local lo, hi = max(0, e - off), min(run, stop - off)
            if hi > lo then fused.addfused(T, dst + lo + off, src + lo, hi - lo, wk[ky * kw + kx]) end
         end
      end
   end
end

-- output = bias + the connections' convolutions of input (sizes checked)
function sums.forward(T, input, output, weight, bias, connTable, dW, dH)
   local nb, nin, h, w = images(input)
   local od, kh, kw = TD[output], TD[weight].sz[2], TD[weight].sz[3]
   local nout, oh, ow = od.sz[od.nd - 2], od.sz[od.nd - 1], od.sz[od.nd]
   local x, wt, b = input:contiguous(), weight:contiguous(), bias:contiguous()
   local xp, wp, bp = x:data(), wt:data(), b:data()
   local n, ins, outs = links(connTable, weight, nin, nout, 4)
   if internal.nelement(TD[bias]) ~= nout then S.argerror(5, 'bias of %d elements expected', nout) end
   local fuse, run = fusing(ow, dW), (oh - 1) * dH * w + ow
   local plane = fuse and oh * dH * w or oh * ow       -- an output plane's place in buf
   local buf = fuse and buffer(T, nout * plane)
   contiguously(output, function(out)
      local op = out:data()
      for i = 0, nb - 1 do
         local xi, oi = xp + i * nin * h * w, op + i * nout * oh * ow
         local dest = fuse and buf or oi
         for o = 0, nout - 1 do
            local p, v = dest + o * plane, bp[o]
            for j = 0, plane - 1 do p[j] = v end
         end
         for k = 0, n - 1 do
            local xk, ok, wk = xi + ins[k] * h * w, dest + outs[k] * plane, wp + k * kh * kw
            if fuse then
               gather(T, ok, xk, run, w, wk, kh, kw)
            else
               windows(T, ok, xk, w, wk, kh, kw, oh, ow, dH, dW)
            end
         end
         if fuse then   -- (the output's rows out of the wide ones)
            for o = 0, nout * oh - 1 do
               local y = o % oh
               ffi.copy(oi + o * ow, buf + (o - y) / oh * plane + y * dH * w, ow * T.size)
            end
         end
      end
   end)
end

-- gradInput = the connections' gradOutput planes spread by their kernels
function sums.gradinput(T, input, gradOutput, gradInput, weight, connTable, dW, dH)
   local nb, nin, h, w = images(input)
   local gd, kh, kw = TD[gradOutput], TD[weight].sz[2], TD[weight].sz[3]
   local nout, oh, ow = gd.sz[gd.nd - 2], gd.sz[gd.nd - 1], gd.sz[gd.nd]
   local g, wt = gradOutput:contiguous(), weight:contiguous()
   local gp, wp = g:data(), wt:data()
   local n, ins, outs = links(connTable, weight, nin, nout, 5)
   local fuse, run, plane = fusing(ow, dW), (oh - 1) * dH * w + ow, oh * dH * w
   local buf = fuse and buffer(T, nout * plane)
   if fuse then ffi.fill(buf, nout * plane * T.size) end   -- (the columns past gradOutput's stay 0)
   contiguously(gradInput, function(gin)
      gin:zero()
      local ip = gin:data()
      for i = 0, nb - 1 do
         local ii, gi = ip + i * nin * h * w, gp + i * nout * oh * ow
         if fuse then   -- (gradOutput's rows into the wide ones)
            for o = 0, nout * oh - 1 do
               local y = o % oh
               ffi.copy(buf + (o - y) / oh * plane + y * dH * w, gi + o * ow, ow * T.size)
            end
         end
         for k = 0, n - 1 do
            local ik, gk, wk = ii + ins[k] * h * w, gi + outs[k] * oh * ow, wp + k * kh * kw
            if not fuse then
               scatter(T, ik, w, gk, wk, kh, kw, oh, ow, dH, dW)
            elseif finite(wk, kh * kw) then
               spread(T, ik, h * w, buf + outs[k] * plane, run, w, wk, kh, kw)
            else   -- (row by row: a non-finite weight times the zero columns would be NaN)
               spreadrows(T, ik, w, gk, oh, ow, wk, kh, kw, dH)
            end
         end
      end
   end)
end

local C = require 'torch.maths.libm'

-- acc + the products z[zo + j] g[go + j dW], j in [0, n), in order, as
-- above (on offsets: a pointer made per row cost as much as the row)
local function chain(T, fuse, acc, z, zo, g, go, n, dW)
   if fuse and T == Float then
      for j = 0, n - 1 do acc = C.fmaf(z[zo + j], g[go + j], acc) end
   elseif fuse then
      for j = 0, n - 1 do acc = C.fma(z[zo + j], g[go + j], acc) end
   elseif T == Float then
      for j = 0, n - 1 do
         f32[0] = z[zo + j] * g[go + j * dW]
         f32[0] = acc + f32[0]
         acc = f32[0]
      end
   else
      for j = 0, n - 1 do acc = acc + z[zo + j] * g[go + j * dW] end
   end
   return acc
end

-- the multiply-adds of accgrad's exact order (about 1 ms)
sums.ACCGRADMOST = 2^18
-- the products of a rounded (not fused) output or gradInput at most: a
-- LuaJIT loop at 3-4 ns a product (Torch7's took 0.3-1: a random 16 -> 32
-- map, 5 x 5 with a stride of 2 on 65 x 65 floats, 19 ms against 0.8),
-- beyond which the dense convolution's (nn_spatial.py)
sums.ROUNDEDMOST = 2^18

-- whether accgrad takes these sizes (above)
function sums.accgradtakes(input, gradWeight, gradOutput)
   local nb = images(input)
   local gd, wd = TD[gradOutput], TD[gradWeight]
   return nb * internal.nelement(wd) * gd.sz[gd.nd - 1] * gd.sz[gd.nd] <= sums.ACCGRADMOST
end

-- whether an output or gradInput pass in Torch7's order is quick enough:
-- fused (BLAS runs), or rounded with at most ROUNDEDMOST products; places:
-- the tensor the kernels slide over (the output or gradOutput, the input
-- for the full map), its columns dW apart
function sums.takes(input, weight, places, dW)
   local pd = TD[places]
   local cols = pd.sz[pd.nd]
   return fusing(cols, dW) or images(input) * internal.nelement(TD[weight]) * pd.sz[pd.nd - 1] * cols
                                <= sums.ROUNDEDMOST
end

-- gradBias += scale * the sums of the nout planes of size elements of nb
-- images of g, each product rounded and added, rounded
local function biasgrad(T, gradBias, gp, nb, nout, size, scale)
   if internal.nelement(TD[gradBias]) ~= nout then S.argerror(6, 'gradBias of %d elements expected', nout) end
   contiguously(gradBias, function(gb)
      local bp = gb:data()
      for o = 0, nout - 1 do
         local acc = bp[o]
         for i = 0, nb - 1 do
            local p = gp + (i * nout + o) * size
            for j = 0, size - 1 do acc = rounded(T, acc + rounded(T, scale * p[j])) end
         end
         bp[o] = acc
      end
   end)
end

-- gradWeight += scale * the connections' input planes by gradOutput's;
-- gradBias += scale * the sums of gradOutput's planes
function sums.accgrad(T, input, gradOutput, gradWeight, gradBias, connTable, dW, dH, scale)
   local nb, nin, h, w = images(input)
   local gd, kh, kw = TD[gradOutput], TD[gradWeight].sz[2], TD[gradWeight].sz[3]
   local nout, oh, ow = gd.sz[gd.nd - 2], gd.sz[gd.nd - 1], gd.sz[gd.nd]
   local n, ins, outs = links(connTable, gradWeight, nin, nout, 5)
   local x, g = input:contiguous(), gradOutput:contiguous()
   local xp, gp = x:data(), g:data()
   scale = rounded(T, scale)
   local zp = gp                      -- z = scale g rounded, plane after plane
   if scale ~= 1 then
      zp = buffer(T, nb * nout * oh * ow)
      for j = 0, nb * nout * oh * ow - 1 do zp[j] = rounded(T, scale * gp[j]) end
   end
   local fuse = fusing(ow, dW)
   contiguously(gradWeight, function(gw)
      local wp = gw:data()
      for k = 0, n - 1 do
         for t = 0, kh * kw - 1 do
            local ky, kx = floor(t / kw), t % kw
            local acc = wp[k * kh * kw + t]
            for i = 0, nb - 1 do
               local xk, zk = (i * nin + ins[k]) * h * w + ky * w + kx, (i * nout + outs[k]) * oh * ow
               for yy = 0, oh - 1 do acc = chain(T, fuse, acc, zp, zk + yy * ow, xp, xk + yy * dH * w, ow, dW) end
            end
            wp[k * kh * kw + t] = acc
         end
      end
   end)
   if gradBias then biasgrad(T, gradBias, gp, nb, nout, oh * ow, scale) end
end

-- SpatialFullConvolutionMap (the transposed map; 3D tensors only, as the
-- original), found likewise (tests/fixtures/nn_fullconvmap_bits.lua):
--   output: each plane starts at its bias; the connections add in table
--     order.  With a column stride of 1 and an input of 4 or more columns,
--     each input row spreads tap by tap (kernel rows, then columns), each
--     tap fused over the row (out = fma(w, x, out)): an output element
--     takes its input rows in order, then kernel columns from the first;
--     otherwise input element by element (rows, then columns), kernel
--     element by element, each product rounded and added, rounded (so the
--     kernel columns come from the last).
--   gradInput: from 0, in table order, each window of gradOutput (strided)
--     as SpatialConvolutionMap's output: fused tap by tap with a column
--     stride of 1 and an input of 4 or more columns, else each window's
--     rounded sum added.
--   gradWeight: per connection and input element in order, z = scale x
--     rounded, then per kernel element: fused (gw = fma(z, g, gw)) under the
--     same condition, else z g rounded added, rounded.  gradBias as above.

-- the planes, height and width of the 3D input of a full map
local function planes3(input)
   local d = TD[input]
   return d.sz[1], d.sz[2], d.sz[3]
end

-- n planes of h rows of x (w columns) into buf, row y at y * dH * ow (the
-- rest zero): a tap then reads all of a plane's rows as one run
local function widen(buf, x, n, h, w, ow, dH, size)
   local plane = h * dH * ow
   ffi.fill(buf, n * plane * size)
   for r = 0, n * h - 1 do
      local y = r % h
      ffi.copy(buf + (r - y) / h * plane + y * dH * ow, x + r * w, w * size)
   end
   return plane
end

-- o (rows ow apart) += x (h x w) spread by the kernel w, strided, each
-- product rounded and added, rounded.  The original went input element by
-- element, then kernel element by element; tap by tap from the last kernel
-- row and column, an output element takes the same terms in the same
-- order, and the loops run along the input's rows (element by element,
-- as scatter: 1.3-2x slower)
local function scatterrows(T, o, ow, x, h, w, wk, kh, kw, dH, dW)
   for ky = kh - 1, 0, -1 do
      for kx = kw - 1, 0, -1 do
         local v = wk[ky * kw + kx]
         for yy = 0, h - 1 do
            local r, xr = (yy * dH + ky) * ow + kx, yy * w
            if T == Float then
               for xx = 0, w - 1 do
                  f32[0] = v * x[xr + xx]
                  o[r + xx * dW] = o[r + xx * dW] + f32[0]   -- (the store rounds)
               end
            else
               for xx = 0, w - 1 do o[r + xx * dW] = o[r + xx * dW] + v * x[xr + xx] end
            end
         end
      end
   end
end

-- o (h x w) += each strided window of g (rows ow apart) by the kernel wk,
-- the window's sum (its products added in order from 0, each product and
-- sum rounded) rounded first: the sums built tap by tap in s (h x w of T,
-- rounding as they are stored), along the rows as above
local function windowrows(T, o, s, g, ow, wk, kh, kw, h, w, dH, dW)
   ffi.fill(s, h * w * T.size)
   for ky = 0, kh - 1 do
      for kx = 0, kw - 1 do
         local v = wk[ky * kw + kx]
         for yy = 0, h - 1 do
            local r, gr = yy * w, (yy * dH + ky) * ow + kx
            if T == Float then
               for xx = 0, w - 1 do
                  f32[0] = v * g[gr + xx * dW]
                  s[r + xx] = s[r + xx] + f32[0]
               end
            else
               for xx = 0, w - 1 do s[r + xx] = s[r + xx] + v * g[gr + xx * dW] end
            end
         end
      end
   end
   for j = 0, h * w - 1 do o[j] = o[j] + s[j] end
end

-- output = bias + the connections' transposed convolutions of input
function sums.fullforward(T, input, output, weight, bias, connTable, dW, dH)
   local nin, h, w = planes3(input)
   local od, kh, kw = TD[output], TD[weight].sz[2], TD[weight].sz[3]
   local nout, oh, ow = od.sz[1], od.sz[2], od.sz[3]
   local x, wt, b = input:contiguous(), weight:contiguous(), bias:contiguous()
   local xp, wp, bp = x:data(), wt:data(), b:data()
   local n, ins, outs = links(connTable, weight, nin, nout, 4)
   if internal.nelement(TD[bias]) ~= nout then S.argerror(5, 'bias of %d elements expected', nout) end
   local fuse, run = fusing(w, dW), (h - 1) * dH * ow + w
   local buf = fuse and buffer(T, nin * h * dH * ow)
   local plane = fuse and widen(buf, xp, nin, h, w, ow, dH, T.size)
   contiguously(output, function(out)
      local op = out:data()
      for o = 0, nout - 1 do
         local p, v = op + o * oh * ow, bp[o]
         for j = 0, oh * ow - 1 do p[j] = v end
      end
      for k = 0, n - 1 do
         local ok, wk = op + outs[k] * oh * ow, wp + k * kh * kw
         if not fuse then
            scatterrows(T, ok, ow, xp + ins[k] * h * w, h, w, wk, kh, kw, dH, dW)
         elseif finite(wk, kh * kw) and 1 / bp[outs[k]] ~= -huge then
            spread(T, ok, oh * ow, buf + ins[k] * plane, run, ow, wk, kh, kw)
         else   -- (row by row: a non-finite weight times the zero columns would
                -- be NaN, and a -0 bias plus their products +0)
            spreadrows(T, ok, ow, xp + ins[k] * h * w, h, w, wk, kh, kw, dH)
         end
      end
   end)
end

-- gradInput = the connections' gradOutput planes, strided windows by their
-- kernels
function sums.fullgradinput(T, input, gradOutput, gradInput, weight, connTable, dW, dH)
   local nin, h, w = planes3(input)
   local gd, kh, kw = TD[gradOutput], TD[weight].sz[2], TD[weight].sz[3]
   local nout, oh, ow = gd.sz[1], gd.sz[2], gd.sz[3]
   local g, wt = gradOutput:contiguous(), weight:contiguous()
   local gp, wp = g:data(), wt:data()
   local n, ins, outs = links(connTable, weight, nin, nout, 5)
   local fuse, run, plane = fusing(w, dW), (h - 1) * dH * ow + w, h * dH * ow
   local buf = buffer(T, fuse and nin * plane or h * w)   -- (wide planes, or a plane's window sums)
   if fuse then ffi.fill(buf, nin * plane * T.size) end
   contiguously(gradInput, function(gin)
      gin:zero()
      local ip = gin:data()
      for k = 0, n - 1 do
         local gk, wk = gp + outs[k] * oh * ow, wp + k * kh * kw
         if fuse then
            gather(T, buf + ins[k] * plane, gk, run, ow, wk, kh, kw)
         else
            windowrows(T, ip + ins[k] * h * w, buf, gk, ow, wk, kh, kw, h, w, dH, dW)
         end
      end
      if fuse then   -- (gradInput's rows out of the wide ones)
         for r = 0, nin * h - 1 do
            local y = r % h
            ffi.copy(ip + r * w, buf + (r - y) / h * plane + y * dH * ow, w * T.size)
         end
      end
   end)
end

-- whether fullaccgrad takes gradWeight's sums: fused, at most ACCGRADMOST
-- multiply-adds (C's fma, as accgrad's); rounded ones always (LuaJIT's own
-- arithmetic: about 1 ns each)
local function fullweighttakes(T, input, gradWeight, dW)
   local nin, h, w = planes3(input)
   return not fusing(w, dW) or h * w * internal.nelement(TD[gradWeight]) <= sums.ACCGRADMOST
end

-- gradWeight += scale * the connections' input planes by gradOutput's
-- windows (false if that is left to the caller: above); gradBias += scale
-- * the sums of gradOutput's planes
function sums.fullaccgrad(T, input, gradOutput, gradWeight, gradBias, connTable, dW, dH, scale)
   local nin, h, w = planes3(input)
   local gd, kh, kw = TD[gradOutput], TD[gradWeight].sz[2], TD[gradWeight].sz[3]
   local nout, oh, ow = gd.sz[1], gd.sz[2], gd.sz[3]
   local n, ins, outs = links(connTable, gradWeight, nin, nout, 5)
   local x, g = input:contiguous(), gradOutput:contiguous()
   local xp, gp = x:data(), g:data()
   scale = rounded(T, scale)
   local zp = xp                      -- z = scale x rounded, plane after plane
   if scale ~= 1 then
      zp = buffer(T, nin * h * w)
      for j = 0, nin * h * w - 1 do zp[j] = rounded(T, scale * xp[j]) end
   end
   if gradBias then biasgrad(T, gradBias, gp, 1, nout, oh * ow, scale) end
   if not fullweighttakes(T, input, gradWeight, dW) then return false end
   local fuse = fusing(w, dW)
   contiguously(gradWeight, function(gw)
      local wp = gw:data()
      for k = 0, n - 1 do
         local zk = ins[k] * h * w
         for t = 0, kh * kw - 1 do
            local ky, kx = floor(t / kw), t % kw
            local acc, gk = wp[k * kh * kw + t], outs[k] * oh * ow + ky * ow + kx
            for yy = 0, h - 1 do acc = chain(T, fuse, acc, zp, zk + yy * w, gp, gk + yy * dH * ow, w, dW) end
            wp[k * kh * kw + t] = acc
         end
      end
   end)
   return true
end

return sums
