-- libsys: what the C part of the `sys` package provided to its Lua part
-- (sys/init.lua copies these into the `sys` table): a wall clock with
-- microsecond precision and a sleep in microseconds, over libc through the FFI.
local ffi = require 'ffi'

if not pcall(ffi.typeof, 'th_sys_timespec') then   -- not when the module is loaded again
   ffi.cdef [[
   typedef struct { long tv_sec; long tv_nsec; } th_sys_timespec;
   int clock_gettime(int clk_id, th_sys_timespec *tp);
   int nanosleep(const th_sys_timespec *req, th_sys_timespec *rem);
   ]]
end

local C = ffi.C
local CLOCK_REALTIME = 0
local floor, type, tonumber, error = math.floor, type, tonumber, error

local libsys = {}

local now = ffi.new('th_sys_timespec')

-- clock() -> seconds since the epoch, as a number with microseconds
function libsys.clock()
   C.clock_gettime(CLOCK_REALTIME, now)
   return tonumber(now.tv_sec) + floor(tonumber(now.tv_nsec) / 1000) / 1e6
end

-- usleep(us): sleeps us microseconds (a numeric string counts, as
-- lua_tonumber read it; a negative time sleeps not at all: the original's
-- unsigned conversion made it sleep for hours).  A signal (Ctrl-C) ends the
-- sleep early, as usleep(3) did.
function libsys.usleep(us)
   local n = tonumber(us)
   if n == nil then
      error(("bad argument #1 to 'usleep' (number expected, got %s)"):format(type(us)), 2)
   end
   if n ~= n or n <= 0 then return end
   n = math.min(n, 2^53)
   local req = ffi.new('th_sys_timespec')
   req.tv_sec = floor(n / 1e6)
   req.tv_nsec = floor(n % 1e6) * 1000
   C.nanosleep(req, nil)
end

return libsys
