-- L1Cost: output = sum(|input|); gradInput = sign(input) (0 at 0)
local checks = require 'thnn.checks'
local K = {}

function K.L1Cost_updateOutput(state, input, output)
   checks.setloss(output, input.new():abs(input):sum())
end

function K.L1Cost_updateGradInput(state, input, gradOutput, gradInput)
   gradInput:resizeAs(input):sign(input)
end

return K
