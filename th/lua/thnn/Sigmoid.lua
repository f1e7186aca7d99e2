-- Sigmoid: output = 1 / (1 + exp(-input)); gradInput = gradOutput * (1 - output) * output
local K = {}

function K.Sigmoid_updateOutput(state, input, output)
   output:resizeAs(input)
   output:sigmoid(input)
end

function K.Sigmoid_updateGradInput(state, input, gradOutput, gradInput, output)
   gradInput:resizeAs(output)
   gradInput:fill(1):add(-1, output):cmul(output):cmul(gradOutput)
end

return K
