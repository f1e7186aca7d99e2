-- Torch7's small utilities about time, the machine and packages: torch.tic,
-- toc, getnumcores, isatty, packageLuaPath, include, and the global include.
local torch = require 'torch'
local ffi = require 'ffi'
local internal = require 'torch.internal'

local fail = internal.fail

pcall(ffi.cdef, [[
struct th_sys_timespec { long sec, nsec; };
int th_sys_clock(int clk, struct th_sys_timespec *ts) __asm__("clock_gettime");
long th_sys_sysconf(int name) __asm__("sysconf");
int th_sys_fileno(void *stream) __asm__("fileno");
int th_sys_isatty(int fd) __asm__("isatty");
]])
local C = ffi.C
local REALTIME, NPROCESSORS_ONLN = 0, 84   -- (Linux's values)
local now = ffi.new('struct th_sys_timespec')

-- tic() -> the wall clock, seconds since the epoch; toc(t) -> seconds since tic() gave t
function torch.tic()
   C.th_sys_clock(REALTIME, now)
   return tonumber(now.sec) + tonumber(now.nsec) * 1e-9
end

function torch.toc(...)
   local t = ...
   return torch.tic() - internal.checknumber(t, 1, 'toc', select('#', ...))   -- (none given: 'no value')
end

function torch.getnumcores()
   return tonumber(C.th_sys_sysconf(NPROCESSORS_ONLN))
end

-- isatty(file): whether an open Lua file handle is a terminal (the FFI
-- converts LuaJIT's file userdata to its FILE *)
function torch.isatty(f)
   if io.type(f) ~= 'file' then
      fail("bad argument #1 to 'isatty' (FILE* expected, got %s)", io.type(f) or type(f))
   end
   return C.th_sys_isatty(C.th_sys_fileno(ffi.cast('void *', f))) == 1
end

-- packageLuaPath(name) -> the directory of the Lua module `name` (none when
-- no file on package.path is that module)
function torch.packageLuaPath(name)
   local file = package.searchpath(name, package.path)
   if file then return (file:match('^(.*)[/\\]')) end
end

function torch.include(package, file)
   dofile(torch.packageLuaPath(package) .. '/' .. file)
end

-- include(file [, level]): runs file from the directory of the script that
-- calls include (level: the stack level of that script, 2 by default)
rawset(_G, 'include', function(file, level)
   local info = debug.getinfo(level or 2, 'S')
   local dir = info and info.source:match('^@(.*[/\\])') or ''
   return dofile(dir .. file)
end)
