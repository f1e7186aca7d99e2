-- The C structures of Torch7's tensors and storages, for LuaJIT FFI code
-- written against the original: t:cdata() is a `THDoubleTensor*` (size,
-- stride, nDimension, storage, storageOffset), s:cdata() a `THDoubleStorage*`
-- (data, size), declared as Torch7's torch/ffi.lua declared them.  Here the
-- metadata lives in Lua, so the structure holds what the last call saw (the
-- data pointer is live: writes through it reach the tensor); it stays valid as
-- long as the tensor or storage does.
local torch = require 'torch'
local ffi = require 'ffi'
local types = require 'torch.types'
local internal = require 'torch.internal'

local TD, SD, max = internal.tensors, internal.storages, math.max

-- C type names as the original's ffi.lua spelled them
local ctypes = {Byte = 'unsigned char', Char = 'char', Short = 'short', Int = 'int',
                Long = 'long', Float = 'float', Double = 'double', Half = 'THHalf'}
local Half = types.Half

ffi.cdef[[
typedef struct THAllocator {
  void* (*malloc)(void*, ptrdiff_t);
  void* (*realloc)(void*, void*, ptrdiff_t);
  void (*free)(void*, void*);
} THAllocator;
]]

local structs = {}   -- type name -> {storage = ctype, tensor = ctype, ...pointer ctypes}

-- the address of each tensor's C structure -> the tensor (weak), so that code
-- handed a THTensor* by FFI callers (th's THNN kernels) finds the tensor again
internal.bystruct = setmetatable({}, {__mode = 'v'})
local bystruct = internal.bystruct

-- (Half's elements as TH declared them: a struct of the bits, data[i].x)
if not pcall(ffi.typeof, 'THHalf') then ffi.cdef 'typedef struct { unsigned short x; } THHalf;' end

for i = 1, types.all do
   local name = types[i].name
   local real = ctypes[name]
   ffi.cdef((([[
typedef struct THRealStorage {
  real *data;
  ptrdiff_t size;
  int refcount;
  char flag;
  THAllocator *allocator;
  void *allocatorContext;
  struct THRealStorage *view;
} THRealStorage;
typedef struct THRealTensor {
  long *size;
  long *stride;
  int nDimension;
  THRealStorage *storage;
  ptrdiff_t storageOffset;
  int refcount;
  char flag;
} THRealTensor;
]]):gsub('Real', name):gsub('real', real)))
   structs[name] = {
      storage = ffi.typeof('TH' .. name .. 'Storage'),
      storageptr = ffi.typeof('TH' .. name .. 'Storage*'),
      tensor = ffi.typeof('TH' .. name .. 'Tensor'),
      tensorptr = ffi.typeof('TH' .. name .. 'Tensor*'),
      data = ffi.typeof(real .. '*'),
   }
end

-- the structures are made once per object and refreshed by each call, so a
-- tensor's cdata() keeps its address, as in Torch7
-- storagecdata(s): of storage data s
local function storagecdata(s)
   local c = structs[s.T.name]
   local st = s.cstruct
   if not st then
      st = c.storage()
      st.refcount = 1
      s.cstruct = st   -- anchored in the storage's data: lives as long as it
   end
   -- (a HalfStorage's pointer converts: its bits' pointer under it)
   st.data = ffi.cast(c.data, s.T == Half and s.ptr.p or s.ptr)
   st.size = s.n
   return ffi.cast(c.storageptr, st)
end

-- sizes and strides into the structure's arrays, written out up to 4
-- dimensions: a loop of a few steps, entered from every kernel call of nn
-- (each tensor's cdata()), ended LuaJIT's traces there once the loop's own
-- trace attempts were given up ("leaving loop in root trace"), and after a
-- long run of many kernels every call was interpreted (a 32x10 criterion
-- 1.3 -> 12 us)
local function copyshape(size, stride, sz, str, nd)
   if nd >= 1 then size[0], stride[0] = sz[1], str[1] end
   if nd >= 2 then size[1], stride[1] = sz[2], str[2] end
   if nd >= 3 then size[2], stride[2] = sz[3], str[3] end
   if nd >= 4 then size[3], stride[3] = sz[4], str[4] end
   for k = 5, nd do size[k - 1], stride[k - 1] = sz[k], str[k] end
end

local function tensorcdata(self)
   local d = TD[self] or internal.badself(self)
   local c = structs[d.T.name]
   local nd = d.nd
   local anchor = d.cstruct
   if not anchor or anchor.capacity < nd then
      local capacity = max(nd, 4)
      anchor = {t = anchor and anchor.t or c.tensor(), capacity = capacity,
                size = ffi.new('long[?]', capacity), stride = ffi.new('long[?]', capacity)}
      anchor.t.size, anchor.t.stride, anchor.t.refcount = anchor.size, anchor.stride, 1
      d.cstruct = anchor   -- anchored in the tensor's data: lives as long as it
      bystruct[tonumber(ffi.cast('intptr_t', ffi.cast(c.tensorptr, anchor.t)))] = self
   end
   local t = anchor.t
   copyshape(anchor.size, anchor.stride, d.sz, d.str, nd)
   t.nDimension = nd
   t.storage = d.st and storagecdata(d.st) or nil
   t.storageOffset = d.off
   return ffi.cast(c.tensorptr, t)
end

internal.method('cdata', tensorcdata)
for i = 1, types.all do
   torch.getmetatable(types[i].storagename).cdata = function(self) return storagecdata(SD[self] or internal.badself(self, 'torch.*Storage')) end
end

-- torch.cdata(obj [, asnumber]): obj:cdata(), or its address as an intptr_t
-- (nil gives nothing, as Torch7's; its argument named self, as there, in an
-- index error)
function torch.cdata(self, asnumber)
   if self == nil then return nil end
   local c = self:cdata()
   if asnumber then return ffi.cast('intptr_t', c) end
   return c
end
