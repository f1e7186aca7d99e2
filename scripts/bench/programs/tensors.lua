torch.manualSeed(3)
local acc = 0
for i = 1, 2000 do
   local a = torch.randn(20, 30)
   local b = a:t():clone():mul(2):add(1)
   local c = torch.mm(a, b)
   local s = c:sum() + c:max() - c:min() + a:std()
   local idx = torch.LongTensor{1, 3, 5}
   local d = c:index(1, idx):narrow(2, 2, 5)
   acc = acc + s + d:mean() + torch.cat(a, a, 1):norm()
end
print(string.format('%.6e', acc))
local x = torch.linspace(0, 1, 11)
print(x)
print(torch.eye(3):mul(2))
