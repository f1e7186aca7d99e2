-- lfs: LuaFileSystem's documented API (version 1.8.0), written for th.  The
-- system calls are the Python functions lfs_* of th/ops/lfs.py, stat the
-- FFI's where it can (lfs/stat.lua); a file handle's descriptor comes from
-- its FILE* through the FFI.  As in
-- LuaFileSystem, failures return nil, a message and (mostly) errno; bad
-- arguments raise "bad argument #n to 'name' (...)".
local ffi = require 'ffi'
local os_ = require 'th.native.ops'
local stat = require 'lfs.stat'
local pyname = require 'lfs.names'

if not pcall(ffi.typeof, 'th_lfs_FILE') then   -- not when the module is loaded again
   ffi.cdef [[
   typedef struct th_lfs_FILE th_lfs_FILE;
   int fileno(th_lfs_FILE *stream);
   ]]
end

local type, tostring, tonumber, error, select, setmetatable, ipairs = type, tostring, tonumber, error, select, setmetatable, ipairs
local floor, os_time = math.floor, os.time

local lfs = {
   _VERSION = 'LuaFileSystem 1.8.0',
   _COPYRIGHT = 'Copyright (C) 2003-2017 Kepler Project',
   _DESCRIPTION = 'LuaFileSystem is a Lua library developed to complement the set of functions related to file systems offered by the standard Lua distribution',
}

local getinfo = debug.getinfo
local HERE = getinfo(1, 'S').source

-- error(msg) at the caller of the lfs function, as a C function raises them
local function raise(msg)
   local level = 2
   while getinfo(level, 'S').source == HERE do level = level + 1 end
   error(msg, level)
end

local function argerror(n, fname, msg)
   raise(("bad argument #%d to '%s' (%s)"):format(n, fname, msg))
end

local function typename(v, given)
   return given and type(v) or 'no value'
end

-- luaL_checkstring: strings, and numbers as strings
local function checkstring(v, n, fname, given)
   local t = type(v)
   if t == 'string' then return v end
   if t == 'number' then return tostring(v) end
   argerror(n, fname, 'string expected, got ' .. typename(v, given or v ~= nil))
end

local function checknumber(v, n, fname)
   local x = tonumber(v)
   if x == nil then argerror(n, fname, 'number expected, got ' .. typename(v, v ~= nil)) end
   return x
end

local function optnumber(v, n, fname, default)
   if v == nil then return default end
   return checknumber(v, n, fname)
end

------------------------------------------------------------------------------
-- attributes

local FIELDS = {'mode', 'ino', 'dev', 'nlink', 'uid', 'gid', 'rdev', 'access',
   'modification', 'change', 'size', 'permissions', 'blocks', 'blksize'}
local FIELD = {}
for i, name in ipairs(FIELDS) do FIELD[name] = i end

-- the symbolic link's target, or nil, message, errno
local function target(path)
   local t, msg, errno = os_.lfs_readlink(pyname(path))
   if t == nil then return nil, 'could not obtain link target: ' .. msg, errno end
   return t
end

local function attributes(fname, follow, path, request)
   path = checkstring(path, 1, fname)
   local r = {stat(path, follow)}
   if not r[1] then
      return nil, ("cannot obtain information from file '%s': %s"):format(path:match('^%Z*'), r[2]), r[3]
   end
   if type(request) == 'string' then
      if not follow and request == 'target' then return target(path) end
      local i = FIELD[request]
      if not i then raise(("invalid attribute name '%s'"):format(request)) end
      return r[i + 1]
   end
   local into = type(request) == 'table' and request or {}
   for i, name in ipairs(FIELDS) do into[name] = r[i + 1] end
   if not follow and into.mode == 'link' then
      into.target = target(path)
   end
   return into
end

-- attributes(path [, name | table]) -> the table of stat fields (filled into
-- the table given), or the one field named
function lfs.attributes(path, request)
   return attributes('attributes', true, path, request)
end

-- symlinkattributes(path [, name | table]): the link itself, with its target
function lfs.symlinkattributes(path, request)
   return attributes('symlinkattributes', false, path, request)
end

------------------------------------------------------------------------------
-- directories

function lfs.currentdir()
   return os_.lfs_currentdir()
end

function lfs.chdir(path)
   path = checkstring(path, 1, 'chdir')
   local ok, msg = os_.lfs_chdir(pyname(path))
   if not ok then
      return nil, ("Unable to change working directory to '%s'\n%s\n"):format(path:match('^%Z*'), msg)
   end
   return true
end

function lfs.mkdir(path)
   return os_.lfs_mkdir(pyname(checkstring(path, 1, 'mkdir')))
end

function lfs.rmdir(path)
   return os_.lfs_rmdir(pyname(checkstring(path, 1, 'rmdir')))
end

-- a directory object: userdata with next/close; its names were read at once
local dirs = setmetatable({}, {__mode = 'k'})
local dirproto = newproxy(true)
local dirmethods = {}
getmetatable(dirproto).__index = dirmethods

local function opendir(d, fname)
   local state = dirs[d]
   if not state then argerror(1, fname, 'directory expected, got ' .. type(d)) end
   if state.closed then argerror(1, fname, 'closed directory') end
   return state
end

function dirmethods.next(d)
   local state = opendir(d, 'next')
   local names, pos = state.names, state.pos
   if pos > #names then
      state.closed = true
      return nil
   end
   local stop = names:find('\0', pos, true) or #names + 1
   state.pos = stop + 1
   return names:sub(pos, stop - 1)
end

function dirmethods.close(d)
   local state = dirs[d]
   if not state then argerror(1, 'close', 'directory expected, got ' .. type(d)) end
   state.closed = true
end

-- dir(path) -> iterator, directory object: for name in lfs.dir(path) do ... end
function lfs.dir(path)
   path = checkstring(path, 1, 'dir')
   local names, msg = os_.lfs_listdir(pyname(path))
   if not names then raise(('cannot open %s: %s'):format(path:match('^%Z*'), msg)) end
   local d = newproxy(dirproto)
   dirs[d] = {names = names, pos = 1, closed = false}
   return dirmethods.next, d
end

------------------------------------------------------------------------------
-- files

-- touch(path [, atime [, mtime]]): both times now, or mtime = atime
function lfs.touch(path, atime, mtime)
   path = checkstring(path, 1, 'touch')
   atime = optnumber(atime, 2, 'touch')
   mtime = optnumber(mtime, 3, 'touch', atime)
   if atime then atime, mtime = floor(atime), floor(mtime) end
   return os_.lfs_touch(pyname(path), atime, mtime)
end

-- link(old, new [, symbolic]): a hard link, or a symbolic one
function lfs.link(old, new, symbolic)
   old = checkstring(old, 1, 'link')
   new = checkstring(new, 2, 'link')
   return os_.lfs_link(pyname(old), pyname(new), symbolic and true or false)
end

-- the descriptor of an open Lua file (the FFI converts an io file to its FILE*)
local function filedescriptor(fh, fname)
   local kind = io.type(fh)
   if kind == nil then argerror(1, fname, 'FILE* expected, got ' .. typename(fh, fh ~= nil)) end
   if kind == 'closed file' then raise(fname .. ': closed file') end
   return ffi.C.fileno(ffi.cast('th_lfs_FILE *', fh))
end

local LOCKMODES = {r = 'r', w = 'w'}

-- lock(file, 'r' | 'w' [, start [, length]]): a record lock that never waits
function lfs.lock(fh, mode, start, length)
   local fd = filedescriptor(fh, 'lock')
   mode = checkstring(mode, 2, 'lock')
   if not LOCKMODES[mode:sub(1, 1)] then raise('lock: invalid mode') end
   return os_.lfs_lock(fd, mode:sub(1, 1), optnumber(start, 3, 'lock', 0),
                       optnumber(length, 4, 'lock', 0))
end

function lfs.unlock(fh, start, length)
   local fd = filedescriptor(fh, 'unlock')
   return os_.lfs_lock(fd, 'u', optnumber(start, 2, 'unlock', 0),
                       optnumber(length, 3, 'unlock', 0))
end

-- setmode(file, 'binary' | 'text'): no difference on POSIX systems
function lfs.setmode(fh, mode)
   filedescriptor(fh, 'setmode')
   if mode ~= nil and mode ~= 'binary' and mode ~= 'text' then
      argerror(2, 'setmode', ("invalid option '%s'"):format(tostring(mode)))
   end
   return true, 'binary'
end

------------------------------------------------------------------------------
-- lock_dir(path [, seconds_stale]) -> a lock object (free() releases it) |
-- nil, message.  The lock is the symbolic link path/lockfile.lfs; one older
-- than seconds_stale is taken over.
local lockproto = newproxy(true)
local lockmethods = {}
local lockfiles = setmetatable({}, {__mode = 'k'})
getmetatable(lockproto).__index = lockmethods
getmetatable(lockproto).__gc = function(l) lockmethods.free(l) end

function lockmethods.free(l)
   local file = lockfiles[l]
   if file then
      lockfiles[l] = nil
      os_.lfs_unlink(pyname(file))
   end
end

function lfs.lock_dir(path, stale)
   path = checkstring(path, 1, 'lock_dir')
   stale = optnumber(stale, 2, 'lock_dir', math.huge)
   local file = path .. '/lockfile.lfs'
   while true do
      local ok, msg = os_.lfs_link('lock', pyname(file), true)
      if ok then break end
      local mtime = select(10, stat(file, false))
      if msg ~= 'File exists' or not mtime or os_time() - mtime <= stale then
         return nil, msg
      end
      os_.lfs_unlink(pyname(file))
   end
   local l = newproxy(lockproto)
   lockfiles[l] = file
   return l
end

_G.lfs = lfs     -- LuaFileSystem 1.8 also set the global
return lfs
