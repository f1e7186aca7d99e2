require 'torch'
x = torch.Tensor(2, 2):fill(2)
y = torch.Tensor(4):fill(3)
print(x + y)
print(y - x)
print(x + 3)
print(-x)
