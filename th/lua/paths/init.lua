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

-- luaL_checkstring: a string or a number, else "bad argument #n to 'name'"
local function checkstring(v, n, fname)
   local t = type(v)
   if t == 'string' then return v end
   if t == 'number' then return tostring(v) end
   error(("bad argument #%d to '%s' (string expected, got %s)"):format(n, fname, t), 3)
end

-- the components of a path name, without empty ones and '.'
local function components(s, into)
   for part in s:gmatch('[^/]+') do
      if part == '..' then
         into[#into] = nil
      elseif part ~= '.' then
         insert(into, part)
      end
   end
   return into
end

-- concat(...) -> the absolute, normalised path of the names joined in turn (an
-- absolute name restarts from the root; the first relative one starts at cwd)
function paths.concat(...)
   local n = select('#', ...)
   local parts = {}
   local absolute = false
   for i = 1, n do
      local s = checkstring(select(i, ...), i, 'concat')
      if s:sub(1, 1) == '/' then
         parts, absolute = {}, true
      end
      components(s, parts)
   end
   if not absolute then
      parts = components(concat(parts, '/'), components(paths.cwd(), {}))
   end
   return '/' .. concat(parts, '/')
end

-- dirname('/a/b/c.txt') -> '/a/b'; dirname('c.txt') -> '.'
function paths.dirname(s)
   s = checkstring(s, 1, 'dirname')
   local dir = s:match('^(.*[^/])/+[^/]+/*$')
   if dir then return dir end
   return s:sub(1, 1) == '/' and '/' or '.'
end

-- basename(path [, suffix]) -> the last component, without '.suffix' if given
function paths.basename(s, suffix)
   s = checkstring(s, 1, 'basename')
   local trimmed = s:gsub('/+$', '')
   if trimmed == '' then
      return s:sub(1, 1) == '/' and '/' or ''
   end
   local base = trimmed:match('([^/]*)$')
   if suffix ~= nil then
      suffix = checkstring(suffix, 2, 'basename'):gsub('^%.', '')
      local stem = base:sub(1, #base - #suffix - 1)
      if suffix ~= '' and stem ~= '' and base:sub(-#suffix - 1) == '.' .. suffix then
         base = stem
      end
   end
   return base
end

-- extname('a/b.tar.gz') -> 'gz'; nothing at all without an extension
function paths.extname(s)
   s = checkstring(s, 1, 'extname')
   local ext = s:match('%.([^./]*)$')
   if ext then return ext end
end

function paths.filep(s)
   return os_.paths_kind(checkstring(s, 1, 'filep')) == 'file'
end

function paths.dirp(s)
   return os_.paths_kind(checkstring(s, 1, 'dirp')) == 'dir'
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

-- dir(dname) -> {entries, '.' and '..' included} or nil
function paths.dir(dname)
   local list = os_.paths_list(checkstring(dname, 1, 'dir'))
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
   local entries = paths.dir(dname) or {}
   if type(include) == 'string' then
      local pattern = include
      include = function(name) return name:find(pattern) end
   elseif include ~= nil and type(include) ~= 'function' then
      error("Expecting optional arg 'include' to be function or string. Got : " .. type(include), 2)
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

-- mkdir(s) -> true, or nil, message, errno
function paths.mkdir(s)
   return os_.paths_mkdir(checkstring(s, 1, 'mkdir'))
end

-- rmdir(s) -> true, or nil, message, errno (the directory must be empty)
function paths.rmdir(s)
   return os_.paths_rmdir(checkstring(s, 1, 'rmdir'))
end

-- rmall(s, 'yes') -> true, or nil, message, the path that could not be removed
function paths.rmall(s, yes)
   s = checkstring(s, 1, 'rmall')
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
function paths.findprogram(...)
   for i = 1, select('#', ...) do
      local found = os_.paths_which(checkstring(select(i, ...), i, 'findprogram'))
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

-- tmpname() -> the name of a new empty temporary file
function paths.tmpname()
   local name = os.tmpname()
   insert(tmpnames, name)
   return name
end

-- thisfile([name] [, depth]) -> the file of the function `depth` levels up
-- (the caller by default), or `name` next to it
function paths.thisfile(name, depth)
   local info = getinfo(depth or 2, 'S')
   local file = info and info.source:match('^@(.*)$')
   if file then file = paths.concat(file) end
   if type(name) == 'string' then
      return file and paths.concat(paths.dirname(file), name) or name
   end
   return file
end

-- dofile(name [, depth]): runs the file `name` found next to the caller's file
function paths.dofile(name, depth)
   local here = paths.thisfile(nil, 1 + (depth or 2))
   if here then
      name = paths.concat(paths.dirname(here), name)
   end
   return dofile(name)
end

-- require(libname): loads the C library libname (liblibname.so) from package.cpath
function paths.require(libname)
   libname = checkstring(libname, 1, 'require')
   local file = package.searchpath(libname, package.cpath)
      or package.searchpath('lib' .. libname, package.cpath)
   if not file then
      error('paths.require: could not find library ' .. libname .. ' in package.cpath', 2)
   end
   local open, err = package.loadlib(file, 'luaopen_' .. libname:gsub('%.', '_'))
   if not open then
      error('paths.require: ' .. tostring(err), 2)
   end
   return open()
end

return paths
