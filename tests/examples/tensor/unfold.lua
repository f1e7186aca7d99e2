x = torch.Tensor(7)
for i=1,7 do x[i] = i end
print(x)
print(x:unfold(1, 2, 1))
print(x:unfold(1, 2, 2))
