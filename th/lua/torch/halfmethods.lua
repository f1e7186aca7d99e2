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
