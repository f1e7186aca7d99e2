-- torch.MemoryFile([storage,] [mode]): a File in a CharStorage.  As
-- THMemoryFile, the storage always holds a terminating 0 after the `size`
-- bytes of content and grows by half its size when a write needs room, so
-- `f:storage()` is the content plus that 0.  Ascii numbers are read with
-- sscanf from the storage's own memory, one token at a time.
local torch = require 'torch'
local ffi = require 'ffi'
local types = require 'torch.types'
local internal = require 'torch.internal'

local C, SD, fail, kinds = ffi.C, internal.storages, internal.fail, internal.files
local ASCII = kinds.ASCII
local type, floor, min, charptr = type, math.floor, math.min, ffi.typeof('char *')

local mem = {}   -- the transfer primitives (see File.lua)

-- the storage's fields, after restoring the invariants a user's resize may break
local function buffer(F)
   local st = F.st
   local s = SD[st]
   if s.n < 1 then st:resize(1) end
   if F.size > s.n - 1 then F.size = s.n - 1 end
   if F.pos > F.size then F.pos = F.size end
   s.ptr[F.size] = 0
   return s
end

-- make room for `size` bytes of content (THMemoryFile_grow)
local function grow(F, size)
   if size <= F.size then return end
   local s = SD[F.st]
   if size < s.n then
      F.size = size
      s.ptr[size] = 0
      return
   end
   -- (doubled: the capacity never shows, storage() trims it, and each
   -- growth is a new buffer and a copy)
   F.st:resize(math.max(2 * s.n, size + 1))
end

function mem.isopen(F) return F.st ~= nil end

function mem.readbin(F, ptr, size, n)
   local s = buffer(F)
   local k = floor(min(size * n, F.size - F.pos) / size)
   ffi.copy(ptr, s.ptr + F.pos, k * size)
   F.pos = F.pos + k * size
   return k
end

function mem.writebytes(F, ptr, len)
   buffer(F)
   grow(F, F.pos + len)
   local s = SD[F.st]
   ffi.copy(s.ptr + F.pos, ptr, len)
   F.pos = F.pos + len
   if F.pos > F.size then
      F.size = F.pos
      s.ptr[F.size] = 0
   end
   return len
end

function mem.writebin(F, ptr, size, n)
   return mem.writebytes(F, ptr, size * n) / size
end

-- the characters that bound an ascii number's token: a space or a newline
-- (not a tab, ':' or ';', which the original's scan took as part of a token)
local function issep(c)
   return c == 32 or c == 10
end

local consumed = ffi.new('int[1]')

-- ascii: bytes are raw; a number is scanned from its token (bounded by the
-- next space or newline); after a read, successful or not, auto-spacing
-- skips one newline, as THMemoryFile did (not the spaces, nor a second one)
function mem.readascii(F, T, ptr, n)
   local s = buffer(F)
   local p = ffi.cast(charptr, s.ptr)
   local nread = 0
   local fmt = ASCII[T.name]
   if not fmt then
      nread = min(n, F.size - F.pos)
      ffi.copy(ptr, p + F.pos, nread)
      F.pos = F.pos + nread
   else
      local scan = fmt.scan .. '%n'
      for i = 0, n - 1 do
         local q = F.pos
         while q < F.size and issep(p[q]) do q = q + 1 end
         while q < F.size and not issep(p[q]) do q = q + 1 end
         local saved = p[q]
         p[q] = 0
         local ret = C.sscanf(p + F.pos, scan, ptr + i, consumed)
         p[q] = saved
         if ret <= 0 then break end
         F.pos = F.pos + consumed[0]
         nread = i + 1
      end
   end
   if F.autospacing and F.pos < F.size and p[F.pos] == 10 then F.pos = F.pos + 1 end
   return nread
end

function mem.readstring(F, all)
   local s = buffer(F)
   if F.pos == F.size then return nil end
   local from, len = F.pos, F.size - F.pos
   if not all then
      local p = s.ptr
      for i = from, F.size - 1 do
         if p[i] == 10 then
            F.pos = i + 1
            return ffi.string(p + from, i - from)
         end
      end
   end
   F.pos = F.size
   return ffi.string(s.ptr + from, len)
end

function mem.seek(F, pos)
   buffer(F)
   if pos > F.size then return false end
   F.pos = pos
   return true
end

function mem.seekend(F)
   buffer(F)
   F.pos = F.size
   return true
end

function mem.position(F)
   buffer(F)
   return F.pos
end

function mem.remaining(F)
   buffer(F)
   return F.size - F.pos
end

function mem.synchronize(F) end

function mem.close(F)
   F.st = nil
end

local CHAR = types.Char
local INITIAL = 4096   -- bytes of a new MemoryFile's storage

local function memoryfile(a, b)
   local st, mode, size
   if type(a) == 'userdata' and SD[a] and SD[a].T == CHAR then
      st, mode = a, b or 'rw'
      local s = SD[st]
      size = s.n - 1
      if s.n < 1 or s.ptr[s.n - 1] ~= 0 then
         fail("bad argument #1 to 'MemoryFile' (provided CharStorage must be terminated by 0)")
      end
   elseif a == nil or type(a) == 'string' or type(a) == 'number' then
      -- (room for a small object at once: the capacity never shows)
      st, mode, size = internal.newstorage(CHAR, INITIAL), a or 'rw', 0
   else
      -- (the mode, luaL_optstring's: a number is a string)
      fail("bad argument #1 to 'MemoryFile' (string expected, got %s)", type(a))
   end
   if type(mode) ~= 'string' and type(mode) ~= 'number' then
      fail("bad argument #2 to 'MemoryFile' (string expected, got %s)", type(mode))
   end
   mode = tostring(mode)
   local r, w = kinds.parsemode(mode, 'rw', 'MemoryFile')
   return kinds.new('torch.MemoryFile', mem, r, w, {st = st, size = size, pos = 0})
end

local MemoryFile = kinds.define('torch.MemoryFile', 'torch.File', memoryfile)

-- storage(): the CharStorage holding the content and its terminating 0
function MemoryFile.storage(self)
   local F = kinds.open(self, 'storage')
   buffer(F)
   F.st:resize(F.size + 1)
   return F.st
end
