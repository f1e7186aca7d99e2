x = torch.zeros(3,4,5)
print(x:chunk(2,1))
print(x:chunk(2,2))
print(x:chunk(2,3))
