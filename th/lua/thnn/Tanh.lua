-- Tanh: output = tanh(input); gradInput = gradOutput * (1 - output^2)
local K = {}

function K.Tanh_updateOutput(state, input, output)
   output:resizeAs(input):tanh(input)
end

function K.Tanh_updateGradInput(state, input, gradOutput, gradInput, output)
   gradInput:resizeAs(output):cmul(output, output):mul(-1):add(1):cmul(gradOutput)
end

return K
