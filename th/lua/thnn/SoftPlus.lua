-- SoftPlus: output = log(1 + exp(beta * input)) / beta, or input itself where
-- beta * input > threshold (linear there, as the original)
local K = {}

function K.SoftPlus_updateOutput(state, input, output, beta, threshold)
   local linear = input.new():resizeAs(input):copy(input):mul(beta):gt(threshold)
   output:resizeAs(input):copy(input):mul(beta):exp():log1p():div(beta)
   output:maskedCopy(linear, input[linear])
end

-- gradInput = gradOutput * (z - 1) / z with z = exp(beta * output); gradOutput where linear
function K.SoftPlus_updateGradInput(state, input, gradOutput, gradInput, output, beta, threshold)
   local linear = output.new():resizeAs(output):copy(output):mul(beta):gt(threshold)
   local z = output.new():resizeAs(output):copy(output):mul(beta):exp()
   gradInput:resizeAs(output):copy(z):add(-1):cdiv(z):cmul(gradOutput)
   gradInput:maskedCopy(linear, gradOutput[linear])
end

return K
