-- a data-preparation and evaluation script: Lua loops over elements,
-- normalisation, a model saved and loaded, a confusion matrix, printing
require 'nn'
require 'optim'
torch.manualSeed(7)
local N, D, C = 2000, 32, 5
local X = torch.Tensor(N, D)
local Y = torch.LongTensor(N)
for i = 1, N do
   local c = (i % C) + 1
   Y[i] = c
   for j = 1, D do X[i][j] = math.sin(i * 0.01 * j) + c * 0.1 + torch.uniform() * 0.05 end
end
local mean, std = X:mean(1), X:std(1)
X:add(-1, mean:expandAs(X)):cdiv(std:expandAs(X))
local model = nn.Sequential():add(nn.Linear(D, 32)):add(nn.ReLU()):add(nn.Linear(32, C)):add(nn.LogSoftMax())
local crit = nn.ClassNLLCriterion()
local params, grads = model:getParameters()
local state = {learningRate = 0.05}
for epoch = 1, 3 do
   local perm = torch.randperm(N)
   for i = 1, N, 50 do
      local ids = perm:narrow(1, i, 50):long()
      local xb, yb = X:index(1, ids), Y:index(1, ids)
      optim.adam(function()
         grads:zero()
         local out = model:forward(xb)
         local loss = crit:forward(out, yb)
         model:backward(xb, crit:backward(out, yb))
         return loss, grads
      end, params, state)
   end
end
local file = os.tmpname()
torch.save(file, model)
local loaded = torch.load(file)
os.remove(file)
local cm = optim.ConfusionMatrix(C)
local out = loaded:forward(X)
local _, pred = out:max(2)
for i = 1, N do cm:add(pred[i][1], Y[i]) end
cm:updateValids()
print(string.format('accuracy %.4f', cm.totalValid))
local counts = {}
X:apply(function(v) local k = math.floor(v * 2) counts[k] = (counts[k] or 0) + 1 end)
local keys = {}
for k in pairs(counts) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do io.write(k, ':', counts[k], ' ') end
print()
print(X:narrow(1, 1, 3):narrow(2, 1, 6))
