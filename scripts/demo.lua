-- A small tour of th: options, tensors, views, maths and printing.
--   th scripts/demo.lua -n 5
local cmd = torch.CmdLine()
cmd:text('th demo: least squares on random data')
cmd:option('-n', 4, 'size of the problem')
cmd:option('-seed', 123, 'random seed')
local opt = cmd:parse(arg)

torch.manualSeed(opt.seed)
local n = opt.n

-- a matrix, a view of it, and the storage they share
local A = torch.range(1, n * n):resize(n, n)
print(A)
local col = A:select(2, 2)
col:fill(0)
print('column 2 zeroed through a view:', A:sum())

-- maths: a random well-conditioned system solved two ways
local M = torch.randn(n, n) + torch.eye(n) * n
local x = torch.randn(n)
local b = torch.mv(M, x)
local solved = torch.gesv(b:view(n, 1), M):view(n)
print('solution error', (solved - x):norm())

-- element access from Lua runs on the JIT, straight on the tensor's memory
local s = 0
local big = torch.rand(1e6)
local t = torch.Timer()
for i = 1, big:size(1) do s = s + big[i] end
print(string.format('sum of 1e6 elements from a Lua loop: %.3f (numpy: %.3f) in %.1f ms',
                    s, big:sum(), t:time().real * 1000))
