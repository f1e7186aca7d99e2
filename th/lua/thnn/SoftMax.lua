-- SoftMax over the feature dimension: the only one of a 1D or 3D input (C, or
-- C x H x W), the second of a 2D or 4D one (N x C, N x C x H x W).  1D and 2D
-- contiguous tensors loop in LuaJIT, one row at a time.
local checks = require 'thnn.checks'
local featuredim, data, rows, exp = checks.featuredim, checks.data, checks.rows, math.exp
local K = {}

function K.SoftMax_updateOutput(state, input, output)
   local dim = featuredim(input, 'SoftMax_updateOutput')
   output:resizeAs(input)
   local x = data(input)
   local y = data(output)
   local nrow, width = rows(input)
   if x and y and nrow then
      local rd = checks.rounding(input)   -- (THNN: x - max and the exponentials in the element type)
      for r = 0, nrow - 1 do
         local base = r * width
         local max = -math.huge
         for i = base, base + width - 1 do if x[i] > max then max = x[i] end end
         local sum = 0
         for i = base, base + width - 1 do
            y[i] = exp(rd(x[i] - max))
            sum = sum + y[i]
         end
         for i = base, base + width - 1 do y[i] = y[i] / sum end
      end
      return
   end
   local max = input:max(dim)
   output:copy(input):add(-1, max:expandAs(input)):exp()
   output:cdiv(output:sum(dim):expandAs(input))
end

-- gradInput = output * (gradOutput - sum(gradOutput * output))
function K.SoftMax_updateGradInput(state, input, gradOutput, gradInput, output)
   local dim = featuredim(output, 'SoftMax_updateGradInput')
   gradInput:resizeAs(output)
   local y, n = data(output)
   local g, gn = data(gradOutput)
   local gi = data(gradInput)
   local nrow, width = rows(output)
   if y and g and gi and gn == n and nrow then
      for r = 0, nrow - 1 do
         local base = r * width
         local dot = 0
         for i = base, base + width - 1 do dot = dot + g[i] * y[i] end
         for i = base, base + width - 1 do gi[i] = y[i] * (g[i] - dot) end
      end
      return
   end
   gradInput:cmul(gradOutput, output)
   local dot = gradInput:sum(dim)
   gradInput:copy(gradOutput):add(-1, dot:expandAs(output)):cmul(output)
end

return K
