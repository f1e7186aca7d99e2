-- Selecting elements by index or by mask: index, indexCopy, indexAdd,
-- indexFill, gather, scatter, maskedSelect, maskedCopy, maskedFill and
-- nonzero, as methods of every tensor type and as torch.* functions.
-- Indices are 1-based LongTensors, masks ByteTensors of 0 and 1; every
-- argument is checked before anything is written, so a bad call leaves the
-- tensors intact.  gather, scatter and indexFill run generated LuaJIT loops
-- at every size (indexloops.lua), the masks' operations too (maskloops.lua);
-- what those do not take (views of more than three levels, ...) goes through
-- small loops in LuaJIT over the FFI pointers, or one numpy call
-- (th/ops/selection.py) on views of the same memory for big tensors.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'

local TD, fail = internal.tensors, internal.fail
local py, pycall, ndview = internal.py, internal.pycall, internal.ndview
local istensor, checktensor, checkdim = internal.istensor, internal.checktensor, internal.checkdim
local nelement, each, offsets = internal.nelement, internal.each, internal.offsets
local newtensor, resize, selectview = internal.newtensor, internal.resize, internal.selectview
local copy, clone, checkbounds = internal.copy, internal.clone, internal.checkbounds
local iscontiguous = internal.iscontiguous
local type, tonumber, floor, huge = type, tonumber, math.floor, math.huge
local tnew = require 'table.new'

local SMALL = 64        -- up to this many elements, loops stay in LuaJIT
local kernels = require 'torch.maths.kernels'
local maskloops = require 'torch.maskloops'
local indexloops = require 'torch.indexloops'
local cblas = require 'torch.maths.cblas'
local parallel = require 'torch.parallel'

---------------------------------------------------------------------------
-- argument checks
---------------------------------------------------------------------------

local function checktype(d, T, argn, fname)
   if d.T ~= T then
      fail("bad argument #%d to '%s' (%s expected, got %s)", argn, fname, T.tensorname, d.T.tensorname)
   end
   return d
end

-- (a value of another kind is named as such: its luaT_checkudata error)
local function checkof(v, T, argn, fname)
   if not istensor(v) then
      fail("bad argument #%d to '%s' (%s expected, got %s)", argn, fname, T.tensorname, torch.type(v))
   end
   return checktype(TD[v], T, argn, fname)
end

-- (TH's check of the dimensions, numbered #2 in both forms of index, as its
-- THArgCheck numbered it, whatever the argument's place)
local function checkvector(v, argn, fname)
   local d = checkof(v, types.Long, argn, fname)
   if d.nd ~= 1 then fail("bad argument #2 to '%s' (Index is supposed to be a vector)", fname) end
   return d
end

-- the smallest and largest of a LongTensor of indices
local indexlo = kernels.op('indexlo', 16384, {Long = 'min(acc, tonumber(x))'})   -- (no branch per element)
local indexhi = kernels.op('indexhi', 16384, {Long = 'max(acc, tonumber(x))'})

-- the smallest and largest of a small strided index (its own function: a
-- closure in checkrange would make LuaJIT close upvalues on its every
-- return, which it does not compile)
local function stridedrange(d)
   local lo, top = huge, -huge
   each(d, function(p, i)
      local v = tonumber(p[i])
      if v < lo then lo = v end
      if v > top then top = v end
   end)
   return lo, top
end

-- every value of the LongTensor d lies in 1..hi (else `message`, when given, is the error)
local function checkrange(d, hi, argn, fname, message)
   local n = nelement(d)
   if n == 0 then return end
   local lo, top = kernels.fold(indexlo, d, huge), kernels.fold(indexhi, d, -huge)
   if lo and top then
      -- (the LuaJIT loops, for a contiguous index)
   elseif n <= SMALL then
      lo, top = stridedrange(d)
   else
      lo, top = pycall(py.value_range, ndview(d))
   end
   local bad = lo < 1 and lo or top > hi and top
   if bad and message then fail(message) end
   if bad then fail("bad argument #%d to '%s' (out of range)", argn, fname) end
end

-- gather's and scatter's size check: the tensor written, the source (none
-- for a fill) and the index agree in every dimension but dim, or TH's
-- message (which names dim, counted from 0)
local function checkothers(res, src, idx, dim)
   for i = 1, res.nd do
      if i ~= dim and (idx.sz[i] ~= res.sz[i] or src and src.sz[i] ~= res.sz[i]) then
         local sizes = internal.bracketsizes
         if not src then
            fail('Expected tensor %s and index %s to have the same size in dimension %d',
                 sizes(res), sizes(idx), dim - 1)
         end
         fail('Expected tensor %s, src %s and index %s to have the same size in dimension %d',
              sizes(res), sizes(src), sizes(idx), dim - 1)
      end
   end
end

-- a source sharing memory with the destination is read from a copy
local function unaliased(dst, src)
   if src.st ~= nil and rawequal(src.st, dst.st) then return TD[clone(src)] end
   return src
end

---------------------------------------------------------------------------
-- small-tensor helpers
---------------------------------------------------------------------------

local function values(d)
   local v, n = {}, 0
   each(d, function(p, i) n = n + 1; v[n] = tonumber(p[i]) end)
   return v, n
end

-- offsets of the elements of slice j0 (0-based) along dim, in row-major order
local function sliceoffsets(d, dim, j0)
   if d.nd == 1 then return {d.off + j0 * d.str[1]} end
   return (offsets(TD[selectview(d, dim, j0)]))
end

local function slice(d, dim, j0)
   return TD[selectview(d, dim, j0)]
end

-- the forms self:f(dim, index) and res:f(src, dim, index) -> the result (nil
-- for a new one), the source data, dim (a number, its range unchecked),
-- index, the argument number of dim
-- (form: 'source' or 'result' when the count of arguments told them apart,
-- as index's binding did; else a tensor first means the result form)
local function sourceform(fname, self, a, b, c, form)
   local out, src, dim, index, argn = nil, TD[self], a, b, 1
   if form == 'result' or form == nil and istensor(a) then
      out, src, dim, index, argn = self, checktype(TD[a], TD[self].T, 1, fname), b, c, 2
   end
   return out, src, internal.toint(dim, argn, fname), index, argn
end

-- indexdim(d, dim, fname) -> dim, in range for the index family (checked
-- after every argument's type, with TH's numbers and words)
local function indexdim(d, dim, fname)
   if dim < 1 then fail("bad argument #1 to '%s' (out of range)", fname) end
   if dim > d.nd then fail("bad argument #3 to '%s' (Indexing dim %d is out of bounds of tensor)", fname, dim) end
   return dim
end

---------------------------------------------------------------------------
-- index, indexCopy, indexAdd, indexFill
---------------------------------------------------------------------------

-- slices along the first dimension of contiguous tensors are blocks of
-- memory: index and indexCopy move them with memmove at any size
local ffi = require 'ffi'

-- the pointer to d's first element and the elements of a slice along
-- dimension 1, when d is contiguous
local function blocks(d)
   if d.nd == 0 or not internal.iscontiguous(d) then return nil end
   checkbounds(d)
   return d.st.ptr + d.off, nelement(d) / d.sz[1]
end

-- from this many bytes, index's slices are copied by this thread and helper
-- threads (torch.parallel), in chunks of at least ROWCHUNK bytes
local ROWSPLIT, ROWCHUNK = 2^19, 2^16

-- slice to(k) of dst = slice from(k) of src along dimension 1, for the idx
-- values k: index (idx picks the source slices) or indexCopy (the destination ones)
local function copyblocks(dst, src, idx, pickssource)
   local dp, width = blocks(dst)
   local sp, swidth = blocks(src)
   if not dp or not sp or width ~= swidth then return false end
   local ip, io, is = idx.st.ptr, idx.off, idx.str[1]
   local bytes = width * dst.T.size
   local n = idx.sz[1]
   -- (index writes each slice once, from a source apart from it: in any order)
   local job = pickssource and is == 1 and bytes > 0 and parallel.job(n * bytes, ROWSPLIT)
   if job then
      job.p[0], job.p[1], job.p[2] = dp, sp, ip + io
      job.steps[0], job.steps[1], job.steps[2] = bytes, bytes, bytes
      parallel.segment(job, 0, n)
      parallel.run(job, 'rows', parallel.chunk(n, math.ceil(ROWCHUNK / bytes), 4))
      return true
   end
   for k = 0, n - 1 do
      local j = tonumber(ip[io + k * is]) - 1
      if pickssource then
         ffi.C.memmove(dp + k * width, sp + j * width, bytes)
      else
         ffi.C.memmove(dp + j * width, sp + k * width, bytes)
      end
   end
   return true
end

-- slice j of dst += slice k of src along dimension 1 for the idx values j,
-- k counting, in that order (a repeated j adds up): BLAS axpys of 1, whose
-- one multiply is exact, so each sum is x + y rounded, as TH's loop added
local function addblocks(dst, src, idx)
   local axpy = cblas.axpy(dst.T)
   local dp, width = blocks(dst)
   local sp, swidth = blocks(src)
   if not axpy or not dp or not sp or width ~= swidth or width == 0 then return false end
   local ip, io, is = idx.st.ptr, idx.off, idx.str[1]
   for k = 0, idx.sz[1] - 1 do
      local j = tonumber(ip[io + k * is]) - 1
      axpy(width, 1, sp + k * width, 1, dp + j * width, 1)
   end
   return true
end

-- Tensors of up to four dimensions, up to PICKED elements (beyond, numpy's
-- strided take and put are faster), any strides: slice k of the result along
-- dim is slice idx[k] of the source (index), slice idx[k] of the destination
-- is slice k of the source (indexCopy: a repeated index's last slice stays)
-- or has it added (indexAdd: in the order of k).  Row-major nested loops, one
-- generated per mode, element type, dimensions and dim (monomorphic traces);
-- the index picks the offset on its own level
local PICKED = 2^16
local picktexts = {
   index = 'dp[do_] = sp[so]', copy = 'dp[do_] = sp[so]', add = 'dp[do_] = dp[do_] + sp[so]',
}
local pickloops = {}

local function pickloop(mode, T, nd, dim)
   local key = mode .. T.name .. nd .. dim
   local f = pickloops[key]
   if f then return f end
   local lines = {'local tonumber = tonumber',
                  'return function(dp, ds, sp, ss, ip, is, sz)'}
   for l = 1, nd do
      lines[#lines + 1] = ('local d%d, s%d, n%d = ds[%d], ss[%d], sz[%d]'):format(l, l, l, l, l, l)
   end
   local dsum, ssum = {'0'}, {'0'}
   for l = 1, nd do
      local at = ('i%d'):format(l)
      lines[#lines + 1] = ('for %s = 0, n%d - 1 do'):format(at, l)
      local picked = ('(tonumber(ip[%s * is]) - 1)'):format(at)
      local dat, sat = at, at
      if l == dim then
         if mode == 'index' then sat = picked else dat = picked end
      end
      dsum[#dsum + 1] = ('%s * d%d'):format(dat, l)
      ssum[#ssum + 1] = ('%s * s%d'):format(sat, l)
   end
   lines[#lines + 1] = ('local do_, so = %s, %s'):format(table.concat(dsum, ' + '), table.concat(ssum, ' + '))
   lines[#lines + 1] = picktexts[mode]
   for _ = 1, nd do lines[#lines + 1] = 'end' end
   lines[#lines + 1] = 'end'
   f = assert(loadstring(table.concat(lines, '\n'), ('=(th %s %s %dD along %d)'):format(mode, T.name, nd, dim)))()
   pickloops[key] = f
   return f
end

-- whether dst and src have the same sizes but along dim (the loops below
-- walk both by the same indices; indexCopy and indexAdd take any source
-- whose slices have the destination's element count, as TH did)
local function sameshape(dst, src, dim)
   if dst.nd ~= src.nd then return false end
   for l = 1, dst.nd do
      if l ~= dim and dst.sz[l] ~= src.sz[l] then return false end
   end
   return true
end

-- dst and src by mode along dim (src: the result's sizes in index mode, the
-- source's otherwise) -> true when done; apart tensors only
local function pick(mode, dst, src, dim, idx)
   local sized = mode == 'index' and dst or src
   if sized.nd > 4 or nelement(sized) > PICKED or rawequal(dst.st, src.st) or dst.T == types.Half
      or mode == 'add' and dst.T.integer or not sameshape(dst, src, dim) then
      return false
   end
   checkbounds(dst); checkbounds(src); checkbounds(idx)
   local origin = kernels.origin   -- (kept in each tensor: no pointer made per call)
   pickloop(mode, dst.T, sized.nd, dim)(origin(dst), dst.str, origin(src), src.str, origin(idx), idx.str[1],
                                        sized.sz)
   return true
end

-- fillselect(res, src, dim, idx): res (at its size) = the slices of src
-- that idx picks along dim
local function fillselect(res, src, dim, idx)
   local n = idx.sz[1]
   if dim == 1 and copyblocks(res, src, idx, true) then return end
   if pick('index', res, src, dim, idx) then return end
   if nelement(res) > SMALL then
      return pycall(py.index_select, ndview(res), ndview(src), ndview(idx), dim - 1)
   end
   checkbounds(src)
   local iv = values(idx)
   for k = 1, n do
      local so, ro = sliceoffsets(src, dim, iv[k] - 1), sliceoffsets(res, dim, k - 1)
      local sp, rp = src.st.ptr, res.st.ptr
      for m = 1, #ro do rp[ro[m]] = sp[so[m]] end
   end
end

-- indexselect(res, src, dim, idx): res resized to the slices of src that
-- idx picks along dim, and filled; res nil -> a new tensor of them (made at
-- its size, not zeroed: each element is written)
local function indexselect(res, src, dim, idx)
   local nd = src.nd
   local sizes = tnew(nd, 0)
   for i = 1, nd do sizes[i] = src.sz[i] end
   sizes[dim] = idx.sz[1]
   local out
   if res then
      src = unaliased(res, src)
      resize(res, sizes, nd, true)
   else
      out = newtensor(src.T, sizes, nd, true, true)
      res = TD[out]
   end
   fillselect(res, src, dim, idx)
   return out
end

-- index(dim, index) -> a new tensor; res:index(src, dim, index) fills res and
-- returns index (what Torch7's binding returned: its last argument)
local function index(self, ...)
   -- Torch7's binding told its two forms apart by the count of arguments
   local n, a, b, c = select('#', ...), ...
   local T = TD[self] and TD[self].T
   if n ~= 2 and n ~= 3 then
      local tn = T and T.tensorname or 'torch.Tensor'
      fail("%s, number, torch.LongTensor | %s, %s, number, torch.LongTensor expected", tn, tn, tn)
   end
   if not T then internal.badself(self) end
   if n == 3 and not (TD[a] and TD[a].T == T) then
      fail("bad argument #1 to 'index' (%s expected, got %s)", T.tensorname, torch.type(a))
   end
   local out, src, dim, idx, argn = sourceform('index', self, a, b, c, n == 3 and 'result' or 'source')
   local id = checkvector(idx, argn + 1, 'index')
   dim = indexdim(src, dim, 'index')
   -- (TH's words: its loop over a vector, or over the rows of a contiguous
   -- source, checked the indices itself; its others selected slices)
   checkrange(id, src.sz[dim], argn + 1, 'index',
              (src.nd == 1 or dim == 1 and iscontiguous(src)) and 'index out of range' or nil)
   if out then
      indexselect(TD[out], src, dim, id)
      return idx
   end
   return indexselect(nil, src, dim, id)
end

-- is the index one line of the destination's own memory?  TH read such an
-- index in place (its newContiguous made no copy), each value when it came
-- to it, after the writes of the values before
local function liveindex(d, idx)
   return rawequal(idx.st, d.st) and iscontiguous(idx)
end

-- inorder(fname, d, dim, idx, s, update): update(ptr, place, source value)
-- for each element of the slices of d the index picks, in TH's order, each
-- index value read and checked when its turn comes (x:indexFill(1, x, 9) of
-- x = {2, 3, 1}: x[2] = 9, then index 9 is out of range); the source s, if
-- any, read in place too.  A failure puts d's storage back as it was.
local function inorder(fname, d, dim, idx, s, update)
   checkbounds(d)
   local st = d.st
   local bytes = st.n * ffi.sizeof(st.ptr[0])
   local kept = ffi.new('uint8_t[?]', bytes)
   ffi.copy(kept, st.ptr, bytes)
   local ip, dp, sp = idx.st.ptr, st.ptr, s and s.st.ptr
   local ok, e = pcall(function()
      for k = 0, idx.sz[1] - 1 do
         local j = tonumber(ip[idx.off + k * idx.str[1]])
         if j < 1 or j > d.sz[dim] then
            fail("bad argument #%d to '%s' (out of range)", d.nd == 1 and 1 or 2, fname)
         end
         local dsl, ssl = sliceoffsets(d, dim, j - 1), s and sliceoffsets(s, dim, k)
         for m = 1, #dsl do update(dp, dsl[m], s and sp[ssl[m]]) end
      end
   end)
   if not ok then
      ffi.copy(st.ptr, kept, bytes)
      error(e, 0)
   end
end

-- the checks shared by indexCopy and indexAdd -> dim, index data, source
-- data (apart from the destination's unless the index is live)
local function checkindexsource(fname, d, dim, index, src)
   dim = internal.toint(dim, 1, fname)
   local idx = checkvector(index, 2, fname)
   local s = checkof(src, d.T, 3, fname)
   if dim < 1 then fail("bad argument #1 to '%s' (out of range)", fname) end
   -- (TH's checks and words: dim and the count of indices against the
   -- source; a vector destination's elements taken from the source's by
   -- get1d; else the first slice's selection in the destination (dim, the
   -- index value) and in the source, then its copy or addition)
   if dim > s.nd then fail("bad argument #3 to '%s' (Indexing dim %d is out of bounds of tensor)", fname, dim) end
   if s.sz[dim] ~= idx.sz[1] then
      fail("bad argument #3 to '%s' (Number of indices should be equal to source:size(dim))", fname)
   end
   if d.nd <= 1 and (d.nd == 0 or s.nd ~= 1) then
      fail("bad argument #0 to '%s' (tensor must have one dimension)", fname)
   end
   if d.nd > 1 then
      if dim > d.nd then fail("bad argument #1 to '%s' (out of range)", fname) end
      checkbounds(idx)
      local first = tonumber(idx.st.ptr[idx.off])
      if first < 1 or first > d.sz[dim] then fail("bad argument #2 to '%s' (out of range)", fname) end
      if s.nd == 1 then fail("bad argument #0 to '%s' (cannot select on a vector)", fname) end
   end
   if nelement(s) / s.sz[dim] ~= nelement(d) / d.sz[dim] then
      local function slice(e)   -- (the sizes of a slice along dim)
         local sz = {}
         for k = 1, e.nd do if k ~= dim then sz[#sz + 1] = e.sz[k] end end
         return {sz = sz, nd = #sz}
      end
      local ds, ss = slice(d), slice(s)
      local dn, sn = nelement(d) / d.sz[dim], nelement(s) / s.sz[dim]
      local bracketsizes = internal.bracketsizes
      if fname == 'indexCopy' then
         fail('inconsistent tensor size, expected tensor %s and src %s to have the same number of elements, '
              .. 'but got %d and %d elements respectively', bracketsizes(ds), bracketsizes(ss), dn, sn)
      end
      fail('inconsistent tensor size, expected r_ %s, t %s and src %s to have the same number of elements, '
           .. 'but got %d, %d and %d elements respectively', bracketsizes(ds), bracketsizes(ds), bracketsizes(ss),
           dn, dn, sn)
   end
   if liveindex(d, idx) then return dim, idx, s end
   checkrange(idx, d.sz[dim], d.nd == 1 and 1 or 2, fname)   -- (TH's set1d or select numbered them)
   return dim, idx, unaliased(d, s)
end

-- numpy can do the whole update when the source has the destination's shape
local function bulk(d, s, dim)
   if nelement(s) <= SMALL or d.nd ~= s.nd then return false end
   for i = 1, d.nd do
      if i ~= dim and d.sz[i] ~= s.sz[i] then return false end
   end
   return true
end

-- slice by slice: update(dst_ptr, dst_offset, src_value) for every element
local function eachslice(d, dim, idx, s, update)
   checkbounds(d)
   checkbounds(s)
   local iv, n = values(idx)
   local dp, sp = d.st.ptr, s.st.ptr
   for k = 1, n do
      local dsl, ssl = sliceoffsets(d, dim, iv[k] - 1), sliceoffsets(s, dim, k - 1)
      for m = 1, #dsl do update(dp, dsl[m], sp[ssl[m]]) end
   end
end

local function indexCopy(self, dim, index, src)
   local d = TD[self] or internal.badself(self)
   local idx, s
   dim, idx, s = checkindexsource('indexCopy', d, dim, index, src)
   if liveindex(d, idx) then
      inorder('indexCopy', d, dim, idx, s, function(p, i, v) p[i] = v end)
      return src
   end
   if dim == 1 and idx.sz[1] > 0 and copyblocks(d, s, idx, false) then return src end
   if idx.sz[1] > 0 and pick('copy', d, s, dim, idx) then return src end
   if bulk(d, s, dim) then
      pycall(py.index_copy, ndview(d), ndview(idx), ndview(s), dim - 1)
   elseif d.nd > 1 and nelement(s) > SMALL then
      local iv, n = values(idx)
      for k = 1, n do copy(slice(d, dim, iv[k] - 1), slice(s, dim, k - 1)) end
   else
      eachslice(d, dim, idx, s, function(p, i, v) p[i] = v end)
   end
   return src   -- as Torch7's binding: its last argument
end

local function indexAdd(self, dim, index, src)
   local d = TD[self] or internal.badself(self)
   local idx, s
   dim, idx, s = checkindexsource('indexAdd', d, dim, index, src)
   if liveindex(d, idx) then
      inorder('indexAdd', d, dim, idx, s, function(p, i, v) p[i] = p[i] + v end)
      return src
   end
   if dim == 1 and idx.sz[1] > 0 and addblocks(d, s, idx) then return src end
   if idx.sz[1] > 0 and pick('add', d, s, dim, idx) then return src end
   if bulk(d, s, dim) then
      pycall(py.index_add, ndview(d), ndview(idx), ndview(s), dim - 1)
   else
      eachslice(d, dim, idx, s, function(p, i, v) p[i] = p[i] + v end)
   end
   return src   -- as Torch7's binding: its last argument
end

-- -> the value argument as given (as maskedFill)
local function indexFill(self, dim, index, given)
   local d = TD[self] or internal.badself(self)
   dim = internal.toint(dim, 1, 'indexFill')
   local idx = checkvector(index, 2, 'indexFill')
   local value = tonumber(internal.elementvalue(d.T, given)) or internal.checknumber(given, 3, 'indexFill')
   -- a vector takes any dimension number up to 1, as in Torch7
   dim = d.nd == 1 and dim < 2 and 1 or indexdim(d, dim, 'indexFill')
   if liveindex(d, idx) then
      inorder('indexFill', d, dim, idx, nil, function(p, i) p[i] = value end)
      return given
   end
   local done = indexloops.fill(d, idx, dim, value)
   if done then return given end
   checkrange(idx, d.sz[dim], d.nd == 1 and 1 or 2, 'indexFill')
   if idx.sz[1] * nelement(d) / d.sz[dim] > SMALL then
      pycall(py.index_fill, ndview(d), ndview(idx), value, dim - 1)
      return given
   end
   checkbounds(d)
   local iv, n = values(idx)
   local p = d.st.ptr
   for k = 1, n do
      local o = sliceoffsets(d, dim, iv[k] - 1)
      for m = 1, #o do p[o[m]] = value end
   end
   return given
end

---------------------------------------------------------------------------
-- gather, scatter
---------------------------------------------------------------------------

-- gather(dim, index) -> a new tensor; res:gather(src, dim, index) fills res
local function gather(self, a, b, c)
   local out, src, dim, index, argn = sourceform('gather', self, a, b, c)
   local idx = checkof(index, types.Long, argn + 1, 'gather')
   -- (TH's checks, in its order and with its argument numbers, whatever the form)
   local written = out and TD[out] or idx   -- (a new result has the index's sizes)
   if written.nd ~= src.nd then
      fail("bad argument #1 to 'gather' (Input tensor must have same dimensions as output tensor)")
   end
   if dim > src.nd then fail("bad argument #2 to 'gather' (Index dimension is out of bounds)") end
   dim = checkdim(src, dim, 1, 'gather')
   if idx.nd ~= src.nd then
      fail("bad argument #3 to 'gather' (Index tensor must have same dimensions as input tensor)")
   end
   checkothers(written, src, idx, dim)
   -- a result keeps its shape and strides: it must have the index's sizes,
   -- or be longer along dim (as in Torch7, which fills its first slices; it
   -- also took a shorter one, and wrote past its end)
   local res = out and TD[out]
   if out and not internal.samesize(res, idx) then
      if res.sz[dim] < idx.sz[dim] then
         fail("bad argument #1 to 'gather' (the result should have the index's sizes)")
      end
      local sz, str = {}, {}
      for k = 1, res.nd do sz[k], str[k] = res.sz[k], res.str[k] end
      sz[dim] = idx.sz[dim]
      res = {T = res.T, st = res.st, off = res.off, nd = res.nd, sz = sz, str = str, nv = false}
   end
   out = out or newtensor(src.T, idx.sz, idx.nd, true)   -- (raw: every element is written)
   res = res or TD[out]
   -- (an index the result shares memory with is read from a copy: checked, it stays so)
   src, idx = unaliased(res, src), unaliased(res, idx)
   resize(res, idx.sz, idx.nd)
   local done
   if nelement(idx) > 0 then done = indexloops.gather(res, src, idx, dim) end
   if done == false then fail('Invalid index in gather') end
   if done then return out end
   checkrange(idx, src.sz[dim], argn + 1, 'gather', 'Invalid index in gather')
   if nelement(idx) > SMALL then
      pycall(py.gather, ndview(res), ndview(src), ndview(idx), dim - 1)
      return out
   end
   checkbounds(src)
   local rp, sp, ip = res.st.ptr, src.st.ptr, idx.st.ptr
   local base, step = sliceoffsets(src, dim, 0), src.str[dim]
   for j = 0, idx.sz[dim] - 1 do
      local ro, io = sliceoffsets(res, dim, j), sliceoffsets(idx, dim, j)
      for m = 1, #ro do rp[ro[m]] = sp[base[m] + (tonumber(ip[io[m]]) - 1) * step] end
   end
   return out
end

-- scatter(dim, index, src or value): self[..index[i]..] = src[..i..]
local function scatter(self, dim, index, src)
   local d = TD[self] or internal.badself(self)
   if internal.toint(dim, 1, 'scatter') > d.nd then fail("bad argument #1 to 'scatter' (Index dimension is out of bounds)") end
   local idx = checkof(index, types.Long, 2, 'scatter')
   if idx.nd ~= d.nd then
      fail("bad argument #2 to 'scatter' (Index tensor must have same dimensions as output tensor)")
   end
   -- (a dimension below 1 after the index's: TH's check bounded it above only)
   dim = checkdim(d, dim, 1, 'scatter')
   local s
   if type(src) == 'string' then src = tonumber(src) or src end   -- as luaL_checknumber
   if type(src) == 'number' then
      src = internal.ccast(d.T, src)   -- TH's C cast (an IntTensor takes 1e10 as INT_MIN)
      checkothers(d, nil, idx, dim)
   else
      if not istensor(src) then
         fail("bad argument #3 to 'scatter' (tensor or number expected, got %s)", torch.type(src))
      end
      s = checkof(src, d.T, 3, 'scatter')
      if s.nd ~= d.nd then
         fail("bad argument #3 to 'scatter' (Input tensor must have same dimensions as output tensor)")
      end
      checkothers(d, s, idx, dim)
      if s.sz[dim] < idx.sz[dim] then
         fail("bad argument #3 to 'scatter' (source has %d elements along dimension %d, index %d)",
              s.sz[dim], dim, idx.sz[dim])
      end
      s = unaliased(d, s)
   end
   idx = unaliased(d, idx)   -- (as gather's)
   local done
   if nelement(idx) > 0 then done = indexloops.scatter(d, idx, s, src, dim) end
   if done == false then fail('Invalid index in scatter') end
   if done then return self end
   checkrange(idx, d.sz[dim], 2, 'scatter', 'Invalid index in scatter')
   if nelement(idx) > SMALL then
      if s then
         pycall(py.scatter, ndview(d), ndview(idx), ndview(s), dim - 1)
      else
         pycall(py.scatter_fill, ndview(d), ndview(idx), src, dim - 1)
      end
      return self
   end
   checkbounds(d)
   local dp, ip = d.st.ptr, idx.st.ptr
   local sp = s and s.st.ptr
   local base, step = sliceoffsets(d, dim, 0), d.str[dim]
   local n, io, so = idx.sz[dim], {}, {}
   for j = 0, n - 1 do
      io[j] = sliceoffsets(idx, dim, j)
      so[j] = s and sliceoffsets(s, dim, j)
   end
   -- (in TH's order, along dim for each place of the other dimensions: a
   -- destination whose places repeat keeps the last write)
   for m = 1, #io[0] do
      for j = 0, n - 1 do
         dp[base[m] + (tonumber(ip[io[j][m]]) - 1) * step] = s and sp[so[j][m]] or src
      end
   end
   return self
end

---------------------------------------------------------------------------
-- masks
---------------------------------------------------------------------------

-- the count of ones and the largest value of a mask that is no line of memory
local function stridedcount(m)
   local ones, top = 0, 0
   each(m, function(p, i)
      local v = p[i]
      if v > top then top = v end
      if v == 1 then ones = ones + 1 end
   end)
   return ones, top
end

local sizes = internal.bracketsizes

-- TH's message for a tensor (d: the source of maskedSelect) and a mask of
-- different counts
local function sizemismatch(fname, d, m)
   fail('inconsistent tensor size, expected %s %s and mask %s to have the same number of elements, '
        .. 'but got %d and %d elements respectively', fname == 'maskedSelect' and 'src' or 'tensor',
        sizes(d), sizes(m), nelement(d), nelement(m))
end

-- checkmask(v, d, argn, fname [, sizemessage [, nocount]]) -> mask data,
-- number of ones (nil with nocount, when the mask's bytes are ORed alone)
local function checkmask(v, d, argn, fname, sizemessage, nocount)
   local m = checkof(v, types.Byte, argn, fname)
   local n = nelement(m)
   if n ~= nelement(d) and sizemessage then fail(sizemessage) end
   if n ~= nelement(d) then sizemismatch(fname, d, m) end
   if n == 0 then return m, 0 end
   local ones, top = nil, nocount and maskloops.maskor(m, n)
   if top then
      if top > 1 then fail('Mask tensor can take 0 and 1 values only') end
      return m, nil
   end
   ones, top = maskloops.maskcount(m, n)
   if ones then
      -- (with no value above 1, the sum is the count of ones)
   elseif n <= SMALL then
      ones, top = stridedcount(m)
   else
      ones, top = pycall(py.mask_count, ndview(m))
   end
   if top > 1 then
      fail('Mask tensor can take 0 and 1 values only')
   end
   return m, ones
end

-- res:maskedSelect(src, mask) with res the very src or mask: TH resized res to
-- the sum of the mask's bytes before it compared src with mask, so that size
-- is compared (x:maskedSelect(m, x) of a 2x3 x of ones: "mask [6]") and the
-- call goes on with res so resized, as in the original (r:maskedSelect(r, m)
-- of a 4-element r and a mask {1, 0, 1}: "src [2]").  Only a failed
-- comparison of the sizes leaves res as it was.
local function resizefirst(res, src, mask)
   local m = checkof(mask, types.Byte, 2, 'maskedSelect')
   local sum = 0
   each(m, function(p, i) sum = sum + p[i] end)
   local resized = {sz = {sum}, nd = sum > 0 and 1 or 0}   -- (a size of 0 is no dimension: "[]")
   local s, r = src == res and resized or src, m == res and resized or m
   if nelement(s) ~= nelement(r) then sizemismatch('maskedSelect', s, r) end
   resize(res, {sum}, 1)
   return true
end

-- maskedSelect(mask) -> a new 1-D tensor; res:maskedSelect(src, mask) fills res
-- (the form by the count of arguments, as Tensor.c's: x:maskedSelect(m, nil) is the second)
local function maskedSelect(self, ...)
   local a, b = ...
   local into = select('#', ...) == 2
   local out, src, mask, argn, sized
   local d = (TD[self] or internal.badself(self))
   if into then
      out, src, mask, argn = self, checkof(a, d.T, 1, 'maskedSelect'), b, 2
      sized = (rawequal(self, a) or rawequal(self, b)) and resizefirst(d, src, mask)
   else
      src, mask, argn = d, a, 1
   end
   local m, ones = checkmask(mask, src, argn, 'maskedSelect')
   local res
   if out or ones == 0 then
      out = out or newtensor(src.T, {}, 0)
      res = TD[out]
      src = unaliased(res, src)
      if not sized then resize(res, {ones}, 1) end
   else
      -- (a new result of its size at once, not zeroed: every element is written)
      out = newtensor(src.T, {ones}, 1, true, true)
      res = TD[out]
   end
   if into then out = b end   -- res:maskedSelect(src, mask) returned mask in Torch7
   if ones > 0 and maskloops.select(res, src, m, nelement(src), ones) then return out end
   if ones > SMALL then
      pycall(py.masked_select, ndview(res), ndview(src), ndview(m))
   elseif ones > 0 then
      local so, mo, ro = offsets(src), offsets(m), offsets(res)
      local sp, mp, rp = src.st.ptr, m.st.ptr, res.st.ptr
      local k = 0
      for i = 1, #so do
         if mp[mo[i]] == 1 then
            k = k + 1
            rp[ro[k]] = sp[so[i]]
         end
      end
   end
   return out
end

-- maskedCopy(mask, src): the masked elements take src's elements in order
local function maskedCopy(self, mask, src)
   local d = TD[self] or internal.badself(self)
   checkof(mask, types.Byte, 1, 'maskedCopy')
   local s = checkof(src, d.T, 2, 'maskedCopy')   -- (every argument's type first, as the binding)
   local m, ones = checkmask(mask, d, 1, 'maskedCopy',
                             'Number of elements of destination tensor != Number of elements in mask')
   if nelement(s) < ones then fail('Number of elements of src < number of ones in mask') end
   if ones == 0 then return self end
   s = unaliased(d, s)
   if maskloops.copy(d, m, s, nelement(d)) then return self end
   if nelement(d) > SMALL then
      pycall(py.masked_copy, ndview(d), ndview(m), ndview(s), ones)
      return self
   end
   local dofs, mo, so = offsets(d), offsets(m), offsets(s)
   local dp, mp, sp = d.st.ptr, m.st.ptr, s.st.ptr
   local k = 0
   for i = 1, #dofs do
      if mp[mo[i]] == 1 then
         k = k + 1
         dp[dofs[i]] = sp[so[k]]
      end
   end
   return self
end

-- a masked fill of operands of any strides (a matrix's columns, a
-- transposed one: maskloops' loops take lines) as strided.lua's element
-- map, each element read and written back, the value where the mask is 1,
-- up to 2048 elements (beyond, numpy's: the branch on the mask costs a
-- misprediction in every other element; 32x32 transposed 3.8 -> 3.1 us, 10x10 3.1 -> 0.5)
local stridedfill = kernels.op('maskedfill', 2048, kernels.alltypes('y == 1 and c or x', 'y == 1 and c or x'))

-- -> the value argument as given (a fraction for an integer tensor, a
-- numeric string), what Torch7's binding returned: its last argument
local function maskedFill(self, mask, given)
   local d = TD[self] or internal.badself(self)
   checkof(mask, types.Byte, 1, 'maskedFill')
   local value = tonumber(internal.elementvalue(d.T, given)) or internal.checknumber(given, 2, 'maskedFill')
   local m, ones = checkmask(mask, d, 1, 'maskedFill', nil, true)   -- (after every argument's type)
   if ones == 0 then return given end
   if maskloops.fill(d, m, nelement(d), value) or kernels.map2(stridedfill, d, d, m, value) then
      return given
   end
   if nelement(d) > SMALL then
      pycall(py.masked_fill, ndview(d), ndview(m), value)
      return given
   end
   local dofs, mo = offsets(d), offsets(m)
   local dp, mp = d.st.ptr, m.st.ptr
   for i = 1, #dofs do
      if mp[mo[i]] == 1 then dp[dofs[i]] = value end
   end
   return given
end

---------------------------------------------------------------------------
-- nonzero
---------------------------------------------------------------------------

-- the subscripts of src's elements that are not 0, in the rows of res
local function subscripts(res, src, nd)
   local ro = offsets(res)
   local rp, k, flat = res.st.ptr, 0, -1
   each(src, function(p, i)
      flat = flat + 1
      if p[i] == 0 then return end
      local rest = flat
      for j = nd, 1, -1 do
         rp[ro[k + j]] = rest % src.sz[j] + 1
         rest = floor(rest / src.sz[j])
      end
      k = k + nd
   end)
end

local function countsmall(src)
   local count = 0
   each(src, function(p, i) if p[i] ~= 0 then count = count + 1 end end)
   return count
end

local function nonzerointo(res, src)
   local n, nd = nelement(src), src.nd
   local count = maskloops.countnonzero(src)
   local loop = count ~= nil
   if loop then
      -- (a vector or matrix: the LuaJIT loops)
   elseif n > SMALL then
      count = pycall(py.count_nonzero, ndview(src))
   else
      count = countsmall(src)
   end
   resize(res, {count, nd}, 2)
   if count == 0 then return end
   if loop and internal.iscontiguous(res) then return maskloops.nonzero(res, src, count) end
   if n > SMALL then
      return pycall(py.nonzero, ndview(res), ndview(src))
   end
   subscripts(res, src, nd)
end

-- nonzero() -> a LongTensor of subscripts; t.nonzero(res, src) fills res
local function nonzero(self, src)
   if src == nil then
      local res = newtensor(types.Long, {}, 0)
      nonzerointo(TD[res], TD[self])
      return res
   end
   checkof(self, types.Long, 1, 'nonzero')
   -- (a source on the result's memory, torch.nonzero(x, x), is read from a
   -- copy: resizing the result first changed what the loop read, which never
   -- ended; the original left an empty tensor)
   local res = TD[self]
   nonzerointo(res, unaliased(res, checktensor(src, 2, 'nonzero')))
   return self
end

---------------------------------------------------------------------------
-- registration
---------------------------------------------------------------------------

-- counted(name, f, forms) -> f behind the original's check of its argument count:
-- forms by count of arguments after self, the argument lists the error
-- names (@: self's type), as Tensor.c's bindings checked them first
local function counted(name, f, forms)
   local lists = {}
   for _, form in pairs(forms) do lists[#lists + 1] = form end
   table.sort(lists, function(a, b) return #a < #b end)
   local expected = table.concat(lists, ' | ') .. ' expected'
   return function(self, ...)
      local d = TD[self]
      if not forms[select('#', ...)] then
         fail((expected:gsub('@', d and d.T.tensorname or 'torch.Tensor')))
      end
      -- (self checked here, where the caller's name for the method is known)
      if not d then internal.badself(self) end
      return (f(self, ...))   -- (not a tail call: argument errors name the method)
   end
end

local TBN, TNLN = '@, torch.ByteTensor, number', '@, number, torch.LongTensor, number'
local TNLT = '@, number, torch.LongTensor, @'
local methods = {
   index = index, gather = gather, scatter = scatter,
   indexCopy = counted('indexCopy', indexCopy, {[3] = TNLT}), indexAdd = counted('indexAdd', indexAdd, {[3] = TNLT}),
   indexFill = counted('indexFill', indexFill, {[3] = TNLN}),
   maskedSelect = counted('maskedSelect', maskedSelect, {'@, torch.ByteTensor', '@, @, torch.ByteTensor'}),
   maskedCopy = counted('maskedCopy', maskedCopy, {[2] = '@, torch.ByteTensor, @'}),
   maskedFill = counted('maskedFill', maskedFill, {[2] = TBN}),
}

-- (Torch7 had torch.gather and torch.scatter, not torch.index or torch.maskedSelect)
for name, f in pairs(methods) do
   internal.method(name, f)
   if name == 'gather' or name == 'scatter' then internal.torchmethod(name, f) end
end

-- the method of type T takes a source of type T (src.nonzero(res, src), as in Torch7)
for i = 1, types.count do
   local T = types[i]
   torch.getmetatable(T.tensorname).nonzero = function(self, src)
      if src ~= nil and checktensor(src, 2, 'nonzero').T ~= T then
         fail("bad argument #2 to 'nonzero' (%s expected, got %s: use src.nonzero(res, src))",
              T.tensorname, TD[src].T.tensorname)
      end
      return nonzero(self, src)
   end
end

-- torch.nonzero dispatches on its first argument: a result must have the source's type
function torch.nonzero(a, b)
   local d = checktensor(a, 1, 'nonzero')
   if b ~= nil and checktensor(b, 2, 'nonzero').T ~= d.T then
      fail("bad argument #2 to 'nonzero' (%s expected, got %s: use src.nonzero(res, src))",
           d.T.tensorname, TD[b].T.tensorname)
   end
   return nonzero(a, b)
end
