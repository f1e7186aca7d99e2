-- HalfTensor's methods: those Torch7's HalfTensor had, no maths.  The maths
-- families install their methods on every type (internal.method), Half's
-- too: here Half keeps the core ones, and apply, map and map2, which th's
-- HalfTensor has beside them (its maskedFill, indexFill... were broken, and
-- Torch7 had none: `attempt to call method 'maskedFill' (a nil value)`).
local torch = require 'torch'

local kept = {}
for name in ([[byte cdata char chunk clone contiguous copy data dim double elementSize expand
               expandAs fill float free half int isContiguous isSameSizeAs isSetTo isSize long
               nDimension nElement narrow new permute read real repeatTensor resize resizeAs
               retain select set short size split storage storageOffset stride sub t totable
               transpose type typeAs unfold view viewAs write apply map map2]]):gmatch('%S+') do
   kept[name] = true
end

local mt = torch.getmetatable('torch.HalfTensor')
for name, v in pairs(mt) do
   if type(name) == 'string' and type(v) == 'function' and not name:match('^__') and not kept[name] then
      mt[name] = nil   -- (clearing a field during pairs is allowed)
   end
end

-- Torch7 loaded its torch/test.lua at start-up, and that file gave HalfTensor
-- five methods of its own, for its tests, each through a copy of the default
-- tensor type (x:real()): abs and max of self alone, mean along d,
-- add(value, src) and reshape(a, b), the result a new HalfTensor (max a
-- number), self left as it was; and the subtraction operator h1 - h2 (any
-- tensor as h2; no other operator).  Their arguments go on as those helpers
-- passed them (only add's second and the subtraction's were made the default
-- type), so a call of another form fails in that type's words (`x:add(y)`:
-- attempt to index local 'b'; with a LongTensor default, mean is "attempt to
-- call method 'mean'").  Found by probing the original's HalfTensor (its
-- metatable listed them).
function mt.abs(self) return self:real():abs():half() end
function mt.max(self) return self:real():max() end
function mt.mean(self, d) return self:real():mean(d):half() end
function mt.add(self, a, b) return self:real():add(a, b:real()):half() end
function mt.reshape(self, a, b) return self:real():reshape(a, b):half() end
function mt.__sub(self, other) return (self:real() - other:real()):half() end
