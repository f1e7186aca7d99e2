-- What the `th` command adds to plain Lua, as the original trepl did: the
-- pretty `print` (tensors in full, tables recursively) and running a script
-- or a chunk with a traceback on error.
local torch = require 'torch'
local internal = require 'torch.internal'
local rawtraceback = internal.traceback
-- LuaJIT's own debug.getinfo, called as a field so that its argument errors
-- still name 'getinfo' (debug.getinfo as user code sees it: below)
local raw = {getinfo = debug.getinfo}

-- require 'trepl' is also the REPL itself, as in the original: trepl() starts
-- the interactive prompt (the host sets trepl.start), trepl.colorize colours text
local trepl = setmetatable({}, {
   __call = function(self, ...) return self.start(...) end,
   __index = function(self, key)
      if key == 'colorize' or key == 'colors' then return require('trepl.' .. key) end
   end,
})

local tostring, type, select, pairs, next = tostring, type, select, pairs, next

-- "DoubleTensor - size: 2x3", "IntStorage - size: 4", "DoubleTensor - empty"
local function sizestr(x)
   local name = torch.typename(x):match('torch%.(.+)')
   if torch.isStorage(x) then
      return name .. ' - size: ' .. x:size()
   end
   if x:nDimension() == 0 then
      return name .. ' - empty'
   end
   local s = {}
   for i = 1, x:nDimension() do s[i] = x:size(i) end
   return name .. ' - size: ' .. table.concat(s, 'x')
end

-- a value inside a printed table
local function describe(v)
   local t = type(v)
   if t == 'string' then
      return '"' .. v .. '"'
   elseif t == 'userdata' or t == 'cdata' then
      local name = torch.typename(v) or ''
      if name:find('torch.*Tensor') or name:find('torch.*Storage') then
         return sizestr(v)
      end
   end
   return tostring(v)
end

trepl.describe = describe       -- (who() describes values so too)

-- tables print as `{`, `  key : value` lines, `}`; a table met again while
-- printing itself (the original recursed forever), or nested deeper than
-- MAXDEPTH levels (as the original cut them; setprintlevel(n) sets it),
-- prints as {...}
local MAXDEPTH = 5
function trepl.setdepth(n) MAXDEPTH = n end

local function printtable(out, obj, indent, seen, depth)
   local pad = string.rep(' ', indent)
   -- (trepl asked `if next(obj)`: a table whose first key is false prints
   -- as empty too)
   if not next(obj) then
      return out(pad, '{}\n')
   end
   seen[obj] = true
   out(pad, '{\n')
   for k, v in pairs(obj) do
      if type(v) == 'table' then
         if next(v) == nil or seen[v] or depth + 1 >= MAXDEPTH then
            out(pad, '  ', tostring(k), ' : {...}\n')
         else
            out(pad, '  ', tostring(k), ' : \n')
            printtable(out, v, indent + 4, seen, depth + 1)
         end
      else
         out(pad, '  ', tostring(k), ' : ', describe(v), '\n')
      end
   end
   out(pad, '}\n')
   seen[obj] = nil
end

-- what print(...) shows, written through out(...): numbers, strings... are
-- followed by a tab and the line ends after the last one; tensors, storages
-- and objects with __tostring print whole
local function show(out, ...)
   local n = select('#', ...)
   for i = 1, n do
      local obj = select(i, ...)
      local t = type(obj)
      if t == 'table' then
         local mt = getmetatable(obj)
         if mt and mt.__tostring then
            out(tostring(obj), '\n')
         else
            printtable(out, obj, 0, {}, 0)
         end
      elseif t == 'userdata' or t == 'cdata' then
         out(tostring(obj), '\n')
      else
         out(tostring(obj), '\t')
         if i == n then out('\n') end
      end
   end
end

function trepl.print(...)
   show(io.write, ...)
end

-- the text print(...) would write
function trepl.format(...)
   local parts = {}
   show(function(...)
      for i = 1, select('#', ...) do parts[#parts + 1] = select(i, ...) end
   end, ...)
   return table.concat(parts)
end

-- an error value as text: a string as is, a table as print shows it
function trepl.message(msg)
   if type(msg) == 'string' then return msg end
   local mt = getmetatable(msg)
   if mt and mt.__tostring then return tostring(msg) end
   if type(msg) == 'table' then return (trepl.format(msg):gsub('\n$', '')) end
   return '(error object is a ' .. type(msg) .. ' value)'
end

-- th's own Lua sources: the package's directory (lua/ holds trepl/; native/
-- the memory pool, whose allocation error is the original's C one)
local ours = debug.getinfo(1, 'S').source:match('^@(.*[/\\])lua[/\\]trepl[/\\][^/\\]*$')

-- luaT's arithmetic and indexing metamethods of tensors, and its __call of
-- a C class (torch.Tensor{...}): a C function calling the type's own
-- (unnamed, as called from C), two frames in the original's tracebacks (its
-- comparisons and __concat raise their error themselves: one)
local DISPATCHED = {["'__add'"] = true, ["'__sub'"] = true, ["'__mul'"] = true, ["'__div'"] = true,
   ["'__mod'"] = true, ["'__unm'"] = true, ["'__index'"] = true, ["'__newindex'"] = true}

-- "[C]: at 0x...", LuaJIT's line for a C function without a name, at the
-- address of th's function f standing for it
local function unnamed(f)
   local address = f and tostring(f):match('0x%x+')
   return '\t[C]: ' .. (address and 'at ' .. address or '?')
end

-- called(line, f, caller): a traceback's line of the Lua function f, which
-- a C function of luaT called in the original (a class's __call__,
-- __index__, __tostring__...): unnamed, "in function <file:line>", as
-- LuaJIT names a function called from C
local function called(line, f, caller)
   if not (caller and internal.classcalls[caller] and f) then return line end
   local info = raw.getinfo(f, 'S')
   if info.what ~= 'Lua' then return line end
   return (line:gsub(" in function '[^']*'$", (' in function <%s:%d>'):format(info.short_src, info.linedefined)))
end

-- torch.f of the maths (torch.max(...), torch.zeros('a')): the original's C
-- dispatcher called the type's C function, two frames ("[C]: at 0x..."
-- above "[C]: in function 'max'"); th's front end records that it was
-- entered (internal.via.torch), its maths in th's torch/maths and random.lua
local function dispatched(src)
   return internal.via.torch and src ~= nil
      and (src:match('[/\\]torch[/\\]maths[/\\]') ~= nil or src:match('[/\\]torch[/\\]random%.lua$') ~= nil)
end

-- asc(lines, ownsrc, funcs, srcs): each run of lines of th's frames (C
-- frames before and between them too: th's error()) as the line of the C
-- function the original ran there, "[C]: in function 'add'", named as the
-- run's outermost frame was (funcs, srcs: the function and source of each
-- line, when known)
local function asc(lines, ownsrc, funcs, srcs)
   local kinds = {}
   for i, line in ipairs(lines) do
      local src = line:match('^\t(.-):%d+: ')
      kinds[i] = src and ownsrc[src] and 'th' or line:match('^\t%[C%]: ') and 'C' or 'user'
      if funcs[i] and internal.luaframes[funcs[i]] then kinds[i] = 'user' end
   end
   local out, i = {}, 1
   while i <= #lines do
      local last, count = nil, 0
      for j = i, #lines do
         if kinds[j] == 'user' then break end
         if kinds[j] == 'th' then last, count = j, count + 1 end
      end
      if last then
         local name = lines[last]:match(" in function ('[^']*')$")
         local callname = funcs[last] and internal.callnames[funcs[last]]
         if callname then name = "'" .. callname .. "'" end
         -- (a class's metamethod alone called the user's __add__,
         -- __index__...: luaT's one C function)
         local alone = count == 1 and internal.classcalls[funcs[last]]
         -- (two C functions: luaT's __call and a C constructor, or torch's
         -- dispatcher and the type's function, also in a tail call)
         local two = internal.constructorcalls[funcs[last]] or internal.torchforms[funcs[last]]
            or dispatched(srcs[last])
         if not name or (DISPATCHED[name] and not alone) or two then
            out[#out + 1] = unnamed(funcs[last])
         end
         if not name and two then out[#out + 1] = unnamed(funcs[last]) end
         if name then out[#out + 1] = '\t[C]: in function ' .. name end
         i = last + 1
      else
         out[#out + 1] = called(lines[i], funcs[i], funcs[i + 1])
         i = i + 1
      end
   end
   return out
end

-- collapse(text, frames, lua): a traceback's text with th's own frames
-- shown as the C functions of the original, but those of the files in lua
-- (their short_src as keys), which were Lua in the original too; frames:
-- internal.frames of the traceback's first level, one a line
local function collapse(text, frames, lua)
   if type(text) ~= 'string' then return text end
   -- the function of each line (unless LuaJIT left levels out: "...")
   local ownsrc, funcs, srcs = {}, {}, {}
   for i, info in ipairs(ours and frames or {}) do
      if info.source:sub(2, #ours + 1) == ours and info.source:sub(1, 1) == '@'
         and not (lua and lua[info.short_src]) then
         ownsrc[info.short_src] = true
      end
      funcs[i], srcs[i] = info.func, info.source
   end
   if text:find('\n\t%.%.%.\n') then funcs, srcs = {}, {} end
   if not next(ownsrc) then return text end
   local head, stack = text:match('^(.-\nstack traceback:\n)(.*)$')
   if not head then return text end
   local lines = {}
   for line in (stack .. '\n'):gmatch('(.-)\n') do lines[#lines + 1] = line end
   return head .. table.concat(asc(lines, ownsrc, funcs, srcs), '\n')
end

-- a traceback's text down to the outermost main chunk: what follows is
-- th's runner or prompt (the original's showed its th launcher's frames)
local function tochunk(text)
   local last = text:match('^.*()\n\t[^\n]*: in main chunk')
   local cut = last and text:find('\n', last + 1, true)
   return cut and text:sub(1, cut - 1) or text
end

-- LuaJIT left out the middle of the original's tracebacks of more than 22
-- levels, all but the first 11 and the last 10 ("\t..."), counting the th
-- launcher's frames below the outermost main chunk (dofile, the launcher's
-- main chunk and a C frame; at the prompt, trepl's repl and xpcall too):
-- th's text (its own frames collapsed, the launcher's cut) is cut so
local LEVELS1, LEVELS2 = 11, 10
local function cutmiddle(text)
   local at = 1
   while true do
      local nxt = text:find('\nstack traceback:\n', at + 1, true)
      if not nxt then break end
      at = nxt
   end
   local head, stack = text:sub(1, at + 17), text:sub(at + 18)
   if head:sub(-18) ~= '\nstack traceback:\n' then return text end
   local lines = {}
   for line in (stack .. '\n'):gmatch('(.-)\n') do lines[#lines + 1] = line end
   local last = lines[#lines]
   local below = last:find('^\tstdin:%d+: in main chunk$') and 4 or last:find(': in main chunk$') and 3 or 0
   local levels = #lines + below
   if levels <= LEVELS1 + LEVELS2 + 1 then return text end
   local out = {unpack(lines, 1, LEVELS1)}
   out[#out + 1] = '\t...'
   for i = levels - LEVELS2 + 1, #lines do out[#out + 1] = lines[i] end
   return head .. table.concat(out, '\n')
end

-- traceback for xpcall: the message, then the Lua stack from level (2 by
-- default: the function that raised the error, when traceback is the
-- handler itself), collapsed
function trepl.traceback(msg, level, lua)
   level = level or 2
   -- (an error a class's __tostring__ raised, raised again: its traceback
   -- where it was raised, class.lua's internal.again)
   local first, text, frames = internal.again(msg, level)
   if first then
      text, frames = trepl.message(msg) .. first.text, first.frames
   else
      text, frames = internal.fulltraceback(trepl.message(msg), level), internal.frames(level)
   end
   return cutmiddle(tochunk(collapse(text, frames, lua)))
end

-- debug.traceback as user code sees it (nn's Container puts one in its
-- error messages): th's frames as the original's C functions, down to the
-- main chunk, as the traceback of an uncaught error
function debug.traceback(...)
   local msg, level = ...
   if type(msg) == 'thread' or (level ~= nil and type(level) ~= 'number') then
      return rawtraceback(...)
   end
   local nomsg = select('#', ...) == 0
   if not nomsg and type(msg) ~= 'string' and type(msg) ~= 'number' then
      return msg   -- (nil and other objects come back untouched)
   end
   level = (level or 1) + 1
   local first, text, frames = internal.again(msg, level)
   if first then
      text, frames = (nomsg and '' or msg) .. first.text, first.frames
   else
      text, frames = internal.fulltraceback(nomsg and '' or msg, level), internal.frames(level)
   end
   text = cutmiddle(tochunk(collapse(text, frames)))
   if nomsg then text = text:sub(2) end   -- (the empty message's line)
   return text
end

-- debug.getinfo as user code sees it: the frames of what luaT did in C and
-- th does in Lua (a class's __call, Foo(...) and torch.Tensor{...}; a
-- torch.class's obj(...), __index, __tostring and operators) read as C,
-- and the function such a frame called is unnamed, as called from C
-- (nngraph labels a node with the frame six levels above Node's __init:
-- "[[C]]:-1_" for the nodes gModule makes, named in its errors)
local function ccall(f)
   return internal.classcalls[f] or internal.constructorcalls[f]
end
function debug.getinfo(...)
   local thread, level, what = ...
   if type(thread) ~= 'thread' then thread, level, what = nil, ... end
   if type(level) ~= 'number' or level < 1 or (thread and thread ~= coroutine.running())
      or (what ~= nil and (type(what) ~= 'string' or what:find('[^SlunfL]'))) then
      -- (a bad argument: LuaJIT's error, at the caller's line as the C
      -- function's was, not at this one's; unnamed in a tail call)
      local ok, info = pcall(raw.getinfo, ...)
      if not ok then
         local me = raw.getinfo(1, 'n')
         error((tostring(info):gsub("^bad argument (#%d+) to '%?'",
                                    "bad argument %1 to '" .. (me and me.name or '?') .. "'")), 2)
      end
      if type(level) ~= 'number' or level < 1 or (thread and thread ~= coroutine.running()) then return info end
   end
   level = level + 1   -- (this function's frame)
   local info, at
   if thread then info = raw.getinfo(thread, level, what) else info = raw.getinfo(level, what) end
   if not info then return info end
   at = raw.getinfo(level, 'f')
   if at and ccall(at.func) then
      if info.source then info.source, info.short_src, info.what = '=[C]', '[C]', 'C' end
      if info.currentline then info.currentline = -1 end
      if info.linedefined then info.linedefined, info.lastlinedefined = -1, -1 end
      if info.nups then info.nups = 0 end
      info.activelines = nil
   elseif info.namewhat then
      local above = raw.getinfo(level + 1, 'f')
      if above and internal.classcalls[above.func] then info.name, info.namewhat = nil, '' end
   end
   return info
end

-- snapshot(): the globals th defined before user code runs (who() hides them)
function trepl.snapshot()
   trepl.initial = {}
   for k in pairs(_G) do trepl.initial[k] = true end
   -- (trepl's list of them, a global: _preloaded_)
   trepl.initial._preloaded_ = true
   _G._preloaded_ = {}
   for k in pairs(trepl.initial) do _G._preloaded_[k] = true end
end

-- run(f, ...) -> true, results... or false, message with traceback
function trepl.run(f, ...)
   return xpcall(f, trepl.traceback, ...)
end

return trepl
