-- Element-wise operations on non-contiguous operands (transposed matrices,
-- permuted 3-D tensors) at three sizes: "op size microseconds" per call, CPU
-- time, best of 5 runs.  Run it under th and the original Torch7 side by side:
--   th scripts/bench/strided.lua [sizes, e.g. 10,100,1000] [op pattern]
local sizes = {}
for s in ((arg and arg[1]) or '10,100,1000'):gmatch('%d+') do sizes[#sizes + 1] = tonumber(s) end
local only = arg and arg[2]

local function time(f, budget)
   f()
   local best = math.huge
   for _ = 1, 5 do
      local reps = 1
      while true do
         local t = os.clock()
         for _ = 1, reps do f() end
         local e = os.clock() - t
         if e > budget or reps >= 2^20 then best = math.min(best, e / reps * 1e6) break end
         reps = reps * 2
      end
   end
   return best
end

torch.manualSeed(1)
for _, n in ipairs(sizes) do
   local A, B = torch.rand(n, n), torch.rand(n, n)
   local At = A:t()
   local m = math.max(2, math.floor((n * n / 30) ^ (1 / 3) + 0.5))
   local C = torch.rand(m, m + 1, m + 2)
   local Ct = C:transpose(1, 3)
   local R = torch.Tensor(n, n)
   local ops = {
      {'addcmul', function() return torch.addcmul(A, 0.5, At, B) end},
      {'transpose3d', function() return Ct:clone() end},
      {'maxall', function() return At:max() end},
      {'minall3d', function() return Ct:min() end},
      {'sumall', function() return At:sum() end},
      {'addT', function() return torch.add(At, B) end},
      {'addcT', function() return torch.add(At, 2) end},
      {'fill3dT', function() Ct:fill(1) end},
      {'zeroT', function() At:zero() end},
      {'cmulT', function() return torch.cmul(At, B) end},
      {'abs3d', function() return torch.abs(C) end},
      {'abs3dT', function() return torch.abs(Ct) end},
      {'eqT', function() return torch.eq(At, B) end},
      {'ltT', function() return At:lt(0.5) end},
      {'clampT', function() return torch.clamp(At, 0.2, 0.8) end},
      {'narrow3d', function() return C:narrow(3, 2, 2):clone() end},
      {'signT', function() return torch.sign(At) end},
      {'copyT', function() R:copy(At) end},
      {'copyTfloat', function() R:copy(At:float()) end},
      {'typeconvT', function() return At:int() end},
      {'expT', function() return torch.exp(At) end},
      {'cumprod3d2', function() return C:cumprod(2) end},
   }
   for _, op in ipairs(ops) do
      if not only or op[1]:find(only) then
         io.write(string.format('%s %d %.3f\n', op[1], n, time(op[2], n >= 1000 and 0.05 or 0.01)))
         io.flush()
      end
   end
end
