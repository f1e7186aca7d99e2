i = 0
z = torch.Tensor(3,3)
z:apply(function(x)
  i = i + 1
  return i
end) -- fill up the tensor
print(z)
z:apply(math.sin) -- apply the sin function
print(z)
sum = 0
z:apply(function(x)
  sum = sum + x
end) -- compute the sum of the elements
print(sum)
print(z:sum()) -- it is indeed correct!
