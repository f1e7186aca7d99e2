-- LogSigmoid: output = -log(1 + exp(-input)), computed without overflow as
-- min(input, 0) - log(1 + exp(-|input|)); buffer keeps exp(-|input|) for the gradient
local K = {}

function K.LogSigmoid_updateOutput(state, input, output, buffer)
   buffer:resizeAs(input):abs(input):mul(-1):exp()
   output:resizeAs(input):copy(buffer):log1p():mul(-1)
   output:add(input.new():resizeAs(input):copy(input):clamp(-math.huge, 0))
end

-- gradInput = gradOutput * sigmoid(-input) = gradOutput * (input < 0 ? 1 : b) / (1 + b), b = exp(-|input|)
function K.LogSigmoid_updateGradInput(state, input, gradOutput, gradInput, buffer)
   local num = input.new():resizeAs(input):copy(input:lt(0))
   num:cmul(input.new():resizeAs(input):copy(buffer):mul(-1):add(1)):add(buffer)
   gradInput:resizeAs(input):copy(buffer):add(1):cdiv(num, gradInput):cmul(gradOutput)
end

return K
