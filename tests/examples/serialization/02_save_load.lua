obj = {
   mat = torch.Tensor(10, 10):fill(1),
   name = '10',
   test = {
      entry = 1
   }
}

-- save to disk
torch.save('test.dat', obj)

-- load from disk
obj = torch.load('test.dat')
print(obj.name, obj.test.entry, obj.mat:size(1), obj.mat[10][10])
