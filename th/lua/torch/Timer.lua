-- torch.Timer: a stopwatch measuring real (wall-clock), user and system CPU
-- time.  It starts running when created; stop() and resume() pause and
-- continue it, reset() sets it back to zero without changing whether it runs.
local torch = require 'torch'
local internal = require 'torch.internal'

local Timer = torch.class('torch.Timer')

local clock = internal.py.timer_clock

function Timer:__init()
   self.__running = true
   self.__total = {0, 0, 0}                -- real, user, sys accumulated while running
   self.__start = {clock()}
end

-- the totals as they are now
local function elapsed(self)
   local total = self.__total
   if not self.__running then
      return total[1], total[2], total[3]
   end
   local start = self.__start
   local real, user, sys = clock()
   return total[1] + real - start[1], total[2] + user - start[2], total[3] + sys - start[3]
end

function Timer:reset()
   self.__total = {0, 0, 0}
   self.__start = {clock()}
   return self
end

function Timer:stop()
   if self.__running then
      self.__total = {elapsed(self)}
      self.__running = false
   end
   return self
end

function Timer:resume()
   if not self.__running then
      self.__start = {clock()}
      self.__running = true
   end
   return self
end

-- time() -> {real = s, user = s, sys = s}
function Timer:time()
   local real, user, sys = elapsed(self)
   return {real = real, user = user, sys = sys}
end

return Timer
