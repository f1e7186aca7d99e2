x = torch.Tensor(3,3)
y = torch.Tensor(9)
i = 0
x:apply(function() i = i + 1; return i end) -- fill-up x
i = 0
y:apply(function() i = i + 1; return i end) -- fill-up y
print(x)
print(y)
x:map(y, function(xx, yy) return xx*yy end) -- element-wise multiplication
print(x)
