-- HardShrink: output = input where input > lambda or input < -lambda, 0
-- elsewhere (NaN too, as THNN's comparisons gave); the gradient likewise
local K = {}

-- where input is 0 in the output
local function inside(input, lambda)
   return input:gt(lambda):add(input:lt(-lambda)):eq(0)
end

function K.HardShrink_updateOutput(state, input, output, lambda)
   output:resizeAs(input):copy(input):maskedFill(inside(input, lambda), 0)
end

function K.HardShrink_updateGradInput(state, input, gradOutput, gradInput, lambda)
   gradInput:resizeAs(input):copy(gradOutput):maskedFill(inside(input, lambda), 0)
end

return K
