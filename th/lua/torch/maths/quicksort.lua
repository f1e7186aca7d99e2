-- TH's quicksort of a line of values (doubles) and their indices, so that
-- ties and NaN come out in the original's order: median of three as the
-- pivot, Hoare's partition, partitions of up to M_SMALL elements left to a
-- final insertion sort; one function per direction, its comparisons inline.
--
-- Hoare's partition swaps the k-th element from the left that may not stay
-- left of the pivot with the k-th from the right that may not stay right,
-- until the two scans cross.  Far from the crossing the scans run in blocks
-- of B elements without a branch per element (a comparison's outcome as a
-- number through math.min/max, branch-free in LuaJIT): the misplaced
-- positions of a block on each side are listed, then swapped pair by pair in
-- order, the same swaps as the scans (each taken branch of which left a
-- LuaJIT trace: about 2x TH's time).  Near the crossing the scans go on
-- element by element from the last pair swapped.  The blocks need numbers
-- that compare by their difference: no NaN in the line, a finite pivot.
local ffi = require 'ffi'
local torch = require 'torch'
local parallel = require 'torch.parallel'

local M_SMALL = 10      -- TH's quicksort leaves partitions this small to its insertion sort
local B = 64            -- elements per block
local S = 2 ^ 600       -- d * S * S: at least 1 for any positive difference d

local TEXT = [[
local floor, min, max = math.floor, math.min, math.max
local M_SMALL, B, S, offL, offR = ...
-- TH's final insertion sort of v[o .. o+n-1]
local function insertion(v, ix, o, n)
   local last = o + n
   for i = last - 2, o, -1 do
      if LATER(v[i], v[i + 1]) then
         local piv, pid, j = v[i], ix[i], i + 1
         repeat
            v[j - 1], ix[j - 1] = v[j], ix[j]
            j = j + 1
         until not (j < last and LATER(piv, v[j]))
         v[j - 1], ix[j - 1] = piv, pid
      end
   end
end
-- the stack of ranges to partition, kept from call to call (a sort never
-- runs inside another in one Lua state)
local beg, fin = {}, {}
-- split: parts of fewer than split elements are left unsorted, their first
-- and last places listed in parts, and no insertion sort runs
return function(v, ix, o, n, split, parts)
   local blocks = n > 2 * B
   if blocks then
      for k = o, o + n - 1 do
         if v[k] ~= v[k] then blocks = false break end
      end
   end
   local stack = 0
   local L, R = o, o + n - 1
   local done = n - 1 <= M_SMALL
   while not done do
      if split and R - L < split then    -- a part left to sort apart
         parts[#parts + 1], parts[#parts + 2] = L, R
         if stack == 0 then break end
         stack = stack - 1
         L, R = beg[stack], fin[stack]
      else
         local m, a = floor((L + R) / 2), L + 1
         v[m], v[a] = v[a], v[m]; ix[m], ix[a] = ix[a], ix[m]
         if LATER(v[a], v[R]) then v[a], v[R] = v[R], v[a]; ix[a], ix[R] = ix[R], ix[a] end
         if LATER(v[L], v[R]) then v[L], v[R] = v[R], v[L]; ix[L], ix[R] = ix[R], ix[L] end
         if LATER(v[a], v[L]) then v[a], v[L] = v[L], v[a]; ix[a], ix[L] = ix[L], ix[a] end
         local i, j, piv = a, R, v[L]
         if blocks and R - L > 2 * B and piv - piv == 0 then
            -- li, rj: the next positions the scans read; nL, nR: misplaced
            -- positions listed, sL, sR: how many of them are swapped already
            -- (each count one addition a step: its chain of additions is
            -- the blocks' critical path)
            local li, rj, nL, nR, sL, sR = i + 1, j - 1, 0, 0, 0, 0
            while rj - li + 1 >= 2 * B do
               if sL == nL then
                  nL, sL = 0, 0
                  for k = li, li + B - 1 do
                     offL[nL] = k
                     nL = nL + (1 - OUTCOME(piv, v[k]))
                  end
                  li = li + B
               end
               if sR == nR then
                  nR, sR = 0, 0
                  for k = rj, rj - B + 1, -1 do
                     offR[nR] = k
                     nR = nR + (1 - OUTCOME(v[k], piv))
                  end
                  rj = rj - B
               end
               local c = min(nL - sL, nR - sR)
               if c > 0 then
                  for k = 0, c - 1 do
                     local p, q = offL[sL + k], offR[sR + k]
                     v[p], v[q] = v[q], v[p]; ix[p], ix[q] = ix[q], ix[p]
                  end
                  sL, sR = sL + c, sR + c
                  i, j = offL[sL - 1], offR[sR - 1]
               end
            end
         end
         while true do
            repeat i = i + 1 until i >= R or not LATER(piv, v[i])
            repeat j = j - 1 until j <= L or not LATER(v[j], piv)
            if j < i then break end
            v[i], v[j] = v[j], v[i]; ix[i], ix[j] = ix[j], ix[i]
         end
         v[L], v[j] = v[j], v[L]; ix[L], ix[j] = ix[j], ix[L]
         local left, right = j - L, R - i + 1
         if left <= M_SMALL and right <= M_SMALL then
            if stack == 0 then
               done = true
            else
               stack = stack - 1
               L, R = beg[stack], fin[stack]
            end
         elseif left <= M_SMALL or right <= M_SMALL then
            if left > right then R = j - 1 else L = i end
         elseif left > right then
            beg[stack], fin[stack], stack, L = L, j - 1, stack + 1, i
         else
            beg[stack], fin[stack], stack, R = i, R, stack + 1, j - 1
         end
      end
   end
   if not split then insertion(v, ix, o, n) end
end, insertion
]]

-- the sort whose LATER(a, b) is `a <op> b` (a sorts after b), OUTCOME(a, b)
-- that comparison as 1 or 0 (or -0) for numbers with a difference: sort,
-- insertion, and the text of a helper state's function(job, a, b) sorting
-- the parts a .. b-1 listed at job.p[2] (pool.lua's kind kernel)
local JOB = [[
local ffi = require 'ffi'
local offsets = ffi.typeof('int32_t[?]')
local sort = (function(...) SORT end)(%d, %d, 2 ^ 600, offsets(%d), offsets(%d))
local V, I = ffi.typeof('double *'), ffi.typeof('int32_t *')
return function(job, a, b)
   local v, ix, g = ffi.cast(V, job.p[0]), ffi.cast(I, job.p[1]), ffi.cast(V, job.p[2])
   for c = a, b - 1 do sort(v, ix, g[2 * c], g[2 * c + 1] - g[2 * c] + 1) end
end]]
assert(S == 2 ^ 600)
local function generate(op, name)
   local text = TEXT:gsub('LATER%(([^,]+), ([^)]+%]?)%)', function(a, b)
      return ('(%s %s %s)'):format(a, op, b)
   end)
   text = text:gsub('OUTCOME%(([^,]+), ([^)]+%]?)%)', function(a, b)
      if op == '<' then a, b = b, a end
      return ('min(1, max(0, (%s - %s) * S * S))'):format(a, b)
   end)
   local offsets = ffi.typeof('int32_t[?]')
   local sort, insertion = assert(loadstring(text, '=(th quicksort ' .. name .. ')'))(M_SMALL, B, S, offsets(B), offsets(B))
   local job = JOB:format(M_SMALL, B, B, B):gsub('SORT', function() return text end)
   assert(loadstring(job))   -- (here first: a helper's callback could not raise an error)
   return {sort = sort, insertion = insertion, job = job}
end
local up, down = generate('>', 'ascending'), generate('<', 'descending')

-- A line of up to M_SMALL + 1 elements is TH's final insertion sort's
-- alone, which leaves finite values in their stable order (an element moves
-- right past the ones that sort before it, and stops at the first that does
-- not): each element's place is the count of the elements that sort before
-- it, and the outcome of each pair a number from math.min/max (a sum of
-- outcomes, no branch: the branches of a sort of random values mispredict,
-- and each taken one left a LuaJIT trace; 6 values 29 -> 12 ns, 11 values
-- 41 -> 14 ns).  (Parts of longer lines so sorted after TH's partitions
-- were slower than its insertion sort: the calls, one per part's size.)
-- rank(m, op) -> function(v, ix, o) so sorting v[o .. o+m-1] and ix
local function rank(m, op)
   local out = {'local min, max, S = math.min, math.max, 2 ^ 600\nreturn function(v, ix, o)'}
   for p = 0, m - 1 do
      out[#out + 1] = ('local a%d, i%d, r%d = v[o + %d], ix[o + %d], o + %d'):format(p, p, p, p, p, p)
   end
   for p = 0, m - 1 do
      for q = p + 1, m - 1 do      -- c: p sorts after q (q before it: r%d counts down)
         local a, b = 'a' .. p, 'a' .. q
         if op == '<' then a, b = b, a end
         out[#out + 1] = ('local c = min(1, max(0, (%s - %s) * S * S)); r%d, r%d = r%d + c, r%d - c')
                         :format(a, b, p, q, p, q)
      end
   end
   for p = 0, m - 1 do out[#out + 1] = ('v[r%d], ix[r%d] = a%d, i%d'):format(p, p, p, p) end
   out[#out + 1] = 'end'
   return assert(loadstring(table.concat(out, '\n'), '=(th rank sort)'))()
end
-- (each made when first used: making them all cost a millisecond of every start-up)
local SHORT = M_SMALL + 1
for _, how in ipairs{{up, '>'}, {down, '<'}} do
   how[1].rank = setmetatable({}, {__index = function(made, m)
      if m < 0 or m > SHORT then return nil end
      local f = rank(m, how[2])
      made[m] = f
      return f
   end})
end

-- Lines from SHARED elements without NaN are shared with helper threads
-- (torch.parallel): TH's loop runs here down to parts of fewer than
-- n / SPLIT elements, which the threads sort apart (partitions, then the
-- insertion sort, of a part's own elements: as in the whole, where no
-- element moves past a pivot), then the insertion sort of the whole finds
-- the parts sorted and sorts what lies between them.  With NaN the parts'
-- elements would not stay apart: one thread does it all.  (Smaller parts
-- share better when a helper is slow, a busy machine's core, but the loop
-- down to them runs on this thread alone.)
local SHARED, SPLIT = 2 ^ 17, 8
local bounds, nbounds = nil, 0      -- the parts' first and last places, for the helpers

-- shared(how, v, ix, o, n) -> true when v[0 .. n-1] (and ix) were sorted
-- with helper threads (a line from o = 0 alone)
local function shared(how, v, ix, o, n)
   if n < SHARED or o ~= 0 or torch.getnumthreads() < 2 then return false end
   for k = 0, n - 1 do
      if v[k] ~= v[k] then return false end
   end
   local parts = {}
   how.sort(v, ix, 0, n, math.ceil(n / SPLIT), parts)
   local count = #parts / 2
   local job = count > 1 and parallel.job(n, SHARED)
   if job then
      if nbounds < #parts then bounds, nbounds = ffi.new('double[?]', #parts), #parts end
      for c = 0, #parts - 1 do bounds[c] = parts[c + 1] end
      job.source, job.sourcelen = how.job, #how.job
      job.p[0], job.p[1], job.p[2] = v, ix, bounds
      parallel.segment(job, 0, count)
      parallel.run(job, 'kernel', 1)
   else
      for c = 1, count do how.sort(v, ix, parts[2 * c - 1], parts[2 * c] - parts[2 * c - 1] + 1) end
   end
   how.insertion(v, ix, 0, n)
   return true
end

-- quicksort.ascending(v, ix, o, n), quicksort.descending: v[o .. o+n-1] and
-- ix alongside sorted so that no element is greater (less) than its
-- successor; quicksort.line(v, ix, o, n, descending): v[o .. o+n-1]
-- (double *) and ix (int32_t *) so sorted, with helper threads when it is long
-- quicksort.finite(v, ix, o, n, descending): the same, for lines of
-- finite values up to quicksort.SHORT elements
return {
   ascending = up.sort, descending = down.sort,
   line = function(v, ix, o, n, descending)
      local how = descending and down or up
      if not shared(how, v, ix, o, n) then how.sort(v, ix, o, n) end
   end,
   finite = function(v, ix, o, n, descending)
      (descending and down or up).rank[n](v, ix, o)
   end,
   SHORT = SHORT,
}
