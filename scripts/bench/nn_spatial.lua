-- Benchmark of nn's convolution and pooling kernels (th/lua/thnn): a LeNet-like
-- training step (forward + backward + parameter update) and single layers
-- (among them the connection-table maps and the contrastive normalization
-- built on them), in Double and Float.  Prints `BENCH <name> <median seconds per op>`; run it
-- under th and the original Torch7 (both need nn on LUA_PATH) to compare.
-- Usage: th scripts/bench/nn_spatial.lua [reps [threads]]
-- (the original's OpenMP threads busy-wait; on a loaded machine give 1)
package.path = arg[0]:match('^(.*[/\\])') .. '?.lua;' .. package.path
require 'nn'
local bench = require 'bench'
local reps = tonumber(arg and arg[1]) or 7
if arg and arg[2] then torch.setnumthreads(tonumber(arg[2])) end
torch.manualSeed(1)

local function lenet()
   local m = nn.Sequential()
   m:add(nn.SpatialConvolutionMM(1, 6, 5, 5)):add(nn.ReLU()):add(nn.SpatialMaxPooling(2, 2, 2, 2))
   m:add(nn.SpatialConvolutionMM(6, 16, 5, 5)):add(nn.ReLU()):add(nn.SpatialMaxPooling(2, 2, 2, 2))
   m:add(nn.View(16 * 5 * 5))
   m:add(nn.Linear(16 * 5 * 5, 120)):add(nn.ReLU()):add(nn.Linear(120, 84)):add(nn.ReLU())
   m:add(nn.Linear(84, 10)):add(nn.LogSoftMax())
   return m
end

-- one SGD step of model on (input, target)
local function stepper(model, input, target)
   local crit = nn.ClassNLLCriterion():type(input:type())
   return function()
      model:zeroGradParameters()
      local out = model:forward(input)
      crit:forward(out, target)
      model:backward(input, crit:backward(out, target))
      model:updateParameters(0.01)
   end
end

local function layer(m, input)
   local out = m:forward(input)
   local grad = out:clone()
   return function()
      m:forward(input)
      m:backward(input, grad)
   end
end

for _, T in ipairs{'Double', 'Float'} do
   local tname = 'torch.' .. T .. 'Tensor'
   local target = torch.LongTensor(32):random(1, 10)
   for _, batch in ipairs{1, 32} do
      local input = torch.randn(batch, 1, 32, 32):type(tname)
      bench.run(('lenet_step_b%d_%s'):format(batch, T), 1,
                stepper(lenet():type(tname), input, target:narrow(1, 1, batch)), reps)
   end
   local x = torch.randn(16, 32, 32, 32):type(tname)
   bench.run('conv3x3_32to64_16x32x32_fwdbwd_' .. T, 1,
             layer(nn.SpatialConvolution(32, 64, 3, 3, 1, 1, 1, 1):type(tname), x), reps)
   bench.run('maxpool2x2_16x32x32x32_fwdbwd_' .. T, 1, layer(nn.SpatialMaxPooling(2, 2, 2, 2):type(tname), x), reps)
   bench.run('avgpool3x3s2_16x32x32x32_fwdbwd_' .. T, 1,
             layer(nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1):type(tname), x), reps)
   local planes = torch.randn(3, 128, 128):type(tname)
   bench.run('contrastivenorm9_3x128x128_fwdbwd_' .. T, 1,
             layer(nn.SpatialContrastiveNormalization(3, torch.ones(9)):type(tname), planes), reps)
   local maps = torch.randn(16, 64, 64):type(tname)
   bench.run('convmap_random16to32x4_5x5_64x64_fwdbwd_' .. T, 1,
             layer(nn.SpatialConvolutionMap(nn.tables.random(16, 32, 4), 5, 5):type(tname), maps), reps)
   bench.run('fullconvmap_random16to8x4_5x5_64x64_fwdbwd_' .. T, 1,
             layer(nn.SpatialFullConvolutionMap(nn.tables.random(16, 8, 4), 5, 5):type(tname), maps), reps)
   local small = torch.randn(3, 8, 8):type(tname)
   bench.run('conv3x3_3to8_8x8_fwdbwd_' .. T, 100, (function()
      local f = layer(nn.SpatialConvolution(3, 8, 3, 3):type(tname), small)
      return function() for _ = 1, 100 do f() end end
   end)(), reps)
   bench.run('maxpool2x2_3x8x8_fwdbwd_' .. T, 100, (function()
      local f = layer(nn.SpatialMaxPooling(2, 2, 2, 2):type(tname), small)
      return function() for _ = 1, 100 do f() end end
   end)(), reps)
end
