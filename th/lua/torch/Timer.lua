-- torch.Timer: a stopwatch measuring real (wall-clock), user and system CPU
-- time.  It starts running when created; stop() and resume() pause and
-- continue it, reset() sets it back to zero without changing whether it runs.
local torch = require 'torch'
local ffi = require 'ffi'
local internal = require 'torch.internal'

local Timer = torch.class('torch.Timer')
-- (no factory: Torch7's Timer was a C userdata made by its constructor only,
-- so torch.factory('torch.Timer') is nil and no file writes a Timer)
rawset(torch.getmetatable('torch.Timer'), '__factory', nil)

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
   return ('torch.Timer [status: %s]'):format(self.__running and 'running' or 'stopped')
end

function Timer:__init()
   self.__running = true
   self.__total = {0, 0, 0}                -- real, user, sys accumulated while running
   self.__start = {clock()}
end

-- the totals as they are now
local function elapsed(self)
   local total = self.__total
   if not self.__running then
      return total[1], total[2], total[3]
   end
   local start = self.__start
   local real, user, sys = clock()
   return total[1] + real - start[1], total[2] + user - start[2], total[3] + sys - start[3]
end

function Timer:reset()
   check(self)
   self.__total = {0, 0, 0}
   self.__start = {clock()}
   return self
end

function Timer:stop()
   check(self)
   if self.__running then
      self.__total = {elapsed(self)}
      self.__running = false
   end
   return self
end

function Timer:resume()
   check(self)
   if not self.__running then
      self.__start = {clock()}
      self.__running = true
   end
   return self
end

-- time() -> {real = s, user = s, sys = s}
function Timer:time()
   check(self)
   local real, user, sys = elapsed(self)
   return {real = real, user = user, sys = sys}
end

return Timer
