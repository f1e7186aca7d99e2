-- SoftShrink: output = input - lambda above lambda, input + lambda below
-- -lambda, 0 between (NaN too, as THNN's comparisons gave); the gradient
-- passes where input > lambda or input < -lambda
local K = {}

-- where input is above lambda or below -lambda (not NaN)
local function outside(input, lambda)
   return input:gt(lambda):add(input:lt(-lambda))
end

function K.SoftShrink_updateOutput(state, input, output, lambda)
   output:resizeAs(input):copy(input):add(-lambda)
   output:add(2 * lambda, output.new():resizeAs(input):copy(input:lt(-lambda)))
   output:maskedFill(outside(input, lambda):eq(0), 0)
end

function K.SoftShrink_updateGradInput(state, input, gradOutput, gradInput, lambda)
   gradInput:resizeAs(input):copy(gradOutput):maskedFill(outside(input, lambda):eq(0), 0)
end

return K
