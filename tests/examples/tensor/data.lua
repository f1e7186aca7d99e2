-- LuaJIT FFI access: writes through torch.data are seen by the tensor, and
-- torch.Storage(size, pointer) views the same memory
t = torch.Tensor({{0.8008, -0.6103}, {0.6473, -0.1870}, {-0.0023, -0.4902}})
print(t)
t_data = torch.data(t)
for i = 0,t:nElement()-1 do t_data[i] = 0 end
print(t)

t = torch.Tensor(10):fill(3)
p = tonumber(torch.data(t,true))
s = torch.Storage(10, p)
tt = torch.Tensor(s)
-- tt and t are a view on the same data.
tt[2] = 7
print(t[2], tt:sum(), t:sum())
