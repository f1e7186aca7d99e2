-- More nn layers and criteria than nn_layers.lua, at a batch of 32 (Double),
-- forward and backward: the temporal, volumetric, full and dilated
-- convolutions, the other poolings and paddings, normalisations, the
-- element-wise and table layers, distances and the rest of the criteria.
-- Prints "name 32 microseconds" lines; compare with
--   python scripts/bench/compare.py --script scripts/bench/nn_layers_more.lua
-- (both th's need nn on LUA_PATH)
require 'nn'
local budget = tonumber(arg and arg[1]) or 0.02
local filter = arg and arg[2]
package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)
torch.manualSeed(1)
local B = 32
local function randn(...) return torch.randn(...) end
local cases = {
  {'TemporalConvolution(64,64,3)', function() return nn.TemporalConvolution(64, 64, 3) end, {B, 50, 64}},
  {'TemporalMaxPooling(2)', function() return nn.TemporalMaxPooling(2) end, {B, 50, 64}},
  {'SpatialFullConvolution(16,16,3)', function() return nn.SpatialFullConvolution(16, 16, 3, 3, 1, 1, 1, 1) end,
   {B, 16, 16, 16}},
  {'SpatialDilatedConvolution(16,16,3,d2)',
   function() return nn.SpatialDilatedConvolution(16, 16, 3, 3, 1, 1, 2, 2, 2, 2) end, {B, 16, 16, 16}},
  {'VolumetricConvolution(8,8,3)', function() return nn.VolumetricConvolution(8, 8, 3, 3, 3, 1, 1, 1, 1, 1, 1) end,
   {8, 8, 8, 16, 16}},
  {'VolumetricMaxPooling(2)', function() return nn.VolumetricMaxPooling(2, 2, 2) end, {8, 8, 8, 16, 16}},
  {'SpatialMaxPooling(3,2)', function() return nn.SpatialMaxPooling(3, 3, 2, 2, 1, 1) end, {B, 16, 32, 32}},
  {'SpatialUpSamplingNearest(2)', function() return nn.SpatialUpSamplingNearest(2) end, {B, 16, 16, 16}},
  {'SpatialReflectionPadding(1)', function() return nn.SpatialReflectionPadding(1, 1, 1, 1) end, {B, 16, 16, 16}},
  {'SpatialZeroPadding(1)', function() return nn.SpatialZeroPadding(1, 1, 1, 1) end, {B, 16, 16, 16}},
  {'SpatialCrossMapLRN(5)', function() return nn.SpatialCrossMapLRN(5) end, {B, 16, 16, 16}},
  {'SpatialSoftMax', function() return nn.SpatialSoftMax() end, {B, 16, 16, 16}},
  {'SpatialDropout(0.5)', function() return nn.SpatialDropout(0.5) end, {B, 16, 16, 16}},
  {'LogSigmoid', function() return nn.LogSigmoid() end, {B, 4096}},
  {'SoftMin', function() return nn.SoftMin() end, {B, 1000}},
  {'Threshold', function() return nn.Threshold(0.1, 0) end, {B, 4096}},
  {'PReLU', function() return nn.PReLU() end, {B, 4096}},
  {'RReLU', function() return nn.RReLU() end, {B, 4096}},
  {'Square', function() return nn.Square() end, {B, 4096}},
  {'Sqrt', function() return nn.Sqrt() end, {B, 4096}},
  {'Power(2)', function() return nn.Power(2) end, {B, 4096}},
  {'Exp', function() return nn.Exp() end, {B, 4096}},
  {'Log', function() return nn.Log() end, {B, 4096}},
  {'Abs', function() return nn.Abs() end, {B, 4096}},
  {'MulConstant', function() return nn.MulConstant(0.5) end, {B, 4096}},
  {'Replicate(4)', function() return nn.Replicate(4, 2) end, {B, 256}},
  {'Padding(2,3)', function() return nn.Padding(2, 3) end, {B, 256}},
  {'Narrow(2,10,100)', function() return nn.Narrow(2, 10, 100) end, {B, 256}},
  {'Reshape(16,16)', function() return nn.Reshape(16, 16) end, {B, 256}},
  {'Euclidean(256,64)', function() return nn.Euclidean(256, 64) end, {B, 256}},
  {'Bilinear(64,64,32)', function() return nn.Bilinear(64, 64, 32) end, {{B, 64}, {B, 64}}},
  {'Min(2)', function() return nn.Min(2) end, {B, 512}},
  {'Concat(2)', function() return nn.Concat(2):add(nn.Linear(256, 128)):add(nn.Linear(256, 64)) end, {B, 256}},
  {'SplitTable(2)', function() return nn.SplitTable(2) end, {B, 64}},
  {'CMulTable', function() return nn.CMulTable() end, {{B, 512}, {B, 512}}},
  {'CosineDistance', function() return nn.CosineDistance() end, {{B, 256}, {B, 256}}},
  {'PairwiseDistance(2)', function() return nn.PairwiseDistance(2) end, {{B, 256}, {B, 256}}},
  {'DotProduct', function() return nn.DotProduct() end, {{B, 256}, {B, 256}}},
  {'MM', function() return nn.MM() end, {{B, 16, 32}, {B, 32, 16}}},
}
-- an input of these sizes, or a table of inputs for a table of sizes
local function input(sizes)
  if type(sizes[1]) == 'table' then
    local t = {}
    for i, s in ipairs(sizes) do t[i] = randn(unpack(s)) end
    return t
  end
  return randn(unpack(sizes))
end
local function like(y)
  if type(y) == 'table' then
    local t = {}
    for i, v in ipairs(y) do t[i] = like(v) end
    return t
  end
  return y:clone():normal()
end
for _, c in ipairs(cases) do
  local m = c[2]()
  local x = input(c[3])
  if c[1]:find('^Sqrt') or c[1]:find('^Log$') then x:abs():add(0.1) end
  local y = m:forward(x)
  local go = like(y)
  report('layer/' .. c[1] .. '_fwd', B, function() m:forward(x) end)
  report('layer/' .. c[1] .. '_bwd', B, function() m:zeroGradParameters(); m:backward(x, go) end)
end
local x, y = torch.randn(B, 10), torch.randn(B, 10)
local labels = torch.LongTensor(B):random(1, 10)
local signs = torch.Tensor(B):random(0, 1):mul(2):add(-1)
local criteria = {
  {'BCE', nn.BCECriterion(), torch.rand(B, 10), torch.rand(B, 10):gt(0.5):double()},
  {'SmoothL1', nn.SmoothL1Criterion(), x, y},
  {'Abs', nn.AbsCriterion(), x, y},
  {'DistKLDiv', nn.DistKLDivCriterion(), x, torch.rand(B, 10)},
  {'MultiMargin', nn.MultiMarginCriterion(), x, labels},
  {'MultiLabelSoftMargin', nn.MultiLabelSoftMarginCriterion(), x, torch.rand(B, 10):gt(0.5):double()},
  {'SoftMargin', nn.SoftMarginCriterion(), x, torch.rand(B, 10):gt(0.5):double():mul(2):add(-1)},
  {'Margin', nn.MarginCriterion(), x, torch.rand(B, 10):gt(0.5):double():mul(2):add(-1)},
  {'HingeEmbedding', nn.HingeEmbeddingCriterion(), x, torch.rand(B, 10):gt(0.5):double():mul(2):add(-1)},
  {'CosineEmbedding', nn.CosineEmbeddingCriterion(), {x, y}, signs},
  {'MarginRanking', nn.MarginRankingCriterion(), {torch.randn(B), torch.randn(B)}, signs},
  {'L1HingeEmbedding', nn.L1HingeEmbeddingCriterion(), {torch.randn(10), torch.randn(10)}, 1},
}
for _, c in ipairs(criteria) do
  local crit, inp, tgt = c[2], c[3], c[4]
  report('criterion/' .. c[1] .. '_fwd', B, function() crit:forward(inp, tgt) end)
  report('criterion/' .. c[1] .. '_bwd', B, function() crit:backward(inp, tgt) end)
end
