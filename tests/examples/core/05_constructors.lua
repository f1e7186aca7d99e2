x = torch.Tensor(2,5):fill(3.14)
print(x)
y = torch.Tensor(x)
print(y)
y:zero()
print(x) -- elements of x are the same as y!
x = torch.Tensor(torch.LongStorage({4}), torch.LongStorage({0})):zero() -- zeroes the tensor
x[1] = 1 -- all elements point to the same address!
print(x)
a = torch.LongStorage({1,2}) -- We have a torch.LongStorage containing the values 1 and 2
b = torch.FloatTensor(a)
print(b:size())
c = torch.LongTensor(a)
print(c)
s = torch.Storage(10):fill(1)
x = torch.Tensor(s, 1, torch.LongStorage{2,5})
print(x)
x:zero()
print(s)
print(torch.Tensor({{1,2,3,4}, {5,6,7,8}}))
