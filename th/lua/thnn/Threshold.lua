-- Threshold (and ReLU): output = input > threshold ? input : val; the gradient
-- passes where input > threshold.  In place, input becomes the output and
-- gradOutput the gradInput, and the test is the original's in-place one,
-- input <= threshold: a NaN input stays NaN and passes its gradient (out of
-- place, it becomes val and stops it).
local checks = require 'thnn.checks'
local S = require 'thnn.spatial'
local data, real, max = checks.data, checks.real, math.max
local K = {}

-- from this many elements the gradient is one numpy call (no branch per element)
local NUMPY_GRAD = 20000

-- the mask of the elements a kernel replaces: x <= t in place, not (x > t) out of place
local function replaced(input, threshold, inplace)
   if inplace then return input:le(threshold) end
   return input:gt(threshold):eq(0)
end

function K.Threshold_updateOutput(state, input, output, threshold, val, inplace)
   if inplace then output:set(input) else output:resizeAs(input) end
   local x, n = data(input)
   local y = data(output)
   if x and y then
      threshold = real(input, threshold)
      if inplace then
         for i = 0, n - 1 do
            if x[i] <= threshold then x[i] = val end
         end
      elseif val == threshold then
         -- ReLU: branch-free (max(NaN, t) is t, compiled or not, as the original gave val)
         for i = 0, n - 1 do y[i] = max(x[i], threshold) end
      else
         for i = 0, n - 1 do
            local v = x[i]
            y[i] = v > threshold and v or val
         end
      end
   elseif inplace then
      input:maskedFill(replaced(input, threshold, true), val)
   else
      output:copy(input):maskedFill(replaced(input, threshold, false), val)
   end
end

function K.Threshold_updateGradInput(state, input, gradOutput, gradInput, threshold, val, inplace)
   if inplace then gradInput:set(gradOutput) else gradInput:resizeAs(input) end
   local x, n = data(input)
   local g, gn = data(gradOutput)
   local gi = data(gradInput)
   if x and g and gi and gn == n and n >= NUMPY_GRAD then
      local nd = S.nd
      S.call(S.py.nn_threshold_backward, nd(gradInput), nd(input), nd(gradOutput),
             real(input, threshold), inplace and true or false)
   elseif x and g and gi and gn == n then
      threshold = real(input, threshold)
      if inplace then
         for i = 0, n - 1 do
            if x[i] <= threshold then gi[i] = 0 end
         end
      else
         for i = 0, n - 1 do
            gi[i] = x[i] > threshold and g[i] or 0
         end
      end
   elseif inplace then
      gradOutput:maskedFill(replaced(input, threshold, true), 0)
   else
      gradInput:copy(gradOutput):maskedFill(replaced(input, threshold, false), 0)
   end
end

return K
