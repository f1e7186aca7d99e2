-- the expand example: the rand values of the documentation written out
x = torch.Tensor({{0.3837}, {0.5966}, {0.0763}, {0.1896}, {0.4958},
                  {0.6841}, {0.4038}, {0.4068}, {0.1502}, {0.2239}})
print(x)
y = torch.expand(x, 10, 2)
print(y)
y:fill(1)
print(y)
print(x)
i=0; y:apply(function() i=i+1;return i end)
print(y)
print(x)
