x = torch.Tensor(4,5)
s = x:storage()
for i=1,s:size() do -- fill up the Storage
  s[i] = i
end
print(x) -- s is interpreted by x as a 2D matrix
x = torch.Tensor(7,7,7)
s = x:storage()
for i=1,s:size() do s[i] = i end
print(x[3][4][5])
print(x:storage()[x:storageOffset()
           +(3-1)*x:stride(1)+(4-1)*x:stride(2)+(5-1)*x:stride(3)])
