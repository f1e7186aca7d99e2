require 'torch'
x = torch.Tensor(2, 2):fill(2)
y = torch.Tensor(4):fill(3)
x:cpow(y)
print(x)
