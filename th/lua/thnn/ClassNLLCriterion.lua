-- ClassNLLCriterion: input holds log-probabilities (n_classes, or batch x
-- n_classes), target the 1-based classes; loss = -sum(w[t] * input[i][t]),
-- divided by total_weight = sum(w[t]) when sizeAverage; targets equal to
-- ignore_index count for nothing.  LuaJIT loops over the rows.
local checks = require 'thnn.checks'
local fail = checks.fail
local tonumber = tonumber
local K = {}

-- -> contiguous input data, its rows and classes, the targets (as Lua
-- numbers, 0 for ignored ones) and the weight of each row
local function prepare(input, target, weights, ignore_index)
   local nd = input:dim()
   if nd > 2 then fail('input tensor should be 1D or 2D') end
   local n = nd == 2 and input:size(1) or 1
   local nclasses = input:size(nd)
   if target:nElement() ~= n or (nd == 2 and target:dim() ~= 1) then
      fail('multi-target not supported')
   end
   local t = target:contiguous()
   local tp = t:data()
   local w = weights and weights:contiguous()
   local wp = w and w:data()
   local classes, rowweights = {}, {}
   for i = 0, n - 1 do
      local c = tonumber(tp[i])
      if c == ignore_index then
         classes[i], rowweights[i] = 0, 0
      else
         if c < 1 or c > nclasses then
            fail("Assertion `cur_target >= 0 && cur_target < n_classes' failed.")
         end
         classes[i], rowweights[i] = c, wp and wp[c - 1] or 1
      end
   end
   return n, nclasses, classes, rowweights
end

function K.ClassNLLCriterion_updateOutput(state, input, target, output, sizeAverage,
                                          weights, total_weight, ignore_index)
   local n, nclasses, classes, rowweights = prepare(input, target, weights, ignore_index)
   local x = input:contiguous()
   local xp = x:data()
   local loss, total = 0, 0
   local rd = checks.rounding(input)   -- (THNN added up in the element type)
   for i = 0, n - 1 do
      local c = classes[i]
      if c > 0 then
         loss = rd(loss - rd(xp[i * nclasses + c - 1] * rowweights[i]))
         total = rd(total + rowweights[i])
      end
   end
   if sizeAverage and total ~= 0 then loss = loss / total end
   checks.setloss(total_weight, total)
   checks.setloss(output, loss)
end

-- gradInput (zeroed by nn) gets -w / total_weight at each target
function K.ClassNLLCriterion_updateGradInput(state, input, target, gradInput, sizeAverage,
                                             weights, total_weight, ignore_index)
   local n, nclasses, classes, rowweights = prepare(input, target, weights, ignore_index)
   local total = total_weight[1]
   if total <= 0 then return end
   local rd = checks.rounding(input)
   local g = gradInput:isContiguous() and gradInput or gradInput.new():resizeAs(gradInput):copy(gradInput)
   local gp = g:data()
   for i = 0, n - 1 do
      local c = classes[i]
      -- (-w / total: a division, as recorded from the original; its
      -- reciprocal times w differed in the last bit)
      if c > 0 then gp[i * nclasses + c - 1] = sizeAverage and rd(-rowweights[i] / total) or -rowweights[i] end
   end
   if g ~= gradInput then gradInput:copy(g) end
end

return K
