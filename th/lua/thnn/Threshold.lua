-- Threshold (and ReLU): output = input > threshold ? input : val; the gradient
-- passes where input > threshold.  In place, input becomes the output and
-- gradOutput the gradInput.
local K = {}

function K.Threshold_updateOutput(state, input, output, threshold, val, inplace)
   local below = input:le(threshold)
   if inplace then
      input:maskedFill(below, val)
      output:set(input)
   else
      output:resizeAs(input):copy(input):maskedFill(below, val)
   end
end

function K.Threshold_updateGradInput(state, input, gradOutput, gradInput, threshold, val, inplace)
   local below = input:le(threshold)
   if inplace then
      gradOutput:maskedFill(below, 0)
      gradInput:set(gradOutput)
   else
      gradInput:resizeAs(input):copy(gradOutput):maskedFill(below, 0)
   end
end

return K
