-- Sigmoid: output = 1 / (1 + exp(-input)); gradInput = gradOutput * (1 - output) * output
-- Contiguous tensors loop in LuaJIT (the output: thnn.shared, large ones
-- shared with helper threads); the gradient's strided ones through
-- contiguous copies: THNN's product is in double, gradOutput first (tensor
-- operations rounded each factor: a Sigmoid after a Concat's narrow, found
-- by scripts/fuzz_programs.py).
local checks = require 'thnn.checks'
local shared = require 'thnn.shared'
local data = checks.data
local K = {}

-- p1 = sigmoid(p0); a FloatTensor's as THNN: expf, and the denominator in float
local FORWARD = shared.loop('sigmoid', {
   float = 'for i = a, b - 1 do p1[i] = 1 / rd(1 + C.expf(-p0[i])) end',
   double = 'for i = a, b - 1 do p1[i] = 1 / (1 + exp(-p0[i])) end'}, 2048, 512)

function K.Sigmoid_updateOutput(state, input, output)
   output:resizeAs(input)
   local x, n = data(input)
   local y = data(output)
   if x and y then
      shared.run(FORWARD, checks.ctype(input), n, n, x, y)
   else
      output:sigmoid(input)
   end
end

function K.Sigmoid_updateGradInput(state, input, gradOutput, gradInput, output)
   checks.samecount(output, gradOutput, 'output', 'gradOutput')   -- (THNN's words)
   gradInput:resizeAs(output)
   -- nothing to compute (the strided branch below would call itself forever)
   if output:nElement() == 0 then return end
   local y, n = data(output)
   local g, gn = data(gradOutput)
   local gi = data(gradInput)
   if y and g and gi and gn == n then
      for i = 0, n - 1 do
         local s = y[i]
         gi[i] = g[i] * (1 - s) * s
      end
   elseif gradOutput:nElement() == output:nElement() and output:type() == gradOutput:type() then
      local result = gradInput:isContiguous() and gradInput or output.new()
      K.Sigmoid_updateGradInput(state, input, gradOutput:contiguous(), result, output:contiguous())
      if result ~= gradInput then gradInput:copy(result) end
   else
      gradInput:fill(1):add(-1, output):cmul(output):cmul(gradOutput)
   end
end

return K
