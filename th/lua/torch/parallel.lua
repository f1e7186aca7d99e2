-- Large element loops split over threads, as Torch7 split them over OpenMP
-- threads: this thread and up to torch.getnumthreads() - 1 helper threads
-- (th/native/pool.lua) share one job.  Usage:
--    local job = parallel.job(n, from)   -- nil: do it in this thread
--    if job then
--       job.fn, job.p[0], ... = ...     -- the operands of the kind of work
--       parallel.segment(job, 0, n)      -- up to 17 segments
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

-- Whether helpers help: a job helped when this thread took less than 0.8 of
-- what doing it alone would have (at the pace of its own chunks; the posts
-- count).  `failing` adds up the failures of jobs posted to polling
-- helpers, each counting less as jobs go by: past FAILING (eight in a row,
-- not one in two; a new helper compiles its loops in its first jobs) the
-- machine is busy, and the jobs of the next `cool`
-- seconds run on this thread alone while the helpers sleep; that time
-- doubles while jobs keep failing, halves when they help again.  A helper
-- woken from its sleep takes tens of microseconds to come (on a VM, 100),
-- too late for short jobs: those failures count only when they go on for
-- WOKEN seconds, 8 jobs at least (jobs too far apart for the helpers to be
-- polling)
local COOL, MAXCOOL, FAILING, WOKEN = 1e-3, 0.05, 3.5, 2e-3
local cool, alone = COOL, 0        -- alone: no helpers until this time
local failing, woken, wokensince = 0, 0, 0

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

-- one more segment of elements [from, to) to do (at most 17)
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
   local posted = now()
   j.rest = 0
   local polling = true
   for i = 0, parts - 2 do
      polling = polling and j.polling[i] ~= 0
      C.sem_post(j.go + i)
   end
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
   if mine > 0 and mine < count and t2 - posted < 0.8 * (t1 - t0) / mine * count then
      failing, woken, cool = 0.75 * failing, 0, max(COOL, cool / 2)
      return
   end
   if polling then
      failing = 0.75 * failing + 1
   else
      if woken == 0 then wokensince = posted end
      woken = woken + 1
   end
   if failing > FAILING or woken >= 8 and t2 - wokensince > WOKEN then
      alone, cool, failing, woken = t2 + cool, min(2 * cool, MAXCOOL), FAILING - 1, 0
      j.rest = 1      -- (polling helpers would take the cores this thread needs)
   end
end

-- chunks of at least `least` elements, up to `per` per thread, as many for
-- each thread when there are enough for each to have one (three chunks of
-- `least` for two threads left one doing two: x:add(y) of 24,000 doubles
-- took longer shared than alone)
function parallel.chunk(n, least, per)
   local threads = torch.getnumthreads()
   local each = min(per, floor(n / (least * threads)))
   if each < 1 then return least end
   return ceil(n / (each * threads))
end

return parallel
