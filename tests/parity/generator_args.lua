-- every random function takes a generator; the default one is left alone
local g = torch.Generator()
local function both(name, f)
  torch.manualSeed(g, 5)
  torch.manualSeed(1)
  local a = f(g)
  local after = torch.random()
  torch.manualSeed(5)
  local b = f(nil)
  print(name, a, b, after)
end
local function pack(...) return select('#', ...) end
local function call(fn, g, ...)
  if g then return fn(g, ...) end
  return fn(...)
end
both('random', function(g) return call(torch.random, g) end)
both('random1', function(g) return call(torch.random, g, 10) end)
both('random2', function(g) return call(torch.random, g, 5, 50) end)
both('uniform', function(g) return call(torch.uniform, g, 2, 3) end)
both('normal', function(g) return call(torch.normal, g, 1, 2) end)
both('logNormal', function(g) return call(torch.logNormal, g, 1, 0.5) end)
both('exponential', function(g) return call(torch.exponential, g, 2) end)
both('cauchy', function(g) return call(torch.cauchy, g, 0, 1) end)
both('geometric', function(g) return call(torch.geometric, g, 0.3) end)
both('bernoulli', function(g) return call(torch.bernoulli, g, 0.4) end)
both('rand', function(g) return call(torch.rand, g, 3):sum() end)
both('randn', function(g) return call(torch.randn, g, 2, 3):sum() end)
both('randperm', function(g) return table.concat(call(torch.randperm, g, 6):totable(), ',') end)
both('multinomial', function(g) return table.concat(call(torch.multinomial, g, torch.Tensor{1, 2, 3}, 5, true):totable(), ',') end)
for _, m in ipairs{'uniform', 'normal', 'exponential', 'cauchy', 'logNormal', 'geometric', 'bernoulli', 'random'} do
  local args = {exponential = {2}, geometric = {0.5}, bernoulli = {0.3}}
  local a = args[m] or {}
  both('x:' .. m, function(g)
    local x = torch.Tensor(4)
    if g then x[m](x, g, unpack(a)) else x[m](x, unpack(a)) end
    return x:sum()
  end)
  both('torch.' .. m .. '(x, g)', function(g)
    local x = torch.Tensor(100)
    if g then torch[m](x, g, unpack(a)) else torch[m](x, unpack(a)) end
    return x:sum()
  end)
end
both('bernoulli(p)', function(g)
  local x = torch.ByteTensor(5)
  local p = torch.Tensor{0.1, 0.9, 0.5, 0.5, 0.3}
  if g then x:bernoulli(g, p) else x:bernoulli(p) end
  return table.concat(x:totable(), ',')
end)
both('x:random(1,6)', function(g)
  local x = torch.IntTensor(8)
  if g then x:random(g, 1, 6) else x:random(1, 6) end
  return table.concat(x:totable(), ',')
end)
both('rand(res)', function(g)
  local x = torch.FloatTensor()
  if g then torch.rand(x, g, 4) else torch.rand(x, 4) end
  return x:sum()
end)
