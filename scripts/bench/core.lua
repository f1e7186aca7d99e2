-- The Tensor core: scalar access from Lua and view creation.
package.path = arg[0]:match('^(.*[/\\])') .. '?.lua;' .. package.path
local bench = require 'bench'

local N = 1e6
local x = torch.Tensor(N):fill(1)
bench.run('scalar_read', N, function()
   local s = 0
   for i = 1, N do s = s + x[i] end
   return s
end)

local st = torch.Storage(N)
bench.run('storage_write', N, function()
   for i = 1, N do st[i] = i end
end)

local m = torch.Tensor(10, 10)
local M = 2e5
bench.run('narrow_select_size', M, function()
   local n = 0
   for i = 1, M do n = n + m:narrow(1, 2, 3):select(2, 5):size(1) end
   return n
end)
