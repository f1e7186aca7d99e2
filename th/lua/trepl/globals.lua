-- The globals the original's th gave every script, the REPL and `-e`
-- statements, by running `require 'trepl'` before them: noColors,
-- print_old/print_new and setprintlevel, import, who, monitor_G (which
-- `th -g`/`-gg` call), repl, _RESULTS and _LAST; then _preloaded_, the
-- names of the globals there before the user's code (who() leaves them out),
-- set by the th command once its set-up is done (trepl.snapshot).
local trepl = require 'trepl'
local colors = require 'trepl.colors'

-- (print_old: Lua's print, which the th command replaced; print_new:
-- trepl's)
_G.print_new = trepl.print

-- noColors(): every colour code empty
function _G.noColors()
   for k in pairs(colors) do colors[k] = '' end
end

-- setprintlevel(n): how deep print shows nested tables (5 at start); 0 puts
-- Lua's own print back
function _G.setprintlevel(n)
   -- (its errors with no position: the original's were lines of its trepl)
   if n == nil or n < 0 then
      error('expected number [0,+)', 0)
   end
   n = math.floor(n)
   trepl.setdepth(n)
   if n == 0 then
      _G.print = _G.print_old
   else
      _G.print = _G.print_new
   end
end

-- import(package, forced): require it, then copy its fields into the
-- globals (those not set yet; all of them when forced)
function _G.import(package, forced)
   local ok, ret = pcall(require, package)
   if not ok then error(ret, 0) end
   local symbols = {}
   if _G[package] then
      _G._torchimport = _G._torchimport or {}
      _G._torchimport[package] = _G[package]
      symbols = _G[package]
   elseif ret and type(ret) == 'table' then
      _G._torchimport = _G._torchimport or {}
      _G._torchimport[package] = ret
      symbols = ret
   end
   for k, v in pairs(symbols) do
      if not _G[k] or forced then
         _G[k] = v
      end
   end
end

-- who(): the user's variables (the REPL's listing: trepl/repl.lua)
function _G.who(...)
   return require('trepl.repl').who(...)
end

-- monitor_G([cb | true]): report each global created or read undeclared
-- from now on (cb(key, 'newindex' | 'index'), or a printed line; true: an
-- error), as trepl's did
function _G.monitor_G(cb)
   local strict
   if type(cb) == 'boolean' then
      strict = true
      cb = nil
   end
   -- (penlight's modules loaded now, as trepl forced them)
   stringx = require 'pl.stringx'
   tablex = require 'pl.tablex'
   path = require 'pl.path'
   dir = require 'pl.dir'
   text = require 'pl.text'
   local evercreated = {}
   for k in pairs(_G) do
      evercreated[k] = true
   end
   local function where(key, what)
      local info = debug.getinfo(3, 'Sl')
      local file, line = info.source:gsub('^@', ''), info.currentline
      local msg
      if line > 0 then
         msg = colors.red .. what .. colors.blue .. key .. colors.none .. ' @ ' .. colors.magenta .. file
               .. colors.none .. ':' .. colors.green .. line .. colors.none
      else
         msg = colors.red .. what .. colors.blue .. key .. colors.none .. ' @ ' .. colors.yellow .. '[C-module]'
               .. colors.none
      end
      -- (the error at no position: the original's was a line of its trepl)
      if strict then error(msg, 0) end
      print(msg)
   end
   setmetatable(_G, {
      __newindex = function(G, key, val)
         if not evercreated[key] then
            if cb then cb(key, 'newindex') else where(key, 'created global variable: ') end
         end
         evercreated[key] = true
         rawset(G, key, val)
      end,
      __index = function(_, key)
         if cb then cb(key, 'index') else where(key, 'attempt to read undeclared variable: ') end
      end,
   })
end

-- repl(): the interactive prompt, from a script too
function _G.repl(...)
   return trepl(...)
end

_G._RESULTS = _G._RESULTS or {}
_G._LAST = _G._LAST or ''

-- require(name) of a name starting with '.' (trepl's, "ala Node.js"): a file
-- relative to the file of the code calling it (the current folder when that
-- is no file: C, or a tail call), name.lua, then name.th and name.net
-- (torch.load; .net after require 'nn'), name.json (cjson) and name.csv
-- (csv), then the file name itself, then with those extensions, .so and
-- .dylib (package.loadlib), then name/init.lua; any other name as Lua's
local drequire = require
function _G.require(name)
   if type(name) ~= 'string' or not name:find('^%.') then
      return drequire(name)
   end
   local file = debug.getinfo(2).source:gsub('^@', '')
   local dir = '.'
   if paths.filep(file) then
      dir = paths.dirname(file)
   end
   local pkgpath = paths.concat(dir, name)
   if paths.filep(pkgpath .. '.lua') then
      return dofile(pkgpath .. '.lua')
   elseif pkgpath:find('%.th$') and paths.filep(pkgpath) then
      return torch.load(pkgpath)
   elseif pkgpath:find('%.net$') and paths.filep(pkgpath) then
      drequire 'nn'
      return torch.load(pkgpath)
   elseif pkgpath:find('%.json$') and paths.filep(pkgpath) then
      return drequire('cjson').decode(io.open(pkgpath):read('*all'))
   elseif pkgpath:find('%.csv$') and paths.filep(pkgpath) then
      return drequire('csv').load(pkgpath)
   elseif paths.filep(pkgpath) then
      return dofile(pkgpath)
   elseif paths.filep(pkgpath .. '.th') then
      return torch.load(pkgpath .. '.th')
   elseif paths.filep(pkgpath .. '.net') then
      drequire 'nn'
      return torch.load(pkgpath .. '.net')
   elseif paths.filep(pkgpath .. '.json') then
      return drequire('cjson').decode(io.open(pkgpath .. '.json'):read('*all'))
   elseif paths.filep(pkgpath .. '.csv') then
      return drequire('csv').load(pkgpath .. '.csv')
   elseif paths.filep(pkgpath .. '.so') then
      return package.loadlib(pkgpath .. '.so', 'luaopen_' .. paths.basename(name))()
   elseif paths.filep(pkgpath .. '.dylib') then
      return package.loadlib(pkgpath .. '.dylib', 'luaopen_' .. paths.basename(name))()
   end
   return dofile(paths.concat(pkgpath, 'init.lua'))
end

-- (and Lua 5.0's string.gfind, which the original's LuaJIT kept: gmatch)
string.gfind = string.gfind or string.gmatch
