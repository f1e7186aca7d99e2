-- Per-call cost of BLAS levels 1 to 3 at every size and operand layout, and of
-- the products nn.Linear makes, under any th (only Torch7's API is used).
-- Prints "op size microseconds" lines (size: multiply-adds of the product);
-- compare with  python scripts/bench/compare.py --script scripts/bench/blas.lua
--   th blas.lua [budget_seconds] [filter]
local budget = tonumber(arg and arg[1]) or 0.02
local filter = arg and arg[2]

package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)

torch.manualSeed(1)
-- level 1
for _, n in ipairs{10, 100, 10000, 1000000} do
   local x, y = torch.rand(n), torch.rand(n)
   local xf, yf = x:float(), y:float()
   report('dot/double', n, function() local _ = x:dot(y) end)
   report('dot/float', n, function() local _ = xf:dot(yf) end)
   report('dot/strided', n, function() local _ = x:narrow(1, 1, n / 2):dot(y:unfold(1, 1, 2):select(2, 1)) end)
end

-- level 2: m x m matrices
for _, m in ipairs{4, 10, 32, 100, 300, 1000} do
   local A, v, w = torch.rand(m, m), torch.rand(m), torch.rand(m)
   local r, R = torch.Tensor(m), torch.Tensor(m, m)
   local Af, vf = A:float(), v:float()
   local rf = vf:clone()
   local n = m * m
   report('mv/N', n, function() r:mv(A, v) end)
   report('mv/T', n, function() r:mv(A:t(), v) end)
   report('mv/float', n, function() rf:mv(Af, vf) end)
   report('mv/new', n, function() local _ = torch.mv(A, v) end)
   report('addmv/N', n, function() r:addmv(0.5, w, 2, A, v) end)
   report('addmv/T', n, function() r:addmv(0.5, w, 2, A:t(), v) end)
   report('ger/new', n, function() local _ = torch.ger(v, w) end)
   report('addr/inplace', n, function() R:addr(0.5, v, w) end)
end

-- level 3: m x m products in every layout (T: the operand is a transposed view)
for _, m in ipairs{4, 10, 32, 100, 300, 1000} do
   local A, B, C = torch.rand(m, m), torch.rand(m, m), torch.rand(m, m)
   local R = torch.Tensor(m, m)
   local Af, Bf = A:float(), B:float()
   local Rf = Af:clone()
   local n = m * m * m
   report('mm/NN', n, function() R:mm(A, B) end)
   report('mm/TN', n, function() R:mm(A:t(), B) end)
   report('mm/NT', n, function() R:mm(A, B:t()) end)
   report('mm/TT', n, function() R:mm(A:t(), B:t()) end)
   report('mm/new', n, function() local _ = torch.mm(A, B) end)
   report('mm/float', n, function() Rf:mm(Af, Bf) end)
   report('mm/float_NT', n, function() Rf:mm(Af, Bf:t()) end)
   report('addmm/NN', n, function() C:addmm(0.5, 2, A, B) end)
   report('addmm/TN', n, function() C:addmm(0.5, 2, A:t(), B) end)
   report('addmm/res_T', n, function() C:t():addmm(0.5, 2, A, B) end)
   if m <= 300 then
      local bA, bB = torch.rand(8, m, m), torch.rand(8, m, m)
      local bR = torch.rand(8, m, m)
      report('bmm/8', 8 * n, function() bR:bmm(bA, bB) end)
      report('baddbmm/8', 8 * n, function() bR:baddbmm(0.5, 2, bA, bB) end)
      report('addbmm/8', 8 * n, function() R:addbmm(0.5, 2, bA, bB) end)
   end
end

-- nn.Linear(in, out) on a batch of b rows: the products of its three passes
for _, c in ipairs{{1, 100, 50}, {16, 100, 50}, {128, 100, 50}, {16, 784, 256}, {128, 784, 256}} do
   local b, nin, nout = c[1], c[2], c[3]
   local x, W, bias = torch.rand(b, nin), torch.rand(nout, nin), torch.rand(nout)
   local y, g, gx = torch.rand(b, nout), torch.rand(b, nout), torch.rand(b, nin)
   local gW, gb, ones = torch.rand(nout, nin), torch.rand(nout), torch.ones(b)
   local n = b * nin * nout
   local tag = string.format('_%dx%dx%d', b, nin, nout)
   report('linear/forward' .. tag, n, function() y:addmm(0, y, 1, x, W:t()) end)
   report('linear/bias_addr' .. tag, b * nout, function() y:addr(1, ones, bias) end)
   report('linear/gradInput' .. tag, n, function() gx:addmm(0, 1, g, W) end)
   report('linear/gradWeight' .. tag, n, function() gW:addmm(0.1, g:t(), x) end)
   report('linear/gradBias' .. tag, b * nout, function() gb:addmv(0.1, g:t(), ones) end)
end
