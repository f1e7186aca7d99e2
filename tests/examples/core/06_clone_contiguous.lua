i = 0
x = torch.Tensor(5):apply(function(x)
  i = i + 1
  return i
end)
print(x)
-- create a clone of x
y = x:clone()
print(y)
-- fill up y with 1
y:fill(1)
print(y)
-- the contents of x were not changed:
print(x)
x = torch.Tensor(2,3):fill(1)
print(x)
-- x is contiguous, so y points to the same thing
y = x:contiguous():fill(2)
print(y)
print(x)
-- x:t() is not contiguous, so z is a clone
z = x:t():contiguous():fill(3.14)
print(z)
print(x)
