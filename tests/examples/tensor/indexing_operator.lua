-- the [] operator example, ending with a ByteTensor mask
x = torch.Tensor(5, 6):zero()
print(x)
x[{ 1,3 }] = 1 -- sets element at (i=1,j=3) to 1
print(x)
x[{ 2,{2,4} }] = 2 -- sets a slice of 3 elements to 2
print(x)
x[{ {},4 }] = -1 -- sets the full 4th column to -1
print(x)
x[{ {},2 }] = torch.range(1,5) -- copy a 1D tensor to a slice of x
print(x)
x[torch.lt(x,0)] = -2 -- sets all negative elements to -2 via a mask
print(x)
