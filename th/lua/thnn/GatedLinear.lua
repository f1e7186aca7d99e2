-- GatedLinear (GLU): input split in halves a, b along dim; output = a * sigmoid(b)
local fail = require('torch.internal').fail
local K = {}

local function halves(input, dim)
   -- (THNN's THArgChecks on the input, its argument #2)
   if dim < 1 or dim > input:dim() then
      fail("bad argument #2 to 'v' (dimension %d out of range of %dD tensor)", dim, input:dim())
   end
   local n = input:size(dim)
   if n % 2 ~= 0 then fail("bad argument #2 to 'v' (Halving dimension must be even. Dim %d is size %d)", dim, n) end
   return input:narrow(dim, 1, n / 2), input:narrow(dim, n / 2 + 1, n / 2)
end

function K.GatedLinear_updateOutput(state, input, output, dim)
   local a, b = halves(input, dim)
   output:resizeAs(a):sigmoid(b):cmul(a)
end

-- grad a = g * sigmoid(b); grad b = (1 - sigmoid(b)) * sigmoid(b) * g * a
function K.GatedLinear_updateGradInput(state, input, gradOutput, gradInput, dim)
   local a, b = halves(input, dim)
   gradInput:resizeAs(input)
   local ga, gb = halves(gradInput, dim)
   local s = b.new():resizeAs(b):sigmoid(b)
   ga:cmul(s, gradOutput)
   -- ((1 - s) * s * g) * a, in that order, each product rounded to the
   -- element type but 1 - s, exact (a FloatTensor's, as recorded from the
   -- original: its 1 - s rounded to a float gave other last bits)
   if torch.type(s) == 'torch.FloatTensor' then
      local d = s:double()
      gb:copy(d:mul(-1):add(1):cmul(s:double()))
   else
      gb:copy(s):mul(-1):add(1):cmul(s)
   end
   gb:cmul(gradOutput):cmul(a)
end

return K
