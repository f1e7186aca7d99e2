-- LeakyReLU: output = input > 0 ? input : input * negval; gradInput likewise
-- scales gradOutput by negval where input <= 0.  In place, input becomes the
-- output and gradOutput the gradInput.
local K = {}

-- the factor 1 where input > 0, negval elsewhere
local function slopes(input, negval)
   return input.new():resizeAs(input):copy(input:gt(0)):mul(1 - negval):add(negval)
end

function K.LeakyReLU_updateOutput(state, input, output, negval, inplace)
   local s = slopes(input, negval)
   if inplace then
      input:cmul(s)
      output:set(input)
   else
      output:resizeAs(input):cmul(input, s)
   end
end

function K.LeakyReLU_updateGradInput(state, input, gradOutput, gradInput, negval, inplace)
   local s = slopes(input, negval)
   if inplace then
      gradOutput:cmul(s)
      gradInput:set(gradOutput)
   else
      gradInput:resizeAs(input):cmul(gradOutput, s)
   end
end

return K
