-- creates an array which contains twice the same tensor
array = {}
x = torch.Tensor(1)
table.insert(array, x)
table.insert(array, x)

-- array[1] and array[2] refer to the same address
-- x[1] is changed twice
array[1][1] = 3.14
array[2][1] = 2.72
print(array[1][1]) -- 2.72
print(array[2][1]) -- 2.72

-- write the array on disk
file = torch.DiskFile('foo.asc', 'w')
file:writeObject(array)
file:close() -- make sure the data is written

-- reload the array
file = torch.DiskFile('foo.asc', 'r')
arrayNew = file:readObject()
file:close()

-- arrayNew[1] and arrayNew[2] refer to the same address!
-- arrayNew[1][1] is changed twice
arrayNew[1][1] = 3.14
arrayNew[2][1] = 2.72
print(arrayNew[1][1]) -- 2.72
print(arrayNew[2][1]) -- 2.72
