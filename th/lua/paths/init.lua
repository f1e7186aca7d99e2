-- paths: the file-system utilities of Torch7 (path names, directory listing
-- and creation, temporary files, the platform).  Path names are handled in Lua;
-- the system calls (stat, readdir, mkdir...) are the Python functions paths_*
-- of th/ops/paths.py.  Failures are returned, not raised: nil, or nil and a
-- message (and errno) where the original returned them.
local os_ = require 'th.native.ops'

local paths = {}
_G.paths = paths
package.loaded.paths = paths

local type, tostring, error, select = type, tostring, error, select
local insert, concat = table.insert, table.concat
local getinfo, remove, getenv = debug.getinfo, os.remove, os.getenv

-- arg(n, fname, ...) -> argument n of the call as luaL_checkstring took it:
-- a string (a number as a string), else "bad argument #n to 'name'" with the
-- name the caller called it by ('?' from C or a tail call, as luaL_argerror
-- worded it) and "no value" past the arguments given
local function arg(n, fname, ...)
   local v = select(n, ...)
   local t = type(v)
   if t == 'string' then return v end
   if t == 'number' then return tostring(v) end
   if n > select('#', ...) then t = 'no value' end
   local info = getinfo(2, 'n')
   local name = info and info.name and fname or '?'
   error(("bad argument #%d to '%s' (string expected, got %s)"):format(n, name, t), 3)
end

-- normalise(s) -> the absolute path s (starting with '/') without '.', '..'
-- and empty components.  Backslashes are no separators, but the original's
-- came out as '/' at the end, and a component followed by a '/' lost one
-- trailing backslash once checked for '.' and '..' ('a\' then 'b' is 'a/b',
-- '.\' then 'b' './b', '/x' then '\a' '/x//a').
local function normalise(s)
   local parts = {}
   for part, slash in s:gmatch('([^/]+)(/?)') do
      if part == '..' then
         parts[#parts] = nil
      elseif part ~= '.' then
         if slash ~= '' then part = part:gsub('\\$', '') end
         insert(parts, part)
      end
   end
   return ('/' .. concat(parts, '/')):gsub('\\', '/')
end

-- concat(...) -> the absolute, normalised path of the names joined in turn (an
-- absolute name restarts from the root; a relative start is taken from cwd;
-- an empty name adds a '/', which takes a backslash away before it)
function paths.concat(...)
   local path = nil
   for i = 1, select('#', ...) do
      local s = arg(i, 'concat', ...)
      if s:sub(1, 1) == '/' or path == nil or path == '' then
         path = s
      else
         path = path .. '/' .. s
      end
   end
   path = path or ''
   if path:sub(1, 1) ~= '/' then path = paths.cwd() .. '/' .. path end
   return (normalise(path))
end

-- dirname('/a/b/c.txt') -> '/a/b'; dirname('c.txt') -> '.'.  Trailing slashes
-- go, then the last component and one slash before it ('a//b' -> 'a/'); a
-- name of slashes alone is its own dirname.
function paths.dirname(...)
   local s = arg(1, 'dirname', ...)
   if s:match('^/+$') then return s end
   local dir = s:gsub('/+$', ''):gsub('[^/]*$', ''):gsub('/$', '')
   if dir == '' then return s:sub(1, 1) == '/' and '/' or '.' end
   return (dir:gsub('\\', '/'))   -- (the original's backslashes came out as '/')
end

-- basename(path [, suffix]) -> the last component ('' for '/'), without
-- '.suffix' if given (a hidden file's whole name too: '.b' less 'b' is '')
function paths.basename(...)
   local s = arg(1, 'basename', ...)
   local base = s:gsub('/+$', ''):match('([^/]*)$')
   if select('#', ...) >= 2 and select(2, ...) ~= nil then
      local suffix = arg(2, 'basename', ...):gsub('^%.', '')
      if suffix ~= '' and base:sub(-#suffix - 1) == '.' .. suffix then
         base = base:sub(1, #base - #suffix - 1)
      end
   end
   return (base:gsub('\\', '/'))   -- (the original's backslashes came out as '/')
end

-- extname('a/b.tar.gz') -> 'gz': what follows the last '.' of the whole name
-- (slashes included: './a' -> '/a'); nothing at all without a '.'
function paths.extname(...)
   local ext = arg(1, 'extname', ...):match('%.([^.]*)$')
   if ext then return ext end
end

function paths.filep(...)
   return os_.paths_kind(arg(1, 'filep', ...)) == 'file'
end

function paths.dirp(...)
   return os_.paths_kind(arg(1, 'dirp', ...)) == 'dir'
end

function paths.cwd()
   return os_.paths_cwd()
end

function paths.execdir()
   return os_.paths_execdir()
end

paths.home = getenv('HOME') or getenv('USERPROFILE') or '/'

-- uname() -> system name, host name, processor type (as the docs list them)
function paths.uname()
   return os_.paths_uname()
end

function paths.is_win()
   return paths.uname():match('Windows')
end

function paths.is_mac()
   return paths.uname():match('Darwin')
end

-- getregistryvalue(key, subkey, value): the Windows registry's, which the
-- original had everywhere and refused at its caller's line elsewhere
function paths.getregistryvalue()
   error('This function exists only on windows', 2)
end

-- dir(dname) -> {entries, '.' and '..' included} or nil
function paths.dir(...)
   local list = os_.paths_list(arg(1, 'dir', ...))
   if list == nil then return nil end
   local entries = {}
   for name in list:gmatch('[^%z]+') do
      insert(entries, name)
   end
   return entries
end

-- files(dname [, include]) -> an iterator over the entries include() accepts
-- (a function of the name, or a pattern the name must contain)
function paths.files(dname, include)
   if type(dname) ~= 'string' and type(dname) ~= 'number' then
      -- (the original's Lua called the C dir: its error, at a line of the
      -- original's own file, which th leaves out, not at one of th's)
      error(("bad argument #1 to 'dir' (string expected, got %s)"):format(type(dname)), 0)
   end
   local entries = paths.dir(dname) or {}
   if type(include) == 'string' then
      local pattern = include
      include = function(name) return name:find(pattern) end
   elseif include ~= nil and type(include) ~= 'function' then
      error("Expecting optional arg 2 to be function or string. Got : " .. type(include), 2)
   end
   local i = 0
   return function()
      while true do
         i = i + 1
         local name = entries[i]
         if name == nil or include == nil or include(name) then
            return name
         end
      end
   end
end

-- iterdirs(dname): the sub-directories, without '.' and '..'
function paths.iterdirs(dname)
   return paths.files(dname, function(name)
      return name ~= '.' and name ~= '..' and paths.dirp(dname .. '/' .. name)
   end)
end

-- iterfiles(dname): the entries that are not directories
function paths.iterfiles(dname)
   return paths.files(dname, function(name)
      return paths.filep(dname .. '/' .. name)
   end)
end

-- mkdir(s) -> true, or nil, message, errno (the missing parents are made
-- too; s existing already is an error)
function paths.mkdir(...)
   return os_.paths_mkdir(arg(1, 'mkdir', ...))
end

-- rmdir(s) -> true, or nil, message, errno (the directory must be empty)
function paths.rmdir(...)
   return os_.paths_rmdir(arg(1, 'rmdir', ...))
end

-- rmall(s, 'yes') -> true, or nil, message, the path that could not be removed
function paths.rmall(s, yes)
   if yes ~= 'yes' then
      return nil, "missing second argument ('yes')"
   end
   if paths.filep(s) then
      return remove(s)
   elseif not paths.dirp(s) then
      return nil, 'not a file or directory', s
   end
   for name in paths.files(s) do
      if name ~= '.' and name ~= '..' then
         local full = s .. '/' .. name
         local ok, err = paths.rmall(full, 'yes')
         if not ok then return nil, err, full end
      end
   end
   return paths.rmdir(s)
end

-- findprogram(name, ...) -> the full path of the first program found in PATH
-- (the names up to the first nil; a name that is no string fails as the
-- original's paths.concat(dir, name) did)
function paths.findprogram(...)
   for _, name in ipairs{...} do
      if type(name) ~= 'string' and type(name) ~= 'number' then
         error(("bad argument #2 to 'concat' (string expected, got %s)"):format(type(name)), 2)
      end
      local found = os_.paths_which(tostring(name))
      if found then return found end
   end
   return nil   -- one value, as the original printed it
end

-- The names tmpname() gave, removed when th exits (os.exit included) or the
-- Lua state is closed (the sentinel's finaliser), as the original did.
local tmpnames = {sentinel = newproxy(true)}

local function removetmpnames()
   for i = #tmpnames, 1, -1 do
      remove(tmpnames[i])
      tmpnames[i] = nil
   end
end
getmetatable(tmpnames.sentinel).__gc = removetmpnames

local exit = os.exit
function os.exit(...)
   removetmpnames()
   return exit(...)
end

-- tmpname() -> a new name for a temporary file, /tmp/luatmXXXXXX, which does
-- not exist yet, as the original's (os.tmpname's file is made and removed to
-- find it)
function paths.tmpname()
   local made = os.tmpname()
   remove(made)
   local name = made:gsub('lua_(%w+)$', 'luatm%1')
   insert(tmpnames, name)
   return name
end

-- thisfile([name] [, depth]) -> the file of the function `depth` levels up
-- (the caller by default), or `name` next to it.  A caller that is no file
-- gives its source as it is ('=[C]'), and a name next to it is in cwd.
function paths.thisfile(name, depth)
   local info = getinfo(depth or 2, 'S')
   local file = info and info.source
   if file and file:sub(1, 1) == '@' then file = paths.concat(file:sub(2)) end
   if type(name) == 'string' then
      return paths.concat(file and paths.dirname(file) or '.', name)
   end
   return file
end

-- dofile(name [, depth]): runs the file `name` found next to the caller's file
function paths.dofile(name, depth)
   local here = paths.thisfile(nil, 1 + (depth or 2))
   return dofile(paths.concat(here and paths.dirname(here) or '.', name))
end

-- require(libname): loads the C library libname (liblibname.so) from package.cpath
function paths.require(...)
   local libname = arg(1, 'require', ...)
   local file, tried = package.searchpath(libname, package.cpath)
   file = file or package.searchpath('lib' .. libname, package.cpath)
   if not file then
      error("module '" .. libname .. "' not found" .. tried, 2)
   end
   local open, err = package.loadlib(file, 'luaopen_' .. libname:gsub('%.', '_'))
   if not open then
      error('paths.require: ' .. tostring(err), 2)
   end
   return open()
end

return paths
