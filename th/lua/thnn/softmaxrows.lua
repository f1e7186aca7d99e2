-- The row loops of SoftMax and LogSoftMax over contiguous 1D and 2D tensors:
-- rows of many elements are shared with helper threads (torch.parallel), as
-- THNN ran its rows on OpenMP threads.  Each row is done whole by one
-- thread, in the same order whoever does it, so the bits do not depend on
-- the threads.  Each loop is Lua text compiled in this state and, for the
-- rows a helper takes, in the helper's own state.
local ffi = require 'ffi'
local parallel = require 'torch.parallel'

local rows = {}

-- the text of a loop over rows [a, b) of `width` elements, ELEMENT the element
-- type; it returns the job function (pool.lua's kind 'kernel': operands in
-- job.p, width in job.args[0]) and the loop itself
local TEXT = [[
local ffi = require 'ffi'
local exp, log, huge = math.exp, math.log, math.huge
local P = ffi.typeof('ELEMENT *')
local cell = ffi.new('ELEMENT[1]')
-- v as the element type holds it: THNN took x - max in that type
local function rd(v) cell[0] = v; return cell[0] end
local function loop(p0, p1, p2, width, a, b)
   for r = a, b - 1 do
      local base = r * width
      BODY
   end
end
return function(job, a, b)
   loop(ffi.cast(P, job.p[0]), ffi.cast(P, job.p[1]), ffi.cast(P, job.p[2]), job.args[0], a, b)
end, loop]]

-- the bodies, on one row from base: (x, y) forward, (y, g, gi) backward
local BODIES = {
   -- y = exp(x - max) / sum, as THNN: times the reciprocal of the sum
   softmax = [[
      local x, y = p0, p1
      local max = -huge
      for i = base, base + width - 1 do if x[i] > max then max = x[i] end end
      local sum = 0
      for i = base, base + width - 1 do
         y[i] = exp(rd(x[i] - max))
         sum = sum + y[i]
      end
      sum = 1 / sum
      for i = base, base + width - 1 do y[i] = y[i] * sum end]],
   -- gi = y * (g - sum(g * y))
   softmaxgrad = [[
      local y, g, gi = p0, p1, p2
      local dot = 0
      for i = base, base + width - 1 do dot = dot + g[i] * y[i] end
      for i = base, base + width - 1 do gi[i] = y[i] * (g[i] - dot) end]],
   -- y = x - (max + log(sum(exp(x - max))))
   logsoftmax = [[
      local x, y = p0, p1
      local max = -huge
      for i = base, base + width - 1 do if x[i] > max then max = x[i] end end
      local sum = 0
      for i = base, base + width - 1 do sum = sum + exp(rd(x[i] - max)) end
      local shift = max + log(sum)
      for i = base, base + width - 1 do y[i] = x[i] - shift end]],
   -- gi = g - exp(y) * sum(g)
   logsoftmaxgrad = [[
      local y, g, gi = p0, p1, p2
      local sum = 0
      for i = base, base + width - 1 do sum = sum + g[i] end
      for i = base, base + width - 1 do gi[i] = g[i] - exp(y[i]) * sum end]],
}

-- From SHARE elements (a row's element costs an exp(), 5-10 ns, or for the
-- gradient of SoftMax a multiply-add) the rows are shared: a job's hand-over
-- costs a few microseconds.
local SHARE = {softmax = 1024, logsoftmax = 1024, logsoftmaxgrad = 1024, softmaxgrad = 8192}

-- (made apart from kernel: a function whose local a closure captures closes it
-- on return, which LuaJIT's traces do not compile)
local function make(name, ctype)
   local text = TEXT:gsub('ELEMENT', ctype):gsub('BODY', function() return BODIES[name] end)
   local _, loop = assert(loadstring(text, '=(th ' .. name .. ' rows)'))()
   return {text = text, loop = loop}
end

local made = {float = {}, double = {}}   -- ctype -> name -> {text =, loop =}
local function kernel(name, ctype)
   local k = made[ctype][name]
   if not k then
      k = make(name, ctype)
      made[ctype][name] = k
   end
   return k
end

-- rows.run(name, ctype, p0, p1, p2, nrow, width): the loop `name` over nrow
-- rows of width elements of the ctype pointers p0, p1 (and p2, or nil)
function rows.run(name, ctype, p0, p1, p2, nrow, width)
   local k = kernel(name, ctype)
   local job = nrow > 1 and parallel.job(nrow * width, SHARE[name])
   if not job then return k.loop(p0, p1, p2, width, 0, nrow) end
   job.source, job.sourcelen = k.text, #k.text
   job.p[0], job.p[1], job.p[2], job.args[0] = p0, p1, p2, width
   parallel.segment(job, 0, nrow)
   parallel.run(job, 'kernel', parallel.chunk(nrow, 1, 4))
end

return rows
