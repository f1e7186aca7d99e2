-- The cost of making tensors and storages, per call, at every size: prints
-- "op size microseconds" lines (CPU time), as /work/shared/bench/sweep.lua.
-- Compare two th's with scripts/bench/alloc.sh TH_A TH_B [runs].
-- `new` and `storage` leave the buffer untouched; `new_copy`, `zeros_fill`
-- write it, as real code does; the others are operations making a result.
local sizes = {10, 1000, 10000, 100000, 1000000}
local budget = tonumber(arg and arg[1]) or 0.1   -- seconds per measurement
local clock = os.clock
local function time(f)
   f()
   local reps = 1
   while true do
      local t = clock()
      for _ = 1, reps do f() end
      local e = clock() - t
      if e > budget or reps >= 1e7 then return e / reps * 1e6 end
      reps = reps * 4
   end
end
torch.manualSeed(1)
for _, n in ipairs(sizes) do
   local y, z = torch.rand(n), torch.rand(n)
   local m = math.floor(math.sqrt(n))
   local A = torch.rand(m, m)
   local ops = {
      {'new', function() local r = torch.Tensor(n) end},
      {'storage', function() local r = torch.DoubleStorage(n) end},
      {'new_copy', function() local r = torch.Tensor(n):copy(y) end},
      {'zeros_fill', function() local r = torch.zeros(n):fill(1) end},
      {'clone', function() local r = y:clone() end},
      {'cmul_alloc', function() local r = torch.cmul(y, z) end},
      {'exp_alloc', function() local r = torch.exp(y) end},
      {'gt_mask', function() local r = torch.gt(y, 0.5) end},
      {'sum_dim', function() local r = A:sum(2) end},
      {'narrow', function() local r = y:narrow(1, 1, 5) end},
   }
   for _, op in ipairs(ops) do
      print(string.format('%s %d %.3f', op[1], n, time(op[2])))
   end
end
