require 'torch'
x = torch.Tensor(2, 2):fill(1)
y = torch.range(1, 4)
z = torch.Tensor(2, 2):fill(5)
x:addcdiv(2, y, z)
print(x)
