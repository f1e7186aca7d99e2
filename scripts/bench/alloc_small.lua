-- The operations that make a new tensor, at small and medium sizes, where the
-- cost of making the result (proxy, storage, buffer) is most of the call:
-- prints "op size microseconds" lines (CPU time per call), as
-- /work/shared/bench/sweep.lua.  Compare two th's with
-- `SCRIPT=alloc_small.lua scripts/bench/alloc.sh TH_A TH_B [runs]`.
local sizes = {10, 100, 1000, 10000, 100000, 1000000}
local budget = tonumber(arg and arg[1]) or 0.05   -- seconds per measurement
local clock = os.clock
local function time(f)
   local t0 = clock()
   repeat f() until clock() - t0 > budget / 4   -- warm up (traces, the collector's pace)
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
   local y = torch.rand(n)
   local m = math.floor(math.sqrt(n))
   local A = torch.rand(m, m)
   local ops = {
      {'new_tensor', function() local r = torch.Tensor(n) end},
      {'sum_dim', function() local r = A:sum(2) end},
      {'exp_alloc', function() local r = torch.exp(y) end},
      {'sigmoid', function() local r = torch.sigmoid(y) end},
      {'gt_mask', function() local r = torch.gt(y, 0.5) end},
      {'clone', function() local r = y:clone() end},
   }
   for _, op in ipairs(ops) do
      print(string.format('%s %d %.3f', op[1], n, time(op[2])))
   end
end
