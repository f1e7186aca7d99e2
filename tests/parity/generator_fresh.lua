-- a fresh generator (the default one included) is seeded at creation from the
-- system's entropy, as Torch7's were: never 0, state valid before any draw
local function header(g)
  local s = torch.getRNGState(g)
  local t = {}
  for i = 9, 24 do t[#t + 1] = s[i] end   -- left, seeded, next
  return table.concat(t, ' ')
end
local g = torch.Generator()
print(torch.type(g), torch.type(torch._gen), header(g), header(torch._gen))
print(torch.initialSeed() ~= 0, torch.initialSeed(g) ~= 0)
print(torch.initialSeed(g) ~= torch.initialSeed(torch.Generator()))
-- the low 32 bits of the seed are the first state word
local s = torch.getRNGState(g)
print(s[1] == s[25] and s[2] == s[26] and s[3] == s[27] and s[4] == s[28])
print((pcall(torch.setRNGState, g, torch.getRNGState(g))))
print((pcall(torch.setRNGState, torch.getRNGState())))
local a = torch.getRNGState(g)
local x = torch.random(g)
torch.setRNGState(g, a)
print(torch.random(g) == x)
-- manualSeed reads a C long
for _, v in ipairs{-1, 2^40 + 0.5, '12', 2^64, -2^63, 3.9, -3.9, 0} do
  torch.manualSeed(g, v)
  print(v, torch.initialSeed(g), torch.random(g))
end
print((pcall(torch.manualSeed, 'x')))
print(torch.seed() ~= 0, torch.seed(g) ~= 0, torch.initialSeed(g) ~= 0)
print(torch.Generator.new ~= nil, torch.type(torch.Generator.new()))
