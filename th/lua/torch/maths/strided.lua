-- Element loops over operands of any strides (transposed, permuted, narrowed
-- views) of up to four dimensions, for kernels.lua's maps, fills and folds
-- when an operand is not contiguous.
--
-- The operands' dimensions are first collapsed: size-1 dimensions dropped,
-- and a dimension merged into the next where every operand steps over it
-- as over one longer dimension.  What is left (at most DEPTH dimensions) is
-- walked by nested loops in the elements' logical order, last dimension
-- innermost, as TH's apply macros walked them: a fold adds up in TH's order,
-- and a result that is also an operand is read where it is written.  A loop
-- is generated per (kind, depth, operation, element types), so that each
-- compiles to its own monomorphic trace.
local internal = require 'torch.internal'

local checkbounds = internal.checkbounds
local concat = table.concat

local strided = {}

local DEPTH = 4
strided.DEPTH = DEPTH

-- the collapsed layout of the last call to collapse (reused: no table per
-- call; a loop never calls back into this module): sizes[1..depth] and
-- steps[k][1..depth], the strides of operand k
local sizes, steps = {}, {}
for k = 1, 4 do steps[k] = {} end

-- collapse(count, d1, d2, d3, d4) -> depth, or nil when the operands differ
-- in sizes or need more than DEPTH loops (d1 gives the sizes; every
-- operand has them)
local function collapse(count, d1, d2, d3, d4)
   local nd, sz = d1.nd, d1.sz
   if nd == 0 then return nil end
   for k = 2, count do
      local d = k == 2 and d2 or k == 3 and d3 or d4
      if d.nd ~= nd then return nil end
      for i = 1, nd do
         if d.sz[i] ~= sz[i] then return nil end
      end
   end
   -- from the last dimension to the first, into sizes/steps from the end
   local depth, slot = 0, DEPTH + 1
   for i = nd, 1, -1 do
      local n = sz[i]
      if n ~= 1 then
         local merge = depth > 0
         if merge then
            for k = 1, count do
               local d = k == 1 and d1 or k == 2 and d2 or k == 3 and d3 or d4
               if d.str[i] ~= steps[k][slot] * sizes[slot] then
                  merge = false
                  break
               end
            end
         end
         if merge then
            sizes[slot] = sizes[slot] * n
         else
            if depth == DEPTH then return nil end
            depth, slot = depth + 1, slot - 1
            sizes[slot] = n
            for k = 1, count do
               local d = k == 1 and d1 or k == 2 and d2 or k == 3 and d3 or d4
               steps[k][slot] = d.str[i]
            end
         end
      end
   end
   if depth == 0 then   -- a single element
      depth, slot = 1, DEPTH
      sizes[slot] = 1
      for k = 1, count do steps[k][slot] = 0 end
   end
   -- moved to the front: sizes[1..depth]
   if slot > 1 then
      for j = 1, depth do
         sizes[j] = sizes[slot + j - 1]
         for k = 1, count do steps[k][j] = steps[k][slot + j - 1] end
      end
   end
   return depth
end
strided.collapse = collapse
strided.sizes, strided.steps = sizes, steps

-- longest(count, depth): the longest of the collapsed dimensions made the
-- innermost (fewer, longer inner loops: each inner loop's start and end
-- costs a trace exit), where the order of the elements does not show (a
-- map into a result whose elements are distinct, a fill)
-- bystride(count, depth): the dimensions ordered by the first operand's
-- steps, the smallest innermost (memory in order: a fill, whose order of
-- writes does not show, of a transposed 1000x1000 matrix walked along its
-- columns took six times as long)
function strided.bystride(count, depth)
   local s1 = steps[1]
   for j = 2, depth do
      local i = j
      while i > 1 and s1[i - 1] < s1[i] do
         sizes[i - 1], sizes[i] = sizes[i], sizes[i - 1]
         for k = 1, count do
            local s = steps[k]
            s[i - 1], s[i] = s[i], s[i - 1]
         end
         i = i - 1
      end
   end
end

function strided.longest(count, depth)
   local best = depth
   for j = 1, depth - 1 do
      if sizes[j] > sizes[best] then best = j end
   end
   if best == depth then return end
   sizes[best], sizes[depth] = sizes[depth], sizes[best]
   for k = 1, count do
      local s = steps[k]
      s[best], s[depth] = s[depth], s[best]
   end
end

-- The text of a loop over `names` (operand letters: r the result, x, y, z
-- read) `depth` deep: its arguments are each operand's pointer and steps,
-- the sizes, then `extra`; `body` is the statement of one element, with
-- @<letter> the element's offset in each operand.  The first operand's
-- innermost step must not be 0 (strided.steady)
local function looptext(names, depth, body, extra, result)
   local args, lines = {}, {}
   for _, v in ipairs(names) do
      args[#args + 1] = v .. 'p'
      for j = 1, depth do args[#args + 1] = v .. j end
   end
   for j = 1, depth do args[#args + 1] = 'n' .. j end
   args[#args + 1] = extra
   lines[1] = ('return function(%s)'):format(concat(args, ', '))
   local function offset(v, level) return level == 0 and '0' or 'q' .. v .. level end
   local function offsets(level, from)
      local t = {}
      for i = from, #names do t[#t + 1] = offset(names[i], level) end
      return concat(t, ', ')
   end
   local function steps(level, from)
      local t = {}
      for i = from, #names do
         local v = names[i]
         t[#t + 1] = ('q%s%d = q%s%d + %s%d'):format(v, level, v, level, v, level)
      end
      return concat(t, '; ')
   end
   for j = 1, depth - 1 do
      lines[#lines + 1] = ('local %s = %s'):format(offsets(j, 1), offsets(j - 1, 1))
      lines[#lines + 1] = ('for _ = 1, n%d do'):format(j)
   end
   -- the innermost level: the first operand's offset is the loop's own
   -- variable (LuaJIT keeps it an integer; an offset added to by hand is a
   -- double converted at every access), the others' are stepped by hand
   local f, d = names[1], depth
   if #names > 1 then lines[#lines + 1] = ('local %s = %s'):format(offsets(d, 2), offsets(d - 1, 2)) end
   lines[#lines + 1] = ('for q%s%d = %s, %s + (n%d - 1) * %s%d, %s%d do')
      :format(f, d, offset(f, d - 1), offset(f, d - 1), d, f, d, f, d)
   lines[#lines + 1] = (body:gsub('@(%a)', 'q%1' .. d))
   if #names > 1 then lines[#lines + 1] = steps(d, 2) end
   lines[#lines + 1] = 'end'
   for j = depth - 1, 1, -1 do
      lines[#lines + 1] = steps(j, 1)
      lines[#lines + 1] = 'end'
   end
   if result then lines[#lines + 1] = 'return ' .. result end
   lines[#lines + 1] = 'end'
   return concat(lines, '\n')
end

-- the kinds of loops: operands, the element's statement (%s: the
-- expression), the extra arguments, what the loop returns
local KINDS = {
   map1 = {{'r', 'x'}, 'local x = xp[@x]; rp[@r] = %s', 'c'},
   map2 = {{'r', 'x', 'y'}, 'local x, y = xp[@x], yp[@y]; rp[@r] = %s', 'c'},
   map3 = {{'r', 'x', 'y', 'z'}, 'local x, y, z = xp[@x], yp[@y], zp[@z]; rp[@r] = %s', 'c'},
   fill = {{'r'}, 'rp[@r] = %s', 'c'},
   -- LongTensors as int32 pairs (kernels.halves): both halves of an element
   -- from one expression list, its low half lo, high half hi (y's: ylo, yhi)
   halves1 = {{'r', 'x'}, 'local lo, hi = xp[@x], xp[@x + 1]; rp[@r], rp[@r + 1] = %s', 'c, d'},
   halves2 = {{'r', 'x', 'y'},
              'local lo, hi, ylo, yhi = xp[@x], xp[@x + 1], yp[@y], yp[@y + 1]; rp[@r], rp[@r + 1] = %s', 'c, d'},
   fold = {{'x'}, 'local x = xp[@x]; acc = %s', 'acc, c', 'acc'},
   -- a comparison's 0/1 from d (compare.lua's branch-free expressions),
   -- false as soon as d is a NaN
   sign1 = {{'r', 'x'}, 'local d = xp[@x] - c; if d ~= d then return false end; rp[@r] = %s', 'c', 'true'},
   sign2 = {{'r', 'x', 'y'}, 'local d = xp[@x] - yp[@y]; if d ~= d then return false end; rp[@r] = %s', 'c',
            'true'},
}

-- a loop's call with the layout collapse left (steps and sizes read from
-- their tables into a fixed argument list: unpack would not be compiled):
-- call(f, p1, p2, p3, p4, e1, e2), e1 and e2 the extra arguments
local function calltext(count, depth)
   local a = {}
   for k = 1, count do
      a[#a + 1] = 'p' .. k
      for j = 1, depth do a[#a + 1] = ('S%d[%d]'):format(k, j) end
   end
   for j = 1, depth do a[#a + 1] = ('N[%d]'):format(j) end
   return ([[local S, N = ...
local S1, S2, S3, S4 = S[1], S[2], S[3], S[4]
return function(f, p1, p2, p3, p4, e1, e2)
   return f(%s, e1, e2)
end]]):format(concat(a, ', '))
end

-- strided.kind(kind, depth, register) -> {name =, call =}: the loop's
-- template name, register(name, text) done (kernels.template), and its call;
-- made at the first use of each (all 36 at start-up took 0.5 ms)
local made = {}
for kind in pairs(KINDS) do made[kind] = {} end
function strided.kind(kind, depth, register)
   local k = made[kind][depth]
   if not k then
      local spec = KINDS[kind]
      k = {name = ('strided%s%d'):format(kind, depth),
           call = assert(loadstring(calltext(#spec[1], depth), '=(th strided call)'))(steps, sizes)}
      register(k.name, looptext(spec[1], depth, spec[2], spec[3], spec[4]))
      made[kind][depth] = k
   end
   return k
end

-- steady(depth) -> whether the first operand's innermost step, the step of
-- a numeric for, is not 0 (0 would loop for ever)
function strided.steady(depth)
   return steps[1][depth] ~= 0
end

-- bounds(count, d1, d2, d3, d4): every operand's view within its storage
function strided.bounds(count, d1, d2, d3, d4)
   checkbounds(d1)
   if count > 1 then checkbounds(d2) end
   if count > 2 then checkbounds(d3) end
   if count > 3 then checkbounds(d4) end
end

return strided
