-- Torch7's object format: File:writeObject / File:readObject, the read and
-- write methods of tensors and storages, and the helpers torch.save,
-- torch.load, torch.serialize and torch.deserialize.  The bytes are the
-- original's, so .t7 files move both ways between th and Torch7.
--
-- An object is an Int type tag then:
--   number: a Double; boolean: an Int 0/1; string: an Int length and the Chars;
--   table, Torch object, function: an Int reference index, then (the first
--   time only) the content:
--     table: an Int count and that many key, value objects
--     Torch object: "V <version>" and the class name (as strings), then what
--       the class's `write` method writes, or its fields as a table
--     function: its string.dump bytecode (as a string) and its upvalues as a
--       table of {name = , id = , value = }
-- Tensor: Int nDimension, Long sizes, Long strides, Long storageOffset
-- (1-based), then its storage as an object; Storage: Long size, the elements.
--
-- This file runs interpreted (jit.off below, for every function in it): a
-- walk over objects of many kinds gave LuaJIT some 200 traces to compile
-- and many to abort before it ran compiled, so a program's first module
-- clones took 2-9 ms each (the original's 0.4-0.5) for about 15 of them.
-- Interpreted, a clone of a small nn.Sequential costs 0.4-0.6 ms from the
-- first (0.23 against the original's 0.34 once warm), torch.save of a table
-- of 200,000 small tables 0.85 s (compiled 0.3, the original 2.7).
jit.off(true, true)
local torch = require 'torch'
local ffi = require 'ffi'
local types = require 'torch.types'
local internal = require 'torch.internal'
local gpucheckpoint = require 'torch.gpucheckpoint'

local TD, SD, fail, kinds = internal.tensors, internal.storages, internal.fail, internal.files
local type, pairs, ipairs, pcall, error, tostring, tonumber, rawget =
      type, pairs, ipairs, pcall, error, tostring, tonumber, rawget
local getupvalue, setupvalue, upvalueid, upvaluejoin =
      debug.getupvalue, debug.setupvalue, debug.upvalueid, debug.upvaluejoin
local dump, concat = string.dump, table.concat

local File = torch.getmetatable('torch.File')

local TYPE_NIL, TYPE_NUMBER, TYPE_STRING, TYPE_TABLE, TYPE_TORCH, TYPE_BOOLEAN = 0, 1, 2, 3, 4, 5
local TYPE_FUNCTION, LEGACY_TYPE_RECUR_FUNCTION, TYPE_RECUR_FUNCTION = 6, 7, 8

-- the bookkeeping of a file's written and read objects (kept for its life,
-- so an object written twice to a file is stored once)
local function books(self, fname)
   local F = kinds.state(self, fname)
   local b = F.books
   if not b then
      b = {written = {}, nwritten = 0, read = {}, names = {},
           upvalueids = {}, nupvalueids = 0, closures = {}}
      F.books = b
   end
   return b, F.force
end

-- th's own functions (its Lua files, the loops it generates, the few it
-- makes from Python) stand for the original's C functions (torch.add,
-- io.write, tostring...), which a file cannot carry: they are unwritable
-- objects at their own place, not bytecode whose upvalues lead into th's
-- internals (an error deep inside them, or a file of th's code)
local throot = debug.getinfo(1, 'S').source:match('^(@.*/)lua/torch/[^/]*$')
local getinfo, natives = debug.getinfo, internal.nativefunctions
local function native(f)
   if natives[f] then return true end
   local source = getinfo(f, 'S').source
   return (throot and source:sub(1, #throot) == throot) or source:sub(1, 5) == '=(th '
end

-- trepl's print was a Lua function in the original, written with its
-- bytecode; th's print is th's own, so it is written as a function of no
-- upvalues calling the global print, which reads back as a working print
-- in th and in the original
local printstub
local function standin(f)
   local trepl = package.loaded.trepl
   if type(trepl) == 'table' and f == trepl.print then
      printstub = printstub or dump(loadstring('return print(...)', '=print'))
      return printstub
   end
end

-- the type tag of a value, or nil when it cannot be written
local function typeof(object)
   local t = type(object)
   if t == 'nil' then
      return TYPE_NIL
   elseif t == 'table' and torch.typename(object) == 'torch.Timer' then
      return nil   -- (a userdata in Torch7: unwritable)
   elseif torch.typename(object) and torch.factory(torch.typename(object)) then
      return TYPE_TORCH
   elseif t == 'table' then
      return TYPE_TABLE
   elseif t == 'number' then
      return TYPE_NUMBER
   elseif t == 'string' then
      return TYPE_STRING
   elseif t == 'boolean' then
      return TYPE_BOOLEAN
   elseif t == 'function' and (standin(object) or not native(object) and pcall(dump, object)) then
      return TYPE_RECUR_FUNCTION
   end
end

function File.isWritableObject(self, object)
   return typeof(object)
end

-- a class's own read/write method (`__name` or `name`), if any (the lookup
-- a function of its own: a closure made per object, which LuaJIT does not
-- compile, aborted the traces of the first clones, 2-8 ms each)
local function lookup(object, name)
   local mt = torch.getmetatable(torch.typename(object))
   if mt then return mt['__' .. name] or mt[name] end
end
local function classmethod(object, name)
   local ok, f = pcall(lookup, object, name)
   if ok and type(f) == 'function' then return f end
end

local function writestring(self, s)
   self:writeInt(#s)
   kinds.writechars(self, s, 'writeObject')
end

local function readstring(self)
   local n = self:readInt()
   if n < 0 then
      fail('corrupted file: string of negative length %d', n)
   end
   return kinds.readchars(self, n, 'readObject')
end

-- the path of the object being written, as the original's message gave it
-- (the parts marked unnamed are th's own bookkeeping tables, not in its path)
local unnamed = {}
local function where(names)
   local shown = {}
   for i = 1, #names do
      if names[i] ~= unnamed then shown[#shown + 1] = names[i] end
   end
   return concat(shown, '.')
end

-- the tables writefunction makes for a function's upvalues: the list (true)
-- and each record (the upvalue's name); an unwritable upvalue is named in
-- an error's path by its name (`<?>.f0`), as the original named it
local upvaluelabels = setmetatable({}, {__mode = 'k'})

local writeobject

local function writefunction(self, b, object, hook)
   local upvalues = {}
   local stub = standin(object)
   local i = 1
   while not stub do
      local name, value = getupvalue(object, i)
      if not name then break end
      local id = upvalueid(object, i)
      if not b.upvalueids[id] then
         b.nupvalueids = b.nupvalueids + 1
         b.upvalueids[id] = b.nupvalueids
      end
      upvalues[i] = {name = name, id = b.upvalueids[id], value = value}
      upvaluelabels[upvalues[i]] = name
      i = i + 1
   end
   upvaluelabels[upvalues] = true
   writestring(self, stub or dump(object))
   writeobject(self, upvalues, unnamed, hook)
end

local function writetorch(self, object, hook, names)
   writestring(self, 'V ' .. torch.version(object))
   writestring(self, torch.typename(object))
   local write = classmethod(object, 'write')
   if write then
      write(object, self)
   elseif type(object) == 'table' then
      local fields = {}
      for k, v in pairs(object) do
         if typeof(v) then
            fields[k] = v
         else
            print(('$ Warning: cannot write object field <%s> of <%s> %s'):format(
               tostring(k), torch.typename(object), where(names)))
         end
      end
      writeobject(self, fields, torch.typename(object), hook)
   else
      fail('<%s> is a non-serializable Torch object %s', torch.typename(object), where(names))
   end
end

-- writeObject(object [, debugname [, hook]]): hook(object) is what gets
-- written in object's place (e.g. to convert types); references follow object
local function identity(o) return o end

function writeobject(self, object, debugname, hook)
   hook = hook or identity
   local b, force = books(self, 'writeObject')
   local original = object
   object = hook(object)
   if object == nil then
      self:writeInt(TYPE_NIL)
      return
   end
   local names = b.names
   names[#names + 1] = debugname or '<?>'
   local tag = typeof(object)
   if not tag then
      -- (a Timer named as the userdata it was in Torch7)
      local kind = torch.typename(object) == 'torch.Timer' and 'userdata' or type(object)
      fail('Unwritable object <%s> at %s', kind, where(names))
   end
   self:writeInt(tag)
   if tag == TYPE_NUMBER then
      self:writeDouble(object)
   elseif tag == TYPE_BOOLEAN then
      self:writeBool(object)
   elseif tag == TYPE_STRING then
      writestring(self, object)
   else
      local index = b.written[original]
      if index and not force then
         self:writeInt(index)
      else
         b.nwritten = b.nwritten + 1
         index = b.nwritten
         if not force then b.written[original] = index end
         self:writeInt(index)
         if tag == TYPE_RECUR_FUNCTION then
            writefunction(self, b, object, hook)
         elseif tag == TYPE_TORCH then
            writetorch(self, object, hook, names)
         else
            local n = 0
            for _ in pairs(object) do n = n + 1 end
            self:writeInt(n)
            local label = upvaluelabels[object]
            for k, v in pairs(object) do
               writeobject(self, k, nil, hook)
               local vname
               if label == nil then
                  vname = (type(k) == 'string' or type(k) == 'number') and tostring(k) or nil
               elseif label == true then
                  vname = unnamed                     -- a record of the upvalue list
               else
                  vname = k == 'value' and label or unnamed  -- the upvalue, by its name
               end
               writeobject(self, v, vname, hook)
            end
         end
      end
   end
   names[#names] = nil
end
function File.writeObject(self, ...)
   kinds.lualevel(self, 'writeInt', false)
   return writeobject(self, ...)
end

local function readfunction(self, b, tag, index, force)
   local code = readstring(self)
   local f, err = loadstring(code)
   if not f then
      fail('cannot load a function from its bytecode (%s)', tostring(err))
   end
   if not force then b.read[index] = f end
   local upvalues = self:readObject()
   if type(upvalues) ~= 'table' then
      fail('corrupted file: the upvalues of a function are a %s', type(upvalues))
   end
   for i, up in ipairs(upvalues) do
      if tag == LEGACY_TYPE_RECUR_FUNCTION then
         setupvalue(f, i, up)
      elseif type(up) ~= 'table' then
         fail('corrupted file: upvalue %d of a function is a %s', i, type(up))
      else
         setupvalue(f, i, up.value)
         if up.id then
            local other = b.closures[up.id]
            if other then
               upvaluejoin(f, i, other.f, other.i)
            else
               b.closures[up.id] = {f = f, i = i}
            end
         end
      end
   end
   return f
end

local function readtorch(self, b, index, force)
   local version = readstring(self)
   local vnumber = tonumber(version:match('^V (.*)$'))
   local classname
   if vnumber then
      classname = readstring(self)
   else
      classname, vnumber = version, 0   -- files older than versioning
   end
   local cpuclass, gpuread = gpucheckpoint.cpuclass(self, classname)
   local factory = torch.factory(cpuclass or classname)
   if not factory then
      fail('unknown Torch class <%s>', tostring(classname))
   end
   local object = factory(self)
   if not force then b.read[index] = object end
   local read = gpuread or classmethod(object, 'read')
   if read then
      read(object, self, vnumber)
   elseif type(object) == 'table' then
      local fields = self:readObject()
      if type(fields) ~= 'table' then
         fail('corrupted file: the fields of a <%s> are a %s', classname, type(fields))
      end
      for k, v in pairs(fields) do object[k] = v end
   else
      fail('Cannot load object class <%s>', tostring(classname))
   end
   return object
end

function File.readObject(self)
   local b, force = books(self, 'readObject')
   kinds.lualevel(self, 'readInt', true)
   local tag = self:readInt()
   if tag == TYPE_NIL then
      return nil
   elseif tag == TYPE_NUMBER then
      return self:readDouble()
   elseif tag == TYPE_BOOLEAN then
      return self:readBool()
   elseif tag == TYPE_STRING then
      return readstring(self)
   elseif tag == TYPE_FUNCTION then
      return readfunction(self, b, LEGACY_TYPE_RECUR_FUNCTION, nil, true)
   elseif tag == TYPE_TABLE or tag == TYPE_TORCH or tag == TYPE_RECUR_FUNCTION
       or tag == LEGACY_TYPE_RECUR_FUNCTION then
      local index = self:readInt()
      local known = b.read[index]
      if known ~= nil and not force then return known end
      if tag == TYPE_TABLE then
         -- (the count read before the table is known by its index, as the
         -- original did: a read that fails there leaves no empty table behind)
         local n = self:readInt()
         local object = {}
         if not force then b.read[index] = object end
         for _ = 1, n do
            local k = self:readObject()
            local v = self:readObject()
            if k == nil or k ~= k then
               fail('corrupted file: a table key is %s', tostring(k))
            end
            object[k] = v
         end
         return object
      elseif tag == TYPE_TORCH then
         return readtorch(self, b, index, force)
      end
      return readfunction(self, b, tag, index, force)
   end
   fail('unknown object (type tag %s): the file is corrupted or not in this format', tostring(tag))
end

---------------------------------------------------------------------------
-- tensors and storages
---------------------------------------------------------------------------

-- checkfile(file, fname): a tensor's or storage's write and read take a torch.File
-- (a file it cannot use fails a Tensor's or Storage's write/read as TH's
-- checks failed the original's C function: at its own #1, self, "calling
-- 'write' on bad self (attempt to use a closed file)" for a method call)
local function checkfile(file, fname)
   if not torch.isTypeOf(file, 'torch.File') then
      fail("bad argument #1 to '%s' (torch.File expected, got %s)", fname, torch.type(file))
   end
   local why = kinds.unusable(file, fname == 'read')
   if why then fail("bad argument #0 to '%s' (%s)", fname, why) end
end

local function writetensor(self, file)
   local d = TD[self] or internal.badself(self)
   checkfile(file, 'write')
   file:writeInt(d.nd)
   file:writeLong(internal.longstorage(d.sz, d.nd))
   file:writeLong(internal.longstorage(d.str, d.nd))
   file:writeLong(d.off + 1)
   file:writeObject(d.st and internal.storageproxy(d.st))
end

-- read into an empty tensor, checking that the view fits in its storage
local function readtensor(self, file)
   local d = TD[self] or internal.badself(self)
   checkfile(file, 'read')
   local nd = file:readInt()
   if nd < 0 then
      fail('corrupted file: tensor of %d dimensions', nd)
   end
   local sz = kinds.readlongs(file, nd)
   local str = kinds.readlongs(file, nd)
   local off = file:readLong() - 1
   local storage = file:readObject()
   local st = storage ~= nil and SD[storage]
   if storage ~= nil and not (st and st.T == d.T) then
      fail('corrupted file: a %s with a storage of type %s', d.T.tensorname, torch.type(storage))
   end
   local extent = off
   for i = 1, nd do
      if sz[i] < 0 or str[i] < 0 then
         fail('corrupted file: tensor size %d or stride %d is negative', sz[i], str[i])
      end
      if sz[i] == 0 then nd = 0 end   -- TH's convention: the first empty dimension ends them
      extent = extent + (sz[i] - 1) * str[i]
   end
   if nd > 0 and (not st or off < 0 or extent >= st.n) then
      fail('corrupted file: tensor view beyond its storage (%d elements)', st and st.n or 0)
   end
   d.st, d.off, d.nd = st or nil, nd > 0 and off or 0, nd
   d.sz, d.str = nd > 0 and sz or {}, nd > 0 and str or {}
end

internal.method('write', writetensor)
internal.method('read', readtensor)

-- a HalfStorage is written as its 2-byte elements in binary files, as floats in
-- text ones (as Torch7 wrote them)
do
   local mt, raw = torch.getmetatable('torch.HalfStorage'), require('torch.half').raw

   function mt.write(self, file)
      local s = SD[self] or internal.badself(self, 'torch.*Storage')
      checkfile(file, 'write')
      file:writeLong(s.n)
      if file:isBinary() then
         local bits = torch.ShortStorage(s.n)
         ffi.copy(SD[bits].ptr, raw(s.ptr), 2 * s.n)
         file:writeShort(bits)
      else
         file:writeFloat(torch.FloatStorage(s.n):copy(self))
      end
   end

   function mt.read(self, file)
      local _ = SD[self] or internal.badself(self, 'torch.*Storage')
      checkfile(file, 'read')
      local n = file:readLong()
      if n < 0 then fail('corrupted file: storage of negative size %d', n) end
      local values = file:isBinary() and file:readShort(n) or file:readFloat(n)
      self:resize(values:size())
      if file:isBinary() then
         ffi.copy(raw(SD[self].ptr), SD[values].ptr, 2 * values:size())
      else
         self:copy(values)
      end
   end
end

for i = 1, types.count do
   local T = types[i]
   local mt = torch.getmetatable(T.storagename)
   local write, read = 'write' .. T.name, 'read' .. T.name

   function mt.write(self, file)
      local s = SD[self] or internal.badself(self, 'torch.*Storage')
      checkfile(file, 'write')
      file:writeLong(s.n)
      file[write](file, self)
   end

   -- the count read allocates no more than the file holds
   function mt.read(self, file)
      local _ = SD[self] or internal.badself(self, 'torch.*Storage')
      checkfile(file, 'read')
      local n = file:readLong()
      if n < 0 then
         fail('corrupted file: storage of negative size %d', n)
      end
      -- adopt the buffer just read (a small one is LuaJIT memory: its numpy
      -- array, made on demand, must not be forced here)
      local s, got = SD[self], SD[file[read](file, n)]
      s.arr, s.ptr, s.buf, s.n = rawget(got, 'arr'), got.ptr, got.buf, got.n
   end
end

---------------------------------------------------------------------------
-- save, load, serialize, deserialize
---------------------------------------------------------------------------

-- format -> File encoding method, long size (b32/b64: Longs of 4/8 bytes)
local FORMATS = {binary = {'binary'}, ascii = {'ascii'}, b32 = {'binary', 4}, b64 = {'binary', 8}}

-- (save and load refuse a mode or a referenced flag in Torch7's words; its
-- save named binary and ascii only, though th's writes b32 and b64 too)
local MODEWORDS = {['torch.save'] = '"binary" or "ascii" (or nil) expected for mode',
                   ['torch.load'] = '"binary", "b32", "b64" or "ascii" (or nil) expected for mode'}
local function checkformat(fname, mode, referenced)
   local f = FORMATS[mode or 'binary']
   if not f then
      if MODEWORDS[fname] then fail(MODEWORDS[fname]) end
      fail('%s: "binary", "b32", "b64" or "ascii" (or nil) expected for mode, got %s', fname, tostring(mode))
   end
   if referenced ~= nil and type(referenced) ~= 'boolean' then
      fail('true or false (or nil) expected for referenced')
   end
   return f[1], f[2]
end

local function setup(file, encoding, longsize, referenced)
   file[encoding](file)
   if longsize then file:longSize(longsize) end
   file:referenced(referenced ~= false)
   return file
end

-- run f(file), closing the file whatever happens
local function using(file, f)
   local ok, result = pcall(f, file)
   file:close()
   if not ok then error(result, 0) end
   return result
end

function torch.save(filename, object, mode, referenced)
   local encoding, longsize = checkformat('torch.save', mode, referenced)
   local file = setup(torch.DiskFile(filename, 'w'), encoding, longsize, referenced)
   using(file, function(f) f:writeObject(object) end)
end

function torch.load(filename, mode, referenced)
   local encoding, longsize = checkformat('torch.load', mode, referenced)
   local file = setup(torch.DiskFile(filename, 'r'), encoding, longsize, referenced)
   return using(file, function(f) return f:readObject() end)
end

torch.saveobj, torch.loadobj = torch.save, torch.load

-- serializeToStorage(object [, mode]): the bytes as a CharStorage
function torch.serializeToStorage(object, mode)
   local encoding, longsize = checkformat('torch.serialize', mode)
   local file = setup(torch.MemoryFile(), encoding, longsize)
   return using(file, function(f)
      f:writeObject(object)
      local st = f:storage()
      st:resize(st:size() - 1)   -- without the terminating 0
      return st
   end)
end

function torch.serialize(object, mode)
   return torch.serializeToStorage(object, mode):string()
end

local CHAR = types.Char

-- the object stored in n bytes at ptr
local function frombytes(ptr, n, mode, fname)
   local encoding, longsize = checkformat(fname, mode)
   local st = internal.newstorage(CHAR, n + 1)
   ffi.copy(SD[st].ptr, ptr, n)
   local file = setup(torch.MemoryFile(st, 'r'), encoding, longsize)
   return using(file, function(f) return f:readObject() end)
end

-- deserializeFromStorage(bytes [, mode]): Torch7 read the bytes that
-- torch.CharTensor(bytes) gave along its first dimension, so a CharTensor is
-- taken too (a column of one, a narrowed one), and what that constructor or
-- size(1) refuses fails in their words (an empty storage, a table, a string)
local function tensorbytes(bytes, mode)
   local tx = torch.CharTensor(bytes)
   if tx:dim() == 0 then   -- (its Lua's tx:size(1), a method named as such)
      error("bad argument #1 to 'size' (dimension 1 out of range of 0D tensor)", 0)
   end
   local n = tx:size(1)
   local st = internal.newstorage(CHAR, n)
   torch.CharTensor(st):copy(tx)
   return frombytes(SD[st].ptr, n, mode, 'torch.deserializeFromStorage')
end

function torch.deserializeFromStorage(storage, mode)
   local s = type(storage) == 'userdata' and SD[storage]
   if s and s.T == CHAR and s.n > 0 then
      return frombytes(s.ptr, s.n, mode, 'torch.deserializeFromStorage')
   end
   return tensorbytes(storage, mode)
end

-- deserialize(str [, mode]): Torch7 made a CharStorage of str, so a number is
-- its text and any other value no bytes at all (CharStorage:string's answer)
function torch.deserialize(str, mode)
   if type(str) == 'string' and #str > 0 then
      return frombytes(str, #str, mode, 'torch.deserialize')
   end
   return tensorbytes(torch.CharStorage():string(str), mode)
end
