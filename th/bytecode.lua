-- A cache of the Lua modules `require` loads, compiled to LuaJIT bytecode.
-- Parsing th's own modules took most of the Lua side of start-up (15 ms),
-- and nn's sources another 15-25 ms; loading their bytecode takes a tenth.
-- A module's bytecode is kept in a file of the user's cache directory named
-- after the source's path as found (./nn/init.lua from any directory: its
-- chunk is named so) and headed by the source itself: a source that changes
-- in any byte is parsed again and its file rewritten.  The bytecode keeps its
-- debug information, so errors and tracebacks name the same files and lines.
-- Anything that fails (no home, a read-only cache, a damaged file) falls
-- back to the source.  It is Lua, not Python: the numpy import th makes in
-- the background holds Python's lock, and each call into Python waited for
-- it (require 'nn': 30-65 ms instead of 15-25).
--    local load = loadfile(thisfile)()   -- load(path): chunk, or nil, error
local ffi = require 'ffi'
pcall(ffi.cdef, 'int mkdir(const char *, unsigned int); int getpid(void);')

-- the cache of this LuaJIT version (its bytecode is not portable across versions)
local function directory()
   local base = os.getenv('XDG_CACHE_HOME')
   if not base or base == '' then
      local home = os.getenv('HOME')
      if not home or home == '' then return nil end
      base = home .. '/.cache'
   end
   return base .. '/th/bytecode/' .. jit.version:gsub(' ', '-')
end
local root = directory()

local function read(path)
   local f = io.open(path, 'rb')
   if not f then return nil end
   local text = f:read('*a')
   f:close()
   return text
end

-- the directory and its parents, as `mkdir -p` (existing ones fail harmlessly)
local function makedirs(path)
   for i in path:gmatch('()/') do
      if i > 1 then ffi.C.mkdir(path:sub(1, i - 1), 493) end   -- (0755)
   end
   ffi.C.mkdir(path, 493)
end

-- write text to path whole or not at all (concurrent th processes may write
-- it too); an error here (a system without mkdir) only leaves it unwritten
local function store(path, text)
   makedirs(root)
   local tmp = path .. '.' .. ffi.C.getpid()
   local f = io.open(tmp, 'wb')
   if not f then return end
   local done = f:write(text)
   f:close()
   if not (done and os.rename(tmp, path)) then os.remove(tmp) end
end

-- the chunk of the Lua source at path (named '@' .. path, as loadfile names
-- it), from the cache when it holds this source (read in pieces: a source
-- read twice is one string, no copy)
return function(path)
   local source = read(path)
   if not source then return loadfile(path) end   -- (its message)
   local cached = root and root .. '/' .. path:gsub('^/+', ''):gsub('/', '%%')
   local f = cached and io.open(cached, 'rb')
   if f then
      local code = f:read('*l') == tostring(#source) and f:read(#source) == source and f:read('*a')
      f:close()
      local chunk = code and load(code, nil, 'b')
      if chunk then return chunk end
   end
   local chunk, err = loadstring(source, '@' .. path)
   if chunk and cached then
      pcall(store, cached, #source .. '\n' .. source .. string.dump(chunk))
   end
   return chunk, err
end
