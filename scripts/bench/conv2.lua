-- Per-call times of conv2/xcorr2 and conv3/xcorr3 over sizes from tiny to
-- large, valid and full, Double and Float, and the 3-D input by 4-D kernel
-- form as nn uses it (planes in, kernels [out][in]), and its volumes' form.
-- CONV_ONLY=pattern (environment) runs the cases whose name matches.  Prints `BENCH <name> <seconds per call>`
-- as bench.lua does, but stands alone: it runs under the original Torch7 too
-- (whose th does not set arg[0] to the script), for ratios th/original.
local bench = {}
function bench.run(name, ops, f, repeats)
   f()
   local times = {}
   for r = 1, repeats do
      collectgarbage()
      local timer = torch.Timer()
      f()
      times[r] = timer:time().real / ops
   end
   table.sort(times)
   print(string.format('BENCH %s %.6e', name, times[math.floor((repeats + 1) / 2)]))
end

torch.manualSeed(1)
-- half a second of work first: th imports numpy in a helper thread once a
-- script has run 50 ms, which would slow down whatever is timed meanwhile
local warm = torch.Timer()
while warm:time().real < 0.5 do torch.conv2(torch.rand(30, 30), torch.rand(5, 5)) end
-- calls per timed run, so that each run lasts a few milliseconds at least
local function calls(work) return math.max(1, math.floor(2e6 / work)) end

local CASES = {
   {'8x8_by_3x3', {8, 8}, {3, 3}},
   {'32x32_by_5x5', {32, 32}, {5, 5}},
   {'100x100_by_9x9', {100, 100}, {9, 9}},
   {'1000x1000_by_10x10', {1000, 1000}, {10, 10}},
   {'3x32x32_by_16x3x5x5', {3, 32, 32}, {16, 3, 5, 5}},
   {'16x28x28_by_32x16x5x5', {16, 28, 28}, {32, 16, 5, 5}},
   {'8x8x8_by_3x3x3', {8, 8, 8}, {3, 3, 3}, 3},
   {'32x32x32_by_5x5x5', {32, 32, 32}, {5, 5, 5}, 3},
   {'3x16x16x16_by_8x3x3x3x3', {3, 16, 16, 16}, {8, 3, 3, 3, 3}, 3},
}
local only = os.getenv('CONV_ONLY')
for _, T in ipairs{'Double', 'Float'} do
   for _, c in ipairs(CASES) do
      local x = torch[T .. 'Tensor'](torch.LongStorage(c[2])):uniform(-1, 1)
      local k = torch[T .. 'Tensor'](torch.LongStorage(c[3])):uniform(-1, 1)
      local d = c[4] or 2     -- planes or volumes
      local forms = d == 2 and {{'conv2', 'V'}, {'xcorr2', 'V'}, {'conv2', 'F'}}
                    or {{'conv3', 'V'}, {'xcorr3', 'V'}, {'conv3', 'F'}, {'xcorr3', 'F'}}
      for _, f in ipairs(forms) do
         local name = ('%s_%s_%s_%s'):format(f[1], f[2], c[1], T)
         if not only or name:match(only) then
            local n = calls(x:nElement() * k:nElement() / (#c[2] > d and c[2][1] or 1))
            local op = torch[f[1]]
            bench.run(name, n, function()
               for _ = 1, n do op(x, k, f[2]) end
            end, 3)
         end
      end
   end
end
