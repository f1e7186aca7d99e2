-- torch.setnumthreads(n) / torch.getnumthreads(): how many threads the bulk
-- operations use (th/ops/threads.py); Torch7's default is one per core.
local torch = require 'torch'
local internal = require 'torch.internal'

local py, type, tonumber, floor, tobit = internal.py, type, tonumber, math.floor, bit.tobit
local count   -- the thread count, once asked

-- n as luaL_checkint read it: a number or numeric string, cut toward zero,
-- wrapped into a C int; fewer than one thread is one
function torch.setnumthreads(...)
   local n = ...
   local v = type(n) ~= 'table' and tonumber(n)
   if not v then
      -- (named as luaL_argerror named the C function: 'setnumthreads' when
      -- called by that name, '?' from C, pcall(torch.setnumthreads, ''))
      internal.fail("bad argument #1 to 'setnumthreads' (number expected, got %s)", select('#', ...) == 0 and 'no value' or type(n))
   end
   v = tobit(v < 0 and -floor(-v) or floor(v))
   py.setnumthreads(v)
   count = nil
end

-- (kept in Lua: the fused add asks at every call)
function torch.getnumthreads()
   if not count then count = py.getnumthreads() end
   return count
end
