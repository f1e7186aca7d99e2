-- Walker's alias tables as Torch7 made them, and the draws' use of the stream.
-- (Torch7's draws themselves were skewed, see test_multinomial_alias.py; and a
-- donor at index 1, as in {0.3, 0.1, 0.2, 0.15, 0.25}, lost its alias.)
local dists = {{0.1, 0.2, 0.3, 0.4}, {0.5, 0.5}, {0.05, 0.05, 0.6, 0.1, 0.2}, {1, 2, 3, 4},
               {0.25, 0.25, 0.25, 0.25}, {0.01, 0.99}}
for _, p in ipairs(dists) do
  local st = torch.multinomialAliasSetup(torch.Tensor(p))
  print(torch.type(st[1]), torch.type(st[2]), table.concat(st[1]:totable(), ' '), table.concat(st[2]:totable(), ' '))
end
local st = torch.multinomialAliasSetup(torch.FloatTensor{0.2, 0.8})
print(torch.type(st[2]), table.concat(st[1]:totable(), ' '), table.concat(st[2]:totable(), ' '))
torch.manualSeed(5)
local st = torch.multinomialAliasSetup(torch.Tensor{0.1, 0.2, 0.3, 0.4})
local out = torch.LongTensor(20)
print(torch.multinomialAlias(out, st) == out)
print(out:size(1), torch.random())
local big = torch.multinomialAlias(torch.LongTensor(3000), torch.multinomialAliasSetup(torch.Tensor{0.05, 0.05, 0.6, 0.1, 0.2}))
print(big:size(1), torch.random())
local x = torch.LongTensor(6):zero()
local t = x:narrow(1, 2, 4)
torch.multinomialAlias(t, st)
print(x[1], x[6], t:min() >= 1, t:max() <= 4)
local s2 = {torch.LongTensor(5), torch.Tensor(1)}
local r = torch.multinomialAliasSetup(torch.Tensor{0.5, 0.5}, s2)
print(r == s2, s2[1]:size(1), s2[2]:size(1))
print(torch.multinomialAlias(torch.LongTensor(), st):dim())
print((pcall(torch.multinomialAlias, torch.Tensor(3), st)))
print((pcall(torch.multinomialAliasSetup, torch.Tensor{0, 1, 2})))
local J, q = torch.multinomialAliasSetup_(torch.Tensor{0.2, 0.8})
print(table.concat(J:totable(), ' '), table.concat(q:totable(), ' '))
