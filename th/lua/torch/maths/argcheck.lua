-- Loaded after every maths function exists: the functions that Torch7's
-- bindings generated (argsignatures.lua) and dispatch.define does not check
-- get the original's argument checks (dispatch.guard).
local dispatch = require 'torch.maths.dispatch'
local signatures = require 'torch.maths.argsignatures'

-- (the methods fill, zero, max, min and numel, as hot as add, check their arguments
-- themselves, without a wrapper)
local names, own = {}, {fill = true, zero = true, max = true, min = true}
for name in pairs(signatures) do
   if not dispatch.defined[name] then names[#names + 1] = name end
end
table.sort(names)
for _, name in ipairs(names) do dispatch.guard(name, not own[name]) end
