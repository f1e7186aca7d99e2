-- A helper thread's Lua state (th/native/pool.lua): th/native/workers.py
-- makes the state, runs this chunk in it and starts a thread on the function
-- it returns, a LuaJIT callback of this state, so that thread is the only
-- one ever to run the state.  The thread waits for jobs on its semaphore,
-- spinning a while first (large operations come in runs), and takes its part
-- of each.  Arguments: pool.lua's path, the shared job's address (nil: make
-- it here) and the helper's number; returns the job's address and the
-- thread function's.
local poolfile, address, index = ...
local ffi = require 'ffi'
local pool = dofile(poolfile)
local C = ffi.C

local job
if address then
   job = ffi.cast('th_pool *', address)
else
   ffi.cdef 'void *calloc(size_t, size_t);'
   -- never freed: the helpers live as long as the process
   job = ffi.cast('th_pool *', C.calloc(1, ffi.sizeof('th_pool')))
   C.pthread_spin_init(job.lock, 0)
   C.pthread_spin_init(job.owner, 0)
   for i = 0, pool.MAXHELPERS - 1 do C.sem_init(job.go[i], 0, 0) end
end

-- how long a helper polls for the next job before it sleeps (a wake-up
-- takes tens of microseconds on a VM), as OpenMP's threads spun a while
local SPIN = 1e-3
local go = job.go + index
local scratch = pool.scratch()

-- (the chunks run C functions on memory the main thread checked: nothing
-- here raises a Lua error, which a callback could not return)
local function serve()
   job.polling[index] = 1
   while true do
      local spins, since = 0, pool.now()
      while C.sem_trywait(go) ~= 0 do
         spins = spins + 1
         -- (yielding now and then: on a busy core, polling is not to hold
         -- up the main thread or other programs)
         if spins % 64 == 0 and (C.sched_yield() ~= 0 or job.rest ~= 0 or pool.now() - since > SPIN) then
            job.polling[index] = 0
            while C.sem_wait(go) ~= 0 do end   -- (EINTR)
            job.polling[index] = 1
            break
         end
      end
      pool.work(job, index + 1, scratch)
   end
end

ENTRY = ffi.cast('void *(*)(void *)', serve)   -- (a global: kept alive)
return tonumber(ffi.cast('intptr_t', job)), tonumber(ffi.cast('intptr_t', ENTRY))
