-- Argument checks shared by the kernel families, with THNN's wording.
local checks = {}

-- [2 x 3], as TH described a tensor's sizes
local function sizes(t)
   local s = {}
   for i = 1, t:dim() do s[i] = tostring(t:size(i)) end
   return '[' .. table.concat(s, ' x ') .. ']'
end
checks.sizes = sizes

-- fail(fmt, ...): the error is located at the nn code that called the kernel
local fail = require('torch.internal').fail
checks.fail = fail

function checks.samecount(a, b, aname, bname)
   if a:nElement() ~= b:nElement() then
      fail('%s and %s have different number of elements: %s%s has %d elements, while %s%s has %d elements',
           aname, bname, aname, sizes(a), a:nElement(), bname, sizes(b), b:nElement())
   end
end

-- a 1-element loss tensor holding v
function checks.setloss(output, v)
   output:resize(1)
   output[1] = v
end

-- the dimension a softmax runs along: the only one of a 1D or 3D input (C,
-- C x H x W), the second of a 2D or 4D one (N x C, N x C x H x W)
function checks.featuredim(input, fname)
   local nd = input:dim()
   if nd == 1 or nd == 3 then return 1 end
   if nd == 2 or nd == 4 then return 2 end
   fail("bad argument #2 to '%s' (1D, 2D, 3D or 4D tensor expected)", fname)
end

return checks
