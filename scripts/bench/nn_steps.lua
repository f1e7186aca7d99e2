-- Benchmark of nn training steps over th's THNN kernels (th/lua/thnn): an MLP
-- (Linear/ReLU/LogSoftMax + ClassNLL; Linear/Tanh/BatchNormalization/Sigmoid
-- + MSE) and a LeNet-like convnet, one SGD step (forward, backward, update)
-- in Double and Float.  Prints `BENCH <name> <median seconds per step>`; run
-- it under th and the original Torch7 (both need nn on LUA_PATH) to compare.
-- (named so that require 'nn' next to it still finds nn)
-- Usage: th scripts/bench/nn_steps.lua [reps [threads]]
package.path = (arg[0]:match('^(.*[/\\])') or './') .. '?.lua;' .. package.path
require 'nn'
local bench = require 'bench'
local reps = tonumber(arg and arg[1]) or 7
if arg and arg[2] then torch.setnumthreads(tonumber(arg[2])) end
torch.manualSeed(1)

local function mlp()
   return nn.Sequential():add(nn.Linear(784, 256)):add(nn.ReLU()):add(nn.Linear(256, 128))
      :add(nn.ReLU()):add(nn.Linear(128, 10)):add(nn.LogSoftMax())
end

local function mlpbn()
   return nn.Sequential():add(nn.Linear(100, 64)):add(nn.BatchNormalization(64)):add(nn.Tanh())
      :add(nn.Linear(64, 10)):add(nn.Sigmoid())
end

local function lenet()
   local m = nn.Sequential()
   m:add(nn.SpatialConvolutionMM(1, 6, 5, 5)):add(nn.ReLU()):add(nn.SpatialMaxPooling(2, 2, 2, 2))
   m:add(nn.SpatialConvolutionMM(6, 16, 5, 5)):add(nn.ReLU()):add(nn.SpatialMaxPooling(2, 2, 2, 2))
   m:add(nn.View(16 * 5 * 5))
   m:add(nn.Linear(16 * 5 * 5, 120)):add(nn.ReLU()):add(nn.Linear(120, 84)):add(nn.ReLU())
   m:add(nn.Linear(84, 10)):add(nn.LogSoftMax())
   return m
end

-- STEPS SGD steps of model on (input, target) under crit, after 20 steps of
-- warm-up: a training loop runs thousands, and LuaJIT compiles a code path
-- once it ran a few dozen times (bench.run's single warm-up call measured
-- mostly the interpreter).  A timed call runs STEPS of them: one step alone,
-- right after bench.run's full collection, measured the collection's wake
-- (3x th's mean step time), not a training loop.
local STEPS = 20
local function stepper(model, crit, input, target)
   local function step()
      model:zeroGradParameters()
      local out = model:forward(input)
      crit:forward(out, target)
      model:backward(input, crit:backward(out, target))
      model:updateParameters(0.01)
   end
   for _ = 1, 20 do step() end
   return function() for _ = 1, STEPS do step() end end
end

for _, T in ipairs{'Double', 'Float'} do
   local tname = 'torch.' .. T .. 'Tensor'
   for _, batch in ipairs{1, 32} do
      local labels = torch.LongTensor(batch):random(1, 10)
      bench.run(('mlp_step_b%d_%s'):format(batch, T), STEPS,
                stepper(mlp():type(tname), nn.ClassNLLCriterion():type(tname),
                        torch.randn(batch, 784):type(tname), labels), reps)
      bench.run(('lenet_step_b%d_%s'):format(batch, T), STEPS,
                stepper(lenet():type(tname), nn.ClassNLLCriterion():type(tname),
                        torch.randn(batch, 1, 32, 32):type(tname), labels), reps)
   end
   bench.run('mlp_bn_mse_step_b32_' .. T, STEPS,
             stepper(mlpbn():type(tname), nn.MSECriterion():type(tname),
                     torch.randn(32, 100):type(tname), torch.rand(32, 10):type(tname)), reps)
end
