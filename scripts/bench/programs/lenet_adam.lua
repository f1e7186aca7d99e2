require 'nn'
require 'optim'
torch.manualSeed(2)
local m = nn.Sequential()
m:add(nn.SpatialConvolution(1, 6, 5, 5)):add(nn.ReLU()):add(nn.SpatialMaxPooling(2, 2, 2, 2))
m:add(nn.SpatialConvolution(6, 16, 5, 5)):add(nn.ReLU()):add(nn.SpatialMaxPooling(2, 2, 2, 2))
m:add(nn.View(16 * 5 * 5)):add(nn.Linear(400, 120)):add(nn.ReLU()):add(nn.Linear(120, 10)):add(nn.LogSoftMax())
local crit = nn.ClassNLLCriterion()
local p, g = m:getParameters()
local X, Y = torch.randn(64, 1, 32, 32), torch.LongTensor(64):random(1, 10)
local st = {learningRate = 1e-3}
for it = 1, 100 do
   local i = (it - 1) % 8 * 8 + 1
   local xb, yb = X:narrow(1, i, 8), Y:narrow(1, i, 8)
   local _, l = optim.adam(function()
      g:zero()
      local o = m:forward(xb)
      local loss = crit:forward(o, yb)
      m:backward(xb, crit:backward(o, yb))
      return loss, g
   end, p, st)
   if it % 20 == 0 then print(it, string.format('%.4f', l[1])) end
end
