-- HardTanh: output = clamp(input, min_val, max_val); the gradient passes
-- strictly inside (min_val, max_val).  In place, input becomes the output and
-- gradOutput the gradInput.
local K = {}

function K.HardTanh_updateOutput(state, input, output, min_val, max_val, inplace)
   if inplace then
      input:clamp(min_val, max_val)
      output:set(input)
   else
      output:resizeAs(input):clamp(input, min_val, max_val)
   end
end

function K.HardTanh_updateGradInput(state, input, gradOutput, gradInput, min_val, max_val, inplace)
   local outside = input:le(min_val):add(input:ge(max_val))
   if inplace then
      gradOutput:maskedFill(outside, 0)
      gradInput:set(gradOutput)
   else
      gradInput:resizeAs(input):copy(gradOutput):maskedFill(outside, 0)
   end
end

return K
