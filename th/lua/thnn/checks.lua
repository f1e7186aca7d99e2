-- Argument checks shared by the kernel families, with THNN's wording, and the
-- data access of their LuaJIT loops.
local ffi = require 'ffi'
local shared = require 'thnn.shared'
local checks = {}

-- [2 x 3], as TH described a tensor's sizes
local function sizes(t)
   local s = {}
   for i = 1, t:dim() do s[i] = tostring(t:size(i)) end
   return '[' .. table.concat(s, ' x ') .. ']'
end
checks.sizes = sizes

-- fail(fmt, ...): the error is located at the nn code that called the kernel
local fail = require('torch.internal').fail
checks.fail = fail

function checks.samecount(a, b, aname, bname)
   if a:nElement() ~= b:nElement() then
      fail('%s and %s have different number of elements: %s%s has %d elements, while %s%s has %d elements',
           aname, bname, aname, sizes(a), a:nElement(), bname, sizes(b), b:nElement())
   end
end

-- asshape(g, like): g, of like's count, read in order in like's shape (an
-- elementwise kernel's gradient of another shape: THNN walked both with the
-- result resized as like)
function checks.asshape(g, like)
   if g:isSameSizeAs(like) then return g end
   return g:contiguous():view(like:size())
end

-- A criterion's loss: lossloop(name, term [, prelude]) is the loop adding
-- up term, Lua text over x and y (an input's and a target's element), a0,
-- a1, rd and the names shared.loop's texts see, one element after the other
-- in the element type as THNN's criteria did (each term in double).  Made
-- once per criterion (a closure made per call stopped LuaJIT compiling the
-- call), never shared (a sum in order).  losssum(L, input, target,
-- sizeAverage [, a0, a1]) -> the sum, divided by the count when sizeAverage
-- (rounded to the element type too)
function checks.lossloop(name, term, prelude)
   return shared.loop(name, ([[
   local s = 0
   for i = a, b - 1 do
      local x, y = p0[i], p1[i]
      s = rd(s + (%s))
   end
   return s]]):format(term), math.huge, nil, nil, prelude)
end

function checks.losssum(L, input, target, sizeAverage, a0, a1)
   checks.samecount(input, target, 'input', 'target')
   local x, t = input:contiguous(), target:contiguous()
   local n = x:nElement()
   local sum = shared.run(L, checks.ctype(x), n, n, x:data(), t:data(), nil, nil, a0, a1)
   if sizeAverage then sum = checks.rounding(input)(sum / n) end
   return sum, x, t   -- (x and t: alive until the loop is done)
end

-- A criterion's gradient: gradloop(name, grad [, prelude]) is the loop
-- setting each gradInput element to grad, Lua text over x, y, a0 and a1 as
-- lossloop's term (shared when large); gradient(L, input, target,
-- gradInput [, a0, a1]) runs it on the contiguous data
function checks.gradloop(name, grad, prelude)
   return shared.loop(name, ([[
   for i = a, b - 1 do
      local x, y = p0[i], p1[i]
      p2[i] = %s
   end]]):format(grad), 16384, nil, nil, prelude)
end

function checks.gradient(L, input, target, gradInput, a0, a1)
   checks.samecount(input, target, 'input', 'target')
   local x, t = input:contiguous(), target:contiguous()
   local gi = checks.writable(gradInput:resizeAs(input))
   local n = x:nElement()
   shared.run(L, checks.ctype(x), n, n, x:data(), t:data(), gi:data(), nil, a0, a1)
   checks.settle(gradInput, gi)
   return x, t
end

-- a 1-element loss tensor holding v
function checks.setloss(output, v)
   output:resize(1)
   output[1] = v
end

-- the dimension a softmax runs along: the only one of a 1D or 3D input (C,
-- C x H x W), the second of a 2D or 4D one (N x C, N x C x H x W)
function checks.featuredim(input, fname)
   local nd = input:dim()
   if nd == 1 or nd == 3 then return 1 end
   if nd == 2 or nd == 4 then return 2 end
   -- (THNN's words: THArgCheck's in a forward, which named no function,
   -- THError's in a gradient)
   if fname:match('updateGradInput$') then fail('1D, 2D, 3D or 4D tensor expected') end
   fail("bad argument #2 to 'v' (1D, 2D, 3D or 4D tensor expected)")
end

-- rounding(t) -> f(v): v as t's element type holds it, for a step THNN took
-- in that type (a FloatTensor's: rounded to float; a DoubleTensor's: v)
local f32 = require('torch.maths.kernels').f32
local function same(v) return v end
function checks.rounding(t)
   return t:type() == 'torch.FloatTensor' and f32 or same
end

-- the C element type of a Float or Double tensor (THNN's only two)
function checks.ctype(t)
   return t:type() == 'torch.FloatTensor' and 'float' or 'double'
end

-- Element-wise kernels loop in LuaJIT over contiguous tensors, at every size
-- (no Python crossing: faster than the tensor-operation fallbacks, e.g. a
-- 150000-element ReLU 0.1 ms against 2 ms); strided ones go through tensor
-- operations.

-- data(t) -> the FFI pointer to t's first element and its element count, when
-- t is contiguous and not empty; nil otherwise
function checks.data(t)
   local n = t:nElement()
   if n > 0 and t:isContiguous() then return t:data(), n end
   return nil
end

-- the lines of features of a 1D to 4D tensor (C, N x C, C x H x W, N x C x
-- H x W), along which a softmax runs: how many, their length (C) and the
-- step between their elements (H x W)
function checks.lines(t)
   local nd = t:dim()
   local width = t:size(nd <= 2 and nd or nd - 2)
   local stride = nd >= 3 and t:size(nd - 1) * t:size(nd) or 1
   return t:nElement() / width, width, stride
end

-- The softmaxes' loops (thnn.shared) run along those lines: line r of a0
-- features a1 apart is batch floor(r / a1), place r % a1; LINE defines
-- line(r, a0, a1) -> its first and last element for their preludes.
checks.LINE = [[
local function line(r, a0, a1)
   local batch = floor(r / a1)
   local first = batch * a0 * a1 + (r - batch * a1)
   return first, first + (a0 - 1) * a1
end]]

-- linesforward(L, fname, input, output): output = loop L along input's
-- lines (p0 input, p1 output; non-contiguous tensors through contiguous
-- copies)
function checks.linesforward(L, fname, input, output)
   checks.featuredim(input, fname)
   if input:nElement() == 0 then return output:resizeAs(input) end
   local x = input:contiguous()
   local count, width, stride = checks.lines(x)
   local y = checks.writable(output:resizeAs(input))
   shared.run(L, checks.ctype(x), count, x:nElement(), x:data(), y:data(), nil, nil, width, stride)
   checks.settle(output, y)
end

-- linesbackward(L, fname, output, gradOutput, gradInput): gradInput = loop
-- L along the lines (p0 output, p1 gradOutput, p2 gradInput)
function checks.linesbackward(L, fname, output, gradOutput, gradInput)
   checks.featuredim(output, fname)
   checks.samecount(output, gradOutput, 'output', 'gradOutput')
   if output:nElement() == 0 then return gradInput:resizeAs(output) end
   local y, g = output:contiguous(), gradOutput:contiguous()
   local count, width, stride = checks.lines(y)
   local gi = checks.writable(gradInput:resizeAs(output))
   shared.run(L, checks.ctype(y), count, y:nElement(), y:data(), g:data(), gi:data(), nil, width, stride)
   checks.settle(gradInput, gi)
end

-- v as the tensor's element type holds it (a FloatTensor compares with 0.1 rounded to float)
local float1 = ffi.new('float[1]')
function checks.real(t, v)
   if torch.type(t) == 'torch.FloatTensor' then
      float1[0] = v
      return float1[0]
   end
   return v
end

-- writable(t) -> a contiguous tensor of t's sizes for a loop to write: t
-- itself when contiguous, else a new one for settle(t, c) to copy into t
-- (into, without the closure: a function making one is not compiled)
function checks.writable(t)
   if t:isContiguous() then return t end
   return t.new():resizeAs(t)
end
function checks.settle(t, c)
   if c ~= t then t:copy(c) end
end

-- run(c) on a contiguous tensor c of t's sizes: t itself when contiguous,
-- else a new one copied into t afterwards (element loops write through FFI)
function checks.into(t, run)
   if t:isContiguous() then return run(t) end
   local c = t.new():resizeAs(t)
   run(c)
   t:copy(c)
end

-- pertype(f) -> copy(key): a copy of the loop function f for each key (an
-- element type): LuaJIT compiles a loop once per bytecode, and a trace made
-- for double* data fails its guards on float* data (a FloatTensor's loop
-- after a DoubleTensor's ran up to 6x slower); each copy is f's bytecode
-- loaded again, with f's upvalues, and gets traces of its own
function checks.pertype(f)
   local copies = {}
   return function(key)
      local c = copies[key]
      if not c then
         c = assert(loadstring(string.dump(f)))
         local i = 1
         while debug.getupvalue(f, i) ~= nil do
            debug.upvaluejoin(c, i, f, i)
            i = i + 1
         end
         copies[key] = c
      end
      return c
   end
end

-- t's first element's FFI pointer (t contiguous), nil when t is empty
function checks.ptr(t)
   if t:nElement() > 0 then return t:data() end
end

return checks
