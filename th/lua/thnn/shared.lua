-- Loops of THNN kernels over contiguous memory that are shared with helper
-- threads (torch.parallel) when large, as THNN ran them on OpenMP threads.
-- A loop is Lua text over units [a, b) (elements, or rows of a0 elements),
-- compiled in this state and, for the units a helper takes, in the helper's
-- own: a unit is done whole by one thread, in the same order whoever does
-- it, so the bits do not depend on the threads.
--    local L = shared.loop('name', body, from [, least [, pointers [, prelude]]])
--    shared.run(L, ctype, units, elements, p0, p1, p2, p3, a0, ..., a7)
-- The body sees p0 to p3 (pointers to the element type, or to the C types
-- `pointers` names by slot: {[3] = 'int64_t'}), the numbers a0 to a7, a and
-- b, rd(v) (v as the element type holds it), f32(v) (v as a float), C (C's
-- math library, libm.lua), exp, log, floor, ceil and huge; it is one text,
-- or one per element type ({float = ..., double = ...}); prelude: text
-- defining what it calls (before the loop's function, made once), also one
-- or one per type.  The loop
-- is shared from `from` elements, in chunks of at least `least` units (4096).
local ffi = require 'ffi'
local parallel = require 'torch.parallel'
local internal = require 'torch.internal'
require 'torch.maths.libm'

local shared = {}

local TEXT = [[
local ffi = require 'ffi'
pcall(ffi.cdef, [==[LIBM]==])
local C = ffi.C
local exp, log, floor, ceil, huge = math.exp, math.log, math.floor, math.ceil, math.huge
local P0, P1, P2, P3 = ffi.typeof('T0 *'), ffi.typeof('T1 *'), ffi.typeof('T2 *'), ffi.typeof('T3 *')
local f32cell = ffi.new('float[1]')
local function f32(v) f32cell[0] = v; return f32cell[0] end
ROUNDING
PRELUDE
local function loop(p0, p1, p2, p3, a0, a1, a2, a3, a4, a5, a6, a7, a, b)
BODY
end
return function(job, a, b)
   local p, n = job.p, job.args
   loop(ffi.cast(P0, p[0]), ffi.cast(P1, p[1]), ffi.cast(P2, p[2]), ffi.cast(P3, p[3]),
        n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], a, b)
end, loop]]

-- rd(v): v as the element type holds it (a double's is v: no store to
-- memory and back in every element's steps)
local ROUNDING = {
   float = "local cell = ffi.new('float[1]')\nlocal function rd(v) cell[0] = v; return cell[0] end",
   double = 'local function rd(v) return v end',
}

function shared.loop(name, body, from, least, pointers, prelude)
   return {name = name, body = body, from = from, least = least or 4096, pointers = pointers or {},
           prelude = prelude or '', float = false, double = false}
end

-- (made apart from compiled: a function whose local a closure captures
-- closes it on return, which LuaJIT's traces do not compile)
local function make(L, ctype)
   local body = type(L.body) == 'table' and L.body[ctype] or L.body
   local prelude = type(L.prelude) == 'table' and L.prelude[ctype] or L.prelude
   -- (the texts given are put in last: no name of theirs is replaced)
   local text = TEXT:gsub('LIBM', function() return internal.libm end)
                    :gsub('T(%d)', function(k) return L.pointers[tonumber(k)] or ctype end)
                    :gsub('ELEMENT', ctype):gsub('ROUNDING', ROUNDING[ctype])
                    :gsub('PRELUDE', function() return prelude end)
                    :gsub('BODY', function() return body end)
   local _, loop = assert(loadstring(text, '=(th ' .. L.name .. ' loop)'))()
   return {text = text, loop = loop}
end

local function compiled(L, ctype)
   local k = L[ctype]
   if not k then
      k = make(L, ctype)
      L[ctype] = k
   end
   return k
end

-- run(L, ctype, units, elements, p0, p1, p2, p3, a0, ..., a7): loop L
-- over units [0, units) of ctype ('float' or 'double') data, `elements` in all
function shared.run(L, ctype, units, elements, p0, p1, p2, p3, a0, a1, a2, a3, a4, a5, a6, a7)
   local k = compiled(L, ctype)
   local job = units > 1 and parallel.job(elements, L.from)
   if not job then return k.loop(p0, p1, p2, p3, a0, a1, a2, a3, a4, a5, a6, a7, 0, units) end
   job.source, job.sourcelen = k.text, #k.text
   local p, n = job.p, job.args
   p[0], p[1], p[2], p[3] = p0, p1, p2, p3
   n[0], n[1], n[2], n[3] = a0 or 0, a1 or 0, a2 or 0, a3 or 0
   n[4], n[5], n[6], n[7] = a4 or 0, a5 or 0, a6 or 0, a7 or 0
   parallel.segment(job, 0, units)
   parallel.run(job, 'kernel', parallel.chunk(units, L.least, 4))
end

return shared
