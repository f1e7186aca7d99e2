-- One job shared by the main thread and helper threads (Torch7 ran its large
-- element loops on OpenMP threads).  Each helper runs a LuaJIT state of its
-- own (th/native/worker.lua), so no Lua state is ever shared between
-- threads: what they share is this C structure.  A job is a few segments of
-- elements cut into chunks, and each participant (0: the main thread,
-- helper i: i + 1) owns a run of them, claimed one by one under a spin
-- lock: the same run at every call of the same size, so that each core
-- keeps its part in its own cache, as OpenMP's static schedule did.  Its own
-- done, a participant takes the others' last chunks, so a helper that wakes
-- late (or not at all, on a busy machine) only does less of the work, never
-- holds the main thread up.  Loaded by both kinds of state: the layout, the
-- kinds of work and the claiming loop.
local ffi = require 'ffi'

ffi.cdef[[
typedef union { char size[32]; long align; } th_sem;  /* glibc's sem_t, 64-bit */
int sem_init(th_sem *, int, unsigned);
int sem_post(th_sem *);
int sem_wait(th_sem *);
int sem_trywait(th_sem *);
int pthread_spin_init(volatile int *, int);
int pthread_spin_lock(volatile int *);
int pthread_spin_trylock(volatile int *);
int pthread_spin_unlock(volatile int *);
int sched_yield(void);
typedef struct { long sec, nsec; } th_pool_timespec;
int th_pool_clock(int, th_pool_timespec *) __asm__("clock_gettime");
typedef struct {
   volatile int lock[1];         /* guards next, stop and busy */
   volatile int owner[1];        /* held by the Lua state running a job */
   volatile int32_t next[17], stop[17];  /* participant k's chunks left: [next, stop) */
   volatile int32_t busy;        /* chunks being done */
   int32_t kind, nseg, parts;    /* parts: participants owning chunks */
   double from[17], to[17], len;  /* segments [from, to) in chunks of len elements */
   void *fn, *data;              /* the C function of the work, its data */
   void *p[4];                   /* operands at element 0 */
   intptr_t steps[4];            /* their element steps, in bytes */
   double alpha;
   const char *source;           /* kind kernel: its Lua text */
   int32_t sourcelen;
   double args[16];              /* kind kernel: numbers its text reads */
   th_sem go[16];                /* one per helper: posted for each job */
   volatile int32_t rest;        /* set: helpers sleep at once after a job */
   volatile int32_t polling[16]; /* helper i runs, polling for jobs (else it sleeps) */
} th_pool;
]]

local C = ffi.C
local min = math.min

local pool = {MAXHELPERS = 16}   -- (the arrays above: one more participant)

-- seconds on a monotonic clock (a vDSO call: tens of nanoseconds)
local timespec = ffi.new('th_pool_timespec')
function pool.now()
   C.th_pool_clock(1, timespec)
   return tonumber(timespec.sec) + tonumber(timespec.nsec) * 1e-9
end

-- per participant: the argument arrays of a numpy loop call
function pool.scratch()
   return {args = ffi.new('void *[4]'), dims = ffi.new('intptr_t[1]')}
end

local looptype = ffi.typeof('void (*)(void **, const intptr_t *, const intptr_t *, void *)')
local bytep = ffi.typeof('uint8_t *')

-- the kinds of work: each does elements [a, b) of the job
local kinds = {}

-- a numpy ufunc inner loop: p[2][i] = p[0][i] <op> p[1][i], byte steps
function kinds.loop(job, a, b, s)
   local args, steps = s.args, job.steps
   args[0] = ffi.cast(bytep, job.p[0]) + a * steps[0]
   args[1] = ffi.cast(bytep, job.p[1]) + a * steps[1]
   args[2] = ffi.cast(bytep, job.p[2]) + a * steps[2]
   s.dims[0] = b - a
   ffi.cast(looptype, job.fn)(args, s.dims, steps, job.data)
end

-- a numpy ufunc inner loop of three inputs: p[3][i] = f(p[0][i], p[1][i], p[2][i])
function kinds.loop3(job, a, b, s)
   local args, steps = s.args, job.steps
   for k = 0, 3 do args[k] = ffi.cast(bytep, job.p[k]) + a * steps[k] end
   s.dims[0] = b - a
   ffi.cast(looptype, job.fn)(args, s.dims, steps, job.data)
end

-- BLAS axpy, p[1][i] += alpha * p[0][i]; the copying kinds first copy
-- p[2][i] to p[1][i], COPYSTEP elements at a time (r = x + alpha y in one
-- pass: the step is still in L1 when axpy reads it back; a chunk of 8192
-- doubles was not, and r:add(x, 0.5, y) of 10,000 took 3.8 us, now 2.4,
-- the original's 2.5).  A multiple of both kernels' blocks, so that every
-- element is fused as in one call.
pool.COPYSTEP = 1024
local function axpy(fntype, elementp, size, copying)
   local step = pool.COPYSTEP
   return function(job, a, b)
      local f, x, r = ffi.cast(fntype, job.fn), ffi.cast(elementp, job.p[0]), ffi.cast(elementp, job.p[1])
      if not copying then return f(b - a, job.alpha, x + a, 1, r + a, 1) end
      local s = ffi.cast(elementp, job.p[2])
      for i = a, b - 1, step do
         local len = min(step, b - i)
         ffi.copy(r + i, s + i, len * size)
         f(len, job.alpha, x + i, 1, r + i, 1)
      end
   end
end

-- BLAS ger on rows [a, b) of a row-major result: p[2][i][j] += alpha *
-- p[0][i] * p[1][j], args: the row length, p[0]'s and p[1]'s increments,
-- the rows' distance, when not 0 the bytes of an element to zero each row
-- with first, and the rows of a call (few enough that OpenBLAS does not
-- wake threads of its own); every element is its own product, whoever
-- computes it
local function ger(fntype, elementp)
   return function(job, a, b)
      local g = job.args
      local n, ix, iy, ldr, size, rows = g[0], g[1], g[2], g[3], g[4], g[5]
      local f, x, y = ffi.cast(fntype, job.fn), ffi.cast(elementp, job.p[0]), ffi.cast(elementp, job.p[1])
      local r = ffi.cast(elementp, job.p[2])
      for i = a, b - 1, rows do
         local k = min(rows, b - i)
         if size ~= 0 then
            for j = i, i + k - 1 do ffi.fill(r + j * ldr, n * size) end
         end
         f(101, k, n, job.alpha, x + i * ix, ix, y, iy, r + i * ldr, ldr)
      end
   end
end

-- the BLAS kinds of each element type and integer width of the libraries
for bits, int in pairs{[32] = 'int', [64] = 'int64_t'} do
   for prefix, element in pairs{d = 'double', s = 'float'} do
      local function signature(text) return ffi.typeof((text:gsub('INT', int):gsub('E', element))) end
      local elementp, size = ffi.typeof(element .. ' *'), ffi.sizeof(element)
      local axpytype = signature('void (*)(INT, E, const E *, INT, E *, INT)')
      kinds[prefix .. 'axpy' .. bits] = axpy(axpytype, elementp, size, false)
      kinds[prefix .. 'copyaxpy' .. bits] = axpy(axpytype, elementp, size, true)
      kinds[prefix .. 'ger' .. bits] =
         ger(signature('void (*)(int, INT, INT, E, const E *, INT, const E *, INT, E *, INT)'), elementp)
   end
end

-- p[0][a, b) copied from the pattern p[1], steps[1] elements of steps[0]
-- bytes, copy by copy
function kinds.pattern(job, a, b)
   local size, len = tonumber(job.steps[0]), tonumber(job.steps[1])
   local r = ffi.cast(bytep, job.p[0])
   for i = a, b - 1, len do ffi.copy(r + i * size, job.p[1], min(len, b - i) * size) end
end

-- p[0][a, b) copied from p[1][a, b), steps[0] bytes an element
function kinds.copy(job, a, b)
   local size = tonumber(job.steps[0])
   ffi.copy(ffi.cast(bytep, job.p[0]) + a * size, ffi.cast(bytep, job.p[1]) + a * size, (b - a) * size)
end

-- rows [a, b) of p[0] (steps[0] bytes each, steps[1] bytes apart) copied
-- from the rows of p[1] (steps[2] bytes apart) the int64 array p[2] names,
-- counting from 1 (index along the first dimension)
local int64p = ffi.typeof('int64_t *')
function kinds.rows(job, a, b)
   local size, dstep, sstep = tonumber(job.steps[0]), tonumber(job.steps[1]), tonumber(job.steps[2])
   local d, s, idx = ffi.cast(bytep, job.p[0]), ffi.cast(bytep, job.p[1]), ffi.cast(int64p, job.p[2])
   for i = a, b - 1 do ffi.copy(d + i * dstep, s + (tonumber(idx[i]) - 1) * sstep, size) end
end

-- p[0][a, b) zeroed
function kinds.zero(job, a, b)
   local size = tonumber(job.steps[0])
   ffi.fill(ffi.cast(bytep, job.p[0]) + a * size, (b - a) * size)
end

-- a LuaJIT loop of th's (torch/maths/kernels.lua): the job carries its
-- text, a chunk returning function(job, a, b), which each state compiles
-- once (a helper's state has none of the main state's values)
local compiled = {}   -- text -> its function
function kinds.kernel(job, a, b)
   local text = ffi.string(job.source, job.sourcelen)
   local f = compiled[text]
   if not f then
      f = loadstring(text, '=(th shared kernel)')()
      compiled[text] = f
   end
   f(job, a, b)
end

-- kinds by number (what a job carries) and numbers by name, the same in
-- every state: the names in sorted order
local names = {}
for name in pairs(kinds) do names[#names + 1] = name end
table.sort(names)
local byid = {}
pool.kind = {}
for i, name in ipairs(names) do
   byid[i] = kinds[name]
   pool.kind[name] = i
end

-- the elements of chunk c: [a, b)
local function chunk(job, c)
   local len = job.len
   for s = 0, job.nseg - 1 do
      local from, to = job.from[s], job.to[s]
      local m = math.ceil((to - from) / len)
      if c < m then
         local a = from + c * len
         return a, min(to, a + len)
      end
      c = c - m
   end
end

-- the next chunk for participant `me` (the lock held): its own next one,
-- else another's last one; nil when none is left
local function claim(job, me)
   local c = job.next[me]
   if c < job.stop[me] then
      job.next[me] = c + 1
      return c
   end
   for k = 0, job.parts - 1 do
      c = job.stop[k] - 1
      if c >= job.next[k] then
         job.stop[k] = c
         return c
      end
   end
end

-- participant `me` claims and does chunks of the job until none is left:
-- -> how many it did (the job's kind is read after each claim: the main
-- thread may have posted another job meanwhile, never while a claimed
-- chunk is busy)
function pool.work(job, me, s)
   local lock = job.lock
   local done = 0
   while true do
      C.pthread_spin_lock(lock)
      local c = claim(job, me)
      if not c then
         C.pthread_spin_unlock(lock)
         return done
      end
      job.busy = job.busy + 1
      C.pthread_spin_unlock(lock)
      local a, b = chunk(job, c)
      byid[job.kind](job, a, b, s)
      C.pthread_spin_lock(lock)
      job.busy = job.busy - 1
      C.pthread_spin_unlock(lock)
      done = done + 1
   end
end

return pool
