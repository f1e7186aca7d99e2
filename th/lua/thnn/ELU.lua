-- ELU: output = input > 0 ? input : alpha * (exp(input) - 1); gradInput =
-- gradOutput where output > 0, gradOutput * (output + alpha) elsewhere.  In
-- place, input becomes the output and gradOutput the gradInput.
local K = {}

function K.ELU_updateOutput(state, input, output, alpha, inplace)
   local neg = input:le(0)
   local e = input.new():resizeAs(input):copy(input):exp():add(-1):mul(alpha)
   if inplace then
      input:maskedCopy(neg, e[neg])
      output:set(input)
   else
      output:resizeAs(input):copy(input):maskedCopy(neg, e[neg])
   end
end

function K.ELU_updateGradInput(state, input, gradOutput, gradInput, output, alpha, inplace)
   local neg = output:le(0)
   local scaled = output.new():resizeAs(output):copy(output):add(alpha):cmul(gradOutput)
   if inplace then
      gradOutput:maskedCopy(neg, scaled[neg])
      gradInput:set(gradOutput)
   else
      gradInput:resizeAs(output):copy(gradOutput):maskedCopy(neg, scaled[neg])
   end
end

return K
