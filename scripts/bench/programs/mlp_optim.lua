require 'nn'
require 'optim'
torch.manualSeed(1)
local N, D, C = 512, 64, 10
local X = torch.randn(N, D)
local Y = torch.LongTensor(N):random(1, C)
local model = nn.Sequential():add(nn.Linear(D, 128)):add(nn.Tanh()):add(nn.Linear(128, C)):add(nn.LogSoftMax())
local crit = nn.ClassNLLCriterion()
local params, grads = model:getParameters()
local state = {learningRate = 0.1, momentum = 0.9}
for epoch = 1, 10 do
   local total = 0
   for i = 1, N, 16 do
      local xb, yb = X:narrow(1, i, 16), Y:narrow(1, i, 16)
      local function feval(p)
         grads:zero()
         local out = model:forward(xb)
         local loss = crit:forward(out, yb)
         model:backward(xb, crit:backward(out, yb))
         return loss, grads
      end
      local _, l = optim.sgd(feval, params, state)
      total = total + l[1]
   end
   print(epoch, string.format('%.4f', total / (N / 16)))
end
