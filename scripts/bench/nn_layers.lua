-- nn layers and criteria at a batch of 32 (Double), forward and backward:
-- prints "name 32 microseconds" lines (the format of families.lua) under
-- th or the original, both with nn on LUA_PATH; compare them with
--   python scripts/bench/compare.py --script scripts/bench/nn_layers.lua
-- (named so that require 'nn' next to it still finds nn)
require 'nn'
local budget = tonumber(arg and arg[1]) or 0.02
local filter = arg and arg[2]
package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)
torch.manualSeed(1)
local B = 32
local cases = {
  {'Linear(512,512)', function() return nn.Linear(512, 512) end, {B, 512}},
  {'ReLU', function() return nn.ReLU() end, {B, 4096}},
  {'Tanh', function() return nn.Tanh() end, {B, 4096}},
  {'Sigmoid', function() return nn.Sigmoid() end, {B, 4096}},
  {'ELU', function() return nn.ELU() end, {B, 4096}},
  {'LeakyReLU', function() return nn.LeakyReLU(0.1) end, {B, 4096}},
  {'SoftPlus', function() return nn.SoftPlus() end, {B, 4096}},
  {'HardTanh', function() return nn.HardTanh() end, {B, 4096}},
  {'Dropout', function() return nn.Dropout(0.5) end, {B, 4096}},
  {'BatchNormalization(256)', function() return nn.BatchNormalization(256) end, {B, 256}},
  {'SpatialBatchNormalization(16)', function() return nn.SpatialBatchNormalization(16) end, {B, 16, 16, 16}},
  {'SpatialMaxPooling(2,2)', function() return nn.SpatialMaxPooling(2, 2, 2, 2) end, {B, 16, 32, 32}},
  {'SpatialAveragePooling(2,2)', function() return nn.SpatialAveragePooling(2, 2, 2, 2) end, {B, 16, 32, 32}},
  {'SpatialConvolutionMM(16,16,3)', function() return nn.SpatialConvolutionMM(16, 16, 3, 3, 1, 1, 1, 1) end, {B, 16, 16, 16}},
  {'View', function() return nn.View(-1) end, {B, 16, 8, 8}},
  {'Normalize(2)', function() return nn.Normalize(2) end, {B, 512}},
  {'CMul', function() return nn.CMul(512) end, {B, 512}},
  {'Add', function() return nn.Add(512) end, {B, 512}},
  {'Mean(2)', function() return nn.Mean(2) end, {B, 512}},
  {'Sum(2)', function() return nn.Sum(2) end, {B, 512}},
  {'Max(2)', function() return nn.Max(2) end, {B, 512}},
  {'Transpose', function() return nn.Transpose({1, 2}) end, {B, 512}},
}
for _, c in ipairs(cases) do
  local m = c[2]()
  local x = torch.randn(unpack(c[3]))
  local y = m:forward(x)
  local go = y:clone():normal()
  report('layer/' .. c[1] .. '_fwd', B, function() m:forward(x) end)
  report('layer/' .. c[1] .. '_bwd', B, function() m:zeroGradParameters(); m:backward(x, go) end)
end
local x = torch.randn(B, 10); local t = torch.LongTensor(B):random(1, 10)
for _, c in ipairs{{'ClassNLL', nn.ClassNLLCriterion()}, {'CrossEntropy', nn.CrossEntropyCriterion()}, {'MSE', nn.MSECriterion()}} do
  local tgt = c[1] == 'MSE' and torch.randn(B, 10) or t
  local inp = c[1] == 'ClassNLL' and nn.LogSoftMax():forward(x):clone() or x
  report('criterion/' .. c[1] .. '_fwd', B, function() c[2]:forward(inp, tgt) end)
  report('criterion/' .. c[1] .. '_bwd', B, function() c[2]:backward(inp, tgt) end)
end
local lt = nn.LookupTable(10000, 128); local idx = torch.LongTensor(B, 20):random(1, 10000)
local y = lt:forward(idx); local go = y:clone():normal()
report('layer/LookupTable_fwd', B, function() lt:forward(idx) end)
report('layer/LookupTable_bwd', B, function() lt:zeroGradParameters(); lt:backward(idx, go) end)
local jt = nn.JoinTable(2); local a, b = torch.randn(B, 256), torch.randn(B, 256)
report('layer/JoinTable_fwd', B, function() jt:forward({a, b}) end)
local ct = nn.CAddTable()
report('layer/CAddTable_fwd', B, function() ct:forward({a, b}) end)
