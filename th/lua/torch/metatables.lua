-- The element accessors of the Tensor and Storage classes under the names
-- Torch7's classes published them (`__index__`, `__newindex__`, `__len__`,
-- `__tostring__`), for code that calls them directly: `__index__(x, k)`
-- returns the element or view and true, or false for a key that is not an
-- index; `__newindex__` returns true once it has assigned (a tensor's mask
-- assignment returned the value, what Torch7's C left on its stack), false
-- for a key that is not an index.  The keys Torch7's C took: a number (a
-- numeric string too, as lua_isnumber), and for a tensor a table, a
-- ByteTensor mask or a LongStorage (its error); a name, nil, a boolean,
-- another tensor... were no index.
local torch = require 'torch'
local types = require 'torch.types'

local type, tonumber = type, tonumber

local tensorkeys = {['torch.ByteTensor'] = true, ['torch.LongStorage'] = true}
local function iskey(k, tensor)
   local t = type(k)
   if t == 'number' or t == 'string' and tonumber(k) ~= nil then return true end
   return tensor and (t == 'table' or tensorkeys[torch.typename(k)] == true)
end

local function publish(mt, tensor)
   local index, newindex = mt.__index, mt.__newindex
   mt.__index__ = function(self, k)
      if not iskey(k, tensor) then return false end
      return index(self, k), true
   end
   mt.__newindex__ = function(self, k, v)
      if not iskey(k, tensor) then return false end
      newindex(self, k, v)
      if torch.typename(k) == 'torch.ByteTensor' then return v end
      return true
   end
   mt.__len__ = mt.__len
   mt.__tostring__ = mt.__tostring
end

for i = 1, types.all do
   publish(torch.getmetatable(types[i].tensorname), true)
   publish(torch.getmetatable(types[i].storagename), false)
end
