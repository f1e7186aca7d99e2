-- Per-call cost of saving and loading (torch.save/load in binary and ascii,
-- serialize/deserialize, a table of small tensors as a model's checkpoint),
-- of printing tensors and of converting between tensors and Lua tables,
-- under any th (only Torch7's API is used).  Prints "op size microseconds"
-- lines, as families.lua: compare.py --script fileio.lua.  Files go to a
-- directory of their own under /tmp, removed at the end.
--   th fileio.lua [budget_seconds] [filter]
local budget = tonumber(arg and arg[1]) or 0.05
local filter = arg and arg[2]

package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)

local dir = os.tmpname()
os.remove(dir)
os.execute('mkdir ' .. dir)
local function path(name) return dir .. '/' .. name end

torch.manualSeed(1)
for _, n in ipairs({100, 10000, 1000000}) do
   local x = torch.rand(n)
   report('save/binary', n, function() torch.save(path('x.t7'), x) end)
   report('load/binary', n, function() local _ = torch.load(path('x.t7')) end)
   if n <= 10000 then
      report('save/ascii', n, function() torch.save(path('xa.t7'), x, 'ascii') end)
      report('load/ascii', n, function() local _ = torch.load(path('xa.t7'), 'ascii') end)
   end
   report('serialize', n, function() local _ = torch.serialize(x) end)
   local s = torch.serialize(x)
   report('deserialize', n, function() local _ = torch.deserialize(s) end)
end

-- a checkpoint: k layers of a 10x10 weight, a bias and a name
for _, k in ipairs({10, 1000}) do
   local model = {}
   for i = 1, k do model[i] = {weight = torch.rand(10, 10), bias = torch.rand(10), name = 'layer' .. i} end
   report('save/table', k, function() torch.save(path('model.t7'), model) end)
   report('load/table', k, function() local _ = torch.load(path('model.t7')) end)
end

local v, m = torch.rand(100), torch.rand(20, 20)
report('tostring/vector', 100, function() local _ = tostring(v) end)
report('tostring/matrix', 400, function() local _ = tostring(m) end)
local list, rows = {}, {}
for i = 1, 1000 do list[i] = i end
for i = 1, 100 do rows[i] = {} for j = 1, 10 do rows[i][j] = i + j end end
report('table/to_tensor', 1000, function() local _ = torch.Tensor(list) end)
report('table/to_tensor_2d', 1000, function() local _ = torch.Tensor(rows) end)
report('table/totable', 400, function() local _ = m:totable() end)

os.execute('rm -r ' .. dir)
