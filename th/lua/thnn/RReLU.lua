-- RReLU: in training, each input <= 0 is scaled by its own draw from
-- uniform(lower, upper) (kept in noise; noise is 1 elsewhere), drawn in element
-- order from the generator as the original did; in evaluation by (lower + upper) / 2.
-- In place, input becomes the output and gradOutput the gradInput.
local checks = require 'thnn.checks'
local K = {}

local function trains(train, lower, upper)
   return train and upper - lower > 1e-6
end

-- the factor each element is multiplied by
local function slopes(input, noise, lower, upper, train, generator)
   local neg = input:le(0)
   if trains(train, lower, upper) then
      noise:resizeAs(input):fill(1)
      local count = neg:sum()
      if count > 0 then
         noise:maskedCopy(neg, input.new(count):uniform(generator, lower, upper))
      end
      return noise
   end
   local s = input.new():resizeAs(input):fill(1)
   s:maskedFill(neg, (lower + upper) / 2)   -- (it returns the value, as Torch7's binding did)
   return s
end

function K.RReLU_updateOutput(state, input, output, noise, lower, upper, train, inplace, generator)
   local s = slopes(input, noise, lower, upper, train, generator)
   if inplace then
      input:cmul(s)
      output:set(input)
   else
      output:resizeAs(input):cmul(input, s)
   end
end

function K.RReLU_updateGradInput(state, input, gradOutput, gradInput, noise, lower, upper, train, inplace)
   checks.samecount(input, gradOutput, 'input', 'gradOutput')   -- (THNN's words)
   local s
   if trains(train, lower, upper) then
      s = noise
   else
      s = input.new():resizeAs(input):fill(1)
      s:maskedFill(input:le(0), (lower + upper) / 2)
   end
   if inplace then
      gradOutput:cmul(s)
      gradInput:set(gradOutput)
   else
      gradInput:resizeAs(input):cmul(gradOutput, s)
   end
end

return K
