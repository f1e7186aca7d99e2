require 'torch'
x = torch.Tensor(2, 2):fill(2)
print(x/3)
x = torch.Tensor{{1,2},{3,4}}
print(x % 3)
