x = torch.Tensor(4,5)
i = 0
x:apply(function()
  i = i + 1
  return i
end)
print(x)
print(x:stride())
