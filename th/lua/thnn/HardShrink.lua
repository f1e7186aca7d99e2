-- HardShrink: output = input where |input| > lambda, 0 elsewhere; the gradient likewise
local K = {}

function K.HardShrink_updateOutput(state, input, output, lambda)
   output:resizeAs(input):copy(input):maskedFill(input.new():abs(input):le(lambda), 0)
end

function K.HardShrink_updateGradInput(state, input, gradOutput, gradInput, lambda)
   gradInput:resizeAs(input):copy(gradOutput):maskedFill(input.new():abs(input):le(lambda), 0)
end

return K
