-- Tensor element access with []: x[i], x[{i, j}], x[{{a, b}, {}, k}],
-- x[LongStorage], x[ByteTensor mask] and the same forms on assignment (as
-- in Torch7, a LongTensor is no index: x[idx] is nil).
-- A number on a 1-D tensor (or a full set of indices) is an element; anything
-- else is a view sharing the storage, as select and narrow make.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'

local TD, SD, fail = internal.tensors, internal.storages, internal.fail
local selectview, checkbounds = internal.selectview, internal.checkbounds
local wraptensor = internal.wraptensor
local tnew = require 'table.new'
local poll = internal.poll
local Half = types.Half
local type, tonumber, rawget, floor = type, tonumber, rawget, math.floor

-- (the errors are Torch7's: its __index__ and __newindex__ numbered the
-- key #2 and the value #3, and named no function)

-- a 0-based position from a 1-based (possibly negative) index along a size
-- (why: the error's reason, argn its argument number, 2 when not given)
local function position(i, size, why, argn)
   i = i >= 0 and floor(i) or -floor(-i)   -- a fraction cut toward zero first, as a C long
   if i < 0 then i = size + i + 1 end
   if not (i >= 1 and i <= size) then   -- (NaN too: out of range, as TH's long)
      fail("bad argument #%d to '?' (%s)", argn or 2, why)
   end
   return i - 1
end

local function emptyerror()
   fail("bad argument #1 to '?' (empty tensor)")
end

-- the storage position of element (0-based) i0 of a 1-D view d
local function at(d, i0)
   local pos = d.off + i0 * d.str[1]
   if pos >= d.st.n then checkbounds(d) end
   return pos
end

-- an entry of an index table as Torch7 read it (lua_isnumber): a numeric
-- string is its number (x[{'2', {'1', '3'}}] as x[{2, {1, 3}}])
local function entry(v)
   if type(v) == 'string' then return tonumber(v) or v end
   return v
end

-- the storage position of element idx (a full table of numbers) of d, or nil
-- when idx holds something else (the common x[{i, j}] without making views)
local function elementat(d, idx, nidx)
   local pos = d.off
   for dim = 1, nidx do
      local v = entry(idx[dim])
      if type(v) ~= 'number' then return nil end
      pos = pos + position(v, d.sz[dim], 'index out of bound') * d.str[dim]
   end
   if pos >= d.st.n then checkbounds(d) end
   return pos
end

-- walk(d, idx [, sz, str]) -> nil, the storage position of the element idx
-- picks; or the offset, dimension count, sizes and strides of the view it
-- picks (made from d's metadata at once: no intermediate views), written
-- into sz and str when given
local function walk(d, idx, sz, str)
   local nidx, dnd = #idx, d.nd
   if nidx > dnd then fail("bad argument #2 to '?' (too many indices provided)") end
   if nidx == dnd and nidx > 0 then
      local pos = elementat(d, idx, nidx)
      if pos then return nil, pos end
   end
   local dsz, dstr = d.sz, d.str
   local off, nd = d.off, dnd              -- nd: the dimensions the view has left
   if not sz then sz, str = tnew(dnd, 0), tnew(dnd, 0) end
   local k = 0
   local rest = nidx + 1   -- the first dimension the index leaves whole
   for dim = 1, nidx do
      local v, size = entry(idx[dim]), dsz[dim]
      if type(v) == 'number' then
         local z = position(v, size, 'index out of bound')
         if nd == 1 then   -- the last dimension left: an element
            local pos = off + z * dstr[dim]
            if pos >= d.st.n then checkbounds(d) end
            return nil, pos
         end
         off, nd = off + z * dstr[dim], nd - 1
      elseif type(v) == 'table' then
         local s, e = entry(v[1]), entry(v[2])
         if type(s) == 'number' then
            s = position(s, size, 'start index out of bound')
            e = type(e) == 'number' and position(e, size, 'end index out of bound') or s
         else
            s, e = 0, (type(e) == 'number' and position(e, size, 'end index out of bound') or size - 1)
         end
         if e < s then fail("bad argument #2 to '?' (end index must be greater or equal to start index)") end
         off, k = off + s * dstr[dim], k + 1
         sz[k], str[k] = e - s + 1, dstr[dim]
      else
         rest = dim
         break
      end
   end
   for dim = rest, dnd do
      k = k + 1
      sz[k], str[k] = dsz[dim], dstr[dim]
   end
   return off, nil, k, sz, str
end

local function positionof(d, storage)
   local s = SD[storage]
   if s.n ~= d.nd then fail("bad argument #2 to '?' (invalid size)") end
   local pos = d.off
   for i = 1, d.nd do
      pos = pos + position(tonumber(s.ptr[i - 1]), d.sz[i], 'index out of bound') * d.str[i]
   end
   if pos >= d.st.n then checkbounds(d) end
   return pos
end

local function islong(v) local s = SD[v]; return s and s.T == types.Long end
local function isbytetensor(v) local d = TD[v]; return d and d.T == types.Byte end

local function makeindex(mt)
   return function(self, k)
      poll()
      local m = rawget(mt, k)
      if m ~= nil then return m end
      local tk = type(k)
      if tk == 'number' then
         local d = TD[self] or internal.badself(self)
         if d.nd == 1 then
            return tonumber(d.st.ptr[at(d, position(k, d.sz[1], 'out of range'))])
         end
         if d.nd == 0 then emptyerror() end
         return selectview(d, 1, position(k, d.sz[1], 'out of range'))
      elseif tk == 'table' then
         local d = TD[self] or internal.badself(self)
         local off, pos, nd, sz, str = walk(d, k)
         if pos then return tonumber(d.st.ptr[pos]) end
         return wraptensor(d.T, d.st, off, nd, sz, str)
      elseif tk == 'userdata' then
         local d = TD[self] or internal.badself(self)
         if islong(k) then
            local pos = positionof(d, k)   -- (first: an empty tensor has no storage)
            return tonumber(d.st.ptr[pos])
         elseif isbytetensor(k) then
            if d.T == Half then fail('ByteTensor based indexing not yetsupported with half type') end   -- (sic)
            return self:maskedSelect(k)
         end
         return nil   -- (another object, a LongTensor too: no element, as in Torch7)
      elseif tk == 'string' and tonumber(k) then   -- x['2']: a number, as lua_isnumber had it
         return self[tonumber(k)]
      end
      return nil
   end
end

-- The view an assignment x[k] = v writes lives only for the assignment, as
-- the original's C did it: a field table borrowed from spares (no proxy, no
-- sizes made: M[i] = 0 on a matrix cost twice the original's time).  A
-- field table an error left out is made again; one given back keeps no
-- storage alive.
local spares = {}

-- borrow(d, off) -> a field table of d's type and storage at offset off
-- (sizes and strides to fill in, then shape(w, nd))
local function borrow(d, off)
   local n = #spares
   local w = spares[n]
   if w then
      spares[n] = nil
   else
      w = {T = false, st = false, off = 0, nd = 0, sz = {}, str = {}, nv = false, fo = false}
   end
   w.T, w.st, w.off = d.T, d.st, off
   return w
end

-- w's dimensions set to nd (its sizes and strides beyond them cleared)
local function shape(w, nd)
   for i = nd + 1, w.nd do w.sz[i], w.str[i] = nil, nil end
   w.nd = nd
end

local function giveback(w)
   w.st, w.nv, w.fo = false, false, false
   spares[#spares + 1] = w
end

-- (Torch7's HalfTensor took no number into a part of it, nor a mask:
-- its indexing had no fill for Half, nor masked functions)
local function nohalffill() fail('fill on torch.HalfTensor not yet supported') end

-- assign v (a number or a tensor) to the view w, then give it back; a
-- numeric string is read as the element setter reads it when byelement
-- (x[2] = '1e10' on a matrix), else as a number (x[{2, {}}] = '1e10'), as
-- Torch7 did
local function assign(w, v, byelement)
   if type(v) == 'string' then
      v = (byelement and tonumber(internal.elementvalue(w.T, v))) or tonumber(v) or v
   end
   if type(v) == 'number' then
      if w.T == Half then nohalffill() end
      internal.fill(w, internal.ccast(w.T, v))
   elseif internal.istensor(v) then
      internal.copy(w, TD[v])
   else
      fail("bad argument #3 to '?' (torch.*Tensor expected, got %s)", torch.type(v))
   end
   giveback(w)
end

-- (why: the error of a value that is not a number: x[1] on a vector took
-- a tensor too, x[{1, 1}] only a number)
-- (Torch7 checked the value before the index: named by its Lua type)
local function valueof(d, v, why)
   local x = type(v) ~= 'table' and internal.elementvalue(d.T, v)   -- x[1] = '5' as in Torch7
   if not x then
      fail("bad argument #3 to '?' (%s expected, got %s)", why or 'number', type(v))
   end
   return x
end

-- whether v is checked before the index of x[LongStorage] = v: but for a
-- string given to an integer type (Torch7 took any string there, as 0, after
-- the index; th refuses one that is no number, after the index too)
local function first(d, v)
   return type(v) ~= 'string' or not d.T.integer
end

local function setnumber(d, pos, v, why)
   d.st.ptr[pos] = valueof(d, v, why)
end

local function newindex(self, k, v)
   poll()
   local d = TD[self] or internal.badself(self)
   if type(k) == 'string' then k = tonumber(k) or k end
   local tk = type(k)
   if tk == 'number' then
      if d.nd == 1 and (type(v) ~= 'userdata' or not internal.istensor(v)) then
         local x = valueof(d, v, 'torch.*Tensor')
         d.st.ptr[at(d, position(k, d.sz[1], 'out of range'))] = x
         return
      end
      if d.nd == 0 then emptyerror() end
      if type(v) ~= 'number' and not internal.istensor(v) then valueof(d, v, 'torch.*Tensor') end
      if d.T == Half and not internal.istensor(v) then nohalffill() end   -- (before the index)
      local z = position(k, d.sz[1], 'out of range', 3)
      local w = borrow(d, d.off + z * d.str[1])
      local sz, str = w.sz, w.str
      if internal.istensor(v) then   -- (Torch7 copied into the row as a 1 x n view, or the
                                     -- element as a view of 1: its size error says so)
         for i = 1, d.nd do sz[i], str[i] = d.sz[i], d.str[i] end
         sz[1] = 1
         shape(w, d.nd)
         return assign(w, v)
      end
      for i = 2, d.nd do sz[i - 1], str[i - 1] = d.sz[i], d.str[i] end
      shape(w, d.nd - 1)
      return assign(w, v, true)
   elseif tk == 'table' then
      local w = borrow(d, 0)
      local off, pos, nd = walk(d, k, w.sz, w.str)
      if pos then
         giveback(w)
         return setnumber(d, pos, v)
      end
      w.off = off
      shape(w, nd)
      return assign(w, v)
   elseif tk == 'userdata' then
      if islong(k) then
         local x = first(d, v) and valueof(d, v)
         local pos = positionof(d, k)   -- (first: an empty tensor has no storage)
         d.st.ptr[pos] = x or valueof(d, v)
         return
      elseif isbytetensor(k) then
         if d.T == Half then fail('ByteTensor indexing not yet supported with half types') end
         if type(v) == 'number' then
            self:maskedFill(k, v)
         else
            self:maskedCopy(k, v)
         end
         return
      end
   end
   internal.raise(('the class %s cannot be indexed'):format(d.T.tensorname))
end

for i = 1, types.all do
   local mt = torch.getmetatable(types[i].tensorname)
   mt.__index = makeindex(mt)
   mt.__newindex = newindex
end
