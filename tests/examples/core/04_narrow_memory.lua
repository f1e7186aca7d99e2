x = torch.Tensor(5):zero()
print(x)
x:narrow(1, 2, 3):fill(1) -- narrow() returns a Tensor referencing the same Storage as x
print(x)
y = torch.Tensor():resizeAs(x):copy(x)
print(y)
