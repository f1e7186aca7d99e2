-- Large element loops split over threads, as Torch7 split them over OpenMP
-- threads: this thread and up to torch.getnumthreads() - 1 helper threads
-- (th/native/pool.lua) share one job.  Usage:
--    local job = parallel.job(n, from)   -- nil: do it in this thread
--    if job then
--       job.fn, job.p[0], ... = ...     -- the operands of the kind of work
--       parallel.segment(job, 0, n)      -- up to 4 segments
--       parallel.run(job, 'loop', len)   -- returns when all is done
--    end
local ffi = require 'ffi'
local torch = require 'torch'
local internal = require 'torch.internal'
local pool = require 'th.native.pool'

local C = ffi.C
local ceil, floor, max, min = math.ceil, math.floor, math.max, math.min
pcall(ffi.cdef, 'int getpid(void);')

local parallel = {}

local job           -- the shared job (th_pool *); false when helpers cannot run
local helpers = 0   -- helper threads running
local pid           -- the process that made them (a forked child has none)
local scratch = pool.scratch()
local kinds = pool.kind
local now = pool.now

-- Helpers that did not help twice in a row (none of the work done, or this
-- thread kept waiting for their chunks longer than it worked): they sleep
-- between jobs too far apart, or the machine is busy, and sharing costs
-- more than it gives (a helper woken once may just have been asleep).  The
-- jobs of the next `cool` seconds are then done in this thread alone, and
-- that time doubles while they keep failing, halves when they help again
local COOL, MAXCOOL = 1e-3, 0.1
local cool, alone, strikes = COOL, 0, 0   -- alone: no helpers until this time

local function start()
   local address, running = internal.py.start_helpers()
   if address == 0 or running == 0 then
      job = false
      return
   end
   job, helpers, pid = ffi.cast('th_pool *', address), running, C.getpid()
end

-- the job to describe for work of size n (elements or bytes, as `from`)
-- when that is at least `from` and threads are there to share it; nil: do
-- the work in this thread.  A job got must be run: till then, Ctrl-C waits
-- (internal.hold) and no other Lua runtime of the process gets it
function parallel.job(n, from)
   if n < from or torch.getnumthreads() < 2 then return nil end
   if job == nil then start() end
   if alone > 0 and now() < alone then return nil end
   -- (a fork's child has no helpers; another runtime of this process may
   -- be using them)
   if not job or C.getpid() ~= pid then return nil end
   internal.hold()
   if C.pthread_spin_trylock(job.owner) ~= 0 then
      internal.release()
      return nil
   end
   job.nseg = 0
   return job
end

-- one more segment of elements [from, to) to do (at most 4)
function parallel.segment(j, from, to)
   if to > from then
      j.from[j.nseg], j.to[j.nseg] = from, to
      j.nseg = j.nseg + 1
   end
end

-- do the job's segments, in chunks of len elements, with this thread and
-- the helpers, each owning an equal run of chunks; returns when every chunk
-- is done
function parallel.run(j, kind, len)
   local count = 0
   for s = 0, j.nseg - 1 do count = count + ceil((j.to[s] - j.from[s]) / len) end
   local parts = min(torch.getnumthreads(), helpers + 1, count)
   C.pthread_spin_lock(j.lock)
   j.kind, j.len, j.parts, j.busy = kinds[kind], len, parts, 0
   local from = 0
   for k = 0, helpers do
      local to = k < parts and from + floor(count / parts) + (k < count % parts and 1 or 0) or from
      j.next[k], j.stop[k] = from, to
      from = to
   end
   C.pthread_spin_unlock(j.lock)
   for i = 0, parts - 2 do C.sem_post(j.go + i) end
   local t0 = now()
   local mine = pool.work(j, 0, scratch)
   local t1 = now()
   -- the chunks helpers still run
   while true do
      C.pthread_spin_lock(j.lock)
      local busy = j.busy
      C.pthread_spin_unlock(j.lock)
      if busy == 0 then break end
      C.sched_yield()
   end
   C.pthread_spin_unlock(j.owner)
   internal.release()
   local t2 = now()
   if mine == count or t2 - t1 > t1 - t0 then
      strikes = strikes + 1
      if strikes >= 2 then alone, cool, strikes = t2 + cool, min(2 * cool, MAXCOOL), 0 end
   else
      strikes, cool = 0, max(COOL, cool / 2)
   end
end

-- chunks of at least `least` elements, about `per` per thread
function parallel.chunk(n, least, per)
   return max(least, ceil(n / (per * torch.getnumthreads())))
end

return parallel
