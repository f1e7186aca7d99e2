-- normal-cache bytes after various draws
local g = torch.Generator()
local function tail(tag)
  local s = torch.getRNGState(g)
  local t = {}
  for i = 5017, 5048 do t[#t+1] = s[i] end
  print(tag, table.concat(t, ' '))
end
torch.manualSeed(g, 11) tail('seed')
torch.normal(g) tail('n1')
torch.normal(g) tail('n2')
torch.randn(g, 100) tail('r100')
torch.randn(g, 101) tail('r101')
torch.randn(g, 7) tail('r7')
torch.Tensor(300):normal(g, 2, 3) tail('t300')
torch.FloatTensor(301):normal(g, 2, 3) tail('f301')
torch.FloatTensor(3,50):t():normal(g, 2, 3) tail('f150')
torch.Tensor(3):logNormal(g) tail('ln3')
torch.Tensor(200):logNormal(g) tail('ln200')
torch.manualSeed(g, 12) tail('seed12')
local h = torch.Generator()
print((pcall(torch.setRNGState, h, torch.getRNGState(h))))
print(torch.initialSeed(h) ~= 0)
