-- What LuaJIT's compiler costs a script: traces compiled and aborted, their
-- IR instructions, and the thread's CPU time spent recording and compiling
-- them against the whole run's.  Runs under th and the original Torch7 alike.
--   th scripts/bench/jitcost.lua script.lua [args...]
-- Prints "JIT <traces> <aborts> <IR instructions> <compile ms> <cpu ms>" on
-- stderr, then with TOP=n the n trace start locations that cost most.
-- (The hook itself costs a little: compare figures taken the same way.)
local ffi = require 'ffi'
local jutil = require 'jit.util'

-- this thread's CPU time: BLAS and th's helper threads spin or work apart
ffi.cdef 'struct jitcost_timespec { long sec, nsec; };'
pcall(ffi.cdef, 'int clock_gettime(int, void *);')   -- (th declares its own)
local gettime = ffi.cast('int (*)(int, struct jitcost_timespec *)', ffi.C.clock_gettime)
local THREAD_CPUTIME = 3
local now = ffi.new('struct jitcost_timespec')
local function cputime()
   gettime(THREAD_CPUTIME, now)
   return tonumber(now.sec) + tonumber(now.nsec) * 1e-9
end

local function location(func, pc)
   local info = jutil.funcinfo(func, pc)
   return (info.source or '?'):match('[^/]*$') .. ':' .. tostring(info.currentline)
end

local traces, aborts, instructions, compiling = 0, 0, 0, 0
local began, where, bywhere = nil, nil, {}
jit.attach(function(what, tr, func, pc, parent)
   if what == 'start' then
      began, where = cputime(), location(func, pc) .. (parent and ' side' or ' root')
   elseif (what == 'stop' or what == 'abort') and began then
      local spent = cputime() - began
      compiling, began = compiling + spent, nil
      if what == 'stop' then
         traces, instructions = traces + 1, instructions + jutil.traceinfo(tr).nins
      else
         aborts, where = aborts + 1, where .. ' (aborted)'
      end
      bywhere[where] = (bywhere[where] or 0) + spent
   end
end, 'trace')

local script = table.remove(arg, 1)
arg[0] = script
local start = cputime()
dofile(script)
local total = cputime() - start
jit.attach(function() end)

io.stderr:write(('JIT %d %d %d %.1f %.1f\n'):format(traces, aborts, instructions, compiling * 1e3, total * 1e3))
local places = {}
for k, v in pairs(bywhere) do places[#places + 1] = {k, v} end
table.sort(places, function(a, b) return a[2] > b[2] end)
for i = 1, math.min(tonumber(os.getenv('TOP')) or 0, #places) do
   io.stderr:write(('%8.2f ms  %s\n'):format(places[i][2] * 1e3, places[i][1]))
end
