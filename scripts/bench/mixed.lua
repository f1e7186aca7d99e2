-- A program's mix: 22 common small operations called in turn (new results,
-- views, reductions, BLAS, masks), whose traces share th's dispatch and
-- tensor-making code, and the heap all their results churn.  Prints "mix
-- n microseconds" (one pass over all of them) at 10x10 and 32x32, then each
-- operation's cost alone, after the mix, as "op n microseconds" lines for
-- scripts/bench/compare.py:
--   python scripts/bench/compare.py --script mixed.lua [--runs 3]
local budget = tonumber(arg and arg[1]) or 0.02
local filter = arg and arg[2]
package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)

for _, S in ipairs{10, 32} do
   torch.manualSeed(1)
   local A, B, R = torch.rand(S, S), torch.rand(S, S), torch.rand(S, S)
   local v = torch.rand(S)
   local mask = torch.gt(A, 0.5)
   local idx = torch.LongTensor{1, 3, 2}
   local ops = {
      {'trunc', function() return torch.trunc(A) end}, {'add', function() return torch.add(A, B) end},
      {'sum_dim', function() return A:sum(2) end}, {'max_dim', function() return A:max(1) end},
      {'cmul', function() return torch.cmul(A, B) end}, {'clone', function() return A:clone() end},
      {'gt_number', function() return A:gt(0.5) end}, {'exp', function() return torch.exp(A) end},
      {'transposed_contiguous', function() return A:t():contiguous() end},
      {'index', function() return A:index(1, idx) end}, {'maskedSelect', function() return A:maskedSelect(mask) end},
      {'copy', function() R:copy(B) end}, {'fill', function() R:fill(1) end}, {'mean', function() return A:mean() end},
      {'mm', function() return torch.mm(A, B) end}, {'narrow_sum', function() return A:narrow(1, 2, 3):sum() end},
      {'row_dot', function() return A[2]:dot(v) end}, {'cumsum', function() return torch.cumsum(A, 2) end},
      {'std', function() return A:std() end}, {'pow', function() return torch.pow(A, 2) end},
      {'addcmul', function() R:addcmul(0.1, A, B) end}, {'abs', function() return torch.abs(A) end},
   }
   local function mix() for k = 1, #ops do ops[k][2]() end end
   -- (a program past its first moments: th's background numpy import done)
   local warm = torch.Timer()
   while warm:time().real < 0.3 do mix() end
   report('mix', S * S, mix)
   for _, op in ipairs(ops) do report('after_mix/' .. op[1], S * S, op[2]) end
end
