-- seed 002 (tensor internals), in Torch7's 1-based Lua
x = torch.Tensor(2, 4):zero()
q = x:storage()
q[5] = 1.0
print(x)
q = torch.Storage(20)
for i = 1, 20 do q[i] = i - 1 end
x = torch.Tensor():set(q, 6, torch.LongStorage{3, 2}, torch.LongStorage{4, 1})
print(x)
x = torch.Tensor(100, 100)
print(x:stride())
print(x:t():stride())
print(pcall(function() return x:t():view(-1) end) and 'ok' or 'error')
print(x:t():contiguous():view(-1):size(1))
