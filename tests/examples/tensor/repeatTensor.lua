x = torch.Tensor({0.7160, 0.6514, 0.0704, 0.7856, 0.7452})
print(x)
print(torch.repeatTensor(x,3,2))
print(torch.repeatTensor(x,3,2,1))
