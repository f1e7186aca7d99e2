require 'torch'
x = torch.Tensor{1,2,3}
y = torch.Tensor{1,2,3}
print(x:equal(y))
y = torch.Tensor{1,2,4}
print(x:equal(y))
