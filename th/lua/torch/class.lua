-- Torch classes (luaT): named metatables, constructor tables, inheritance,
-- and the utility functions that inspect them (typename, type, isTypeOf...).
-- A class's metatable holds its methods; its constructor table (what
-- `torch.DoubleTensor` or a user's `Foo` is) forwards reads and writes to it.
local torch = require 'torch'
local ffi = require 'ffi'
local internal = require 'torch.internal'

local getmetatable, setmetatable, rawget, type, select = getmetatable, setmetatable, rawget, type, select

local registry = {}        -- class name -> metatable
-- metatable -> class name: luaT named an object after its metatable's entry
-- in the registry, so a table whose metatable merely holds a __typename
-- field (or a copy of a class's metatable) has no Torch type
local classnames = {}
local ctypenames           -- cdata type id -> class name (torch.metatype's), once there is one
local constructors = {}    -- class name -> constructor table

-- its arguments: f's results returned through it make the call to f a non-tail call
local function results(...) return ... end

-- the operators of a class are looked up as __add__, __sub__... up its
-- hierarchy; without one, luaT's message (its typo included), which names
-- both operands of a binary one ('(null)' for a value of no Torch class)
-- (the left operand's metatable when it has one, a string's too: '2' + x
-- is an error; only then the right one's).  lua: for a torch.class class,
-- whose __add__... is Lua code: not a tail call, so that luaT's C function
-- stays in a traceback below it, which debug.getinfo and tracebacks show
-- as C, and the Lua function unnamed (internal.classcalls); Tensor and
-- Storage keep the tail call (their __add__ was C too)
local function operator(name, what, unary, lua)
   local function missing(a, b)
      if unary then return string.format('%s has no %s operator', torch.typename(a), what) end
      return string.format('both %s and %s have no %s operator', torch.typename(a) or '(null)',
                           torch.typename(b) or '(null)', what)
   end
   if not lua then
      return function(a, b)
         local mt = getmetatable(a)
         if mt == nil then mt = getmetatable(b) end
         local f = type(mt) == 'table' and mt[name]
         if not f then error(missing(a, b), 2) end
         return f(a, b)
      end
   end
   local op = function(a, b)
      local mt = getmetatable(a)
      if mt == nil then mt = getmetatable(b) end
      local f = type(mt) == 'table' and mt[name]
      if not f then error(missing(a, b), 2) end
      return results(f(a, b))
   end
   internal.classcalls[op] = true
   return op
end

local function operatortable(lua)
   local t = {
      __add = operator('__add__', 'addition', false, lua),
      __sub = operator('__sub__', 'substraction', false, lua),
      __mul = operator('__mul__', 'multiplication', false, lua),
      __div = operator('__div__', 'division', false, lua),
      __mod = operator('__mod__', 'modulo', false, lua),
      __pow = operator('__pow__', 'power', false, lua),
      __unm = operator('__unm__', 'negation', true, lua),
      -- luaT's messages name both operands, '(null)' for a non-Torch value
      -- (the left operand's metatable when it has one, as for the operators)
      __concat = function(a, b)
         local mt = getmetatable(a)
         if mt == nil then mt = getmetatable(b) end
         local f = type(mt) == 'table' and mt.__concat__
         if not f then
            error(string.format('both %s and %s have no concat operator',
                                torch.typename(a) or '(null)', torch.typename(b) or '(null)'), 2)
         end
         return results(f(a, b))
      end,
      -- only userdata objects reach it (Lua 5.1 ignores __len on tables)
      __len = function(self)
         local f = getmetatable(self).__len__
         if not f then error(torch.typename(self) .. ' has no length operator', 2) end
         return results(f(self))
      end,
      -- not a tail call: as under luaT, obj(...) keeps a frame between the caller and
      -- __call__ (nngraph finds where a node was declared by its debug level)
      __call = function(self, ...)
         local f = getmetatable(self).__call__
         if not f then error(torch.typename(self) .. ' has no call operator', 2) end
         return results(f(self, ...))
      end,
   }
   if lua then
      internal.classcalls[t.__call], internal.classcalls[t.__concat] = true, true
      internal.classcalls[t.__len] = true
   end
   return t
end
local operators, luaoperators = operatortable(false), operatortable(true)

-- the comparisons, made anew for each class: Lua compares two objects by
-- __eq, __lt and __le only when both have the same one (luaT gave each
-- class its own), else == is false and < an error ("attempt to compare two
-- userdata values")
local function comparisons(mt, lua)
   mt.__lt = operator('__lt__', 'less-than', false, lua)
   mt.__le = operator('__le__', 'less-equal', false, lua)
   if not lua then
      mt.__eq = function(a, b)
         local f = getmetatable(a).__eq__
         if f then return f(a, b) end
         return rawequal(a, b)
      end
      return
   end
   mt.__eq = function(a, b)
      local f = getmetatable(a).__eq__
      if f then return results(f(a, b)) end
      return rawequal(a, b)
   end
   internal.classcalls[mt.__eq] = true
end

-- An error raised in a class's __tostring__, as it left luaT's C __tostring:
-- a builtin that __tostring__ reached by a tail call (return
-- string.format(...)) and that failed had no position and no name, its
-- frame lying on the C function's (LuaJIT locates it at th's frame below
-- and names it after th's local: class.lua:NNN: bad argument #2 to 'f').
-- The error is caught there and raised again from rethrow; the traceback
-- taken where it was first raised (internal.rethrown) stands for the one
-- the handlers of the error raised again would take (internal.again).
local function rethrow(ok, ...)
   if ok then return ... end
   error((...), 0)
end

-- again(msg, level) -> the first traceback of msg, when the frame at level
-- (counted from again's caller), or the one below, is rethrow raising it
-- again; nil otherwise
function internal.again(msg, level)
   local first = internal.rethrown
   if not (first and rawequal(first.msg, msg)) then return nil end
   for at = level + 1, level + 2 do
      local info = debug.getinfo(at, 'f')
      if info and info.func == rethrow then return first end
   end
   return nil
end

local here = '^' .. debug.getinfo(1, 'S').short_src:gsub('%p', '%%%0') .. ':%d+: '
local function fromc(e)
   if type(e) == 'string' and e:find(here) then
      e = e:gsub(here, '', 1):gsub("^bad argument #(%d+) to '[^']*'", "bad argument #%1 to '?'")
   end
   -- (taken here, at the depth the handler of an uncaught error takes it)
   if not internal.again(e, 2) then
      internal.rethrown = {msg = e, text = internal.fulltraceback('', 2), frames = internal.frames(2)}
   end
   return e
end

-- tostring(obj): its __tostring__, or else its class name (as luaT did)
local function default_tostring(self)
   local f = getmetatable(self).__tostring__
   if f then return rethrow(xpcall(f, fromc, self)) end
   return torch.typename(self)
end
internal.classcalls[default_tostring] = true

-- given(n, ...): the type luaL_typerror named for argument n of a C
-- function called with `...`: 'no value' past the last one given
local function given(n, ...)
   if select('#', ...) < n then return 'no value' end
   return type((select(n, ...)))
end

-- where the constructor table of `name` lives: module[field], field what
-- follows the last dot ('' for 'torch.'), the module what precedes it walked
-- a part at a time from _G (empty parts too: 'a..b' lives in a['']); a part
-- that is no table fails, named with the parts before it, at the caller of
-- torch.class or torch.newmetatable (level 4)
local function home(name, module)
   local field = name:match('[^.]*$')
   if module then return module, field end
   local path = name:match('^(.*)%.')
   if not path then return _G, field end
   local t, from = _G, 1
   while true do
      local dot = path:find('.', from, true)
      local upto = dot and dot - 1 or #path
      local part = path:sub(from, upto)
      if type(t[part]) ~= 'table' then
         error(string.format("while creating metatable %s: bad argument #1 (%s is an invalid module name)",
                             name, path:sub(1, upto)), 4)
      end
      t = t[part]
      if not dot then return t, field end
      from = dot + 1
   end
end

-- define(name, parentName, constructor, factory, module [, mt]) registers a class,
-- adopting `mt` as its metatable when given (Tensor and Storage bring the one
-- their userdata proxies carry).  Defining a class twice re-uses its
-- metatable, so re-running a script that defines classes works.
local function define(name, parentname, constructor, factory, module, preset)
   if type(name) ~= 'string' then
      error("bad argument #1 to 'newmetatable' (string expected, got " .. type(name) .. ')', 3)
   end
   -- (the module first, as luaT: a class whose module is missing is not made)
   local where, field = home(name, module)
   local mt = registry[name]
   if not mt then
      mt = preset or {}
      mt.__typename, mt.__version, mt.__tostring = name, 1, default_tostring
      mt.__index = mt
      for k, f in pairs(preset and operators or luaoperators) do mt[k] = f end
      comparisons(mt, not preset)
      registry[name] = mt
      classnames[mt] = name
   end
   if parentname then
      if getmetatable(mt) then
         error(string.format('class %s has been already assigned a parent class\n', name), 3)
      end
      local parent = registry[parentname]
      -- (a class its own parent too: Torch7 crashed on it; every lookup in
      -- it would loop)
      if not parent or parent == mt then
         error(string.format('bad argument #2 (invalid parent class name %s)', tostring(parentname)), 3)
      end
      setmetatable(mt, parent)
   end
   -- (set raw, as luaT did: not through a parent's __newindex__)
   rawset(mt, '__factory', factory)
   local ct = constructors[name]
   if not ct then
      -- (printed as luaT's printed it: the plain table's "table: 0x...")
      ct = {}
      local plain = tostring(ct)
      setmetatable(ct, {__index = mt, __newindex = function(_, k, v) rawset(mt, k, v) end,
                        __metatable = mt, __tostring = function() return plain end})
      constructors[name] = ct
   end
   -- as luaT built them: the constructor table, and getmetatable(obj) is the class
   rawset(mt, '__constructor', ct)
   rawset(mt, '__metatable', mt)
   if constructor then
      local ctmt = debug.getmetatable(ct)
      -- (not a tail call: luaT's __call, a C function, called the
      -- constructor, whose errors then had no position; internal.lua's
      -- callform finds this frame)
      local call = function(_, ...)
         local obj = constructor(...)
         return obj
      end
      internal.constructorcalls[call] = true
      ctmt.__call = call
      where[field] = ct
      -- (luaT gave a class with a constructor the field new: torch.MemoryFile.new('rw'))
      if rawget(mt, 'new') == nil then rawset(mt, 'new', constructor) end
   end
   return mt
end

-- proxyclass(name, constructor, factory, methods) -> proto, metatable: a class
-- whose objects are userdata made by newproxy(proto) (Tensor and Storage
-- types); x.new(...) is the constructor, as in Torch7
local function proxyclass(name, constructor, factory, methods)
   local proto = newproxy(true)
   local mt = getmetatable(proto)
   define(name, nil, constructor, factory, nil, mt)
   for k, f in pairs(methods) do mt[k] = f end
   mt.new = constructor
   return proto, mt
end

-- torch.newmetatable(name, parentName, constructor, destructor, factory, module)
-- (its arguments checked as luaT checked them, all before the module and the
-- parent; names may be numbers, as luaL_checkstring read them)
local function metatablearg(n, what)
   error(("bad argument #%d to 'newmetatable' (%s or nil expected)"):format(n, what), 3)
end
function torch.newmetatable(...)
   local name, parentname, constructor, destructor, factory, module = ...
   if type(name) == 'number' then name = tostring(name) end
   if type(name) ~= 'string' then
      error(("bad argument #1 to 'newmetatable' (string expected, got %s)"):format(given(1, ...)), 2)
   end
   if type(parentname) == 'number' then parentname = tostring(parentname) end
   if parentname ~= nil and type(parentname) ~= 'string' then metatablearg(2, 'parent class name') end
   if constructor ~= nil and type(constructor) ~= 'function' then metatablearg(3, 'constructor function') end
   if destructor ~= nil and type(destructor) ~= 'function' then metatablearg(4, 'destructor function') end
   if factory ~= nil and type(factory) ~= 'function' then metatablearg(5, 'factory function') end
   if module ~= nil and type(module) ~= 'table' then metatablearg(6, 'module table') end
   local mt = define(name, parentname, constructor, factory, module)
   return mt   -- (not a tail call: define's errors are at the caller's line)
end

-- A class's objects find their fields in its metatable (its __index), but
-- luaT's __index and __newindex, C functions, first asked the class's
-- __index__(self, k) and __newindex__(self, k, v) when it had them
-- (torch-dataframe's Dataseries, datasets indexed by number): objects of
-- such a class, and the classes above it, get the two below, made when an
-- object is.  The lookups of __index__ and __newindex__ go through the
-- parents' __index, so a parent's __index__ is also asked for them, with
-- the child's metatable as self, as under luaT.

-- what luaT's __index gave back after __index__ returned `...`: its results
-- sat on the stack above (self, k, metatable); a true last one returned the
-- value below it, a false one was dropped and k looked up in the value
-- below (the metatable when there was one result)
local function indexed(k, mt, ...)
   local n = select('#', ...)
   if n == 0 then return k end
   local below = mt
   if n > 1 then below = (select(n - 1, ...)) end
   if (select(n, ...)) then return below end
   return below[k]
end

local function luaTindex(self, k)
   local mt = getmetatable(self)
   local f = mt.__index__
   if f == nil then return mt[k] end
   if type(f) ~= 'function' then error('critical internal indexing error: __index__ is not a function', 2) end
   local v = indexed(k, mt, f(self, k))
   return v
end

local function luaTnewindex(self, k, v)
   local f = getmetatable(self).__newindex__
   if f ~= nil then
      if type(f) ~= 'function' then error('critical internal indexing error: __newindex__ is not a function', 2) end
      if f(self, k, v) then return end
   end
   rawset(self, k, v)
end

internal.classcalls[luaTindex], internal.classcalls[luaTnewindex] = true, true

-- indexing(mt) -> mt, its objects given luaT's __index and __newindex if
-- it or a class above it has __index__ or __newindex__
local function indexing(mt)
   local top, m = nil, mt
   while m do
      if rawget(m, '__index__') ~= nil or rawget(m, '__newindex__') ~= nil then top = m end
      m = getmetatable(m)
   end
   m = top and mt
   while m do
      if rawget(m, '__index') == m then
         rawset(m, '__index', luaTindex)
         rawset(m, '__newindex', luaTnewindex)   -- (not through a parent's __newindex)
      end
      if m == top then break end
      m = getmetatable(m)
   end
   return mt
end

-- The constructor torch.class gives a class (Foo(...) calls it through
-- luaT's __call): in the original a Lua function of its torch/init.lua,
-- defined on line 87 and calling __init on line 91, which tracebacks show
-- ("torch/init.lua:91: in function <torch/init.lua:87>"), error(msg, 2) in
-- an __init names, and debug.getinfo sees; th's is compiled as a chunk of
-- that name beside this file, its lines placed there, and its frame is
-- kept in tracebacks as the Lua frame it was (internal.luaframes)
local initsource = debug.getinfo(1, 'S').source
initsource = initsource:match('^@.*class%.lua$') and initsource:gsub('class%.lua$', 'init.lua') or '=torch/init.lua'
local constructorfor = assert(loadstring(string.rep('\n', 85) .. [[
local setmetatable, indexing, registry = ... return function(name)
   return function(...)
      local self = setmetatable({}, indexing(registry[name]))


      if self.__init then self:__init(...) end
      return self
   end
end]], initsource))(setmetatable, indexing, registry)

-- torch.class(name [, parentName] [, module]) -> metatable [, parent metatable]
function torch.class(...)
   local n = select('#', ...)
   local a, b, c = ...
   local name, parentname, module
   if n == 3 and type(a) == 'string' and type(b) == 'string' and type(c) == 'table' then
      name, parentname, module = a, b, c
   elseif n == 2 and type(a) == 'string' and type(b) == 'string' then
      name, parentname = a, b
   elseif n == 2 and type(a) == 'string' and type(b) == 'table' then
      name, module = a, b
   elseif n == 1 and type(a) == 'string' then
      name = a
   else
      error('<class name> [<parent class name>] [<module table>] expected', 2)
   end
   local constructor = constructorfor(name)
   internal.luaframes[constructor] = true
   local function factory()
      return setmetatable({}, indexing(registry[name]))
   end
   local mt = define(name, parentname, constructor, factory, module)
   -- Foo(...) keeps a frame of its own above the constructor's, as under luaT
   local call = function(_, ...)
      local obj = constructor(...)
      return obj
   end
   internal.classcalls[call] = true
   debug.getmetatable(mt.__constructor).__call = call
   rawset(mt, 'new', constructor)   -- Foo.new(...) and obj.new(...) make a new Foo (nngraph uses it)
   return mt, parentname and registry[parentname] or nil
end

-- checkany(fname): luaL_checkany's error for a C function given nothing
-- (named '?' when called from C or by a tail call)
local function checkany(fname)
   local info = debug.getinfo(2, 'n')
   error(("bad argument #1 to '%s' (value expected)"):format(info and info.name and fname or '?'), 3)
end

-- typename(obj) -> the class name, or nothing at all for a non-Torch value
function torch.typename(...)
   local obj = ...
   if obj == nil and select('#', ...) == 0 then checkany('typename') end
   local mt = debug.getmetatable(obj)
   if mt ~= nil then
      local name = classnames[mt]
      if name then return name end
   end
   if ctypenames and type(obj) == 'cdata' then
      local name = ctypenames[tonumber(ffi.typeof(obj))]
      if name then return name end
   end
end

-- metatype(name, mt [, ctype]): luaT's registration of a metatable made
-- elsewhere (an FFI type's, as tds registered its own): torch.getmetatable(name)
-- is mt, and an object of mt, or a cdata of exactly ctype, is of class name;
-- mt itself is left as it is (no methods, no factory).  Registering a name
-- again replaces what the name finds, not what the old metatable is named.
function torch.metatype(...)
   local name, mt, ctype = ...
   local n = select('#', ...)
   if type(name) == 'number' then name = tostring(name) end
   if type(name) ~= 'string' or type(mt) ~= 'table' or n > 3 then
      error('expecting: string table [ctype]', 0)
   end
   if n == 3 then   -- (a nil given too: the FFI's error)
      local ok, ct = pcall(function() local t = ffi.typeof(ctype) return t end)   -- (not a tail call: named typeof)
      -- (the FFI's message without th's position: the original's was in its own chunk)
      if not ok then error('internal error (cdataname): ' .. tostring(ct):gsub('^[^\n]-:%d+: ', ''), 0) end
      ctypenames = ctypenames or {}
      ctypenames[tonumber(ct)] = name
   end
   registry[name] = mt
   classnames[mt] = name
end

function torch.type(obj)
   return torch.typename(obj) or type(obj)
end

-- isTypeOf's failures where the original's Lua code failed in its own
-- torch/init.lua: the same message with no position (th's class.lua line
-- is no better than the original's, left out as for its other Lua files).
-- A spec without a metatable (nil, a boolean, a function, a plain table):
-- Lua's error at the original's index of it; a malformed pattern: string
-- match's error (th had said its own line, and its words for the first)
local function typeoffault(msg)
   error((tostring(msg):gsub('^[^\n]-:%d+: ', '')), 0)
end

local smatch = string.match

-- isTypeOf(obj, spec): spec is a name, a pattern or a constructor; checks up the hierarchy
function torch.isTypeOf(obj, spec)
   if type(spec) ~= 'string' then
      local mt = getmetatable(spec)
      if mt == nil or type(mt) == 'boolean' or type(mt) == 'number' then
         typeoffault(('attempt to index a %s value'):format(type(mt)))
      end
      spec = type(mt) == 'table' and mt.__typename
      if type(spec) ~= 'string' then
         typeoffault('type must be provided as [regexp] string, or factory')
      end
   end
   local mt = debug.getmetatable(obj)
   while type(mt) == 'table' do
      local name = rawget(mt, '__typename')
      if name then
         local ok, match = pcall(smatch, name, spec)
         if not ok then typeoffault(match) end
         if match and (match ~= spec or match == name) then return true end
      end
      mt = getmetatable(mt)
   end
   return false
end

-- getmetatable(name) -> the class metatable, or nothing at all
function torch.getmetatable(...)
   local name = ...
   if type(name) ~= 'string' and type(name) ~= 'number' then   -- (luaL_checkstring's error)
      local info = debug.getinfo(1, 'n')
      error(("bad argument #1 to '%s' (string expected, got %s)"):format(
         info and info.name and 'getmetatable' or '?', given(1, ...)), 2)
   end
   local mt = registry[tostring(name)]
   if mt then return mt end
end

-- setmetatable(t, name): t gets the class's metatable; what it returns is
-- the name, as luaT's did (its stack's top)
-- (the name checked first, as luaT did)
function torch.setmetatable(...)
   local obj, name = ...
   local info = debug.getinfo(1, 'n')
   local fname = info and info.name and 'setmetatable' or '?'
   if type(name) ~= 'string' and type(name) ~= 'number' then
      error(("bad argument #2 to '%s' (string expected, got %s)"):format(fname, given(2, ...)), 2)
   end
   if type(obj) ~= 'table' then
      error(("bad argument #1 to '%s' (table expected, got %s)"):format(fname, given(1, ...)), 2)
   end
   local mt = registry[tostring(name)]
   if not mt then error('unknown typename ' .. tostring(name) .. '\n', 2) end
   setmetatable(obj, indexing(mt))
   return tostring(name)
end

function torch.getconstructortable(...)
   local name = ...
   if type(name) == 'number' then name = tostring(name) end
   if type(name) ~= 'string' then   -- (luaL_checkstring's error)
      local info = debug.getinfo(1, 'n')
      error(("bad argument #1 to '%s' (string expected, got %s)"):format(
         info and info.name and 'getconstructortable' or '?', given(1, ...)), 2)
   end
   return constructors[name]
end

-- factory(name): luaL_checkstring's name (a number as its string)
function torch.factory(...)
   local name = ...
   if type(name) == 'number' then name = tostring(name) end
   if type(name) ~= 'string' then
      local info = debug.getinfo(1, 'n')
      error(("bad argument #1 to '%s' (string expected, got %s)"):format(
         info and info.name and 'factory' or '?', given(1, ...)), 2)
   end
   local mt = registry[name]
   return mt and mt.__factory or nil
end

-- version(obj): its metatable's __version; nothing at all without a metatable
function torch.version(...)
   local obj = ...
   if obj == nil and select('#', ...) == 0 then checkany('version') end
   local mt = debug.getmetatable(obj)
   if type(mt) == 'table' then return rawget(mt, '__version') end
end

function torch.isequal(a, b)
   local ta, tb = type(a), type(b)
   if (ta == 'table' or ta == 'userdata') and (tb == 'table' or tb == 'userdata') then
      return rawequal(a, b)
   end
   return false
end

-- the pointer a cdata holds, as luaT read it: the first 8 bytes of its value
-- (a pointer's address, an integer's value, an array's or a struct's first
-- elements; a scalar narrower than that padded with zeros), refused beyond
-- 2^53 (luaT_pushpointer's check: a double holds no more)
local u64p = ffi.typeof('uint64_t *')
local function heldpointer(obj)
   local ct = ffi.typeof(obj)
   local name = tostring(ct)
   local u
   if name:match('%*%)?[^%*]*>$') then
      u = ffi.cast('uint64_t', obj)   -- (a pointer, of data or of a function)
   elseif name:match('%]>$') or name:match('^ctype<struct') or name:match('^ctype<union') then
      u = ffi.cast(u64p, obj)[0]       -- (an array's elements, a struct's fields)
   else
      local box, word = ffi.new(ffi.typeof('$[1]', ct), obj), ffi.new('uint64_t[1]')
      ffi.copy(word, box, math.min(ffi.sizeof(ct), 8))
      u = word[0]
   end
   if u > 9007199254740992ULL then
      internal.locate("Pointer value can't be represented as a Lua number (an overflow would occur)")
   end
   return tonumber(u)
end

-- pointer(obj): a number unique to each live object (tables, functions, threads, Torch
-- objects); for a string (or a number, as its string) the address of its interned bytes
local ids = setmetatable({}, {__mode = 'k'})
local nextid = 0x1000
function torch.pointer(obj)
   local t = type(obj)
   if t == 'cdata' then
      return heldpointer(obj)
   elseif t == 'string' or t == 'number' then
      return tonumber(ffi.cast('intptr_t', ffi.cast('const char *', tostring(obj))))
   elseif t == 'userdata' and not torch.typename(obj) then
      error("bad argument #1 to 'pointer' (Torch object expected)", 2)
   elseif t ~= 'table' and t ~= 'userdata' and t ~= 'function' and t ~= 'thread' then
      error('Torch object, table, thread, cdata or function expected', 2)
   end
   local id = ids[obj]
   if not id then
      nextid = nextid + 16
      id = nextid
      ids[obj] = id
   end
   return id
end

-- the environment of a userdata proxy holds th's own data for it (see
-- internal.attach), so what users set on Tensors and Storages is kept aside
local userenvs = setmetatable({}, {__mode = 'k'})
local function isproxy(obj)
   return internal.tensors[obj] ~= nil or internal.storages[obj] ~= nil
end

-- envarg(n, fname, what, v): the argument error of luaL_checktype, named
-- as the caller called the function ('?' from C or a tail call)
local function envarg(n, fname, what, got)
   local info = debug.getinfo(2, 'n')
   error(("bad argument #%d to '%s' (%s expected, got %s)"):format(
      n, info and info.name and fname or '?', what, got), 3)
end

function torch.getenv(...)
   local obj = ...
   local t = type(obj)
   if t ~= 'function' and t ~= 'userdata' then envarg(1, 'getenv', 'function or userdata', given(1, ...)) end
   if isproxy(obj) then return userenvs[obj] or _G end
   return debug.getfenv(obj)
end

function torch.setenv(...)
   local obj, env = ...
   local t = type(obj)
   if t ~= 'function' and t ~= 'userdata' then envarg(1, 'setenv', 'function or userdata', given(1, ...)) end
   if type(env) ~= 'table' then envarg(2, 'setenv', 'table', given(2, ...)) end
   if isproxy(obj) then
      userenvs[obj] = env
   else
      debug.setfenv(obj, env)
   end
   return obj
end

return {define = define, proxyclass = proxyclass}
