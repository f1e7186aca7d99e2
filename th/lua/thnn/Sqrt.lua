-- Sqrt: output = sqrt(input + eps); gradInput = gradOutput / (2 * output), 0 where output is 0
local K = {}

function K.Sqrt_updateOutput(state, input, output, eps)
   output:resizeAs(input):copy(input):add(eps):sqrt()
end

function K.Sqrt_updateGradInput(state, input, gradOutput, gradInput, output)
   gradInput:resizeAs(input):copy(gradOutput):div(2):cdiv(output)
   gradInput:maskedFill(output:eq(0), 0)
end

return K
