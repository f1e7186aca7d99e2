-- torch.rand(gen, m, n) / torch.randn(gen, m, n) from the maths section: a
-- generator seeded like the global one draws the same numbers
torch.manualSeed(18)
local x = torch.rand(5, 5)
local gen = torch.Generator()
torch.manualSeed(gen, 18)
print(torch.rand(gen, 5, 5):equal(x))
torch.manualSeed(19)
print(torch.randn(3, 3))
