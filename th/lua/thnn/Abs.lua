-- Abs: output = |input|; gradInput = gradOutput * (input >= 0 and 1 or -1)
local checks = require 'thnn.checks'
local K = {}

function K.Abs_updateOutput(state, input, output)
   output:resizeAs(input):abs(input)
end

function K.Abs_updateGradInput(state, input, gradOutput, gradInput)
   checks.samecount(input, gradOutput, 'input', 'gradOutput')   -- (THNN's words)
   gradInput:resizeAs(input):copy(input:ge(0)):mul(2):add(-1):cmul(gradOutput)
end

return K
