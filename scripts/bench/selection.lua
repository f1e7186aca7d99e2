-- Benchmark of the selection family: prints `BENCH <name> <median seconds per op>`.
-- Big tensors go through one numpy call each; small ones stay in LuaJIT.
-- Usage: th scripts/bench/selection.lua [reps]
local reps = tonumber(arg and arg[1]) or 21
local clock = os.clock

local function bench(name, f, inner)
   inner = inner or 1
   f()
   local times = {}
   for r = 1, reps do
      local t0 = clock()
      for _ = 1, inner do f() end
      times[r] = (clock() - t0) / inner
   end
   table.sort(times)
   io.write(string.format('BENCH %s %.6g\n', name, times[math.ceil(#times / 2)]))
end

local x = torch.Tensor(1000, 1000):fill(1)
local idx = torch.LongTensor(500)
for i = 1, 500 do idx[i] = (i * 7) % 1000 + 1 end
local gidx = torch.LongTensor(1000, 10):fill(3)
local mask = torch.ByteTensor(1000, 1000):zero()
mask:narrow(2, 1, 500):fill(1)
local src = torch.Tensor(500, 1000):fill(2)

bench('index_dim1_500x1000', function() return x:index(1, idx) end)
bench('index_dim2_1000x500', function() return x:index(2, idx) end)
bench('indexCopy_500x1000', function() x:indexCopy(1, idx, src) end)
bench('indexAdd_500x1000', function() x:indexAdd(1, idx, src) end)
bench('indexFill_500_rows', function() x:indexFill(1, idx, 0) end)
bench('gather_1000x10', function() return x:gather(2, gidx) end)
bench('maskedSelect_1e6', function() return x:maskedSelect(mask) end)
bench('maskedFill_1e6', function() x:maskedFill(mask, 3) end)
bench('maskedCopy_1e6', function() x:maskedCopy(mask, src) end)
bench('nonzero_1e6', function() return mask:nonzero() end)

local s = torch.Tensor({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
local si = torch.LongTensor({3, 1})
local sm = torch.ByteTensor({{1, 0, 1}, {0, 1, 0}, {1, 0, 1}})
bench('index_small_3x3', function() return s:index(1, si) end, 1000)
bench('maskedSelect_small_3x3', function() return s[sm] end, 1000)
bench('maskedFill_small_3x3', function() s[sm] = 0 end, 1000)
bench('nonzero_small_3x3', function() return s:nonzero() end, 1000)
