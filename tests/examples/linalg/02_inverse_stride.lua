x = torch.Tensor({{4, 7, 2}, {3, 6, 1}, {2, 5, 3}})
y = torch.inverse(x)
print(y)
print(y:stride())
