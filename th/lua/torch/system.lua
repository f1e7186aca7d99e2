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
-- converts LuaJIT's file userdata to its FILE *).  Torch7's C function took
-- the last argument given, and numbered it one past the arguments in its
-- error (isatty({}): #2, isatty(io.stdout, 6): #3; with none, #1 'got
-- number'); a closed file is refused (Torch7 crashed on it).
function torch.isatty(...)
   local n = select('#', ...)
   local f = n > 0 and select(n, ...) or nil
   if io.type(f) ~= 'file' then
      local got = n == 0 and 'number' or io.type(f) or type(f)
      fail("bad argument #%d to 'isatty' (FILE* expected, got %s)", n + 1, got)
   end
   return C.th_sys_isatty(C.th_sys_fileno(ffi.cast('void *', f))) == 1
end

-- packageLuaPath(name) -> the directory of the first file of package.path
-- that opens with name put for its '?' as it is (no dots made slashes, as in
-- Torch7: 'torch.File' is none); no name: the directory of torch's
function torch.packageLuaPath(name)
   if name == nil then
      return (torch.packageLuaPath('torch'):match('^(.*)/'))
   end
   for template in package.path:gmatch('[^;]+') do
      local path = template:gsub('%?', name)
      local f = io.open(path)
      if f then
         f:close()
         return (path:match('^(.*)/'))
      end
   end
end

-- include(package, file): runs file from package's directory (what cannot
-- be joined fails as the original's concatenation did, in its own Lua file,
-- whose line th leaves out)
function torch.include(package, file)
   if type(file) ~= 'string' and type(file) ~= 'number' then
      error(("attempt to concatenate local 'file' (a %s value)"):format(type(file)), 0)
   end
   local dir = torch.packageLuaPath(package)
   if dir == nil then error('attempt to concatenate a nil value', 0) end
   dofile(dir .. '/' .. file)
end

-- include(file [, level]): runs file from the directory of the script that
-- calls include (level: the stack level of that script, 2 by default)
rawset(_G, 'include', function(file, level)
   local info = debug.getinfo(level or 2, 'S')
   local dir = info and info.source:match('^@(.*[/\\])') or ''
   return dofile(dir .. file)
end)
