-- randperm against the original: sizes around its blocks of 4096 draws, seeds,
-- a result of another type, a strided result and a generator of its own
local out = {}
for _, n in ipairs{1, 2, 3, 10, 100, 4095, 4096, 4097, 4098, 8193, 10000, 20001} do
  for seed = 1, 3 do
    torch.manualSeed(seed * 7 + n)
    local p = torch.randperm(n)
    local h = 0
    for i = 1, n do h = (h * 31 + p[i] * i) % 1000000007 end
    out[#out + 1] = string.format('%d/%d:%d:%d', n, seed, h, p:sum())
  end
end
torch.manualSeed(5)
local r = torch.IntTensor(); torch.randperm(r, 5000); out[#out+1] = 'int ' .. r:sum() .. ' ' .. r[1] .. ' ' .. r[5000]
local b = torch.ByteTensor(); torch.randperm(b, 300); out[#out+1] = 'byte ' .. b:sum() .. ' ' .. b[1]
local s = torch.Tensor(10, 2):select(2, 1); torch.randperm(s, 10); out[#out+1] = 'strided ' .. s[1] .. ' ' .. s[10]
local g = torch.Generator(); torch.manualSeed(g, 3); local q = torch.randperm(g, 7000); out[#out+1] = 'gen ' .. q[1] .. ' ' .. q[7000]
local f = torch.FloatTensor(); torch.randperm(f, 5000); out[#out+1] = 'float ' .. f[1] .. ' ' .. f[4999]
print(table.concat(out, '\n'))
