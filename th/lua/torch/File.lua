-- torch.File: the API shared by DiskFile, MemoryFile and PipeFile (read and
-- write of the seven number types, strings and booleans, ascii or binary
-- encoding, error flags, seeking).  Each kind supplies a small table of
-- transfer primitives (`io` below); this file adds everything else, as the
-- original THFile.c did over its vtable.  Elements move in bulk: a binary
-- read or write of N elements is one fread/fwrite or memcpy on the storage's
-- own buffer.  Objects (writeObject/readObject) are in serialization.lua.
--
-- A File is a userdata proxy whose state lives in `files[f]`:
--   {io = kind primitives, readable, writable, quiet, binary, autospacing,
--    err, longsize (0: native), native (byte order), ...kind fields}
-- and an io table provides:
--   isopen(F), readbin(F, ptr, size, n) -> elements read,
--   writebin(F, ptr, size, n) -> elements written, readascii(F, T, ptr, n),
--   writebytes(F, ptr, len) -> bytes written, readstring(F, all) -> string or nil,
--   seek(F, pos) -> ok, seekend(F) -> ok, position(F),
--   remaining(F) -> bytes left or nil (unknown), synchronize(F), close(F)
local torch = require 'torch'
local ffi = require 'ffi'
local class = require 'torch.class'
local types = require 'torch.types'
local internal = require 'torch.internal'
local tnew = require 'table.new'

local C, SD, fail = ffi.C, internal.storages, internal.fail
local type, tonumber, tostring, floor, min = type, tonumber, tostring, math.floor, math.min

local File = {}                                  -- the methods of torch.File
local files = setmetatable({}, {__mode = 'k'})   -- proxy -> state

-- the C library functions the kinds use (a FILE* is kept as void*)
for _, decl in ipairs({
   'void *fopen(const char *, const char *);',
   'void *popen(const char *, const char *);',
   'int fclose(void *);',
   'int pclose(void *);',
   'size_t fread(void *, size_t, size_t, void *);',
   'size_t fwrite(const void *, size_t, size_t, void *);',
   'int fseeko(void *, int64_t, int);',
   'int64_t ftello(void *);',
   'int fflush(void *);',
   'int fgetc(void *);',
   'int ungetc(int, void *);',
   'char *fgets(char *, int, void *);',
   'int fscanf(void *, const char *, ...);',
   'int sscanf(const char *, const char *, ...);',
   'int setvbuf(void *, char *, int, size_t);',
   'size_t strlen(const char *);',
   'int snprintf(char *, size_t, const char *, ...);',
}) do
   pcall(ffi.cdef, decl)
end

---------------------------------------------------------------------------
-- helpers shared by the kinds
---------------------------------------------------------------------------

-- ascii encodings: scanf and printf formats, as THDiskFile/THMemoryFile (a
-- Short or Int reaches snprintf as a double, hence '%.0f'; a Long as int64_t)
local ASCII = {
   Short  = {scan = '%hd', print = '%.0f'},
   Int    = {scan = '%d',  print = '%.0f'},
   Long   = {scan = '%ld', print = '%lld'},
   Float  = {scan = '%g',  print = '%.9g'},
   Double = {scan = '%lg', print = '%.17g'},
}

-- "r", "w" or "rw" -> readable, writable
local function parsemode(mode, allowed, fname)
   local r, w = mode == 'r' or mode == 'rw', mode == 'w' or mode == 'rw'
   if type(mode) ~= 'string' or not (r or w) or (mode == 'rw' and allowed ~= 'rw') then
      fail("bad argument #2 to '%s' (file mode should be %s)", fname,
           allowed == 'rw' and "'r','w' or 'rw'" or "'r','w'")
   end
   return r, w
end

-- n elements in ascii mode -> bytes written: bytes raw, numbers printed by
-- snprintf (so a NaN shows its sign, "-nan", as the original's fprintf did),
-- a block at a time, separated by a space and ended by a newline when
-- auto-spacing
local ASCIIBLOCK, NUMBERWIDTH = 4096, 32
local asciibuf = ffi.new('char[?]', ASCIIBLOCK * NUMBERWIDTH)

local function writeascii(F, T, ptr, n)
   local fmt, spacing = ASCII[T.name], F.autospacing
   local written = 0
   if not fmt then
      written = F.io.writebytes(F, ptr, n)
   else
      local pf, buf = fmt.print, asciibuf
      for first = 0, n - 1, ASCIIBLOCK do
         local len = 0
         for i = first, min(first + ASCIIBLOCK, n) - 1 do
            if spacing and i > 0 then
               buf[len] = 32
               len = len + 1
            end
            len = len + C.snprintf(buf + len, NUMBERWIDTH, pf, ptr[i])
         end
         if F.io.writebytes(F, buf, len) ~= len then return 0 end
      end
      written = n
   end
   if spacing and F.io.writebytes(F, '\n', 1) ~= 1 then return 0 end
   return written
end

-- reverse the bytes of each of n elements of `size` bytes (non-native encodings)
local function swapbytes(ptr, size, n)
   local b = ffi.cast('uint8_t *', ptr)
   local half = floor(size / 2)
   for e = 0, (n - 1) * size, size do
      for k = 0, half - 1 do
         b[e + k], b[e + size - 1 - k] = b[e + size - 1 - k], b[e + k]
      end
   end
end

-- the state of a File proxy; fails on anything else
local function state(self, fname)
   local F = type(self) == 'userdata' and files[self]
   if not F then
      fail("bad argument #1 to '%s' (torch.File expected, got %s)", fname, torch.type(self))
   end
   return F
end

-- the state of an open File
local function open(self, fname)
   local F = state(self, fname)
   if not F.io.isopen(F) then
      fail("bad argument #1 to '%s' (attempt to use a closed file)", fname)
   end
   return F
end

local function flagerror(F, fmt, ...)
   F.err = true
   if not F.quiet then fail(fmt, ...) end
end

---------------------------------------------------------------------------
-- element transfers
---------------------------------------------------------------------------

local LONG, FLOAT, DOUBLE = types.Long, types.Float, types.Double

-- A negative NaN with a large payload (a double's high word from 0xfff90000,
-- a float's bits that convert to one, any negative signalling float NaN
-- among them once quieted: the garbage of an uninitialised tensor the
-- original saved, say) is no number to LuaJIT, which reads it through the
-- FFI as a tagged value: nil, or a crash.  The negative NaNs read from a
-- file become the default NaN (0xffc00000, 0xfff8000000000000: what 0/0
-- gives), as the original's lua_pushnumber made every NaN it pushed; their
-- sign stays.  Little-endian hosts (the high word second).
local u32p = ffi.typeof('uint32_t *')
local function canonicalnans(T, ptr, n)
   local u = ffi.cast(u32p, ptr)
   if T == FLOAT then
      for i = 0, n - 1 do
         if u[i] > 0xff800000 then u[i] = 0xffc00000 end
      end
   else
      for i = 1, 2 * n - 1, 2 do
         if u[i] >= 0xfff80000 and (u[i] > 0xfff80000 or u[i - 1] ~= 0) then
            u[i], u[i - 1] = 0xfff80000, 0
         end
      end
   end
end

-- reads of more bytes than this first ask how many the file still holds (asking
-- costs a seek, which drops a DiskFile's read buffer)
local BIGREAD = 65536

-- bytes one element takes in the file (binary); 1 is a lower bound for ascii
local function filesize(F, T)
   if not F.binary then return 1 end
   if T == LONG and F.longsize == 4 then return 4 end
   return T.size
end

-- transfer up to n elements from the file into ptr -> elements read
local function readinto(F, T, ptr, n, fname)
   if not F.readable then
      fail("bad argument #1 to '%s' (attempt to read in a write-only file)", fname)
   end
   if n == 0 then return 0 end
   if not F.binary then
      return F.io.readascii(F, T, ptr, n)
   end
   if T == LONG and F.longsize == 4 then
      local buf = ffi.new('int32_t[?]', n)
      local nread = F.io.readbin(F, buf, 4, n)
      if not F.native then swapbytes(buf, 4, nread) end
      for i = 0, nread - 1 do ptr[i] = buf[i] end
      return nread
   end
   local nread = F.io.readbin(F, ptr, T.size, n)
   if not F.native and T.size > 1 then swapbytes(ptr, T.size, nread) end
   if (T == FLOAT or T == DOUBLE) and ffi.abi('le') then canonicalnans(T, ptr, nread) end
   return nread
end

local function checkread(F, nread, n)
   if nread ~= n then
      flagerror(F, 'read error: read %d blocks instead of %d', nread, n)
   end
end

-- write n elements from ptr -> elements written
local function writefrom(F, T, ptr, n, fname)
   if not F.writable then
      fail("bad argument #1 to '%s' (attempt to write in a read-only file)", fname)
   end
   local nwrite
   if not F.binary then
      if n == 0 then return 0 end
      nwrite = writeascii(F, T, ptr, n)
   elseif T == LONG and F.longsize == 4 then
      local buf = ffi.new('int32_t[?]', n)
      for i = 0, n - 1 do buf[i] = ptr[i] end
      if not F.native then swapbytes(buf, 4, n) end
      nwrite = F.io.writebin(F, buf, 4, n)
   elseif not F.native and T.size > 1 then
      local buf = ffi.new('uint8_t[?]', n * T.size)
      ffi.copy(buf, ptr, n * T.size)
      swapbytes(buf, T.size, n)
      nwrite = F.io.writebin(F, buf, T.size, n)
   else
      nwrite = F.io.writebin(F, ptr, T.size, n)
   end
   if nwrite ~= n then
      flagerror(F, 'write error: wrote %d blocks instead of %d', nwrite, n)
   end
   return nwrite
end

-- readX(): a number; readX(n): a new storage of what could be read;
-- readX(storage): fill it, return the count.  writeX(number) / writeX(storage).
local function defineio(T)
   local name = T.name
   local rname, wname = 'read' .. name, 'write' .. name
   local scratch = ffi.new(T.ctype .. '[1]')

   -- (the argument checked before the file, as the original's binding did)
   -- (one argument or none, as the original's binding counted them: a nil
   -- given, or a second argument, is none of its forms)
   File[rname] = function(self, ...)
      local F, a = state(self, rname), ...
      local nargs = select('#', ...)
      if nargs > 1 or nargs == 1 and a == nil then
         fail('nothing, number, or %sStorage expected', name)
      end
      if a == nil then
         open(self, rname)
         scratch[0] = 0
         checkread(F, readinto(F, T, scratch, 1, rname), 1)
         return tonumber(scratch[0])
      end
      local s = SD[a]
      if type(a) == 'userdata' and s and s.T == T then
         open(self, rname)
         local nread = readinto(F, T, s.ptr, s.n, rname)
         checkread(F, nread, s.n)
         return nread
      end
      -- (a count as luaL_checklong read it: a numeric string too, a
      -- fraction cut toward zero; a negative one TH's allocator refused)
      local n = type(a) == 'number' and a or type(a) == 'string' and tonumber(a)
      if not n then
         fail('nothing, number, or %sStorage expected', name)
      end
      n = (n >= 0 and floor(n) or -floor(-n)) + 0   -- (+ 0: never -0)
      if n < 0 or n ~= n then   -- (NaN: the smallest long, as x86 converts it)
         fail('$ Torch: invalid memory size -- maybe an overflow?')
      end
      open(self, rname)
      -- never allocate much more than the file can still hold (a corrupted count)
      local left = n * T.size > BIGREAD and F.readable and F.io.remaining(F)
      local room = left and min(n, floor(left / filesize(F, T))) or n
      local st = internal.newstorage(T, room, true)   -- (not zeroed: the read overwrites it)
      local nread = readinto(F, T, SD[st].ptr, room, rname)
      if nread ~= room then st:resize(nread) end
      checkread(F, nread, n)
      return st
   end

   File[wname] = function(self, ...)
      local F, a = state(self, wname), ...
      local v = type(a) == 'number' and a or type(a) == 'string' and tonumber(a)   -- (lua_isnumber's)
      if select('#', ...) ~= 1 then v = nil end   -- (a second argument: none of its forms)
      if v then
         open(self, wname)
         scratch[0] = internal.ccast(T, v)   -- (as the binding's C cast: 3e9 an Int's INT_MIN)
         writefrom(F, T, scratch, 1, wname)
         return
      end
      local s = type(a) == 'userdata' and select('#', ...) == 1 and SD[a]
      if not (s and s.T == T) then
         fail('number, or %sStorage expected', name)
      end
      open(self, wname)
      return writefrom(F, T, s.ptr, s.n, wname)
   end
end

for i = 1, types.count do defineio(types[i]) end

-- unusable(self, reading) -> why the open File self cannot read (or write),
-- in TH's words; nil when it can
local function unusable(self, reading)
   local F = state(self, reading and 'read' or 'write')
   if not F.io.isopen(F) then return 'attempt to use a closed file' end
   if reading and not F.readable then return 'attempt to read in a write-only file' end
   if not reading and not F.writable then return 'attempt to write in a read-only file' end
end

-- lualevel(self, fname, reading): for the methods Torch7 wrote in Lua
-- (readBool, writeBool, readObject, writeObject), a file they cannot use
-- refused as their first method call on it was, `self:readInt()`: "calling
-- 'readInt' on bad self", at a line of the original's File.lua (which th
-- leaves out, as for the original's other Lua files)
local function lualevel(self, fname, reading)
   local why = unusable(self, reading)
   if why then error(("calling '%s' on bad self (%s)"):format(fname, why), 0) end
end

function File.writeBool(self, value)
   lualevel(self, 'writeInt', false)
   File.writeInt(self, value and 1 or 0)
end

function File.readBool(self)
   lualevel(self, 'readInt', true)
   return File.readInt(self) == 1
end

-- readString('*a' | '*l'): the rest of the file, or the next line without its newline
-- (the arguments checked before the file, as the original's bindings did)
function File.readString(self, ...)
   local F, fmt = state(self, 'readString'), ...
   if type(fmt) ~= 'string' and type(fmt) ~= 'number' then
      fail("bad argument #2 to 'readString' (string expected, got %s)", internal.typeof(fmt, 1, select('#', ...)))
   end
   open(self, 'readString')
   if not tostring(fmt):match('^%*[al]') then
      fail("bad argument #2 to 'readString' (format must be '*a' or '*l')")
   end
   if not F.readable then
      fail("bad argument #1 to 'readString' (attempt to read in a write-only file)")
   end
   local s = F.io.readstring(F, fmt:sub(2, 2) == 'a')
   if not s then
      flagerror(F, 'read error: read 0 blocks instead of 1')
      return ''
   end
   return s
end

function File.writeString(self, ...)
   local F, s = state(self, 'writeString'), ...
   if type(s) ~= 'string' then
      fail("bad argument #2 to 'writeString' (string expected, got %s)", internal.typeof(s, 1, select('#', ...)))
   end
   open(self, 'writeString')
   if not F.writable then
      fail("bad argument #1 to 'writeString' (attempt to write in a read-only file)")
   end
   local n = F.io.writebytes(F, s, #s)
   if n ~= #s then
      flagerror(F, 'write error: wrote %d blocks instead of %d', n, #s)
   end
   return n
end

---------------------------------------------------------------------------
-- modes and flags
---------------------------------------------------------------------------

local function setter(fname, field, value)
   File[fname] = function(self)
      state(self, fname)[field] = value
      return self
   end
end

local function getter(fname, field)
   File[fname] = function(self)
      return state(self, fname)[field] and true or false
   end
end

setter('binary', 'binary', true)
setter('ascii', 'binary', false)
setter('autoSpacing', 'autospacing', true)
setter('noAutoSpacing', 'autospacing', false)
setter('quiet', 'quiet', true)
setter('pedantic', 'quiet', false)
setter('clearError', 'err', false)
getter('isBinary', 'binary')
getter('isAutoSpacing', 'autospacing')
getter('isQuiet', 'quiet')
getter('hasError', 'err')
getter('isReadable', 'readable')
getter('isWritable', 'writable')

-- seek(position): 1-based, as position()
function File.seek(self, ...)
   local F = state(self, 'seek')
   local pos = internal.checknumber((...), 2, 'seek', select('#', ...) + 1)
   if pos < 1 then
      fail("bad argument #2 to 'seek' (position has to be greater than 0!)")
   end
   open(self, 'seek')
   if not F.io.seek(F, floor(pos) - 1) then
      -- (the original's MemoryFile said "at position", its DiskFile "to position")
      flagerror(F, F.st and 'unable to seek at position %d' or 'unable to seek to position %d', floor(pos) - 1)
   end
   return self
end

function File.seekEnd(self)
   local F = open(self, 'seekEnd')
   if not F.io.seekend(F) then
      flagerror(F, 'unable to seek at end of file')
   end
   return self
end

function File.position(self)
   local F = open(self, 'position')
   local pos = F.io.position(F)
   if not pos then
      -- (only a DiskFile on a pipe fails here; TH's ftell check raised its
      -- error unless quiet, without flagging hasError, and gave offset 0)
      if not F.quiet then fail('unable to obtain disk file offset (maybe a long overflow occurred)') end
      return 1
   end
   return pos + 1
end

function File.synchronize(self)
   local F = open(self, 'synchronize')
   F.io.synchronize(F)
   return self
end

-- (a closed file can neither read nor write: the objects it read or wrote,
-- kept for references to them, are let go at once, not with the file: a file
-- is finalized, so what it holds would outlive it by a collection cycle)
function File.close(self)
   local F = open(self, 'close')
   F.io.close(F)
   F.books = nil
   return self
end

-- longSize(4 | 8 | 0): the size of a Long in binary files (0: native, 8)
-- (the size as lua_tointeger gave it to a C int: 0 for what is no number,
-- a numeric string read, a fraction cut, wrapped around to 32 bits)
local function cint(v)
   local x = tonumber(v) or 0
   if x ~= x or x == 1/0 or x == -1/0 then return 0 end
   x = (x >= 0 and floor(x) or -floor(-x)) % 2^32
   return x >= 2^31 and x - 2^32 or x
end

function File.longSize(self, size)
   local F = state(self, 'longSize')
   if F.io.longsizeopen then open(self, 'longSize') end
   size = cint(size)
   if size ~= 0 and size ~= 4 and size ~= 8 then
      fail("bad argument #1 to 'longSize' (Invalid long size specified)")
   end
   F.longsize = size
   return self
end

-- referenced(false): write every object in full (no shared references)
function File.referenced(self, ref)
   state(self, 'referenced').force = not ref
   return self
end

function File.isReferenced(self)
   return not state(self, 'isReferenced').force
end

---------------------------------------------------------------------------
-- the classes
---------------------------------------------------------------------------

local protos = {}

-- define(name, constructor) -> the class metatable (the proxies' metatable)
local function define(name, parent, constructor)
   local proto = newproxy(true)
   local mt = getmetatable(proto)
   protos[name] = proto
   class.define(name, parent, constructor, nil, nil, mt)
   -- (a field written into a file: luaT's error, the userdata has no fields;
   -- a subclass's metatable, whose metatable this is, takes its methods)
   mt.__newindex = function(self, k, v)
      if type(self) ~= 'userdata' then return rawset(self, k, v) end
      internal.raise(('the class %s cannot be indexed'):format(torch.typename(self)))
   end
   -- an unreachable open file is closed, flushing what was written
   mt.__gc = function(self)
      local F = files[self]
      if F and F.io.isopen(F) then F.io.close(F) end
   end
   return mt
end

-- tostring(file): as the original printed them, e.g.
--   torch.DiskFile on <a.t7> [status: open -- mode r ]
--   torch.MemoryFile [status: closed -- mode: rw]
function File.__tostring__(self)
   local F = files[self]
   if not F then return torch.typename(self) or 'torch.File' end
   local name = torch.typename(self)
   local mode = (F.readable and 'r' or ' ') .. (F.writable and 'w' or ' ')
   local status = F.io.isopen(F) and 'open' or 'closed'
   if name == 'torch.DiskFile' then
      return ('%s on <%s> [status: %s -- mode %s]'):format(name, F.name, status, mode)
   end
   local on = F.name and (' on <%s>'):format(F.name) or ''
   return ('%s%s [status: %s -- mode: %s]'):format(name, on, status, mode)
end

local filemt = define('torch.File')
for k, f in pairs(File) do filemt[k] = f end
torch.File = torch.getconstructortable('torch.File')

-- the kinds: a kind calls this with its primitives and own fields
local kinds = {}

-- kinds.new(name, io, readable, writable, fields) -> a File proxy
function kinds.new(name, io, readable, writable, fields)
   local f = newproxy(protos[name])
   local F = fields
   F.io, F.readable, F.writable = io, readable, writable
   F.quiet = F.quiet or false
   F.binary, F.autospacing, F.err = false, true, false
   F.longsize, F.native = 0, true
   files[f] = F
   return f
end

-- writechars(self, s, fname): write the bytes of a Lua string as Chars
local CHAR = types.Char
function kinds.writechars(self, s, fname)
   return writefrom(open(self, fname), CHAR, ffi.cast('const char *', s), #s, fname)
end

-- a buffer of n elements of ctype: for up to SCRATCH bytes, one kept per
-- ctype and reused (an object's reading reads a few short strings and
-- counts each: torch.load of 1000 small tensors made 3.4 KB of garbage a
-- tensor, against the original's 0.7)
local SCRATCH, scratches = 4096, {}
local function scratch(ctype, size, n)
   if n * size > SCRATCH then return ffi.new(ctype .. '[?]', n) end
   local buf = scratches[ctype]
   if not buf then
      buf = ffi.new(ctype .. '[?]', SCRATCH / size)
      scratches[ctype] = buf
   end
   return buf
end

-- readchars(self, n, fname): n Chars as a Lua string, without a Storage
-- (a Char takes one byte in both encodings)
function kinds.readchars(self, n, fname)
   local F = open(self, fname)
   local left = n > BIGREAD and F.readable and F.io.remaining(F)
   local room = left and min(n, left) or n
   local buf = scratch('char', 1, room)
   local nread = readinto(F, CHAR, buf, room, fname)
   checkread(F, nread, n)
   return ffi.string(buf, nread)
end

-- readlongs(self, n): a table of n Longs (those read, when a quiet file
-- ends), as readLong(n):totable() without the Storage (a tensor's sizes
-- and strides)
function kinds.readlongs(self, n)
   local F = open(self, 'readLong')
   local buf = scratch('int64_t', 8, n)
   local nread = readinto(F, LONG, buf, n, 'readLong')
   checkread(F, nread, n)
   local t = tnew(nread, 0)
   for i = 1, nread do t[i] = tonumber(buf[i - 1]) end
   return t
end

kinds.define = define
kinds.parsemode = parsemode
kinds.state, kinds.unusable, kinds.lualevel = state, unusable, lualevel
kinds.open = open
kinds.ASCII = ASCII
internal.files = kinds

require 'torch.DiskFile'
require 'torch.MemoryFile'

return File
