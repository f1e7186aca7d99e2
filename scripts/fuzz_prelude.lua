-- What the differential fuzzers (scripts/fuzz_*.py) send to both th
-- commands ahead of their own prelude: reading tensors and making them with
-- no tensor operation of the runtime under test.

-- walk(t, visit): visit(k, v) for the k-th element v of t in row-major
-- order, read from its storage through its strides
local function walk(t, visit)
   local nd = t:dim()
   if nd == 0 then return end
   local s, pos = t:storage(), t:storageOffset()
   local size, stride = t:size():totable(), t:stride():totable()
   local idx = {}
   for d = 1, nd do idx[d] = 1 end
   for k = 1, t:nElement() do
      visit(k, s[pos])
      local d = nd
      while d >= 1 do
         if idx[d] < size[d] then idx[d] = idx[d] + 1; pos = pos + stride[d]; break end
         pos = pos - (size[d] - 1) * stride[d]; idx[d] = 1; d = d - 1
      end
   end
end

-- counter() -> add, totals: add(k, v) counts NaNs and infinities (-inf a
-- thousand) and sums the other values, plain and weighted by position k;
-- totals() -> nan, inf, sum, weighted sum
local function counter()
   local nan, inf, sum, wsum = 0, 0, 0, 0
   local function add(k, v)
      if v ~= v then nan = nan + 1
      elseif v == math.huge or v == -math.huge then inf = inf + (v > 0 and 1 or 1000)
      else sum = sum + v; wsum = wsum + v * ((k * 7919) % 97 + 1) end
   end
   return add, function() return nan, inf, sum, wsum end
end

-- heading(t): "type sizes sstrides", or "type empty", a digest's first words
local function heading(t)
   if t:dim() == 0 then return torch.type(t) .. ' empty' end
   return torch.type(t) .. ' ' .. table.concat(t:size():totable(), 'x') .. ' s'
          .. table.concat(t:stride():totable(), ',')
end

-- filled(T, sizes, value): a fresh contiguous tensor of type T whose i-th
-- element is value(i) (not torch.LongTensor(storage): a tensor on it)
local function filled(T, sizes, value)
   local t = torch[T .. 'Tensor']()
   if #sizes > 0 then t:resize(torch.LongStorage(sizes)) end
   local n = t:nElement()
   if n == 0 then return t end
   local s = t:storage()
   for i = 1, n do s[i] = value(i) end
   return t
end

-- awaitnumpy(coldvar): th takes its LuaJIT loops at any size until numpy is
-- loaded (in the background): wait for it, so that a batch sees th's steady
-- paths, unless the environment variable coldvar is set (the original has no
-- torch.internal)
local function awaitnumpy(coldvar)
   local ok, internal = pcall(require, 'torch.internal')
   if ok and type(internal) == 'table' and internal.numpyready and not os.getenv(coldvar) then
      local t0 = os.clock()
      while not internal.numpyready() and os.clock() - t0 < 20 do end
   end
end

-- ex(v): a number's every bit ('%a': -0, nan and inf told apart), else tostring
local function ex(v)
   if type(v) ~= 'number' then return tostring(v) end
   return string.format('%a', v)
end
