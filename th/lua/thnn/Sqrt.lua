-- Sqrt: output = sqrt(input); gradInput = gradOutput / (2 * output), 0 where
-- output is 0.  (nn passes its eps, which THNN did not use: the original's
-- nn.Sqrt(b, eps) took square roots of the input itself, -0 included.)
local K = {}

function K.Sqrt_updateOutput(state, input, output, eps)
   output:resizeAs(input):copy(input):sqrt()
end

function K.Sqrt_updateGradInput(state, input, gradOutput, gradInput, output)
   gradInput:resizeAs(input):copy(gradOutput):div(2):cdiv(output)
   gradInput:maskedFill(output:eq(0), 0)
end

return K
