x = torch.Tensor(3,3)
i = 0; x:apply(function() i = i + 1; return i end)
print(x)
print(x[2]) -- returns row 2
print(x[2][3]) -- returns row 2, column 3
print(x[{2,3}]) -- another way to return row 2, column 3
print(x[torch.LongStorage{2,3}]) -- yet another way to return row 2, column 3
print(x[torch.le(x,3)]) -- torch.le returns a ByteTensor that acts as a mask
