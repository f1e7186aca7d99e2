-- Benchmark of the selection family: prints `BENCH <name> <median seconds per op>`.
-- Big tensors go through one numpy call each; small ones stay in LuaJIT.
-- Usage: th scripts/bench/selection.lua [reps]
package.path = arg[0]:match('^(.*[/\\])') .. '?.lua;' .. package.path
local bench = require 'bench'
local reps = tonumber(arg and arg[1]) or 21

-- bench(name, f [, inner]): the median time of one f() over `inner` calls in a row
local function run(name, f, inner)
   inner = inner or 1
   bench.run(name, inner, function() for _ = 1, inner do f() end end, reps)
end

local x = torch.Tensor(1000, 1000):fill(1)
local idx = torch.LongTensor(500)
for i = 1, 500 do idx[i] = (i * 7) % 1000 + 1 end
local gidx = torch.LongTensor(1000, 10):fill(3)
local mask = torch.ByteTensor(1000, 1000):zero()
mask:narrow(2, 1, 500):fill(1)
local src = torch.Tensor(500, 1000):fill(2)

run('index_dim1_500x1000', function() return x:index(1, idx) end)
run('index_dim2_1000x500', function() return x:index(2, idx) end)
run('indexCopy_500x1000', function() x:indexCopy(1, idx, src) end)
run('indexAdd_500x1000', function() x:indexAdd(1, idx, src) end)
run('indexFill_500_rows', function() x:indexFill(1, idx, 0) end)
run('gather_1000x10', function() return x:gather(2, gidx) end)
run('maskedSelect_1e6', function() return x:maskedSelect(mask) end)
run('maskedFill_1e6', function() x:maskedFill(mask, 3) end)
run('maskedCopy_1e6', function() x:maskedCopy(mask, src) end)
run('nonzero_1e6', function() return mask:nonzero() end)

local s = torch.Tensor({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
local si = torch.LongTensor({3, 1})
local sm = torch.ByteTensor({{1, 0, 1}, {0, 1, 0}, {1, 0, 1}})
run('index_small_3x3', function() return s:index(1, si) end, 1000)
run('maskedSelect_small_3x3', function() return s[sm] end, 1000)
run('maskedFill_small_3x3', function() s[sm] = 0 end, 1000)
run('nonzero_small_3x3', function() return s:nonzero() end, 1000)
