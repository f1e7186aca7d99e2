require 'torch'
x = torch.Tensor(2, 2):fill(8)
y = torch.Tensor(4):fill(3)
x:csub(y)
print(x)
