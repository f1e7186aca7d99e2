x = torch.zeros(4)
print(x:view(2,2))
print(x:view(2,-1))
print(x:view(torch.LongStorage{2,2}))
print(x)
y = torch.Tensor(2,2)
print(x:viewAs(y))
x = torch.Tensor(3,4):zero()
x:select(2,3):fill(7) -- fill column 3 with 7
print(x)
y = x:transpose(1,2) -- swap dimension 1 and 2
print(y)
y:select(2, 3):fill(8) -- fill column 3 with 8
print(y)
print(x) -- contents of x have changed as well
x = torch.Tensor(3,4):zero()
x:select(2,3):fill(7)
print(x:t())
x = torch.Tensor(3,4,2,5)
print(x:size())
y = x:permute(2,3,1,4) -- equivalent to y = x:transpose(1,3):transpose(1,2)
print(y:size())
