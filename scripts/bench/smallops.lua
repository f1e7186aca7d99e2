-- Construction, extraction and small reductions at three sizes, microseconds
-- per call (CPU time, best of 5 runs): th scripts/bench/smallops.lua [small|1e4|1e6]
local size = arg[1] or 'small'
local m = ({small = 10, ['1e4'] = 100, ['1e6'] = 1000})[size]    -- an m x m matrix
local n = m * m                                                  -- an n-element vector
local calls = ({small = 2000, ['1e4'] = 200, ['1e6'] = 5})[size]

local function b(name, f)
  local best = 1e9
  for _ = 1, 5 do
    local t = os.clock()
    for i = 1, calls do f(i) end
    best = math.min(best, (os.clock() - t) / calls)
  end
  io.write(string.format('%s %.3f\n', name, best * 1e6))
end

torch.manualSeed(1)
local A, B = torch.rand(m, m), torch.rand(m, m)
local P = {A, B}
local c3 = math.floor(n ^ (1 / 3) + 0.5)
local C, D = torch.rand(c3, c3 + 1, c3 + 2), torch.rand(c3, c3 + 1, c3 + 2)
local v = torch.rand(n)
local X, Y = torch.rand(3, n / 10), torch.rand(3, n / 10)
local ops = {
  {'tril', function() return A:tril() end}, {'triu', function() return A:triu(1) end},
  {'triuT', function() return A:t():triu(1) end},
  {'cross', function() return torch.cross(X, Y) end},
  {'cat1', function() return torch.cat(A, B, 1) end}, {'cat2', function() return torch.cat(A, B, 2) end},
  {'cat3d1', function() return torch.cat(C, D, 1) end}, {'cat3d2', function() return torch.cat(C, D, 2) end},
  {'cat3d', function() return torch.cat(C, D, 3) end},
  {'catT', function() return torch.cat({A, B:t(), A}, 2) end},
  {'catv', function() return torch.cat(v, v) end},
  {'range', function() return torch.range(1, n) end},
  {'histc', function() return torch.histc(v, 5) end},
  -- (operands changing from call to call: LuaJIT would hoist a call on
  -- the same ones, which allocates nothing, out of the timing loop)
  {'equal', function(i) return P[1 + i % 2]:equal(P[2 - i % 2]) end},
  {'dot', function(i) return P[1 + i % 2]:dot(P[2 - i % 2]) end},
  {'renorm', function() return A:renorm(2, 1, 1) end},
  {'diag', function() return A:diag() end}, {'diagv', function() return v:narrow(1, 1, m):diag() end},
  {'trace', function(i) return P[1 + i % 2]:trace() end},
  {'randperm', function() return torch.randperm(n) end},
  {'eye', function() return torch.eye(m) end}, {'linspace', function() return torch.linspace(0, 1, n) end},
  {'zeros', function() return torch.zeros(m, m) end}, {'ones', function() return torch.ones(m, m) end},
}
-- a first pass untimed: the heap's growth is not the first op's
for _, op in ipairs(ops) do for i = 1, calls do op[2](i) end end
for _, op in ipairs(ops) do b(op[1], op[2]) end
