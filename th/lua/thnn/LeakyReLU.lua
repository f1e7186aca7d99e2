-- LeakyReLU: output = input > 0 ? input : input * negval; gradInput likewise
-- scales gradOutput by negval where input <= 0.  In place, input becomes the
-- output and gradOutput the gradInput.
local checks = require 'thnn.checks'
local K = {}

-- the factor 1 where input > 0, negval elsewhere; in place, THNN scaled
-- where input <= 0 instead (a NaN input then keeps its gradient)
-- (maskedFill returns the value, as Torch7's did)
local function slopes(input, negval)
   local s = input.new():resizeAs(input):fill(negval)
   s:maskedFill(input:gt(0), 1)
   return s
end
local function inplaceslopes(input, negval)
   local s = input.new():resizeAs(input):fill(1)
   s:maskedFill(input:le(0), negval)
   return s
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
   checks.samecount(input, gradOutput, 'input', 'gradOutput')   -- (THNN's words)
   if inplace then
      gradOutput:cmul(inplaceslopes(input, negval))
      gradInput:set(gradOutput)
   else
      gradInput:resizeAs(input):cmul(checks.asshape(gradOutput, input), slopes(input, negval))
   end
end

return K
