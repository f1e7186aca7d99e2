-- Convolution and cross-correlation: conv2, xcorr2, conv3, xcorr3 in TH's
-- three forms (BLAS-like once the last 2 or 3 dimensions are seen as one
-- "number"):
--   one image with one kernel              ('mul':  2D x 2D, or 3D x 3D)
--   slice i of the input with kernel i     ('cmul': 3D x 3D, or 4D x 4D)
--   output o sums input slice i * kernel [o][i] ('mv': 3D x 4D, or 4D x 5D)
-- 'V' (valid, the default) gives size m - k + 1, 'F' (full) m + k - 1.
-- The arithmetic is th/ops/conv.py.
local torch = require 'torch'
local internal = require 'torch.internal'
local planes = require 'torch.convplanes'

local fail, py, pycall = internal.fail, internal.py, internal.pycall
local istensor, checktensor, ndview, resize = internal.istensor, internal.checktensor, internal.ndview, internal.resize
local TD, newtensor, iscontiguous, nelement = internal.tensors, internal.newtensor, internal.iscontiguous, internal.nelement

-- the result as Torch7 wrote it: its memory filled as if contiguous, whatever
-- its strides (a view whose contiguous extent overruns its storage keeps them)
local function aswritten(r)
   if iscontiguous(r) or r.off + nelement(r) > r.st.n then return r end
   local str, step = {}, 1
   for i = r.nd, 1, -1 do
      str[i] = step
      step = step * r.sz[i]
   end
   return {T = r.T, st = r.st, off = r.off, nd = r.nd, sz = r.sz, str = str}
end

-- the output size along dimension dimn of an input of m by a kernel of kk
local function outsize(fname, m, kk, dimn, full)
   if full then return m + kk - 1 end
   if m < kk then
      fail("bad argument #2 to '%s' (input image is smaller than kernel: %d < %d in dimension %d)",
           fname, m, kk, dimn)
   end
   return m - kk + 1
end

-- the output sizes of planes (base dimensions) of size xs by kernels of size ks
-- (no loop over the two or three: LuaJIT blacklisted that short loop, then
-- the whole function, after which every call ran interpreted)
local function outsizes(fname, x, k, xoff, koff, base, full)
   local xs, ks = x.sz, k.sz
   local sizes = {outsize(fname, xs[xoff + 1], ks[koff + 1], xoff + 1, full),
                  outsize(fname, xs[xoff + 2], ks[koff + 2], xoff + 2, full)}
   if base == 3 then sizes[3] = outsize(fname, xs[xoff + 3], ks[koff + 3], xoff + 3, full) end
   return sizes
end

local function define(fname, base, flip)
   local pyname = base == 2 and 'conv2' or 'conv3'
   torch[fname] = function(a, b, c, d)
      local res
      if istensor(c) then res, a, b, c = a, b, c, d end
      local x, k = checktensor(a, 1, fname), checktensor(b, 2, fname)
      if c ~= nil and c ~= 'V' and c ~= 'F' then
         fail("bad argument #3 to '%s' ('V' or 'F' expected, got %s)", fname, tostring(c))
      end
      local full = c == 'F'
      if x.T ~= k.T then
         fail("bad argument #2 to '%s' (kernel should be a %s, got %s)", fname, x.T.tensorname, k.T.tensorname)
      end
      local lead            -- the output's leading size (nil for the single form)
      if x.nd == base and k.nd == base then
         lead = nil
      elseif x.nd == base + 1 and k.nd == base + 1 then
         if x.sz[1] ~= k.sz[1] then
            fail("bad argument #2 to '%s' (%d input slices but %d kernels)", fname, x.sz[1], k.sz[1])
         end
         lead = x.sz[1]
      elseif x.nd == base + 1 and k.nd == base + 2 then
         if x.sz[1] ~= k.sz[2] then
            fail("bad argument #2 to '%s' (%d input planes but kernels for %d)", fname, x.sz[1], k.sz[2])
         end
         lead = k.sz[1]
      else
         fail("bad arguments to '%s' (input and kernel dimensions %dD, %dD: expected %dD and %dD, %dD and %dD, or %dD and %dD)",
              fname, x.nd, k.nd, base, base, base + 1, base + 1, base + 1, base + 2)
      end
      local sizes = outsizes(fname, x, k, x.nd - base, k.nd - base, base, full)
      if lead then table.insert(sizes, 1, lead) end
      local r
      if res then
         r = checktensor(res, 1, fname)
         if r.T ~= x.T then
            fail("bad argument #1 to '%s' (result should be a %s, got %s)", fname, x.T.tensorname, r.T.tensorname)
         end
         resize(r, sizes, #sizes)
         r = aswritten(r)
      else            -- a new result, every element of which is written
         res = newtensor(x.T, sizes, #sizes, true, true)
         r = TD[res]
      end
      if not planes.apply(r, x, k, full, flip, base) then
         pycall(py[pyname], ndview(r), ndview(x), ndview(k), full, flip)
      end
      return res
   end
   internal.method(fname, function(self, ...) return torch[fname](self, ...) end)
end

define('conv2', 2, true)
define('xcorr2', 2, false)
define('conv3', 3, true)
define('xcorr3', 3, false)

return torch
