-- Small operations for instructions.py, which runs this script under
-- valgrind's callgrind and counts the instructions of each operation: a
-- measure that a busy machine does not move.  Each operation runs `warm`
-- times, then `n` times between two calls of os.clock (C's clock(), at
-- which callgrind dumps its counts); its name goes to stderr after.
--   th instructions.lua [n [nogc [filter [context]]]]
-- nogc: the collector stopped (the instructions of the operation itself,
-- without the collection its garbage costs later).  context: every family
-- of families.lua runs first, at 100 and 10^4 elements, a fixed number of
-- calls each: the operations are then counted in the JIT's state of a long
-- process (traces made for other operations, which theirs may link to).
local n = tonumber(arg and arg[1]) or 30000
local nogc = arg and arg[2] == 'nogc'
local filter = arg and arg[3] ~= '' and arg[3] or nil
local context = arg and arg[4] == 'context'
local warm = 300
if nogc then collectgarbage('stop') end
-- th imports numpy in a helper thread 0.3 s into a script (valgrind's
-- seconds): its 300 million instructions landed in whichever operation was
-- being counted then (a new 10x10 read 8,057 instead of 5,640).  Imported
-- here first; the original has no torch.internal
pcall(function()
   local internal = require 'torch.internal'
   internal.ndview(internal.tensors[torch.Tensor(2)])
end)

if context then
   package.preload.bench = function()
      return {reporter = function()
         return function(_, size, f)
            if size <= 10000 then
               for _ = 1, size <= 100 and 100 or 10 do f() end
            end
         end
      end}
   end
   local here = debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './'
   local families, given = assert(loadfile(here .. 'families.lua')), arg
   arg = {}
   families()
   arg = given
end

torch.manualSeed(1)
local x, y, v = torch.rand(10, 10), torch.rand(10, 10), torch.rand(100)
local r = torch.Tensor(10, 1)
local idx = torch.LongTensor{1, 3, 5}
local gidx = torch.LongTensor(10, 10):random(1, 10)
local mask = torch.ByteTensor(10, 10):bernoulli(0.5)

local ops = {
   {'new_10x10', function() local _ = torch.Tensor(10, 10) end},
   {'new_empty', function() local _ = torch.Tensor() end},
   {'clone', function() local _ = x:clone() end},
   {'contiguous_of_t', function() local _ = x:t():contiguous() end},
   {'float', function() local _ = x:float() end},
   {'size', function() local _ = x:size() end},
   {'t', function() local _ = x:t() end},
   {'select', function() local _ = x:select(1, 2) end},
   {'narrow', function() local _ = x:narrow(1, 2, 3) end},
   {'view', function() local _ = v:view(10, 10) end},
   {'unfold', function() local _ = v:unfold(1, 10, 10) end},
   {'resize_same', function() x:resize(10, 10) end},
   {'index_row', function() local _ = x[2] end},
   {'index_element', function() local _ = x[{2, 3}] end},
   {'assign_row_number', function() x[2] = 1 end},
   {'assign_row_tensor', function() x[2] = y[3] end},
   {'assign_column', function() x[{{}, 2}] = 0 end},
   {'narrow_copy', function() x:narrow(1, 2, 3):copy(y:narrow(1, 1, 3)) end},
   {'copy', function() x:copy(y) end},
   {'fill', function() x:fill(1) end},
   {'add_new', function() local _ = torch.add(x, y) end},
   {'add_inplace', function() x:add(y) end},
   {'cmul_inplace', function() x:cmul(y) end},
   {'eq_new', function() local _ = x:eq(y) end},
   {'sum', function() local _ = x:sum() end},
   {'sum_dim_new', function() local _ = x:sum(2) end},
   {'sum_dim_into', function() r:sum(x, 2) end},
   {'max_dim_new', function() local _ = x:max(2) end},
   {'mean', function() local _ = x:mean() end},
   {'std', function() local _ = x:std() end},
   {'mm_new', function() local _ = torch.mm(x, y) end},
   {'index', function() local _ = x:index(1, idx) end},
   {'gather', function() local _ = x:gather(2, gidx) end},
   {'maskedSelect', function() local _ = x:maskedSelect(mask) end},
   {'cat', function() local _ = torch.cat(x, y, 1) end},
   {'sort', function() local _ = torch.sort(v) end},
   {'apply', function() x:apply(function(a) return a end) end},
}

for _, op in ipairs(ops) do
   if not filter or op[1]:find(filter, 1, true) then
      local f = op[2]
      for _ = 1, warm do f() end
      -- (a full cycle first: the collection an earlier operation's garbage
      -- still owes would be counted in this one's; 3,000 -> 6,000 for an
      -- operation that makes none)
      collectgarbage()
      if nogc then collectgarbage('stop') end   -- (a full cycle restarts the collector)
      os.clock()
      for _ = 1, n do f() end
      os.clock()
      io.stderr:write(op[1], '\n')
   end
end
