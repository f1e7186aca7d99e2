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
local dispatch = require 'torch.maths.dispatch'

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

-- Torch7's errors: a call that fits none of its signatures (ranks 2D/2D,
-- 3D/3D, 3D/4D for conv2, one more for conv3; an option string starting with
-- 'V' or 'F') is "invalid arguments"; TH's own checks name the form
-- (conv2Dmul, conv2Dcmul, conv2Dmv...) and are argument #2 of '?' (torch.conv2
-- passed the call on in a tail call), or of the method as luaL_argerror
-- numbered it: #1 of a method call (x:conv2(k)), #2 of '?' for a tail call
local function invalid(fname, T, ismethod, ...)
   dispatch.argerror(fname, T, ismethod and 'method' or 'torch', ...)
end
local function thcheck(ismethod, msg)
   -- (levels: 1 thcheck, 2 conv, 3 the method, as its caller called it)
   local call = ismethod and debug.getinfo(3, 'n')
   if not (call and call.name) then error(("bad argument #2 to '?' (%s)"):format(msg), 0) end
   internal.raise(("bad argument #%d to '%s' (%s)"):format(call.namewhat == 'method' and 1 or 2, call.name, msg))
end

-- the output size of an input of m by a kernel of kk
local function outsize(m, kk, full)
   if full then return m + kk - 1 end
   return m - kk + 1
end

-- the output sizes of planes (base dimensions) of size xs by kernels of size ks,
-- or nil when a valid one's input is smaller than its kernel
-- (no loop over the two or three: LuaJIT blacklisted that short loop, then
-- the whole function, after which every call ran interpreted)
local function outsizes(x, k, xoff, koff, base, full)
   local xs, ks = x.sz, k.sz
   if not full and (xs[xoff + 1] < ks[koff + 1] or xs[xoff + 2] < ks[koff + 2]
                    or base == 3 and xs[xoff + 3] < ks[koff + 3]) then
      return nil
   end
   local sizes = {outsize(xs[xoff + 1], ks[koff + 1], full), outsize(xs[xoff + 2], ks[koff + 2], full)}
   if base == 3 then sizes[3] = outsize(xs[xoff + 3], ks[koff + 3], full) end
   return sizes
end

local FORMS = {'mul', 'cmul', 'mv'}

local function compute(r, x, k, full, flip, base, pyname)
   if not planes.apply(r, x, k, full, flip, base) then
      pycall(py[pyname], ndview(r), ndview(x), ndview(k), full, flip)
   end
end

-- a result that is not contiguous, of one input by one kernel or plane i by
-- kernel i: TH zeroed it through its strides, then added the output into its
-- memory as if it were contiguous (elements beside the view that this
-- reaches keep their values plus the output's); conv2's sums over input
-- planes (output o of plane i by kernel [o][i]) it wrote as if contiguous
-- (aswritten), not zeroing the view
local function intoview(res, sizes, x, k, full, flip, base, pyname)
   res:zero()
   local out = newtensor(x.T, sizes, #sizes, true, true)
   compute(TD[out], x, k, full, flip, base, pyname)
   local flat = res.new(res:storage(), res:storageOffset(), torch.LongStorage(sizes))
   flat:add(out)
   return res
end

local function define(fname, base, flip)
   local pyname = base == 2 and 'conv2' or 'conv3'
   local function conv(ismethod, ...)
      local a, b, c, d = ...
      local res
      if istensor(c) then res, a, b, c = a, b, c, d end
      local x, k = checktensor(a, 1, fname), checktensor(b, 2, fname)
      local full = type(c) == 'string' and c:sub(1, 1) == 'F'
      if c ~= nil and not (type(c) == 'string' and (full or c:sub(1, 1) == 'V')) then
         invalid(fname, x.T, ismethod, ...)
      end
      if x.T ~= k.T then
         fail("bad argument #2 to '%s' (kernel should be a %s, got %s)", fname, x.T.tensorname, k.T.tensorname)
      end
      local lead, form      -- the output's leading size (nil for the single form)
      if x.nd == base and k.nd == base then
         form = 1
      elseif x.nd == base + 1 and k.nd == base + 1 then
         if x.sz[1] ~= k.sz[1] then thcheck(ismethod, 'invalid number of input/kernel planes') end
         lead, form = x.sz[1], 2
      elseif x.nd == base + 1 and k.nd == base + 2 then
         if x.sz[1] ~= k.sz[2] then thcheck(ismethod, 'invalid number of input planes') end
         lead, form = k.sz[1], 3
      else
         invalid(fname, x.T, ismethod, ...)
      end
      local sizes = outsizes(x, k, x.nd - base, k.nd - base, base, full)
      if not sizes then
         thcheck(ismethod, ('conv%dD%s : Input image is smaller than kernel'):format(base, FORMS[form]))
      end
      if lead then table.insert(sizes, 1, lead) end
      local r
      if res then
         r = checktensor(res, 1, fname)
         if r.T ~= x.T then
            fail("bad argument #1 to '%s' (result should be a %s, got %s)", fname, x.T.tensorname, r.T.tensorname)
         end
         resize(r, sizes, #sizes)
         local flat = aswritten(r)
         if flat ~= r and (form < 3 or base == 3) then return intoview(res, sizes, x, k, full, flip, base, pyname) end
         r = flat
      else            -- a new result, every element of which is written
         res = newtensor(x.T, sizes, #sizes, true, true)
         r = TD[res]
      end
      compute(r, x, k, full, flip, base, pyname)
      return res
   end
   torch[fname] = function(...) return conv(false, ...) end
   internal.method(fname, function(...)
      local res = conv(true, ...)   -- (not a tail call: thcheck reads how the method was called)
      return res
   end)
end

define('conv2', 2, true)
define('xcorr2', 2, false)
define('conv3', 3, true)
define('xcorr3', 3, false)

return torch
