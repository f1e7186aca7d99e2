-- serialize an object to a string, and back
obj = {
   vec = torch.IntTensor({1, 2, 3}),
   name = 'vec',
}
str = torch.serialize(obj)
copy = torch.deserialize(str)
print(copy.name)
print(copy.vec)
print(type(str), torch.deserialize(torch.serialize(obj, 'ascii'), 'ascii').vec:sum())
