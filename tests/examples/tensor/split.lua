x = torch.zeros(3,4,5)
print(x:split(2,1))
print(x:split(3,2))
print(x:split(2,3))
