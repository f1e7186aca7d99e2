-- Per-call cost of what families.lua leaves out: joining, splitting and
-- reshaping (cat, split, chunk, expand, repeatTensor, unfold, view, reshape,
-- permute, squeeze), element access through Lua (x[i][j], x[{i, j}],
-- x[{{a, b}, j}]), constructors (zeros, ones, eye, range, linspace,
-- randperm), matrix structure (diag, tril, triu, trace, cross) and batched
-- BLAS (bmm, baddbmm, addr), at three sizes, under any th (only Torch7's API
-- is used).  Prints "op size microseconds" lines, as families.lua:
-- compare.py --script shapes.lua.
--   th shapes.lua [budget_seconds] [filter]
local budget = tonumber(arg and arg[1]) or 0.02
local filter = arg and arg[2]

package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)

torch.manualSeed(1)
for _, n in ipairs({100, 10000, 1000000}) do
   local m = math.floor(math.sqrt(n))
   local x, y = torch.rand(n), torch.rand(n)
   local A, B = torch.rand(m, m), torch.rand(m, m)
   local v, w = torch.rand(m), torch.rand(m)
   local b = math.max(1, math.floor(m / 10))
   local P, Q = torch.rand(b, 10, 10), torch.rand(b, 10, 10)
   local R = torch.rand(b, 10, 10)

   report('join/cat', n, function() local _ = torch.cat(x, y) end)
   report('join/cat_dim2', n, function() local _ = torch.cat(A, B, 2) end)
   report('join/split', n, function() local _ = A:split(math.max(1, math.floor(m / 4))) end)
   report('join/chunk', n, function() local _ = A:chunk(4) end)
   report('shape/expand_copy', n, function() A:copy(v:view(1, m):expand(m, m)) end)
   report('shape/repeatTensor', n, function() local _ = v:repeatTensor(m, 1) end)
   report('shape/unfold', n, function() local _ = x:unfold(1, 10, 10) end)
   report('shape/view', n, function() local _ = x:view(m, -1) end)
   report('shape/reshape', n, function() local _ = x:reshape(m, x:nElement() / m) end)
   report('shape/permute_contiguous', n, function() local _ = A:permute(2, 1):contiguous() end)
   report('shape/squeeze', n, function() local _ = A:view(1, m, 1, m):squeeze() end)
   report('access/index_index', n, function()
      local s = 0
      for i = 1, 10 do s = s + A[i % m + 1][1] end
   end)
   report('access/table_index', n, function()
      local s = 0
      for i = 1, 10 do s = s + A[{i % m + 1, 1}] end
   end)
   report('access/table_range', n, function() local _ = A[{{1, math.max(1, m / 2)}, 1}] end)
   report('access/table_assign', n, function() A[{{}, 1}] = 0.5 end)
   report('make/zeros', n, function() local _ = torch.zeros(n) end)
   report('make/ones', n, function() local _ = torch.ones(n) end)
   report('make/eye', n, function() local _ = torch.eye(m) end)
   report('make/range', n, function() local _ = torch.range(1, n) end)
   report('make/linspace', n, function() local _ = torch.linspace(0, 1, n) end)
   report('make/randperm', n, function() local _ = torch.randperm(n) end)
   report('matrix/diag', n, function() local _ = torch.diag(A) end)
   report('matrix/tril', n, function() local _ = torch.tril(A) end)
   report('matrix/triu', n, function() local _ = torch.triu(A) end)
   report('matrix/trace', n, function() local _ = torch.trace(A) end)
   report('matrix/cross', n, function() local _ = torch.cross(A:narrow(1, 1, 3), B:narrow(1, 1, 3), 1) end)
   report('batch/bmm', n, function() local _ = torch.bmm(P, Q) end)
   report('batch/baddbmm', n, function() R:baddbmm(0.5, P, Q) end)
   report('batch/addr', n, function() A:addr(0.5, v, w) end)
end
