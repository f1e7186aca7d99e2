-- torch.Tensor and torch.Storage (the default type), totable, and the small
-- utilities that work on any tensor or storage.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'

local TD, fail = internal.tensors, internal.fail

local default = 'torch.DoubleTensor'

-- setdefaulttensortype(name): torch.Tensor and torch.Storage follow it
function torch.setdefaulttensortype(name)
   if type(name) ~= 'string' then fail('string expected') end
   local T = types[name:match('^torch%.(%a+)Tensor$') or '']
   if not T then
      fail('<%s> is not a string describing a torch object', name)
   end
   default = name
   torch.Tensor = torch[T.name .. 'Tensor']
   torch.Storage = torch[T.name .. 'Storage']
end

function torch.getdefaulttensortype()
   return default
end

torch.setdefaulttensortype('torch.DoubleTensor')
-- t:isTensor(), on the type that was the default at start-up only, as in Torch7
torch.Tensor.isTensor = torch.isTensor

-- x:real(): x converted to the default tensor type
internal.method('real', function(self)
   local _ = internal.tensors[self] or internal.badself(self)
   return self:type(default)
end)

-- heap tracking let Torch7's collector see C allocations; th's memory is
-- already visible to Lua's collector, so only the flag is kept
torch._heaptracking = true
function torch.setheaptracking(on)
   if type(on) ~= 'boolean' then
      -- (luaT named the type expected as the one given, whatever it was)
      fail("bad argument #1 to 'setheaptracking' (boolean expected, got boolean)")
   end
   torch._heaptracking = on
end

-- Torch7 re-installed TH's error handlers and its per-thread state with
-- these (for threads); th's have nothing to update: they return nothing
function torch.updateerrorhandlers() end
function torch.updatethreadlocals() end

local function tabletensor(d, dim, off)
   local t = {}
   local ptr = d.st.ptr
   if dim == d.nd then
      for i = 1, d.sz[dim] do t[i] = tonumber(ptr[off + (i - 1) * d.str[dim]]) end
   else
      for i = 1, d.sz[dim] do t[i] = tabletensor(d, dim + 1, off + (i - 1) * d.str[dim]) end
   end
   return t
end

-- totable(obj): nested Lua tables with the elements of a tensor or storage
function torch.totable(obj)
   if internal.istensor(obj) then
      local d = TD[obj]
      if d.nd == 0 then return {} end
      internal.checkbounds(d)
      return tabletensor(d, 1, d.off)
   elseif internal.isstorage(obj) then
      return obj:totable()
   end
   fail('obj must be a Storage or a Tensor')
end
internal.method('totable', torch.totable)

-- torch.data(t [, asnumber]): the FFI pointer to the first element, or its
-- address as an intptr_t cdata (tonumber() makes it a plain number), as documented
function torch.data(self, asnumber)
   if self == nil then return nil end   -- (as Torch7's, whose index errors named it self)
   local ptr = self:data()
   if asnumber then
      return require('ffi').cast('intptr_t', ptr)
   end
   return ptr
end

-- fromnumpy(typename, flat array, address, n, sizes...): a tensor over numpy memory
function internal.fromnumpy(tname, arr, addr, n, ...)
   local T = types[tname]
   local st = internal.storagedata(T, arr, T.cast(addr), n)
   local t = internal.emptytensor(T)
   local sizes = {...}
   internal.setmeta(TD[t], st, 0, sizes, select('#', ...), nil)
   return t
end
