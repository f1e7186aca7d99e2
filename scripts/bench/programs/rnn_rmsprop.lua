-- a small recurrent net unrolled by hand over time (char-rnn style clones), trained with rmsprop
require 'nn'
require 'optim'
torch.manualSeed(5)
local V, H, T, B = 20, 64, 16, 8
local proto = nn.Sequential()
   :add(nn.ParallelTable():add(nn.LookupTable(V, H)):add(nn.Linear(H, H)))
   :add(nn.CAddTable()):add(nn.Tanh())
local out = nn.Sequential():add(nn.Linear(H, V)):add(nn.LogSoftMax())
local params, grads = nn.Sequential():add(proto):add(out):getParameters()
params:uniform(-0.08, 0.08)
local cells, heads = {}, {}
for t = 1, T do
   cells[t] = proto:clone('weight', 'bias', 'gradWeight', 'gradBias')
   heads[t] = out:clone('weight', 'bias', 'gradWeight', 'gradBias')
end
local crit = nn.ClassNLLCriterion()
local data = torch.LongTensor(200, B):random(1, V)
local state = {learningRate = 2e-3}
local function feval()
   grads:zero()
   local i = torch.random(1, 200 - T - 1)
   local h, hs, loss = {[0] = torch.zeros(B, H)}, {}, 0
   for t = 1, T do
      h[t] = cells[t]:forward({data[i + t - 1], h[t - 1]})
      local o = heads[t]:forward(h[t])
      loss = loss + crit:forward(o, data[i + t])
      hs[t] = crit:backward(o, data[i + t]):clone()
   end
   local dh = torch.zeros(B, H)
   for t = T, 1, -1 do
      local dout = heads[t]:backward(h[t], hs[t])
      dh = cells[t]:backward({data[i + t - 1], h[t - 1]}, dout + dh)[2]
   end
   return loss / T, grads
end
local total = 0
for it = 1, 60 do
   local _, l = optim.rmsprop(feval, params, state)
   total = total + l[1]
   if it % 20 == 0 then print(it, string.format('%.4f', total / 20)) total = 0 end
end
