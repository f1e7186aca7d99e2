-- The convolutions of the Spatial/Volumetric families, in d = 2 or 3
-- dimensions: a direct convolution (weight nOut x nIn x kernel, or its 2D view
-- nOut x nIn*kernel) and a transposed ("full") one (weight nIn x nOut x
-- kernel).  Window geometry is {k = {...}, s = {...}, pad = {...}, dil = {...}}
-- in the tensor's axis order.  2D ones run image by image in LuaJIT and the
-- library's gemm, as THNN ran them (below); 3D ones make their columns in
-- th/ops/nn_spatial.py, then the library's gemm image by image.
local ffi = require 'ffi'
local torch = require 'torch'
local internal = require 'torch.internal'
local types = require 'torch.types'
local cblas = require 'torch.maths.cblas'
local f32 = require('torch.maths.kernels').f32
local S = require 'thnn.spatial'
local checks = require 'thnn.checks'
local I = require 'thnn.im2col'
local shared = require 'thnn.shared'

local py, nd, call, flat = S.py, S.nd, S.call, S.flat
local TD = internal.tensors

local C = {}

local function prod(t)
   local p = 1
   for i = 1, #t do p = p * t[i] end
   return p
end

-- (argn: the weight's argument, THNN's 5 for a 2D convolution, 4 for a 3D one)
local function checkweight(weight, d, argn)
   local n = S.dims(weight)
   if n ~= 2 and n ~= d + 2 then
      if d == 3 then S.argerror(argn or 4, 'weight tensor should be 2D or 5D - got %d', n) end
      S.argerror(argn or 5, '2D or 4D weight tensor expected, but got: %s', S.shape(weight))
   end
end

-- THNN's check of a bias: one element per output plane
local function checkbias(bias, nout)
   if bias ~= nil then S.checkgrad(bias, {nout}, 'bias') end
end

-- planes of a direct convolution's weight: nOut, nIn (a dilated one's
-- weight of a kernel's dimensions: its second size, as THNN read it, see
-- dilatedkernel)
local function planes(weight, g)
   local nout = S.size(weight, 1)
   if g.dil and S.dims(weight) == #g.k + 2 then return nout, S.size(weight, 2) end
   return nout, weight:nElement() / nout / prod(g.k)
end

-- dilatedkernel(weight, g, nout, nin): after THNN's checks, a dilated
-- convolution's weight must hold nOut x nIn x the module's kernel: THNN
-- multiplied its memory by that kernel whatever the weight's own, reading
-- past one of a smaller kernel (th had taken nIn from its count, and failed
-- on the input's planes in THNN's words with a number of its own)
local function dilatedkernel(weight, g, nout, nin)
   if not (g.dil and S.dims(weight) == #g.k + 2) then return end
   for i = 1, #g.k do
      if S.size(weight, i + 2) ~= g.k[i] then
         S.fail('a weight of %d x %d x %s (the kernel) expected, but got: %s', nout, nin,
                table.concat(g.k, ' x '), S.shape(weight))
      end
   end
end

-- g.unchecked: a convolution whose THNN did not check the input's planes
-- (VolumetricConvolution): its forward pass failed in the product of the
-- weight, nOut x nIn*k, by the input's columns, C*k x the output's elements,
-- with addmm's message
local function mismatch(input, first, nin, nout, g, osz)
   local c = S.size(input, first)
   if c ~= nin then
      internal.fail('size mismatch, m1: [%d x %d], m2: [%d x %d]', nout, nin * prod(g.k), c * prod(g.k), prod(osz))
   end
end

-- check input and (for a backward pass) gradOutput; returns the output sizes,
-- the plane dimension and the batch size (nil when not a batch)
local function shapes(input, gradOutput, g, nin, nout)
   local d = #g.k
   local first, batch = S.checkinput(input, d, 2, d == 3)   -- (THNN's volumetric words)
   -- (the output's size first, THNN's message giving the weight's planes)
   local osz = S.outsizes(input, first, g.k, g.s, g.pad, g.dil, 'c', nout, d == 3 and 'x' or nil,
                          not g.unchecked and nin or nil)
   if not g.unchecked then S.checkplanes(input, first, nin) end
   local sizes = S.outshape(input, first, nout, osz)
   if g.unchecked and not gradOutput then mismatch(input, first, nin, nout, g, osz) end
   if gradOutput then S.checkgrad(gradOutput, sizes, nil, first) end
   return sizes, osz, batch and S.size(input, 1) or nil
end

-- a columns buffer (finput, fgradInput): nIn*prod(k) x N*prod(out), where
-- THNN had (N x) nIn*prod(k) x prod(out), the same number of elements
local function resizecols(cols, batch, rows, osz)
   if cols then S.resize(cols, {rows, (batch or 1) * prod(osz)}) end
end

-- 2D convolutions build their columns in LuaJIT (thnn/im2col.lua), in
-- THNN's layout (N x) C*kH*kW x oH*oW, for the library's gemm (numpy's
-- product without one).  Tensors are taken contiguous as THNN took them; a
-- result that is not is computed in a contiguous one and copied back.

-- t, or a contiguous tensor of its sizes when t is not (copied from t when keep)
local function dense(t, keep)
   if t == nil or t:isContiguous() then return t end
   local c = t.new():resize(t:size())
   if keep then c:copy(t) end
   return c
end

-- the geometry of one image: C, H, W, oH, oW, the images, K = C*kH*kW, P = oH*oW
local function imagegeom(input, g, nin, osz, batch)
   local first = batch and 2 or 1
   local C, H, W = nin, S.size(input, first + 1), S.size(input, first + 2)
   return C, H, W, osz[1], osz[2], batch or 1, nin * g.k[1] * g.k[2], osz[1] * osz[2]
end

local function resizecolumns(cols, batch, N, K, P)
   S.resize(cols, batch and {N, K, P} or {K, P})
   if not cols:isContiguous() then cols:set(cols.new():resize(cols:size())) end
end

-- The matrix products, image by image as THNN ran them, through the BLAS
-- Torch7 called (torch/maths/cblas.lua: its addmm's routine, shapes and
-- flags give its bits); numpy's (th/ops/nn_conv.py) when there is none.

-- three matrix descriptors (S.matrix), reused: a training step makes no
-- garbage for them
local R, A, B = S.descriptor(), S.descriptor(), S.descriptor()
local matrix = S.matrix

-- r = beta r + alpha a b for each image n (r, a, b advancing by rstep,
-- astep, bstep elements); false when BLAS does not take them
local function products(N, r, rstep, beta, alpha, a, astep, b, bstep, rowfirst)
   if not cblas.usable(r, a, b) then return false end
   local r0, a0, b0 = r.off, a.off, b.off
   for n = 0, N - 1 do
      r.off, a.off, b.off = r0 + n * rstep, a0 + n * astep, b0 + n * bstep
      if not cblas.product('addmm', r, beta, alpha, a, b, rowfirst) then return false end
   end
   return true
end

-- the sums of the planes of P elements at g[o0], g[o1], g[o2], g[o3], each
-- added up in order in float steps: four chains at once, as one chain's
-- float roundings (a store and a load each) wait on each other
local cells = ffi.new('float[4]')
local function floatsums4(g, o0, o1, o2, o3, P)
   local c, s0, s1, s2, s3 = cells, 0, 0, 0, 0
   for j = 0, P - 1 do
      c[0], c[1], c[2], c[3] = s0 + g[o0 + j], s1 + g[o1 + j], s2 + g[o2 + j], s3 + g[o3 + j]
      s0, s1, s2, s3 = c[0], c[1], c[2], c[3]
   end
   return s0, s1, s2, s3
end

-- gb[k] += scale * (the sum of plane k of the image), image by image, each
-- sum added up in order in the element type (float steps for a FloatTensor;
-- planes four at a time, the last group padded with repeats of its last)
local SUMS = {}
local function biasgrad(gb, gout, N, O, P, scale, float)
   local b, g = gb:data(), gout:data()
   local rows = N * O
   if float then
      local sums = SUMS
      for q = 0, rows - 1, 4 do
         local last = rows - 1
         local q1, q2, q3 = math.min(q + 1, last), math.min(q + 2, last), math.min(q + 3, last)
         sums[1], sums[2], sums[3], sums[4] = floatsums4(g, q * P, q1 * P, q2 * P, q3 * P, P)
         for r = q, math.min(q + 3, last) do
            local k = r % O
            b[k] = b[k] + f32(scale * sums[r - q + 1])
         end
      end
   else
      for q = 0, rows - 1 do
         local s, o, k = 0, q * P, q % O
         for j = o, o + P - 1 do s = s + g[j] end
         b[k] = b[k] + scale * s
      end
   end
end

local BIASGRAD = checks.pertype(biasgrad)

-- (gb, gout contiguous Float or Double; scale a float for a FloatTensor;
-- TemporalRowConvolution's sums too)
function C.biasgrad(gb, gout, N, O, P, scale)
   local T = torch.type(gout)
   BIASGRAD(T)(gb, gout, N, O, P, scale, T == 'torch.FloatTensor')
end

-- A batch's images one by one, each on this thread or a helper (as THNN's
-- OpenMP threads took them), an image's columns made or used while still in
-- that thread's cache; the library's gemm is called from each thread as
-- from THNN's (the same call, whoever makes it).  p3 = weight; a1: the
-- gemm's address (0: the product made in numpy, before a fold, after an
-- unfold).  One loop per geometry, its sizes written in: the image
-- C x H x W, the columns grid oH x oW (P places), K = C*kH*kW, the product's
-- other side O planes.  A transposed convolution runs the same loops, its
-- output the image and its input on the grid: its forward is a fold, its
-- gradInput an unfold.
local IMAGES = {
   -- unfold: the columns, then the O planes set to the bias (zeros without
   -- one) and the product weight x columns added to them; p0 = the image,
   -- p1 = cols, p2 = the planes, a0: the bias's address (0: none)
   unfold = {loop = 'im2col', text = [[
local bias, gemm = a0 ~= 0 and ffi.cast(P3, a0) or nil, a1 ~= 0 and ffi.cast(GEMM, a1) or nil
for n = a, b - 1 do
   local c, y = p1 + n * $KP, p2 + n * $OP
   im2col(c, 0, p0, n * $CHW, $C, $H, $W, $OH, $OW, $KH, $KW, $SH, $SW, $PH, $PW, $DH, $DW)
   for k = 0, $O - 1 do
      local v = bias and bias[k] or 0
      for j = k * $P, (k + 1) * $P - 1 do y[j] = v end
   end
   if gemm then gemm$CALL end
end
]], product = function(O, K, P, rowfirst) return O, K, P, P, 1, K, 1, P, 1, 'y', 'p3', 'c', 1, 1, rowfirst end},
   -- fold: the columns weight^T x the O planes, added back into the zeroed
   -- image, then the bias added to its C planes; p0 = the image, p1 = its
   -- columns, p2 = the planes, a0: the bias's address (0: none)
   fold = {loop = 'col2im', text = [[
local bias, gemm = a0 ~= 0 and ffi.cast(P3, a0) or nil, a1 ~= 0 and ffi.cast(GEMM, a1) or nil
for n = a, b - 1 do
   local c, g, x = p1 + n * $KP, p2 + n * $OP, n * $CHW
   if gemm then gemm$CALL end
   for j = x, x + $CHW - 1 do p0[j] = 0 end
   col2im(c, 0, p0, x, $C, $H, $W, $OH, $OW, $KH, $KW, $SH, $SW, $PH, $PW, $DH, $DW)
   if bias then
      for k = 0, $C - 1 do
         local v, y = bias[k], x + k * $HW
         for j = y, y + $HW - 1 do p0[j] = p0[j] + v end
      end
   end
end
]], product = function(O, K, P, rowfirst) return K, O, P, P, 1, 1, K, P, 1, 'c', 'p3', 'g', 1, 0, rowfirst end},
   -- the columns alone (a weight gradient's, whose products add up in
   -- order); p0 = the image, p1 = cols
   columns = {loop = 'im2col', text = [[
for n = a, b - 1 do
   im2col(p1 + n * $KP, 0, p0, n * $CHW, $C, $H, $W, $OH, $OW, $KH, $KW, $SH, $SW, $PH, $PW, $DH, $DW)
end
]]},
}
-- (shared from this many multiply-adds in all, or elements of columns, an image a unit)
local IMAGES_SHARED = 2^20

local imageloops = {}
local function imageloop(kind, C, H, W, oH, oW, O, K, P, g, rowfirst)
   local kH, kW, sH, sW, pH, pW, dH, dW = I.geometry(g)
   local key = table.concat({kind, C, H, W, oH, oW, O, K, P, kH, kW, sH, sW, pH, pW, dH, dW, tostring(rowfirst)}, ',')
   local L = imageloops[key]
   if L then return L end
   local sizes = {KP = K * P, CHW = C * H * W, C = C, H = H, W = W, OH = oH, OW = oW, KH = kH, KW = kW,
                  SH = sH, SW = sW, PH = pH, PW = pW, DH = dH, DW = dW, OP = O * P, O = O, P = P, HW = H * W}
   local images, body, prelude = IMAGES[kind], {}, {}
   for ctype, T in pairs{float = types.Float, double = types.Double} do
      local gemmtype, call
      if images.product then gemmtype, _, call = cblas.gemmcall(T, images.product(O, K, P, rowfirst)) end
      sizes.CALL = call or ''
      body[ctype] = images.text:gsub('%$(%w+)', sizes)
      prelude[ctype] = ('local %s = (function()\n%s\nend)()\nlocal GEMM = ffi.typeof(%q)')
                       :format(images.loop, I.source(images.loop, ffi.sizeof(ctype), g, W, oW, P),
                               gemmtype or 'void *')
   end
   L = shared.loop('convolution images', body, IMAGES_SHARED, 1, nil, prelude)
   imageloops[key] = L
   return L
end

-- the address of gemm for the loop of this kind on these tensors (0: numpy's product)
local function gemmaddress(kind, r, a, b, O, K, P, rowfirst)
   if not cblas.usable(TD[r], TD[a], TD[b]) then return 0 end
   local m, k, n, rs1, rs2, as1, as2, bs1, bs2 = IMAGES[kind].product(O, K, P)
   return cblas.gemmaddress(TD[r].T, m, k, n, rs1, rs2, as1, as2, bs1, bs2, rowfirst) or 0
end

local function address(t)
   return t and tonumber(ffi.cast('intptr_t', t:data())) or 0
end

-- The loops run on contiguous tensors: the N images x (N x C x H x W), their
-- columns cols (made N x K x P), the planes y (N x O x P), the weight w
-- (O x K) and the bias b (nil: none).
-- (rowfirst: the products' results handed row-major whatever their sizes,
-- as the dilated and transposed convolutions called gemm; rowfirst in cblas)
-- unfold: y = w x the columns of x, plus b
local function unfold(x, cols, y, w, b, g, C, H, W, oH, oW, N, O, K, P, rowfirst)
   local gemm = gemmaddress('unfold', y, w, cols, O, K, P, rowfirst)
   shared.run(imageloop('unfold', C, H, W, oH, oW, O, K, P, g, rowfirst), checks.ctype(x), N, N * O * K * P, x:data(),
              cols:data(), y:data(), w:data(), address(b), gemm)
   if gemm == 0 then call(py.nn_cols_forward, nd(y), nd(w), nd(cols)) end
end

-- fold: x = the columns w^T x y folded into images, plus b
local function fold(x, cols, y, w, b, g, C, H, W, oH, oW, N, O, K, P, rowfirst)
   local gemm = gemmaddress('fold', cols, w, y, O, K, P, rowfirst)
   if gemm == 0 then call(py.nn_cols_backward, nd(cols), nd(w), nd(y)) end
   shared.run(imageloop('fold', C, H, W, oH, oW, O, K, P, g, rowfirst), checks.ctype(x), N, N * O * K * P, x:data(),
              cols:data(), y:data(), w:data(), address(b), gemm)
end

-- columns: cols = the columns of x
local function columns(x, cols, g, C, H, W, oH, oW, N, K, P)
   shared.run(imageloop('columns', C, H, W, oH, oW, 0, K, P, g), checks.ctype(x), N, N * K * P, x:data(),
              cols:data())
end

local function forward2d(input, output, weight, bias, cols, g, nin, osz, batch, direct)
   local C, H, W, oH, oW, N, K, P = imagegeom(input, g, nin, osz, batch)
   local x = dense(input, true)
   resizecolumns(cols, batch, N, K, P)
   local out, w = dense(output), dense(weight, true)
   unfold(x, cols, out, w, bias and dense(bias, true), g, C, H, W, oH, oW, N, S.size(w, 1), K, P, direct)
   if out ~= output then output:copy(out) end
end

local function backward2d(input, gradOutput, gradInput, weight, gcols, g, nin, osz, batch, direct)
   local C, H, W, oH, oW, N, K, P = imagegeom(input, g, nin, osz, batch)
   resizecolumns(gcols, batch, N, K, P)
   local w, gout, gin = dense(weight, true), dense(gradOutput, true), dense(gradInput)
   fold(gin, gcols, gout, w, nil, g, C, H, W, oH, oW, N, S.size(w, 1), K, P, direct)
   if gin ~= gradInput then gradInput:copy(gin) end
end

-- ones (a dilated or transposed convolution's buffer) as THNN left it: a
-- plane of H x W ones (a block of T x H x W, 3D), made when it holds fewer
local function fillones(ones, H, W, T)
   local nd, n = T and 3 or 2, H * W * (T or 1)
   if ones:dim() ~= nd or ones:nElement() < n then
      if T then ones:resize(T, H, W) else ones:resize(H, W) end
      ones:fill(1)
   end
   return ones
end

-- the bias gradient of a dilated or transposed convolution as THNN made it:
-- gb += scale * gradOutput's O planes (P places each) times a vector of
-- ones (ones: at least P of them; one gemv per image); false when BLAS does
-- not take it
local function biasgemv(gb, gout, ones, N, O, P, scale)
   local r, a = TD[gb], matrix(A, gout, O, P, P, 1)
   local v = TD[ones]
   B.T, B.st, B.off, B.nd, B.sz[1], B.str[1] = v.T, v.st, v.off, 1, P, 1
   if not r or r.nd ~= 1 or not gb:isContiguous() or not cblas.usable(r, a, B) then return false end
   local a0 = a.off
   for n = 0, N - 1 do
      a.off = a0 + n * O * P
      if not cblas.product('addmv', r, 1, scale, a, B) then return false end
   end
   return true
end

-- gw (M x K) += scale * a cols^T image by image (a: N x M x P, a direct
-- convolution's gradOutput or a transposed one's input; cols N x K x P), in
-- order: each image's product adds to the last's; gb += scale * the sums of
-- gout's O planes of H x W (by gemv with ones when given, as THNN's dilated
-- and transposed convolutions made them).  All contiguous.
local function weightgrads(gw, gb, a, gout, cols, N, M, K, P, O, H, W, scale, ones)
   local float = torch.type(gout) == 'torch.FloatTensor'
   if float then scale = f32(scale) end
   -- (a dilated or transposed convolution's gemm called directly: its
   -- result row-major, whatever its sizes; SpatialConvolutionMM's by addmm)
   if gw and not products(N, matrix(R, gw, M, K, K, 1), 0, 1, scale, matrix(A, a, M, P, P, 1), M * P,
                          matrix(B, cols, P, K, 1, P), K * P, ones ~= nil) then
      call(py.nn_cols_accgrad, nd(gw), nd(cols), nd(a), scale)
   end
   if gb and not (ones and biasgemv(gb, gout, fillones(ones, H, W), N, O, H * W, scale)) then
      BIASGRAD(torch.type(gout))(gb, gout, N, O, H * W, scale, float)
   end
end

-- the forward's columns are used when they still fit, made again otherwise
-- (as THNN's SpatialConvolutionMM did); a dilated convolution's (ones
-- given) made again always, as its THNN made them
local function accgrad2d(input, gradOutput, gradWeight, gradBias, cols, g, nin, osz, batch, scale, ones)
   local C, H, W, oH, oW, N, K, P = imagegeom(input, g, nin, osz, batch)
   if gradWeight and (ones or cols:nElement() ~= N * K * P or not cols:isContiguous()) then
      resizecolumns(cols, batch, N, K, P)
      columns(dense(input, true), cols, g, C, H, W, oH, oW, N, K, P)
   end
   local gw, gb, gout = dense(gradWeight, true), dense(gradBias, true), dense(gradOutput, true)
   local O = S.size(gw or gb, 1)
   weightgrads(gw, gb, gout, gout, cols, N, O, K, P, O, oH, oW, scale, ones)
   if gw ~= gradWeight then gradWeight:copy(gw) end
   if gb ~= gradBias then gradBias:copy(gb) end
end

-- THNN's checks of a 2D geometry, and of a transposed convolution's output
-- padding adj ({adjH, adjW}, smaller than the stride or the dilation)
local function checkgeometry(g, adj)
   local k, s, dil = g.k, g.s, g.dil or {1, 1}
   if k[1] <= 0 or k[2] <= 0 then
      S.argerror(9, 'kernel size should be greater than zero, but got kH: %d kW: %d', k[1], k[2])
   end
   if s[1] <= 0 or s[2] <= 0 then
      S.argerror(11, 'stride should be greater than zero, but got dH: %d dW: %d', s[1], s[2])
   end
   if dil[1] <= 0 or dil[2] <= 0 then
      S.argerror(15, 'dilation should be greater than zero, but got dilationH: %d, dilationW: %d', dil[1], dil[2])
   end
   if adj and not ((adj[2] < s[2] or adj[2] < dil[2]) and (adj[1] < s[1] or adj[1] < dil[1])) then
      S.argerror(15, 'output padding must be smaller than either stride or dilation, but got adjH: %d adjW: %d '
                 .. 'dH: %d dW: %d dilationH: %d dilationW: %d', adj[1], adj[2], s[1], s[2], dil[1], dil[2])
   end
end

-- a direct convolution's weight (argument argn) and geometry checked in
-- THNN's order (a dilated one's weight first, 4D only, argument 4)
local function checkdirect(weight, g, argn)
   local d = #g.k
   if d == 2 and g.dil then
      if S.dims(weight) ~= 4 then
         S.argerror(4, '4D weight tensor (nOutputPlane,nInputPlane,kH,kW) expected, but got: %s', S.shape(weight))
      end
      checkgeometry(g)
   elseif g.dil then
      if S.dims(weight) ~= 5 then
         S.argerror(4, '5D (nOutputPlane x nInputPlane x kT x kH x kW) tensor expected for weight, but got: %s',
                    S.shape(weight))
      end
   else
      if d == 2 then checkgeometry(g) end
      checkweight(weight, d, argn)
   end
end

-- 3D convolutions image by image as THNN ran them: the columns (made in
-- numpy) K x N*P, image n's P columns from column n*P on (as the forward
-- keeps them in finput), and one gemm per image through the library (its
-- bits depend on the product's sizes: one for the whole batch differed).
-- A buffer of another type, or none, is replaced by a new one.  -> false
-- when BLAS does not take the tensors (numpy's products then)
local function colsbuffer(cols, t, batch, K, osz)
   if cols == nil or TD[cols].T ~= TD[t].T then cols = t.new() end
   resizecols(cols, batch, K, osz)
   return cols
end

-- THNN's columns of one image were a contiguous K x P tensor.  With P = 1
-- its strides, (1, 1), made BLAS take it otherwise than the column of th's
-- K x N*P layout, strides (N, 1): other bits, a FloatTensor's under the
-- AVX-512 kernels (fuzz_nn seed 8008).  imagecols(cols, N, K, P) -> the
-- columns, the row stride of an image's K x P and the step between images,
-- through a contiguous N x K copy when P = 1
local function imagecols(cols, N, K, P)
   if P == 1 and N > 1 then return cols:t():contiguous(), 1, K end
   return cols, N * P, P
end

-- output image n = bias, then += weight (O x K) x cols_n (direct: a dilated
-- convolution's, whose THNN called gemm directly: the result row-major)
local function forward3d(input, output, weight, bias, cols, g, nin, osz, batch, direct)
   local N, O, K, P = batch or 1, S.size(weight, 1), nin * prod(g.k), prod(osz)
   local w = dense(weight, true)
   if not cblas.usable(TD[output], TD[w], TD[input]) then return false end
   cols = colsbuffer(cols, input, batch, K, osz)
   call(py.nn_conv_columns, nd(cols), nd(input), flat(g), osz[1], osz[2], osz[3])
   local out = dense(output)
   local y = out:view(N, O, P)
   if bias then y:copy(dense(bias, true):view(1, O, 1):expandAs(y)) else y:zero() end
   local c, rowstride, step = imagecols(cols, N, K, P)
   if not products(N, matrix(R, out, O, P, P, 1), O * P, 1, 1, matrix(A, w, O, K, K, 1), 0,
                   matrix(B, c, K, P, rowstride, 1), step, direct) then
      return false
   end
   if out ~= output then output:copy(out) end
   return true
end

-- gcols_n = weight^T (K x O) x gradOutput image n, folded into gradInput
local function backward3d(gradOutput, gradInput, weight, gcols, g, nin, osz, batch)
   local N, O, K, P = batch or 1, S.size(weight, 1), nin * prod(g.k), prod(osz)
   local w, gout = dense(weight, true), dense(gradOutput, true)
   if not cblas.usable(TD[gradInput], TD[w], TD[gout]) then return false end
   gcols = colsbuffer(gcols, gout, batch, K, osz)
   local c, rowstride, step = imagecols(gcols, N, K, P)   -- (then copied back)
   if not products(N, matrix(R, c, K, P, rowstride, 1), step, 0, 1, matrix(A, w, K, O, 1, K), 0,
                   matrix(B, gout, O, P, P, 1), O * P) then
      return false
   end
   if c ~= gcols then gcols:copy(c:t()) end
   call(py.nn_conv_fold, nd(gradInput), nd(gcols), flat(g), osz[1], osz[2], osz[3])
   return true
end

-- (ones: the dilated convolutions' buffer, left as THNN left it)
function C.forward(input, output, weight, bias, cols, g, ones)
   checkdirect(weight, g)
   local nout, nin = planes(weight, g)
   checkbias(bias, nout)
   local sizes, osz, batch = shapes(input, nil, g, nin, nout)
   dilatedkernel(weight, g, nout, nin)
   S.resize(output, sizes)
   if #g.k == 2 then
      if ones then fillones(ones, osz[1], osz[2]) end
      return forward2d(input, output, weight, bias, cols or input.new(), g, nin, osz, batch, ones ~= nil)
   end
   if ones then fillones(ones, osz[2], osz[3], osz[1]) end
   if not forward3d(input, output, weight, bias, cols, g, nin, osz, batch, ones ~= nil) then
      resizecols(cols, batch, nin * prod(g.k), osz)
      call(py.nn_conv_forward, nd(output), nd(input), nd(weight), nd(bias), nd(cols), flat(g))
   end
end

-- (direct: a dilated convolution's, which called gemm directly)
function C.backward(input, gradOutput, gradInput, weight, gcols, g, direct)
   checkdirect(weight, g)
   local nout, nin = planes(weight, g)
   local _, osz, batch = shapes(input, gradOutput, g, nin, nout)
   gradOutput = S.firstrows(gradOutput, batch)
   dilatedkernel(weight, g, nout, nin)
   S.resizeas(gradInput, input)
   if #g.k == 2 then
      return backward2d(input, gradOutput, gradInput, weight, gcols or input.new(), g, nin, osz, batch, direct)
   end
   if not backward3d(gradOutput, gradInput, weight, gcols, g, nin, osz, batch) then
      resizecols(gcols, batch, nin * prod(g.k), osz)
      call(py.nn_conv_backward, nd(gradInput), nd(gradOutput), nd(weight), nd(gcols), flat(g))
   end
end

-- A 3D gradWeight as THNN made it, image by image: gw (O x K) += scale *
-- gout_n (O x P) x cols_n^T, one gemm each adding to the last's (alpha the
-- scale: its bits).  The columns are K x N*P as the forward keeps them in
-- finput (image n's from column n*P on), used when they still fit and
-- made again otherwise, or always for a dilated convolution (ones given),
-- as THNN's.  -> false when BLAS does not take them
local function accgrad3d(input, gradOutput, gradWeight, cols, g, nin, osz, batch, scale, ones)
   local N, O, K, P = batch or 1, S.size(gradWeight, 1), nin * prod(g.k), prod(osz)
   local T = TD[gradWeight].T
   if not cblas.usable(TD[gradWeight], TD[gradOutput], TD[input]) then return false end
   if ones or cols == nil or TD[cols].T ~= T or cols:nElement() ~= K * N * P or not cols:isContiguous() then
      cols = colsbuffer(cols, gradWeight, batch, K, osz)
      call(py.nn_conv_columns, nd(cols), nd(input), flat(g), osz[1], osz[2], osz[3])
   end
   local gw, gout = dense(gradWeight, true), dense(gradOutput, true)
   if T == types.Float then scale = f32(scale) end
   local c, rowstride, step = imagecols(cols, N, K, P)
   if not products(N, matrix(R, gw, O, K, K, 1), 0, 1, scale, matrix(A, gout, O, P, P, 1), O * P,
                   matrix(B, c, P, K, 1, rowstride), step) then
      return false
   end
   if gw ~= gradWeight then gradWeight:copy(gw) end
   return true
end

-- (ones: the dilated convolutions' buffer, whose bias gradient THNN made by gemv)
function C.accgrad(input, gradOutput, gradWeight, gradBias, cols, g, scale, ones)
   checkdirect(gradWeight, g, #g.k == 2 and 5 or nil)
   local nout, nin = planes(gradWeight, g)
   -- (THNN checked gradBias as its forward did the bias; th had written its
   -- planes' sums past the end of a smaller one)
   checkbias(gradBias, nout)
   local _, osz, batch = shapes(input, gradOutput, g, nin, nout)
   gradOutput = S.firstrows(gradOutput, batch)
   dilatedkernel(gradWeight, g, nout, nin)
   if #g.k == 2 then
      return accgrad2d(input, gradOutput, gradWeight, gradBias, cols or input.new(), g, nin, osz, batch, scale or 1,
                       ones)
   end
   -- (a dilated 3D one's bias by gemv, as THNN's)
   local T = ones and gradBias and TD[gradOutput].T
   if T and (T == types.Float or T == types.Double) and gradOutput:isContiguous() then
      local P = osz[1] * osz[2] * osz[3]
      if biasgemv(gradBias, gradOutput, fillones(ones, osz[2], osz[3], osz[1]), batch or 1, nout, P, scale or 1) then
         gradBias = nil
      end
   end
   if gradWeight and accgrad3d(input, gradOutput, gradWeight, cols, g, nin, osz, batch, scale or 1, ones) then
      gradWeight = nil
   end
   if gradWeight or gradBias then
      call(py.nn_conv_accgrad, nd(gradWeight), nd(gradBias), nd(input), nd(gradOutput), nd(cols), flat(g), scale or 1)
   end
end

-- transposed convolution: output size (in - 1) * s - 2 * pad + dil * (k - 1) + 1 + adj;
-- -> the output's sizes and whether the input is a batch
local function fullshapes(input, gradOutput, weight, g, adj)
   local d = #g.k
   local nin = S.size(weight, 1)
   local nout = S.size(weight, 2)
   local first, batch = S.checkinput(input, d, 2, d == 3)
   S.checkplanes(input, first, nin)
   local osz, insz, ok = {}, {}, true
   for i = 1, d do
      insz[i] = S.size(input, first + i)
      osz[i] = (insz[i] - 1) * g.s[i] - 2 * g.pad[i] + (g.dil and g.dil[i] or 1) * (g.k[i] - 1) + 1 + adj[i]
      if osz[i] < 1 then ok = false end
   end
   if not ok then
      local sep = d == 3 and 'x' or ' x '
      S.fail('Given input size: (%d%s%s). Calculated output size: (%d%s%s). Output size is too small',
             nin, sep, table.concat(insz, sep), nout, sep, table.concat(osz, sep))
   end
   local sizes = S.outshape(input, first, nout, osz)
   if gradOutput then S.checkgrad(gradOutput, sizes, nil, first) end
   return sizes, batch
end

-- (THNN's 2D check took a 2-D weight, nInputPlane x nOutputPlane, as well:
-- see fullkernel)
local function checkfullweight(weight, d)
   local n = S.dims(weight)
   if d == 2 and n ~= 2 and n ~= 4 then
      S.argerror(5, '2D or 4D weight tensor expected, but got: %s', S.shape(weight))
   elseif d ~= 2 and n ~= d + 2 then
      S.argerror(4, '%dD weight tensor expected (nInputPlane x nOutputPlane x %s), but got: %s',
                 d + 2, d == 2 and 'kH x kW' or 'kT x kH x kW', S.shape(weight))
   end
end

-- A 2D transposed convolution runs the image loops with its output
-- (nOut x oH x oW) as the image and its input (nIn x H x W) on the columns
-- grid, columns and products per image as THNN's (its columns buffer made
-- N x K x P, as a direct convolution's finput): the geometry C = nOut, oH,
-- oW, H, W, N, K, P and the input planes I.  (The grid is the input's size:
-- an adj of 0 to stride - 1 gives it back from the output's.)
local function fullgeom(input, weight, g, sizes, batch)
   local first = batch and 2 or 1
   local H, W, C = S.size(input, first + 1), S.size(input, first + 2), S.size(weight, 2)
   return C, sizes[first + 1], sizes[first + 2], H, W, batch and sizes[1] or 1, C * g.k[1] * g.k[2], H * W,
          S.size(weight, 1)
end

local function fullforward2d(input, output, weight, bias, cols, g, sizes, batch)
   local C, oH, oW, H, W, N, K, P, nin = fullgeom(input, weight, g, sizes, batch)
   resizecolumns(cols, batch, N, K, P)
   local out, x, w = dense(output), dense(input, true), dense(weight, true)
   fold(out, cols, x, w, bias and dense(bias, true), g, C, oH, oW, H, W, N, nin, K, P, true)
   if out ~= output then output:copy(out) end
end

local function fullbackward2d(input, gradOutput, gradInput, weight, gcols, g, sizes, batch)
   local C, oH, oW, H, W, N, K, P, nin = fullgeom(input, weight, g, sizes, batch)
   resizecolumns(gcols, batch, N, K, P)
   local gout, w, gin = dense(gradOutput, true), dense(weight, true), dense(gradInput)
   unfold(gout, gcols, gin, w, nil, g, C, oH, oW, H, W, N, nin, K, P, true)
   if gin ~= gradInput then gradInput:copy(gin) end
end

-- (the columns of gradOutput made again, as THNN made them)
local function fullaccgrad2d(input, gradOutput, gradWeight, gradBias, cols, ones, g, sizes, batch, scale)
   local C, oH, oW, H, W, N, K, P, nin = fullgeom(input, gradWeight, g, sizes, batch)
   local gout, gw, gb = dense(gradOutput, true), dense(gradWeight, true), dense(gradBias, true)
   resizecolumns(cols, batch, N, K, P)
   columns(gout, cols, g, C, oH, oW, H, W, N, K, P)
   weightgrads(gw, gb, dense(input, true), gout, cols, N, nin, K, P, C, oH, oW, scale, ones)
   if gw ~= gradWeight then gradWeight:copy(gw) end
   if gb ~= gradBias then gradBias:copy(gb) end
end

-- A 3D transposed convolution image by image, as THNN ran it: the columns
-- (cols, THNN's finput: nOut*kT*kH*kW x the input's T*H*W places, made and
-- folded in numpy) and the library's products called as THNN called gemm
-- (its results row-major whatever their sizes: torch's mm and addmm handed a
-- column or a row the other way, last bits found by the programs fuzz): the forward folds weight^T x the image's
-- planes and adds the bias; gradInput is weight x the columns of
-- gradOutput; gradWeight adds scale * the input's planes x those columns^T.
-- -> the images N, the input planes I, K, P, the grid's sizes
local function fullgeom3d(input, weight, batch)
   local first = batch and 2 or 1
   local iT, iH, iW = S.size(input, first + 1), S.size(input, first + 2), S.size(input, first + 3)
   local I = S.size(weight, 1)
   return batch and S.size(input, 1) or 1, I, weight:nElement() / I, iT * iH * iW, iT, iH, iW
end

-- image n of t (t when not a batch)
local function image(t, batch, n)
   return batch and t[n] or t
end

local function columnsbuffer(cols, K, P)
   S.resize(cols, {K, P})
   if not cols:isContiguous() then cols:set(cols.new():resize(K, P)) end
end

local function fullforward3d(input, output, weight, bias, cols, g, batch)
   local N, I, K, P, iT, iH, iW = fullgeom3d(input, weight, batch)
   local x, wt, out, geo = dense(input, true), dense(weight, true):view(I, K):t(), dense(output), flat(g)
   local b = bias and dense(bias, true)
   columnsbuffer(cols, K, P)
   for n = 1, N do
      local o, xn = image(out, batch, n), image(x, batch, n):view(I, P)
      if not products(1, matrix(R, cols, K, P, P, 1), 0, 0, 1, matrix(A, wt, K, I, 1, K), 0,
                      matrix(B, xn, I, P, P, 1), 0, true) then
         cols:mm(wt, xn)
      end
      call(py.nn_columns_fold, nd(o), nd(cols), geo, iT, iH, iW)
      if b then o:add(b:view(-1, 1, 1, 1):expandAs(o)) end
   end
   if out ~= output then output:copy(out) end
end

local function fullbackward3d(input, gradOutput, gradInput, weight, cols, g, batch)
   local N, I, K, P, iT, iH, iW = fullgeom3d(input, weight, batch)
   local gout, w, gin, geo = dense(gradOutput, true), dense(weight, true):view(I, K), dense(gradInput), flat(g)
   columnsbuffer(cols, K, P)
   for n = 1, N do
      call(py.nn_columns, nd(cols), nd(image(gout, batch, n)), geo, iT, iH, iW)
      local gn = image(gin, batch, n):view(I, P)
      if not products(1, matrix(R, gn, I, P, P, 1), 0, 0, 1, matrix(A, w, I, K, K, 1), 0,
                      matrix(B, cols, K, P, P, 1), 0, true) then
         gn:mm(w, cols)
      end
   end
   if gin ~= gradInput then gradInput:copy(gin) end
end

local function fullaccgrad3d(input, gradOutput, gradWeight, cols, g, batch, scale)
   local N, I, K, P, iT, iH, iW = fullgeom3d(input, gradWeight, batch)
   local x, gout, gw, geo = dense(input, true), dense(gradOutput, true), dense(gradWeight, true), flat(g)
   local w = gw:view(I, K)
   local alpha = torch.type(gw) == 'torch.FloatTensor' and f32(scale) or scale
   columnsbuffer(cols, K, P)
   for n = 1, N do
      call(py.nn_columns, nd(cols), nd(image(gout, batch, n)), geo, iT, iH, iW)
      local xn = image(x, batch, n):view(I, P)
      if not products(1, matrix(R, w, I, K, K, 1), 0, 1, alpha, matrix(A, xn, I, P, P, 1), 0,
                      matrix(B, cols, P, K, 1, P), 0, true) then
         w:addmm(scale, xn, cols:t())
      end
   end
   if gw ~= gradWeight then gradWeight:copy(gw) end
end

-- fullkernel(weight, g) -> the 2D weight, nInputPlane x nOutputPlane x kH x
-- kW, after THNN's checks: it multiplied the weight's memory by the
-- module's kernel, whatever the weight's own, so that one of another kernel
-- was read past its end or crashed the process, and a 2-D one made BLAS
-- refuse its gemm ("parameter number 4 had an illegal value"), leaving the
-- output at the bias: th's error (th had failed inside its own loops, or
-- computed from the weight's first elements)
local function fullkernel(weight, g)
   local n = S.dims(weight)
   if n == 4 and S.size(weight, 3) == g.k[1] and S.size(weight, 4) == g.k[2] then return weight end
   S.fail('SpatialFullConvolution: a weight of nInputPlane x nOutputPlane x %d x %d (the kernel) expected, but got: %s',
          g.k[1], g.k[2], S.shape(weight))
end

-- (cols, ones: nn's finput and fgradInput, THNN's columns and ones)
function C.fullforward(input, output, weight, bias, g, adj, cols, ones)
   local d = #g.k
   if d == 2 then checkgeometry(g, adj) end
   checkfullweight(weight, d)
   checkbias(bias, S.size(weight, 2))
   local sizes, batch = fullshapes(input, nil, weight, g, adj)
   if d == 2 then weight = fullkernel(weight, g) end
   S.resize(output, sizes)
   if d == 2 then
      if ones then fillones(ones, sizes[#sizes - 1], sizes[#sizes]) end
      return fullforward2d(input, output, weight, bias, cols or input.new(), g, sizes, batch)
   end
   if ones then fillones(ones, sizes[#sizes - 1], sizes[#sizes], sizes[#sizes - 2]) end
   fullforward3d(input, output, weight, bias, cols or input.new(), g, batch)
end

function C.fullbackward(input, gradOutput, gradInput, weight, g, adj, gcols)
   local d = #g.k
   if d == 2 then checkgeometry(g, adj) end
   checkfullweight(weight, d)
   local sizes, batch = fullshapes(input, gradOutput, weight, g, adj)
   gradOutput = S.firstrows(gradOutput, batch and S.size(input, 1))
   if d == 2 then weight = fullkernel(weight, g) end
   S.resizeas(gradInput, input)
   if d == 2 then return fullbackward2d(input, gradOutput, gradInput, weight, gcols or input.new(), g, sizes, batch) end
   fullbackward3d(input, gradOutput, gradInput, weight, gcols or input.new(), g, batch)
end

function C.fullaccgrad(input, gradOutput, gradWeight, gradBias, g, adj, scale, cols, ones)
   local d = #g.k
   if d == 2 then checkgeometry(g, adj) end
   checkfullweight(gradWeight, d)
   -- (a 3D one's too: th's gemv had written past a smaller gradBias)
   checkbias(gradBias, S.size(gradWeight, 2))
   local sizes, batch = fullshapes(input, gradOutput, gradWeight, g, adj)
   gradOutput = S.firstrows(gradOutput, batch and S.size(input, 1))
   if d == 2 then
      gradWeight = fullkernel(gradWeight, g)
      return fullaccgrad2d(input, gradOutput, gradWeight, gradBias, cols or input.new(), ones, g, sizes, batch,
                           scale or 1)
   end
   fullaccgrad3d(input, gradOutput, gradWeight, cols or input.new(), g, batch, scale or 1)
   -- (the bias by gemv with ones, one image at a time, as THNN's)
   local T = ones and gradBias and TD[gradOutput].T
   if T and (T == types.Float or T == types.Double) then
      local n = #sizes
      local P = sizes[n - 2] * sizes[n - 1] * sizes[n]
      if biasgemv(gradBias, dense(gradOutput, true), fillones(ones, sizes[n - 1], sizes[n], sizes[n - 2]),
                  batch and sizes[1] or 1, sizes[n - 3], P, scale or 1) then
         gradBias = nil
      end
   end
   if gradBias then
      call(py.nn_fullconv_accgrad, nil, nd(gradBias), nd(input), nd(gradOutput), flat(g), scale or 1)
   end
end

return C
