-- Sampling from a fixed discrete distribution by Walker's alias method:
-- torch.multinomialAliasSetup(probs [, state]) builds the tables {J, q} once,
-- torch.multinomialAlias(output, state) then fills a LongTensor with 1-based
-- category indices, two uniforms per sample, drawn in Torch7's order so that
-- a seed gives the original's numbers.
local torch = require 'torch'
local types = require 'torch.types'
local internal = require 'torch.internal'
local Generator = require 'torch.Generator'

local TD, fail, checktensor, nelement, each =
      internal.tensors, internal.fail, internal.checktensor, internal.nelement, internal.each
local genrand, args = Generator.genrand, Generator.args
local floor = math.floor

local floattypes = {Float = true, Double = true}

-- the table a tensor argument is resized into: the given one, or a new one of type T
local function target(t, T, argn)
   if t == nil then return internal.newtensor(T, {}, 0) end
   local d = checktensor(t, argn, 'multinomialAliasSetup')
   if d.T ~= T then
      fail("bad argument #%d to 'multinomialAliasSetup' (%s expected, got %s)", argn, T.tensorname, d.T.tensorname)
   end
   return t
end

-- multinomialAliasSetup_(probs [, J] [, q]) -> J (LongTensor), q (probs' type)
--
-- Each category i gets a column of height q[i] (K * p[i] to start); columns
-- taller than 1 give their excess to shorter ones, J[i] naming the donor of
-- column i.  The columns are taken from the tops of a stack of short and a
-- stack of tall ones, as Torch7 took them, so that J and q are the original's.
-- One difference: Torch7 mistook a donor at index 1 for "no donor" and gave its
-- column height 1, which skewed the samples ({0.7, 0.1, 0.1, 0.1} was drawn
-- uniformly); here such columns keep their height.
local function setup(probs, J, q)
   local pd = checktensor(probs, 1, 'multinomialAliasSetup')
   if not floattypes[pd.T.name] then
      fail("bad argument #1 to 'multinomialAliasSetup' (FloatTensor or DoubleTensor expected, got %s)", pd.T.tensorname)
   end
   if pd.nd ~= 1 then
      fail("bad argument #1 to 'multinomialAliasSetup' (vector expected, got %dD)", pd.nd)
   end
   if J ~= nil and TD[J] and TD[J].T == pd.T then J, q = nil, J end   -- q given alone
   J, q = target(J, types.Long, 2), target(q, pd.T, 3)
   local K = pd.sz[1]
   local height, donor, short, tall = {}, {}, {}, {}
   for i = 0, K - 1 do
      height[i] = K * probs[i + 1]
      if height[i] < 1 then short[#short + 1] = i else tall[#tall + 1] = i end
   end
   while #short > 0 and #tall > 0 do
      local l, s = tall[#tall], short[#short]
      donor[s] = l
      height[l] = height[l] - (1 - height[s])
      if height[l] < 1 then
         short[#short] = l
         tall[#tall] = nil
      else
         short[#short] = nil
      end
   end
   local lo, hi = math.huge, -math.huge
   for i = 0, K - 1 do
      lo, hi = math.min(lo, height[i]), math.max(hi, height[i])
   end
   if not (lo > 0) then
      fail("bad argument #1 to 'multinomialAliasSetup' (q_min is less than 0)")
   end
   internal.resize(TD[J], {K}, 1)
   internal.resize(TD[q], {K}, 1)
   for i = 0, K - 1 do
      local h = hi > 1 and height[i] / hi or height[i]
      if donor[i] == nil then h = 1 end
      J[i + 1] = (donor[i] or 0) + 1
      q[i + 1] = h
   end
   return J, q
end

-- multinomialAlias_(output, [gen,] J, q): output's elements, in order, drawn
-- as a column (uniform) and then its own index or its donor (bernoulli(q))
local function draw(output, ...)
   local gd, J, q = args(...)
   local od = checktensor(output, 1, 'multinomialAlias')
   if od.T ~= types.Long then
      fail("bad argument #1 to 'multinomialAlias' (torch.LongTensor expected, got %s)", od.T.tensorname)
   end
   local jd, qd = checktensor(J, 2, 'multinomialAlias'), checktensor(q, 3, 'multinomialAlias')
   local K = nelement(jd)
   if jd.T ~= types.Long or not floattypes[qd.T.name] or nelement(qd) ~= K or jd.nd > 1 or qd.nd > 1 then
      fail("bad argument #2 to 'multinomialAlias' (the state of multinomialAliasSetup expected)")
   end
   if nelement(od) == 0 then return output end
   if K == 0 then fail("bad argument #2 to 'multinomialAlias' (empty distribution)") end
   local g = gd.g
   local donors, heights = J:totable(), q:totable()
   each(od, function(ptr, i)
      local col = floor(genrand(g) * (1 / 4294967296) * K)
      local keep = genrand(g) * (1 / 4294967296) <= heights[col + 1]
      ptr[i] = keep and col + 1 or donors[col + 1]
   end)
   return output
end

torch.multinomialAliasSetup_ = setup
torch.multinomialAlias_ = draw
for T in pairs(floattypes) do
   local mt = torch.getmetatable('torch.' .. T .. 'Tensor')
   mt.multinomialAlias_, mt.multinomialAliasSetup_ = draw, setup
end

function torch.multinomialAliasSetup(probs, state)
   if type(state) == 'table' then
      state[1], state[2] = setup(probs, state[1], state[2])
      return state
   end
   return {setup(probs)}
end

-- multinomialAlias([gen,] output, state) -> output
function torch.multinomialAlias(...)
   local first = ...
   local gen, output, state
   if Generator.isgenerator(first) then
      gen, output, state = ...
   else
      output, state = ...
   end
   if type(state) ~= 'table' then
      fail("bad argument #2 to 'multinomialAlias' (the table of multinomialAliasSetup expected, got %s)", torch.type(state))
   end
   if gen then return draw(output, gen, state[1], state[2]) end
   return draw(output, state[1], state[2])
end

return torch
