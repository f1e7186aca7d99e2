-- Does a call slow down once the process has done much else?  Times a few
-- small calls, runs every family of families.lua once in this process (its
-- output dropped), times them again, and prints "name before_us after_us
-- after/before" lines, then the Lua heap before and after (KB).  Under th
-- the collector and the JIT's state grew with the work (README, "Eleventh
-- session"); under the original the figures stay put.  With `jitoff`, the
-- pass runs with LuaJIT's compiler off (the calls timed keep it on): under
-- th the calls then cost what they did before ("Twelfth session"): what
-- slows them is the compiled code the pass left, not its heap.
--   th drift.lua [budget_seconds] [jitoff]
local budget = tonumber(arg and arg[1]) or 0.05
local jitoff = arg and arg[2] == 'jitoff'
local here = debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './'
package.path = here .. '?.lua;' .. package.path
local report = require('bench').reporter(budget)

local m = 10
local A, B = torch.rand(m, m), torch.rand(m, m)
local x, v = torch.rand(100), torch.rand(m)
local gidx = torch.LongTensor(m, m):random(1, m)
local cases = {
   {'gather_10x10', function() local _ = A:gather(2, gidx) end},
   {'mm_10x10', function() local _ = torch.mm(A, B) end},
   {'sum_dim_10x10', function() local _ = A:sum(2) end},
   {'gt_100', function() local _ = torch.gt(x, 0.5) end},
   {'clone_100', function() local _ = x:clone() end},
   {'mv_10x10', function() local _ = torch.mv(A, v) end},
}

-- the figures report would print, captured
local function measure()
   local figures, print0 = {}, print
   print = function(line) figures[#figures + 1] = tonumber(line:match('(%S+)$')) end
   for _, c in ipairs(cases) do report(c[1], 0, c[2]) end
   print = print0
   return figures
end

local before, heap0 = measure(), collectgarbage('count')
local families, print0 = assert(loadfile(here .. 'families.lua')), print
arg = {0.002}
print = function() end
if jitoff then jit.off() end
families()
if jitoff then jit.on() end
print = print0
local after, heap1 = measure(), collectgarbage('count')
for i, c in ipairs(cases) do
   print(string.format('%-14s %8.2f %8.2f %6.2f', c[1], before[i], after[i], after[i] / before[i]))
end
print(string.format('heap_kb %8.0f %8.0f', heap0, heap1))
