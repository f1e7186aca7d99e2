-- Linear (nn's test/LinearTHNN.lua; nn.Linear itself uses torch's BLAS):
-- output = input * weight^T + bias, for a vector or a batch of rows
local fail = require('torch.internal').fail
local K = {}

local function rows(t)
   if t:dim() == 1 then return t:view(1, t:nElement()) end
   if t:dim() == 2 then return t end
   fail('input must be vector or matrix')
end

function K.Linear_updateOutput(state, input, output, weight, bias, addBuffer)
   local x = rows(input)
   if input:dim() == 1 then output:resize(weight:size(1)) else output:resize(x:size(1), weight:size(1)) end
   local y = rows(output)
   y:copy(bias:view(1, -1):expandAs(y))
   y:addmm(1, x, weight:t())
end

function K.Linear_updateGradInput(state, input, gradOutput, gradInput, weight)
   if not gradInput then return end
   gradInput:resizeAs(input)
   rows(gradInput):mm(rows(gradOutput), weight)
end

function K.Linear_accGradParameters(state, input, gradOutput, gradInput, weight, bias, gradWeight,
                                    gradBias, addBuffer, scale)
   local g = rows(gradOutput)
   gradWeight:addmm(scale, g:t(), rows(input))
   if bias and gradBias then gradBias:add(scale, g:sum(1):view(-1)) end
end

return K
