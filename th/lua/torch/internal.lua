-- State shared by the modules of torch and hidden from users: the data behind
-- each Tensor and Storage proxy, the Python boundary, and error reporting.
--
-- A Tensor or Storage is a userdata proxy (so `#t` and `type(t) == 'userdata'`
-- behave as in Torch7); its fields live in a weak-keyed table:
--   storages[s] = {T = type, arr = numpy array, ptr = FFI pointer, n = size,
--                  buf = the LuaJIT array of a small storage (its arr is made on demand),
--                  proxy = s, once made (storageproxy)}
--   tensors[t]  = {T = type, st = storage data (as above) or nil, off = 0-based offset,
--                  nd = dimensions, sz = {sizes}, str = {strides}}
-- (an empty tensor has nd = 0; a storage's ptr is valid for indices 0..n-1)
--
-- Besides what this file defines, the core modules publish here:
--   Storage.lua: newstorage(T, n), wrapstorage(T, arr, ptr, n), isstorage(v),
--                the same as data: newstoragedata(T, n [, raw]), storagedata(T, arr, ptr, n),
--                storageproxy(data) (made once), resizestorage(data, n)
--   Tensor.lua:  wraptensor(T, st, off, nd, sz, str), newtensor(T, sizes, n),
--                newlike(T, d), emptytensor(T), istensor(v), nelement(d),
--                iscontiguous(d), checkbounds(d), checktensor(v, argn, fname) -> d,
--                checkdim(d, dim, argn, fname), samesize(d1, d2), setmeta(d, st,
--                off, sizes, n, strides), resize(d, sizes, n), readsizes(fname, ...),
--                longstorage(array, n), ndview(d) / nd(t) (the numpy view, one
--                Python call), each(d, f(ptr, i)) and offsets(d) (row-major
--                element loops in LuaJIT), element(d, i0), selectview(d, dim, i0),
--                clonemeta(d), copy(dst_d, src_d), clone(d [, T]),
--                method(name, f) (adds a method to every tensor type), Tensor
--   printing.lua: sizestring(d)
local ffi = require 'ffi'

local internal = {}

-- LuaJIT's own debug.traceback (the th command puts one that hides th's
-- frames in its place: trepl), for th's code that reads frames by file
internal.traceback = debug.traceback

-- fulltraceback(msg, level): that traceback from level (counted from
-- fulltraceback's caller) down, every level of it: LuaJIT leaves out the
-- middle of a stack of more than 22 levels ("\t..."), which th's own
-- frames, collapsed later, would have placed elsewhere than the original's
-- stack did (trepl/init.lua leaves it out as the original's).  The levels
-- left out are written here as LuaJIT writes a level (a C function's
-- address is its function object's: no C pointer is at hand)
local rawgetinfo = debug.getinfo
local function levelline(info)
   local ffid = tostring(info.func):match('^function: builtin#(%d+)$')
   local line = '\n\t' .. ((ffid and info.namewhat == '') and '[builtin#' .. ffid .. ']' or info.short_src) .. ':'
   if info.currentline > 0 then line = line .. info.currentline .. ':' end
   if info.namewhat ~= '' then return line .. " in function '" .. info.name .. "'" end
   if info.what == 'main' then return line .. ' in main chunk' end
   if info.what == 'C' then return line .. ' at ' .. (tostring(info.func):match('0x%x+') or '0x0') end
   return line .. ' in function <' .. info.short_src .. ':' .. info.linedefined .. '>'
end
function internal.fulltraceback(msg, level)
   local raw = internal.traceback('', level + 1)
   local cut = raw:find('\n\t...\n', 1, true)
   if not cut then return msg .. raw end
   local first = raw:sub(1, cut - 1)
   local shown = select(2, first:gsub('\n\t', ''))
   local last = level + 1
   while rawgetinfo(last + 1, 'l') do last = last + 1 end
   local middle = {}
   for at = level + 1 + shown, last - 10 do middle[#middle + 1] = levelline(rawgetinfo(at, 'Snlf')) end
   return msg .. first .. table.concat(middle) .. raw:sub(cut + 5)
end

-- Both tables are weak in keys and values; what keeps a data table alive is
-- the proxy itself, whose environment it is (internal.attach).  A weak-keyed
-- table alone would keep each dead proxy's data for another collection cycle,
-- which made creating views three times slower.
internal.tensors = setmetatable({}, {__mode = 'kv'})
internal.storages = setmetatable({}, {__mode = 'kv'})

local setfenv = debug.setfenv

-- attach(registry, proxy, data): data becomes what registry[proxy] gives
function internal.attach(registry, proxy, data)
   setfenv(proxy, data)
   registry[proxy] = data
   return proxy
end
internal.memory = require 'th.native.memory'
internal.py = require 'th.native.ops'     -- the Python functions of th/ops
-- [0] nonzero once numpy is imported (maybe by th's background import,
-- which Lua's table of th/ops's functions does not see until asked), [1]
-- once that import started
internal.numpyloaded = ffi.cast('volatile int32_t *', internal.py.numpy_flag())

-- numpyready() -> whether numpy is loaded; when not, its import is started
-- in a helper thread, for an operation that would have imported it and
-- runs a LuaJIT loop instead meanwhile
function internal.numpyready()
   local flags = internal.numpyloaded
   if flags[0] ~= 0 then return true end
   if flags[1] == 0 then internal.py.preload() end
   return false
end

local getinfo, error, select, tostring, pcall = debug.getinfo, error, select, tostring, pcall

-- the directory of th's own sources (th/lua, th/native): errors are reported at the first
-- frame outside it, i.e. at the line of the user's script that called us
local ours = getinfo(1, 'S').source:match('^@(.*)lua[/\\]torch[/\\][^/\\]*$') or '\0'

local function userlevel()
   local level = 3
   while true do
      local info = getinfo(level, 'S')
      if not info then return 0 end
      if info.what ~= 'C' and info.source:sub(2, #ours + 1) ~= ours then
         return level - 1
      end
      level = level + 1
   end
end

-- Torch7's Tensor and Storage methods were C functions, whose argument
-- errors Lua's luaL_argerror worded after the call the user wrote:
-- x:narrow('a', 1, 2) fails at argument #1 of 'narrow', x.narrow(x, 'a', 1, 2)
-- at #2, and a call from C (pcall(x.narrow, x, 'a', 1, 2)) or a tail call at
-- #2 of '?'.  th's messages number a method's arguments as in the first
-- form (#0: self, which that form words "calling 'narrow' on bad self");
-- callform rewords them for the others.  A constructor called through its
-- class (torch.FloatTensor(2, 'a')) was called by C: argument #2 of '?'.

-- ismethod(f, name) -> whether f is the method `name` of a Tensor or Storage
-- type; isclass(name) -> whether name is a Tensor or Storage type
local function ismethod(f, name)
   -- (the methods every type got, as installed: a guarded type's metatable
   -- holds a wrapper, and Half's has no maths)
   if internal.Tensor and rawget(internal.Tensor, name) == f then return true end
   local types = require 'torch.types'
   for i = 1, types.all do
      for _, class in ipairs{types[i].tensorname, types[i].storagename} do
         local mt = torch.getmetatable(class)
         if mt and rawget(mt, name) == f then return true end
      end
   end
   return false
end
local function isclass(name)
   local types = require 'torch.types'
   for i = 1, types.all do
      if name == types[i].tensorname or name == types[i].storagename then return true end
   end
   return false
end

-- tensorc(source) -> whether a method from that file is one of Torch7's
-- Tensor.c or Storage.c, whose messages th numbers as luaL_argerror did
-- (TH's own checks, THArgCheck, and the maths number their arguments as a
-- function's, self first; serialization.lua holds their write and read)
local TENSORC = {Tensor = true, Storage = true, selection = true, serialization = true}
local function tensorc(source)
   return TENSORC[source:match('[/\\]torch[/\\](%a+)%.lua$') or ''] == true
end

-- The maths functions (dispatch.define, torch/maths) number their arguments
-- as a function's, self #1, as TH's checks did: luaL_argerror took one off
-- for a method call (#1 is then "calling 'sum' on bad self"); torch.sum
-- passed the call on to the method in a tail call, so that its errors,
-- any of them, had no position and its argument errors no name.  (th's
-- front ends reach the function by tail calls too, which leave no trace on
-- the stack: internal.via, below, tells torch.sum's calls apart.)
-- (random.lua's distributions were such wrapped maths too: torch.random
-- passed the call on to the C function in a tail call)
-- fieldmethod(f) -> f, marked as a method whose field call (x.random(x, 5,
-- 2)) words its errors as the original's C function did (random.lua's:
-- th's guards reach them by tail calls, which keep the call's name)
internal.fieldmethods = setmetatable({}, {__mode = 'k'})
-- torch.f functions that call the method f not in a tail call (torch.gather,
-- torch.random(x, ...)): the original's C dispatcher called the method, whose
-- errors then had no position and no name (f -> what to add to the numbers
-- of its method's argument errors: 1 where those count self as #0)
internal.torchforms = setmetatable({}, {__mode = 'k'})
-- the __call functions of Tensor and Storage classes (class.lua)
internal.constructorcalls = setmetatable({}, {__mode = 'k'})
-- th's own functions made outside its Lua files (os.exit's wrapper, from
-- Python), which a file refuses as it refuses the C functions they stand for
internal.nativefunctions = setmetatable({}, {__mode = 'k'})
-- the metamethods of torch.class classes that call the class's Lua code
-- (class.lua: Foo(...), obj(...), __index__, __add__, __tostring__...):
-- luaT's C functions in the original, so debug.getinfo and tracebacks show
-- their frames as C, and the function they call unnamed (trepl/init.lua)
internal.classcalls = setmetatable({}, {__mode = 'k'})
-- th's functions that were Lua functions of the original's own files
-- (torch.class's constructor, class.lua): tracebacks keep their frames
internal.luaframes = setmetatable({}, {__mode = 'k'})
-- th's functions that convert a C function's arguments as the original's
-- FFI call did (thnn's cint, cptr...): a conversion's error was the call's,
-- so tracebacks name their frames after the function called (f -> name)
internal.callnames = setmetatable({}, {__mode = 'k'})

-- frames(level) -> getinfo 'Sf' of each frame from level (counted from
-- frames' caller) down: what a traceback taken at that level shows, one
-- a line (trepl/init.lua names th's frames in it after them)
function internal.frames(level)
   local frames, at = {}, level + 1
   while true do
      local info = getinfo(at, 'Sf')
      if not info then return frames end
      frames[#frames + 1] = info
      at = at + 1
   end
end
function internal.fieldmethod(f)
   internal.fieldmethods[f] = true
   return f
end
-- filesource(source) -> whether a method from that file is a File's, which
-- in Torch7 were C functions numbering their arguments as a function's,
-- self #1: luaL_argerror took one off for a method call (f:seek(0): #1 of
-- 'seek'; f:writeInt(1) on a read-only file: "calling 'writeInt' on bad self")
local function filesource(source)
   return source:match('[/\\]torch[/\\]%a*File%.lua$') ~= nil
end

-- fileform(msg, call, fromc) -> msg, fromc: a File method's argument error
-- numbered and worded as its C function gave it
local function fileform(msg, call, fromc)
   local n, name, rest = msg:match("^bad argument #(%d+) to '([^']*)'(.*)$")
   if not n then return msg, fromc end
   if fromc then return ("bad argument #%s to '?'%s"):format(n, rest), true end
   if call.namewhat ~= 'method' then
      return ("bad argument #%s to '%s'%s"):format(n, call.name or '?', rest), false
   end
   if n == '1' then return ("calling '%s' on bad self%s"):format(call.name or name, rest), false end
   return ("bad argument #%d to '%s'%s"):format(n - 1, call.name or name, rest), false
end
local function mathsource(source)
   return source:match('[/\\]torch[/\\]maths[/\\]') ~= nil or source:match('[/\\]torch[/\\]random%.lua$') ~= nil
end
-- via.torch: whether the maths front end entered last was torch.f's (set by
-- the generated front ends of dispatch.lua, one store per call): the frames
-- cannot tell, th's front ends reaching the functions by tail calls.  A
-- method called otherwise than as one (x.sum(x, 5), or in a tail call,
-- `return x:sum(5)`, named by LuaJIT after the caller's call of the function
-- doing it) was the C function itself: its errors at the line of the Lua
-- code below it, its argument errors numbered as a function's, under that name.
internal.via = {torch = false}
local via = internal.via
local function mathform(msg, call, fromc)
   -- (an operator, x + y: luaT's metamethod called the C function)
   if call.namewhat == 'metamethod' then return msg, true end
   local method = call.namewhat == 'method' and not fromc
   local n, name, rest = msg:match("^bad argument #(%d+) to '([^']*)'(.*)$")
   -- (a random method called as a field, p.multinomial(res, p, n), was the
   -- C function itself: its message as a function's, at the caller's line)
   if call.namewhat == 'field' and not fromc and internal.fieldmethods[call.func] then
      return msg, false
   end
   if not method and (via.torch or fromc) then
      if not n then return msg, true end
      return ("bad argument #%s to '?'%s"):format(n, rest), true
   end
   if not n then return msg, false end
   if not method then return ("bad argument #%s to '%s'%s"):format(n, call.name or '?', rest), false end
   if n == '1' then return ("calling '%s' on bad self%s"):format(name, rest), false end
   return ("bad argument #%d to '%s'%s"):format(n - 1, name, rest), false
end

-- callform(msg) -> the message, and whether it has no position: luaL_error
-- gave the line of the function's caller, none when that was C
-- (pcall(x.narrow, x, 'a'), or a tail call from a function pcall called)
-- entryframe(level) -> the level (counted from entryframe's caller) of the
-- th frame that the user's code, or a C function, called: the last of th's
-- frames from level up (C frames between th's own are th's: a pcall inside
-- th); nil when the frame at level is no th's.  A class's metamethod that
-- runs its Lua code (internal.classcalls) ends th's frames: luaT's C
-- function, it called the th function that the user's __tostring__ or
-- __call__ reached by a tail call (return self.t:narrow(5, 1, 1))
local function entryframe(level)
   local entry = nil
   level = level + 1
   while true do
      local info = getinfo(level, 'Sf')
      if not info then break end
      if info.what ~= 'C' then
         if info.source:sub(2, #ours + 1) ~= ours or internal.classcalls[info.func] then break end
         entry = level - 1
      end
      level = level + 1
   end
   return entry
end

-- cframe(info) -> whether the frame info ('Sf') was a C function in the
-- original: C, or a class's metamethod calling its Lua code (luaT's)
local function cframe(info)
   return info ~= nil and (info.what == 'C' or internal.classcalls[info.func] ~= nil)
end

local function callform(msg)
   local entry = entryframe(3)
   if not entry then return msg end
   local above, call = getinfo(entry + 1, 'Sf'), getinfo(entry, 'nSf')
   -- (unnamed when a class's metamethod called it: from luaT's C function)
   if above and internal.classcalls[above.func] then call.name, call.namewhat = nil, '' end
   -- (a metamethod, x + y or x[k], was a C function in Torch7: its errors
   -- had no position, as from C)
   local fromc = cframe(above) or call.namewhat == 'metamethod'
   local shift = internal.torchforms[call.func]
   if shift then
      local n, rest = msg:match("^bad argument #(%d+) to '[^']*'(.*)$")
      return n and ("bad argument #%d to '?'%s"):format(n + shift, rest) or msg, true
   end
   if mathsource(call.source) then return mathform(msg, call, fromc) end
   -- (x[5], x[1] = 'a': luaT's __index and __newindex called the C
   -- __index__ and __newindex__, whose errors had no position)
   if call.namewhat == 'metamethod' and (call.name == '__index' or call.name == '__newindex'
                                          or call.name == 'index' or call.name == 'newindex') then
      return msg, true
   end
   -- (a constructor called through its class, torch.Tensor{1, 'a'}: luaT's
   -- __call, a C function, called it)
   local byclass = internal.constructorcalls[call.func]
   if filesource(call.source) then return fileform(msg, call, fromc) end
   local n, name, rest = msg:match("^bad argument #(%d+) to '([^']*)'(.*)$")
   if not n then return msg, fromc or byclass end
   -- (a File's constructor, torch.DiskFile(name, 'x'), called by luaT's __call)
   if byclass and not isclass(name) then return ("bad argument #%s to '?'%s"):format(n, rest), true end
   if isclass(name) then      -- (a constructor: no self)
      if byclass or fromc then return ("bad argument #%s to '?'%s"):format(n, rest), true end
      -- (x.new(2, 'a'), also in a tail call: named as LuaJIT names the call)
      return ("bad argument #%s to '%s'%s"):format(n, call.name or '?', rest), false
   end
   if call.namewhat == 'method' or call.namewhat == 'metamethod' or not ismethod(call.func, name)
      or not tensorc(call.source) then
      if n == '0' then return ("calling '%s' on bad self%s"):format(name, rest), fromc end
      -- (numbered as a function's: from C, only the name was unknown)
      return fromc and ("bad argument #%s to '?'%s"):format(n, rest) or msg, fromc
   end
   return ("bad argument #%d to '%s'%s"):format(n + 1, call.name or '?', rest), fromc
end

-- fail(fmt, ...): raise a Lua error located in the user's code
function internal.fail(fmt, ...)
   local msg, nowhere = callform(select('#', ...) > 0 and fmt:format(...) or fmt)
   error(msg, nowhere and 0 or userlevel())
end

local fail = internal.fail

-- locate(msg): raise msg as luaL_error did in a C function the user's code
-- called (torch.norm's "does not implement"): at the line of the Lua
-- function below the th function called (a tail call's caller's), none when
-- that is C (pcall(torch.norm, x))
function internal.locate(msg)
   local entry = entryframe(2)
   if not entry or cframe(getinfo(entry + 1, 'Sf')) then error(msg, 0) end
   -- (a constructor called through its class: luaT's __call, C, called it)
   if internal.constructorcalls[getinfo(entry, 'f').func] then error(msg, 0) end
   error(msg, entry + 1)
end

-- torchform(f) -> f behind a torch.f front end that calls it not in a tail
-- call, as the original's C dispatcher called its C function (registered
-- in torchforms: f's errors then have no position, its argument errors no name)
function internal.torchform(f)
   local function torchf(...)
      local r = f(...)
      return r
   end
   internal.torchforms[torchf] = 0
   return torchf
end

-- "not enough memory" as TH raised it: located as locate's, but with no
-- position in a torch.f form whose C dispatcher called the C function
-- that failed (torch.zeros, torch.reshape: internal.torchforms)
function internal.memory.raise(msg)
   local entry = entryframe(2)
   if entry and internal.torchforms[getinfo(entry, 'f').func] then error(msg, 0) end
   internal.locate(msg)
end

-- raise(msg): an error at the user's line, its text as given (no renaming of
-- the function or renumbering of the argument as fail's callform does)
function internal.raise(msg)
   error(msg, userlevel())
end

local function checked(ok, ...)
   if ok then return ... end
   fail(tostring((...)))
end

-- pycall(f, ...): call a Python function; a Python exception becomes a Lua error
function internal.pycall(f, ...)
   return checked(pcall(f, ...))
end

-- argument checking helpers shared by the method implementations

-- badself(self [, expected [, fname]]) raises the error of a method called on
-- what is not a tensor (x.select(1, 2)) or another object (expected:
-- 'torch.*Storage'), in place of the index error of its first line (named as
-- the method was called, or fname; called from C, it has no name: #1 of '?')
function internal.badself(self, expected, fname)
   local name = fname or debug.getinfo(2, 'n').name
   fail("bad argument #%d to '%s' (%s expected, got %s)", name and 0 or 1, name or '?',
        expected or 'torch.*Tensor', torch.type(self))
end

-- typeof(v, argn [, given]) -> the type name an argument error gives for
-- argument argn (after self) of a call that gave `given` arguments
function internal.typeof(v, argn, given)
   if v == nil and given and argn > given then return 'no value' end
   return type(v)
end

local floor, tonumber = math.floor, tonumber

-- toint(v, argn, fname): an integer argument (size, dimension, index) as
-- Torch7's bindings read it with luaL_checklong/checkint: a numeric string
-- counts, a fraction is cut toward zero.  A value no C long holds (or NaN) is
-- an error, where Torch7 wrapped it around or hung.
-- given: how many arguments the call gave after self, when the method
-- knows it: one it did not give is "no value", as lua_type's LUA_TNONE.
function internal.toint(v, argn, fname, given)
   local x = type(v) ~= 'table' and tonumber(v)
   if not x then
      fail("bad argument #%d to '%s' (number expected, got %s)", argn, fname, internal.typeof(v, argn, given))
   end
   if not (x > -2^63 and x < 2^63) then
      fail("bad argument #%d to '%s' (integer %s out of range)", argn, fname, tostring(x))
   end
   return x >= 0 and floor(x) or -floor(-x)
end

-- Ctrl-C inside JIT-compiled code.  A hook (th/interrupt.py) never runs in a
-- compiled trace, so a loop over tensor calls, all of them LuaJIT code, could
-- not be stopped (the original's C calls left the trace).  Tensor and storage
-- accessors and the maths functions call poll(); every POLLS calls it reads
-- the flag th's interrupter sets.  The read sits behind a rarely taken branch
-- because in a trace it becomes a side trace of its own, which reads memory
-- each time, where a read in the loop itself would be hoisted out of it.
local stopflag = ffi.new('int32_t[1]')
local POLLS, polls = 10000, 0
local sethook = debug.sethook

local holding = 0   -- inside sections an error must not leave (see hold)

-- raise `interrupted` (also the interrupter's hook): the hook and the flag are
-- both cleared first, so the error's own handling is not interrupted again;
-- inside a held section, the flag stays for release to raise
function internal.interrupted()
   sethook()
   if holding > 0 then
      stopflag[0] = 1
      return
   end
   stopflag[0] = 0
   error('interrupted', 0)
end

-- a section Ctrl-C does not leave halfway (a job shared with helper threads,
-- torch.parallel, holds their locks): its interruption waits for release
function internal.hold()
   holding = holding + 1
end

function internal.release()
   holding = holding - 1
   if holding == 0 and stopflag[0] ~= 0 then internal.interrupted() end
end

function internal.poll()
   polls = polls + 1
   if polls > POLLS then
      polls = 0
      if stopflag[0] ~= 0 then internal.interrupted() end
   end
end

-- the flag read at once, by what is about to run a long C call (a BLAS
-- product, a plane of a convolution): in a loop the read follows the last
-- iteration's C call, across which LuaJIT does not hoist it, and the call's
-- own cost hides the read's
function internal.pollnow()
   if stopflag[0] ~= 0 then internal.interrupted() end
end

-- the flag's address, for th's interrupter to set from its thread
function internal.stopaddress()
   return tonumber(ffi.cast('intptr_t', stopflag))
end

-- a number, or a string that reads as one (Torch7's lua_isnumber took both)
function internal.checknumber(v, argn, fname, given)
   if type(v) ~= 'number' then
      local x = type(v) == 'string' and tonumber(v)
      if not x then
         fail("bad argument #%d to '%s' (number expected, got %s)", argn, fname, internal.typeof(v, argn, given))
      end
      return x
   end
   return v
end

return internal
