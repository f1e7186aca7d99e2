-- Loops of THNN kernels over contiguous memory that are shared with helper
-- threads (torch.parallel) when large, as THNN ran them on OpenMP threads.
-- A loop is Lua text over units [a, b) (elements, or rows of a0 elements),
-- compiled in this state and, for the units a helper takes, in the helper's
-- own: a unit is done whole by one thread, in the same order whoever does
-- it, so the bits do not depend on the threads.
--    local L = shared.loop('name', body, from [, least])
--    shared.run(L, ctype, units, elements, p0, p1, p2, a0, a1)
-- The body sees p0, p1, p2 (pointers to the element type), the numbers a0
-- and a1, a and b, rd(v) (v as the element type holds it), C (C's math
-- library, libm.lua), exp, log and huge; it is one text, or one per
-- element type ({float = ..., double = ...}).  The loop is shared from
-- `from` elements, in chunks of at least `least` units (4096).
local ffi = require 'ffi'
local parallel = require 'torch.parallel'
local internal = require 'torch.internal'
require 'torch.maths.libm'

local shared = {}

local TEXT = [[
local ffi = require 'ffi'
pcall(ffi.cdef, [==[LIBM]==])
local C = ffi.C
local exp, log, huge = math.exp, math.log, math.huge
local P = ffi.typeof('ELEMENT *')
ROUNDING
local function loop(p0, p1, p2, a0, a1, a, b)
BODY
end
return function(job, a, b)
   loop(ffi.cast(P, job.p[0]), ffi.cast(P, job.p[1]), ffi.cast(P, job.p[2]), job.args[0], job.args[1], a, b)
end, loop]]

-- rd(v): v as the element type holds it (a double's is v: no store to
-- memory and back in every element's steps)
local ROUNDING = {
   float = "local cell = ffi.new('float[1]')\nlocal function rd(v) cell[0] = v; return cell[0] end",
   double = 'local function rd(v) return v end',
}

function shared.loop(name, body, from, least)
   return {name = name, body = body, from = from, least = least or 4096, float = false, double = false}
end

-- (made apart from compiled: a function whose local a closure captures
-- closes it on return, which LuaJIT's traces do not compile)
local function make(L, ctype)
   local body = type(L.body) == 'table' and L.body[ctype] or L.body
   local text = TEXT:gsub('LIBM', function() return internal.libm end)
                    :gsub('ROUNDING', ROUNDING[ctype]):gsub('ELEMENT', ctype)
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

-- run(L, ctype, units, elements, p0, p1, p2, a0, a1): loop L over units
-- [0, units) of ctype ('float' or 'double') data, `elements` in all
function shared.run(L, ctype, units, elements, p0, p1, p2, a0, a1)
   local k = compiled(L, ctype)
   local job = units > 1 and parallel.job(elements, L.from)
   if not job then return k.loop(p0, p1, p2, a0, a1, 0, units) end
   job.source, job.sourcelen = k.text, #k.text
   job.p[0], job.p[1], job.p[2], job.args[0], job.args[1] = p0, p1, p2, a0 or 0, a1 or 0
   parallel.segment(job, 0, units)
   parallel.run(job, 'kernel', parallel.chunk(units, L.least, 4))
end

return shared
