x = torch.Tensor(5, 6):zero()
y = x:narrow(1, 2, 3) -- narrow dimension 1 from index 2 to index 2+3-1
y:fill(1) -- fill with 1
print(y)
print(x) -- memory in x has been modified!
x = torch.Tensor(5, 6):zero()
y = x:sub(2,4):fill(1) -- y is sub-tensor of x:
print(y)
z = x:sub(2,4,3,4):fill(2) -- we now take a new sub-tensor
print(z)
print(x)
print(y)
print(y:sub(-1, -1, 3, 4)) -- negative values = bounds
x = torch.Tensor(5,6):zero()
y = x:select(1, 2):fill(2) -- select row 2 and fill up
print(y)
z = x:select(2,5):fill(5) -- select column 5 and fill up
print(z)
print(x)
