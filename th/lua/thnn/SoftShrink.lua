-- SoftShrink: output = input - lambda above lambda, input + lambda below
-- -lambda, 0 between; the gradient passes where |input| > lambda
local K = {}

function K.SoftShrink_updateOutput(state, input, output, lambda)
   local inside = input.new():abs(input):le(lambda)
   output:resizeAs(input):copy(input):add(-lambda)
   output:add(2 * lambda, output.new():resizeAs(input):copy(input:lt(-lambda)))
   output:maskedFill(inside, 0)
end

function K.SoftShrink_updateGradInput(state, input, gradOutput, gradInput, lambda)
   gradInput:resizeAs(input):copy(gradOutput):maskedFill(input.new():abs(input):le(lambda), 0)
end

return K
