-- torch.Timer: a stopwatch measuring real (wall-clock), user and system CPU
-- time.  It starts running when created; stop() and resume() pause and
-- continue it, reset() sets it back to zero without changing whether it runs.
-- A Timer is a userdata, as Torch7's C one was: type() 'userdata', no fields
-- of its own (writing one is luaT's "cannot be indexed"), no length, and no
-- factory, so torch.factory('torch.Timer') is nil and no file writes it.
local torch = require 'torch'
local ffi = require 'ffi'
local internal = require 'torch.internal'
local class = require 'torch.class'

local TM = setmetatable({}, {__mode = 'kv'})   -- timer proxy -> its state (internal.attach)
local Timer = {}

-- clock() -> real, user, sys in seconds: a monotonic wall clock and the
-- process's CPU times (getrusage, microseconds, as the original Timer read
-- them).  On Linux through the FFI: a Python call waits for the GIL, which
-- th's background import of numpy holds for up to 5 ms at a time (the first
-- timings of a script read several times too long)
local clock = internal.py.timer_clock
if ffi.os == 'Linux' then
   -- (names of th's own: libsys declares clock_gettime with its own struct)
   pcall(ffi.cdef, [[
   struct th_timer_timespec { long sec, nsec; };
   struct th_timer_rusage { struct { long sec, usec; } utime, stime; long rest[14]; };
   int th_timer_clock(int clk, struct th_timer_timespec *ts) __asm__("clock_gettime");
   int th_timer_rusage(int who, struct th_timer_rusage *usage) __asm__("getrusage");
   ]])
   local C, now, usage = ffi.C, ffi.new('struct th_timer_timespec'), ffi.new('struct th_timer_rusage')
   local MONOTONIC, SELF = 1, 0
   clock = function()
      C.th_timer_clock(MONOTONIC, now)
      C.th_timer_rusage(SELF, usage)
      return tonumber(now.sec) + tonumber(now.nsec) * 1e-9,
             tonumber(usage.utime.sec) + tonumber(usage.utime.usec) * 1e-6,
             tonumber(usage.stime.sec) + tonumber(usage.stime.usec) * 1e-6
   end
end

-- check(self): a Timer method called on what is no Timer is the argument
-- error luaT_checkudata gave, named as the method was called
local function check(self)
   if torch.isTypeOf(self, 'torch.Timer') then return end
   local info = debug.getinfo(2, 'n')
   local what = ('(torch.Timer expected, got %s)'):format(torch.type(self))
   if info and info.namewhat == 'method' then
      error(("calling '%s' on bad self %s"):format(info.name, what), 3)
   end
   error(("bad argument #1 to '%s' %s"):format(info and info.name or '?', what), 3)
end

-- (as luaT's Timer printed itself)
function Timer:__tostring__()
   return ('torch.Timer [status: %s]'):format(TM[self].running and 'running' or 'stopped')
end

local proto
local function new()
   return internal.attach(TM, newproxy(proto), {
      running = true,
      total = {0, 0, 0},                  -- real, user, sys accumulated while running
      start = {clock()},
   })
end

-- the totals as they are now
local function elapsed(self)
   local T = TM[self]
   local total = T.total
   if not T.running then
      return total[1], total[2], total[3]
   end
   local start = T.start
   local real, user, sys = clock()
   return total[1] + real - start[1], total[2] + user - start[2], total[3] + sys - start[3]
end

function Timer:reset()
   check(self)
   local T = TM[self]
   T.total = {0, 0, 0}
   T.start = {clock()}
   return self
end

function Timer:stop()
   check(self)
   local T = TM[self]
   if T.running then
      T.total = {elapsed(self)}
      T.running = false
   end
   return self
end

function Timer:resume()
   check(self)
   local T = TM[self]
   if not T.running then
      T.start = {clock()}
      T.running = true
   end
   return self
end

-- time() -> {real = s, user = s, sys = s}
function Timer:time()
   check(self)
   local real, user, sys = elapsed(self)
   return {real = real, user = user, sys = sys}
end

local mt
proto, mt = class.proxyclass('torch.Timer', new, nil, Timer)
-- (a field written into a timer: luaT's error, the userdata has no fields)
mt.__newindex = function(self)
   internal.raise(('the class %s cannot be indexed'):format(torch.typename(self)))
end

return Timer
