-- Which compiled traces left for the interpreter most often while a script
-- ran.  An exit with a side trace attached jumps to it and costs a few
-- instructions; an exit without one restores the interpreter's state from
-- a snapshot and goes on interpreted (a thousand instructions or more), and
-- an exit taken thousands of times is one LuaJIT could not or would not
-- grow a side trace for: a blacklisted path, or a trace run inside a
-- finalizer, where LuaJIT records nothing (the memory pool's reclaim loop
-- left its trace once per buffer dropped, a clone of 600 doubles each).
--   th scripts/bench/exits.lua [--top N] script.lua [args...]
-- Prints, on stderr, the exits taken most often (count, trace/exit, the
-- place where the trace started, and the trace it sprouted from), and the
-- traces that aborted, with the place and LuaJIT's error number.
local jutil = require 'jit.util'

local top = 20
if arg[1] == '--top' then
   top = tonumber(arg[2])
   table.remove(arg, 1)
   table.remove(arg, 1)
end
local script = table.remove(arg, 1)

local starts, aborts, exits = {}, {}, {}
local function place(func, pc)
   local info = jutil.funcinfo(func, pc)
   return (info.loc or '?'):gsub('^.*/th/', '')
end
jit.attach(function(what, tr, func, pc, otr, oex)
   if what == 'start' then
      starts[tr] = place(func, pc) .. (otr and (' (side of ' .. otr .. '/' .. oex .. ')') or '')
   elseif what == 'abort' then
      -- (otr: the number of LuaJIT's error message, lj_traceerr.h; oex its detail)
      local key = place(func, pc) .. ': error ' .. tostring(otr) .. ' ' .. tostring(oex)
      aborts[key] = (aborts[key] or 0) + 1
   end
end, 'trace')
jit.attach(function(tr, ex)
   local key = tr .. '/' .. ex
   exits[key] = (exits[key] or 0) + 1
end, 'texit')

dofile(script)

jit.attach(function() end, 'texit')
jit.attach(function() end, 'trace')

local function sorted(counts)
   local keys = {}
   for k in pairs(counts) do keys[#keys + 1] = k end
   table.sort(keys, function(a, b) return counts[a] > counts[b] end)
   return keys
end
io.stderr:write('exits to the interpreter, most taken first:\n')
for i, key in ipairs(sorted(exits)) do
   if i > top then break end
   local tr = tonumber(key:match('^(%d+)'))
   io.stderr:write(('%9d  %-8s %s\n'):format(exits[key], key, starts[tr] or '(started before)'))
end
io.stderr:write('aborted traces:\n')
for i, key in ipairs(sorted(aborts)) do
   if i > top then break end
   io.stderr:write(('%9d  %s\n'):format(aborts[key], key))
end
