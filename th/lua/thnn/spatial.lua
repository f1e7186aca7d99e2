-- What the Spatial*, Volumetric* and Temporal* kernel families share: shape
-- checks with THNN's messages, output sizes, and the numpy views handed to
-- th/ops/nn_spatial.py.  Sizes are lists in the tensor's axis order (depth,
-- height, width), where THNN's arguments come width first.
local internal = require 'torch.internal'

local TD, ndview, resize, pycall, fail = internal.tensors, internal.ndview, internal.resize, internal.pycall, internal.fail
local floor, ceil, concat = math.floor, math.ceil, table.concat

local S = {}
S.py = internal.py

-- the numpy view of tensor t (nil for nil or an empty tensor)
function S.nd(t)
   if t == nil then return nil end
   return ndview(TD[t])
end

-- the flat list {k..., s..., pad..., dil...} the Python side reads
-- (nn_spatial._geom) of window geometry g = {k, s, pad [, dil]}
function S.flat(g)
   local v, d = {}, #g.k
   for i = 1, d do
      v[i], v[d + i], v[2 * d + i], v[3 * d + i] = g.k[i], g.s[i], g.pad[i], g.dil and g.dil[i] or 1
   end
   return v
end

function S.call(f, ...)
   return pycall(f, ...)
end

function S.dims(t) return TD[t].nd end
function S.size(t, i) return TD[t].sz[i] end

function S.sizes(t)
   local d = TD[t]
   local s = {}
   for i = 1, d.nd do s[i] = d.sz[i] end
   return s
end

-- '[2 x 3 x 4]' as THNN printed shapes
function S.shape(t)
   return '[' .. concat(S.sizes(t), ' x ') .. ']'
end

function S.resize(t, sizes)
   resize(TD[t], sizes, #sizes)
end

function S.resizeas(t, like)
   S.resize(t, S.sizes(like))
end

S.fail = fail

-- argerror(n, fmt, ...): THNN's THArgCheck failure
function S.argerror(n, fmt, ...)
   fail("bad argument #%d to 'v' (%s)", n, fmt:format(...))
end

-- checkinput(x, d, argn, batchmode): x has d + 1 or d + 2 dimensions
-- (non-empty) and is returned with the index of its plane dimension and
-- whether it is a batch; batchmode: the error in the words of THNN's
-- volumetric convolutions and poolings and adaptive poolings
function S.checkinput(x, d, argn, batchmode)
   local n = TD[x].nd
   if n ~= d + 1 and n ~= d + 2 or internal.nelement(TD[x]) == 0 then
      local dims = ('%dD or %dD'):format(d + 1, d + 2)
      if batchmode then
         S.argerror(argn or 2, '%s (batch mode) tensor expected for input, but got: %s', dims, S.shape(x))
      end
      S.argerror(argn or 2, '%s input tensor expected but got: %s', dims, S.shape(x))
   end
   return n == d + 2 and 2 or 1, n == d + 2
end

-- planes(input) -> first, planes, height, width of a 3D or 4D image input
-- (planes counts the batch's too; first as checkinput's)
function S.planes(input)
   local first = S.checkinput(input, 2, 2, true)
   local planes = S.size(input, first)
   if first == 2 then planes = planes * S.size(input, 1) end
   return first, planes, S.size(input, first + 1), S.size(input, first + 2)
end

-- a / b as C's integer division (toward zero): the output sizes of THNN's
-- convolutions, where a window may then reach past the input's end (its
-- taps there read zeros)
function S.cdiv(a, b)
   local q = a / b
   return q < 0 and ceil(q) or floor(q)
end

-- the output size of a window slid over size (THNN's formula: rounding
-- 'c' C's division, as its convolutions; true ceil, else floor, as its
-- poolings; anypad: some dimension is padded)
function S.outsize(size, k, s, pad, dil, rounding, anypad)
   local span = size + 2 * pad - dil * (k - 1) - 1
   local o
   if rounding == 'c' then
      o = S.cdiv(span, s) + 1
   elseif rounding then
      o = ceil(span / s) + 1
      -- with padding, the last window starts inside the input or its left
      -- padding; without, THNN let it start past the input (an empty window)
      if anypad and (o - 1) * s >= size + pad then o = o - 1 end
   else
      o = floor(span / s) + 1
   end
   return o
end

-- outsizes(x, first, k, s, pad, dil, rounding, nplanes, sep, planes): the
-- output's spatial sizes (rounding as outsize's), with THNN's error when one
-- is below 1 (sizes joined by sep; the input's planes given as planes, the
-- weight's for a convolution, or x's)
function S.outsizes(x, first, k, s, pad, dil, rounding, nout, sep, planes)
   local out, insz = {}, {}
   local ok, anypad = true, false
   for i = 1, #k do anypad = anypad or pad[i] ~= 0 end
   for i = 1, #k do
      insz[i] = TD[x].sz[first + i]
      out[i] = S.outsize(insz[i], k[i], s[i], pad[i], dil and dil[i] or 1, rounding, anypad)
      if out[i] < 1 then ok = false end
   end
   if not ok then
      local nin = planes or TD[x].sz[first]
      sep = sep or ' x '
      fail('Given input size: (%d%s%s). Calculated output size: (%d%s%s). Output size is too small',
           nin, sep, concat(insz, sep), nout or nin, sep, concat(out, sep))
   end
   return out
end

-- checkplanes(x, first, n): x has n planes at dimension first
function S.checkplanes(x, first, n, name)
   local d = TD[x]
   if d.sz[first] ~= n then
      fail('Need %s of dimension %d and %s.size[%d] == %d but got %s to be of shape: %s',
           name or 'input', d.nd, name or 'input', first - 1, n, name or 'input', S.shape(x))
   end
end

-- checkgrad(g, sizes, name, first): gradOutput has the output's sizes (THNN
-- named the first dimension that differs, 0-based).  first: 2 for a batch
-- whose size THNN did not check (the convolutions and poolings: their
-- planes and places checked, then their loops over the input's batch read
-- the gradient's first rows); a gradient of fewer rows, which THNN read
-- past, is th's error in those words
local function checkdims(g, sizes, name, from)
   local d = TD[g]
   for i = from, #sizes do
      if d.nd ~= #sizes or d.sz[i] ~= sizes[i] then
         fail('Need %s of dimension %d and %s.size[%d] == %d but got %s to be of shape: %s',
              name, #sizes, name, i - 1, sizes[i], name, S.shape(g))
      end
   end
end
function S.checkgrad(g, sizes, name, first)
   name = name or 'gradOutput'
   if first ~= 2 then return checkdims(g, sizes, name, 1) end
   checkdims(g, sizes, name, 2)
   if TD[g].sz[1] < sizes[1] then checkdims(g, sizes, name, 1) end
end

-- asoutput(g, sizes): a gradient read as THNN's kernels without a check of
-- it read it, its memory in order as the output's (of those sizes): a
-- gradient of other sizes passes; fewer elements, which THNN read past, is
-- th's error
function S.asoutput(g, sizes)
   local n = 1
   for i = 1, #sizes do n = n * sizes[i] end
   local have = internal.nelement(TD[g])
   if have < n then
      fail('gradOutput has %d elements, fewer than the %d of the output %s', have, n,
           '[' .. table.concat(sizes, ' x ') .. ']')
   end
   if g:isContiguous() and S.dims(g) == #sizes then
      local same = true
      for i = 1, #sizes do same = same and S.size(g, i) == sizes[i] end
      if same then return g end
   end
   return g:contiguous():view(have):narrow(1, 1, n):view(unpack(sizes))
end

-- firstrows(g, batch): a batch's gradient as THNN's loops read it, its first
-- batch rows (checkgrad with first 2 let more through)
function S.firstrows(g, batch)
   if batch and TD[g].sz[1] > batch then return g:narrow(1, 1, batch) end
   return g
end

-- outshape(x, first, nplanes, spatial): the output's sizes (with x's batch)
function S.outshape(x, first, nplanes, spatial)
   local sizes = {}
   if first == 2 then sizes[1] = TD[x].sz[1] end
   sizes[#sizes + 1] = nplanes
   for i = 1, #spatial do sizes[#sizes + 1] = spatial[i] end
   return sizes
end

-- The matrix products of the kernels go to the BLAS Torch7 called
-- (torch/maths/cblas.lua) through descriptors of matrices over a tensor's
-- memory, moved along it by their offset (the BLAS call keeps none).
function S.descriptor()
   return {sz = {}, str = {}}
end

-- descriptor m set to a rows x cols matrix over t's memory (strides s1, s2)
function S.matrix(m, t, rows, cols, s1, s2)
   local d = TD[t]
   m.T, m.st, m.off, m.nd = d.T, d.st, d.off, 2
   m.sz[1], m.sz[2], m.str[1], m.str[2] = rows, cols, s1, s2
   return m
end

return S
