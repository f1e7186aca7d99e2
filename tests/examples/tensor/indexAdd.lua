x = torch.Tensor({{-2.1742,  0.5688, -1.0201,  0.1383,  1.0504},
                  { 0.0970,  0.2169,  0.1324,  0.9553, -1.9518},
                  {-0.7607,  0.8947,  0.1658, -0.2181, -2.1237},
                  {-1.4099,  0.2342,  0.4549,  0.6316, -0.2608},
                  { 0.0349,  0.4713,  0.0050,  0.1677,  0.2103}})
z=torch.Tensor(5, 2)
z:select(2,1):fill(-1)
z:select(2,2):fill(-2)
print(z)
x:indexAdd(2,torch.LongTensor{5,1},z)
print(x)
a = torch.range(1, 5)
print(a)
a:indexAdd(1, torch.LongTensor{1, 1, 3, 3}, torch.range(1, 4))
print(a)
