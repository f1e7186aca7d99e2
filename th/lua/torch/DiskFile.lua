-- torch.DiskFile and torch.PipeFile: Files over a C stdio stream, opened by
-- fopen or popen.  Binary transfers are one fread/fwrite straight on the
-- storage's buffer; ascii numbers go through fscanf, as THDiskFile did.
-- A PipeFile is a DiskFile whose stream is a pipe (no seeking).
local ffi = require 'ffi'
local internal = require 'torch.internal'

local C, fail, kinds = ffi.C, internal.fail, internal.files
local ASCII = kinds.ASCII
local type, tonumber, concat = type, tonumber, table.concat

local SEEK_SET, SEEK_END, IONBF, EOF, NEWLINE = 0, 2, 2, -1, 10
local CHUNK = 1024

local stdio = {}   -- the transfer primitives (see File.lua)
stdio.longsizeopen = true   -- (THDiskFile's longSize refused a closed file, THMemoryFile's not)

function stdio.isopen(F) return F.fp ~= nil end

function stdio.readbin(F, ptr, size, n)
   return tonumber(C.fread(ptr, size, n, F.fp))
end

function stdio.writebin(F, ptr, size, n)
   return tonumber(C.fwrite(ptr, size, n, F.fp))
end

function stdio.writebytes(F, ptr, len)
   return tonumber(C.fwrite(ptr, 1, len, F.fp))
end

-- ascii: bytes are raw, numbers are scanned; auto-spacing eats one newline
function stdio.readascii(F, T, ptr, n)
   local fp, nread = F.fp, 0
   local fmt = ASCII[T.name]
   if not fmt then
      nread = tonumber(C.fread(ptr, 1, n, fp))
   else
      local scan = fmt.scan
      for i = 0, n - 1 do
         if C.fscanf(fp, scan, ptr + i) <= 0 then break end
         nread = i + 1
      end
   end
   if F.autospacing then
      local c = C.fgetc(fp)
      if c ~= NEWLINE and c ~= EOF then C.ungetc(c, fp) end
   end
   return nread
end

-- the rest of the stream, or the next line without its newline; nil at the end
function stdio.readstring(F, all)
   local fp, buf, parts = F.fp, ffi.new('char[?]', CHUNK + 1), {}   -- a read's room: up to CHUNK + 1
   if all then
      repeat
         local k = tonumber(C.fread(buf, 1, CHUNK, fp))
         parts[#parts + 1] = ffi.string(buf, k)
      until k < CHUNK
   else
      -- THDiskFile's line buffer: each fgets gets the room left in it, a
      -- part is the bytes before a NUL, and the buffer grows by CHUNK only
      -- once full; so a NUL costs the rest of that read, newline included
      local size, total = CHUNK, 0
      while C.fgets(buf, size - total, fp) ~= nil do
         local len = tonumber(C.strlen(buf))
         total = total + len
         if len > 0 and buf[len - 1] == NEWLINE then
            parts[#parts + 1] = ffi.string(buf, len - 1)
            return concat(parts)
         end
         parts[#parts + 1] = ffi.string(buf, len)
         if total == size - 1 then size = size + CHUNK end
      end
   end
   local s = concat(parts)
   if s ~= '' then return s end
end

function stdio.seek(F, pos)
   return C.fseeko(F.fp, pos, SEEK_SET) == 0
end

function stdio.seekend(F)
   return C.fseeko(F.fp, 0, SEEK_END) == 0
end

function stdio.position(F)
   local pos = C.ftello(F.fp)
   if pos >= 0 then return tonumber(pos) end
end

-- bytes between the position and the end (nil for a pipe)
function stdio.remaining(F)
   if F.pipe then return nil end
   local fp = F.fp
   local pos = C.ftello(fp)
   if pos < 0 or C.fseeko(fp, 0, SEEK_END) ~= 0 then return nil end
   local size = C.ftello(fp)
   C.fseeko(fp, pos, SEEK_SET)
   return size > pos and tonumber(size - pos) or 0
end

function stdio.synchronize(F)
   C.fflush(F.fp)
end

function stdio.close(F)
   local fp = F.fp
   F.fp = nil
   if F.pipe then C.pclose(fp) else C.fclose(fp) end
end

---------------------------------------------------------------------------
-- torch.DiskFile(name [, mode [, quiet]])
---------------------------------------------------------------------------

local function fopen(name, readable, writable)
   if readable and writable then
      -- 'rw' opens an existing file for update, or creates it
      local fp = C.fopen(name, 'r+b')
      if fp == nil then
         fp = C.fopen(name, 'wb')
         if fp == nil then return nil end
         C.fclose(fp)
         fp = C.fopen(name, 'r+b')
      end
      return fp
   end
   return C.fopen(name, readable and 'rb' or 'wb')
end

-- openfile(fname, modes, open, fields, name, mode, quiet): the constructor
-- torch.<fname> over the stream open(name, readable, writable) -> FILE* or
-- nil; its arguments checked in turn as luaL_checkstring, luaL_optstring and
-- an optional boolean read them (a number is a string) before the mode's text
local function openfile(fname, modes, open, fields, ...)
   local given, name, mode, quiet = select('#', ...), ...
   for i, kind in ipairs{'string', 'string', 'boolean'} do
      local v = select(i, ...)
      if not (type(v) == kind or kind == 'string' and type(v) == 'number' or v == nil and i > 1) then
         fail("bad argument #%d to '%s' (%s expected, got %s)", i, fname, kind, internal.typeof(v, i, given))
      end
   end
   name = tostring(name):match('^[^%z]*')   -- (a C string for TH: it ends at a 0 byte)
   local r, w = kinds.parsemode(mode and tostring(mode) or 'r', modes, fname)
   local fp = open(name, r, w)
   if fp == nil then
      if quiet then return nil end
      fail('cannot open <%s> in mode %s%s', name, r and 'r' or ' ', w and 'w' or ' ')
   end
   fields.fp, fields.name, fields.quiet = fp, name, quiet and true
   return kinds.new('torch.' .. fname, stdio, r, w, fields)
end

local function diskfile(...)
   return openfile('DiskFile', 'rw', fopen, {}, ...)
end

local DiskFile = kinds.define('torch.DiskFile', 'torch.File', diskfile)

local LITTLE = ffi.abi('le')

function DiskFile.isLittleEndianCPU() return LITTLE end
function DiskFile.isBigEndianCPU() return not LITTLE end

local function encoding(fname, little)
   DiskFile[fname] = function(self)
      local F = kinds.open(self, fname)   -- (a closed file refused, as THDiskFile did)
      if little == nil then F.native = true else F.native = little == LITTLE end
      return self
   end
end

encoding('nativeEndianEncoding', nil)
encoding('littleEndianEncoding', true)
encoding('bigEndianEncoding', false)

function DiskFile.noBuffer(self)
   local F = kinds.open(self, 'noBuffer')
   if C.setvbuf(F.fp, nil, IONBF, 0) ~= 0 then
      fail('error: cannot disable buffer')
   end
   return self
end

---------------------------------------------------------------------------
-- torch.PipeFile(command [, mode [, quiet]])
---------------------------------------------------------------------------

local function popen(cmd, readable)
   io.stdout:flush()   -- the command's output follows what was printed
   return C.popen(cmd, readable and 'r' or 'w')
end

local function pipefile(...)
   return openfile('PipeFile', 'r|w', popen, {pipe = true}, ...)
end

kinds.define('torch.PipeFile', 'torch.DiskFile', pipefile)
