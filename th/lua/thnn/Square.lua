-- Square: output = input^2; gradInput = 2 * input * gradOutput
local K = {}

function K.Square_updateOutput(state, input, output)
   output:resizeAs(input):cmul(input, input)
end

function K.Square_updateGradInput(state, input, gradOutput, gradInput)
   gradInput:resizeAs(input):cmul(input, gradOutput):mul(2)
end

return K
