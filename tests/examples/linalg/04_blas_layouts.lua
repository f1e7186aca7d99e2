-- BLAS products in every operand layout on integer-valued data (exact in any
-- summation order): a checksum line per case
local function ints(T, ...)
   local t = torch.Tensor(...):type(T)
   local s = t:storage()
   for i = 1, s:size() do s[i] = (i * 7) % 11 - 5 end
   return t
end
local function layouts(x)      -- same values: contiguous, transposed storage, a column window
   local r, c = x:size(1), x:size(2)
   return {x:clone(), x:t():clone():t(), x.new(r, c + 3):narrow(2, 2, c):copy(x)}
end
local function sig(t)
   local f = t:contiguous():view(-1)
   return string.format('%s %g %g %g', table.concat(t:size():totable(), 'x'), t:sum(), f[1], f[f:size(1)])
end
for _, T in ipairs{'torch.DoubleTensor', 'torch.FloatTensor'} do
   for _, s in ipairs{{33, 40, 35}, {1, 40, 35}, {33, 40, 1}, {70, 3, 80}} do
      local m, k, n = s[1], s[2], s[3]
      local A, B, M = ints(T, m, k), ints(T, k, n), ints(T, m, n)
      for ai, a in ipairs(layouts(A)) do
         for bi, b in ipairs(layouts(B)) do
            for ri, r in ipairs(layouts(M)) do
               print(T, m, k, n, ai, bi, ri, 'mm', sig(r:mm(a, b)))
               print(T, m, k, n, ai, bi, ri, 'addmm', sig(layouts(M)[ri]:addmm(2, -3, a, b)))
            end
         end
         local v = ints(T, k)
         print(T, m, k, ai, 'mv', sig(torch.mv(a, v)), 'addmv', sig(torch.addmv(2, ints(T, m), 3, a, v)))
         local w = ints(T, 2 * k):unfold(1, 1, 2):select(2, 1)
         local r = ints(T, 3 * m):unfold(1, 1, 3):select(2, 1)
         print(T, m, k, ai, 'strided mv', sig(r:addmv(-1, a, w)))
      end
      local x, y = ints(T, m), ints(T, n)
      for ri, r in ipairs(layouts(M)) do
         print(T, m, n, ri, 'ger', sig(torch.ger(x, y)), 'addr', sig(r:addr(-2, x, y)))
      end
      local bA, bB, bM = ints(T, 4, m, k), ints(T, 4, k, n), ints(T, 4, m, n)
      print(T, m, k, n, 'bmm', sig(torch.bmm(bA, bB)), 'baddbmm', sig(torch.baddbmm(2, bM, 3, bA, bB)),
            'addbmm', sig(torch.addbmm(2, M, -1, bA:transpose(2, 3):clone():transpose(2, 3), bB)))
   end
   local x, y = ints(T, 5000), ints(T, 10000)
   print(T, 'dot', x:dot(y:unfold(1, 1, 2):select(2, 1)), x:dot(x))
end
-- a result that is also M
local A = ints('torch.DoubleTensor', 40, 40)
print('M is the result', sig(A:addmm(A, A:clone())))
