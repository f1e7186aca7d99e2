-- stat(path, follow) for lfs.attributes/symlinkattributes -> true, mode, ino,
-- dev, nlink, uid, gid, rdev, access, modification, change, size,
-- permissions, blocks, blksize | nil, strerror, errno.
-- lfs.attributes runs in loops over directory trees, so on Linux/glibc
-- (x86_64 and arm64, whose `struct stat` layouts are written below) it calls
-- stat(2) through the FFI; elsewhere it asks Python's os.stat (th/ops/lfs.py).
local ffi = require 'ffi'
local os_ = require 'th.native.ops'
local pyname = require 'lfs.names'

local LAYOUTS = {
   x64 = [[
      unsigned long st_dev; unsigned long st_ino; unsigned long st_nlink;
      unsigned int st_mode; unsigned int st_uid; unsigned int st_gid; int pad0;
      unsigned long st_rdev; long st_size; long st_blksize; long st_blocks;
      long st_atime; long st_atime_ns; long st_mtime; long st_mtime_ns;
      long st_ctime; long st_ctime_ns; long reserved[3];]],
   arm64 = [[
      unsigned long st_dev; unsigned long st_ino; unsigned int st_mode;
      unsigned int st_nlink; unsigned int st_uid; unsigned int st_gid;
      unsigned long st_rdev; unsigned long pad1; long st_size; int st_blksize;
      int pad2; long st_blocks; long st_atime; long st_atime_ns; long st_mtime;
      long st_mtime_ns; long st_ctime; long st_ctime_ns; int reserved[2];]],
}

local function pythonstat(path, follow)
   return os_.lfs_stat(pyname(path), follow)
end

local layout = ffi.os == 'Linux' and LAYOUTS[ffi.arch]
if not layout then return pythonstat end

if not pcall(ffi.typeof, 'struct th_lfs_stat') then   -- not when the module is loaded again
   ffi.cdef('struct th_lfs_stat {' .. layout .. '};' .. [[
   int stat(const char *path, struct th_lfs_stat *buf);
   int lstat(const char *path, struct th_lfs_stat *buf);
   char *strerror(int errnum);
   ]])
end
local C = ffi.C
-- glibc before 2.33 exports no stat symbol (only __xstat)
if not pcall(function() return C.stat, C.lstat end) then return pythonstat end

local band, tonumber = bit.band, tonumber
local buf = ffi.new('struct th_lfs_stat')

local KIND = {[0x8000] = 'file', [0x4000] = 'directory', [0xA000] = 'link', [0xC000] = 'socket',
              [0x1000] = 'named pipe', [0x2000] = 'char device', [0x6000] = 'block device'}

-- 'rwxr-x---' for the 9 permission bits
local PERMISSIONS = {}
for bits = 0, 511 do
   local s = {}
   for i = 0, 8 do
      s[i + 1] = band(bits, 2 ^ (8 - i)) ~= 0 and ('rwx'):sub(i % 3 + 1, i % 3 + 1) or '-'
   end
   PERMISSIONS[bits] = table.concat(s)
end

return function(path, follow)
   if (follow and C.stat or C.lstat)(path, buf) ~= 0 then
      local errno = ffi.errno()
      return nil, ffi.string(C.strerror(errno)), errno
   end
   local mode = tonumber(buf.st_mode)
   return true, KIND[band(mode, 0xF000)] or 'other', tonumber(buf.st_ino), tonumber(buf.st_dev),
      tonumber(buf.st_nlink), tonumber(buf.st_uid), tonumber(buf.st_gid), tonumber(buf.st_rdev),
      tonumber(buf.st_atime), tonumber(buf.st_mtime), tonumber(buf.st_ctime),
      tonumber(buf.st_size), PERMISSIONS[band(mode, 511)], tonumber(buf.st_blocks),
      tonumber(buf.st_blksize)
end
