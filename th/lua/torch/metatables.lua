-- The element accessors of the Tensor and Storage classes under the names
-- Torch7's classes published them (`__index__`, `__newindex__`, `__len__`,
-- `__tostring__`), for code that calls them directly: `__index__(x, k)`
-- returns the element or view and true, or false for a key that is not an
-- index (a method name); `__newindex__` returns true once it has assigned.
local torch = require 'torch'
local types = require 'torch.types'

local type, tonumber = type, tonumber

local function isname(k)
   return type(k) == 'string' and tonumber(k) == nil
end

local function publish(mt)
   local index, newindex = mt.__index, mt.__newindex
   mt.__index__ = function(self, k)
      if isname(k) then return false end
      return index(self, k), true
   end
   mt.__newindex__ = function(self, k, v)
      if isname(k) then return false end
      newindex(self, k, v)
      return true
   end
   mt.__len__ = mt.__len
   mt.__tostring__ = mt.__tostring
end

for i = 1, types.all do
   publish(torch.getmetatable(types[i].tensorname))
   publish(torch.getmetatable(types[i].storagename))
end
