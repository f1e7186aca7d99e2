-- Element loops over strided vectors and matrices for the small operations
-- of construct.lua, basic.lua and reduce.lua (range, histc, equal, diag,
-- cross, renorm), generated once per element type so that each compiles to
-- its own monomorphic trace (a loop shared by the types would switch traces
-- on every call with another type). Pointers come with their offset
-- applied; strides are in elements. loops.dense is their contiguity check.
local internal = require 'torch.internal'
local f32 = require('torch.maths.kernels').f32

local text = [[
local f32 = ...
local floor = math.floor
local loops = {}

-- p[k * s] = a + k * step for k < n (converted to the element type on the store)
function loops.arith(p, s, n, a, step)
   for k = 0, n - 1 do p[k * s] = a + k * step end
end

-- are the m x n matrices x and y (rows r1/s1 apart, columns r2/s2) equal
-- element by element (a NaN equals nothing)?  Stops at the first difference
function loops.equal(xp, r1, r2, yp, s1, s2, m, n)
   for i = 0, m - 1 do
      local px, py = i * r1, i * s1
      for _ = 1, n do
         if xp[px] ~= yp[py] then return false end
         px, py = px + r2, py + s2
      end
   end
   return true
end

-- r[k * rs] = x[k * xs] for k < n, in order
function loops.copy(r, rs, x, xs, n)
   for k = 0, n - 1 do r[k * rs] = x[k * xs] end
end

-- r = a x b at n positions: the three elements of a position c apart, the
-- positions o apart (each operand its own c and o); each element of r
-- written before the next is computed (r may be a or b, as in TH)
function loops.cross(r, rc, ro, a, ac, ao, b, bc, bo, n)
   for k = 0, n - 1 do
      local x, y, z = a + k * ao, b + k * bo, r + k * ro
      z[0] = x[ac] * y[2 * bc] - x[2 * ac] * y[bc]
      z[rc] = x[2 * ac] * y[0] - x[0] * y[2 * bc]
      z[2 * rc] = x[0] * y[bc] - x[ac] * y[0]
   end
end

-- the same, each product and difference rounded to float
function loops.crossfloat(r, rc, ro, a, ac, ao, b, bc, bo, n)
   for k = 0, n - 1 do
      local x, y, z = a + k * ao, b + k * bo, r + k * ro
      z[0] = f32(f32(x[ac] * y[2 * bc]) - f32(x[2 * ac] * y[bc]))
      z[rc] = f32(f32(x[2 * ac] * y[0]) - f32(x[0] * y[2 * bc]))
      z[2 * rc] = f32(f32(x[0] * y[bc]) - f32(x[ac] * y[0]))
   end
end

-- p[k * s] = p[k * s] * v for k < n (rounded to the element type on the store)
function loops.scale(p, s, n, v)
   for k = 0, n - 1 do p[k * s] = p[k * s] * v end
end

-- the least and greatest of n elements (stride s), a NaN if there is one
function loops.minmax(p, s, n)
   local lo, hi = p[0], p[0]
   for k = 0, n - 1 do
      local v = p[k * s]
      if v ~= v then return v, v end
      if v < lo then lo = v end
      if v > hi then hi = v end
   end
   return lo, hi
end

-- h[b * hs] += 1 for each of n elements (stride s) in [lo, hi], in bin b of
-- nbins equal ones (the value hi in the last), the bin computed in double;
-- a bin an infinite range leaves undefined (inf / inf) is the first
-- (Torch7 crashed)
function loops.histc(h, hs, p, s, n, nbins, lo, hi)
   for k = 0, n - 1 do
      local v = p[k * s]
      if v >= lo and v <= hi then
         local b = floor((v - lo) / (hi - lo) * nbins)
         if not (b < nbins) then b = b ~= b and 0 or nbins - 1 end
         h[b * hs] = h[b * hs] + 1
      end
   end
end

return loops
]]

-- loops[T]: the loops of element type T, generated at its first use (all
-- seven at start-up cost 1.5 ms of th's)
local loops = setmetatable({}, {__index = function(loops, T)
   if type(T) ~= 'table' or not T.name then return nil end
   local l = assert(loadstring(text, '=(th vector loops ' .. T.name .. ')'))(f32)
   rawset(loops, T, l)
   return l
end})

-- one dimension of a contiguity check from the last: the stride the
-- dimension before i must have, or false
local function step(sz, str, i, expected)
   if not expected or sz[i] == 1 then return expected end
   return str[i] == expected and expected * sz[i]
end

-- dense(d): is the tensor data d contiguous? (internal.iscontiguous
-- unrolled up to 4 dimensions: a loop in a function called from a trace
-- ends the trace)
local function dense(d)
   local nd, sz, str = d.nd, d.sz, d.str
   if nd > 4 then return internal.iscontiguous(d) end
   local e = 1
   if nd >= 1 then e = step(sz, str, nd, e) end
   if nd >= 2 then e = step(sz, str, nd - 1, e) end
   if nd >= 3 then e = step(sz, str, nd - 2, e) end
   if nd >= 4 then e = step(sz, str, nd - 3, e) end
   return e ~= false
end

loops.dense = dense

return loops
