--[[ A stand-in for DeepMind's totem (not in shared/thirdparty), written for th's
tests from totem's documented API: nngraph's own test files `require 'totem'`.
totem.Tester and totem.TestSuite became torch.Tester and torch.TestSuite in
Torch7, so they are those (a global, as totem made it); totem.nn's checks are finite-difference and round-trip
checks over tensors or nested tables of tensors. ]]
totem = {Tester = torch.Tester, TestSuite = torch.TestSuite, nn = {}}

-- the tensors of a tensor or nested table, in a fixed order
local function leaves(x, acc)
   acc = acc or {}
   if torch.isTensor(x) then
      acc[#acc + 1] = x
   elseif type(x) == 'table' then
      for i = 1, #x do leaves(x[i], acc) end
   end
   return acc
end

local function randomLike(x)
   if torch.isTensor(x) then return x.new(x:size()):normal() end
   local t = {}
   for i = 1, #x do t[i] = randomLike(x[i]) end
   return t
end

local function cloneTree(x)
   if torch.isTensor(x) then return x:clone() end
   if type(x) ~= 'table' then return x end
   local t = {}
   for i = 1, #x do t[i] = cloneTree(x[i]) end
   return t
end

-- <module:forward(input), weights>: the scalar whose derivative backward gives
local function objective(module, input, weights)
   local out, w, s = leaves(module:forward(input)), leaves(weights), 0
   for i = 1, #out do s = s + out[i]:dot(w[i]) end
   return s
end

-- central differences of objective over each element of the given tensors
local function numericalGradients(module, input, weights, tensors, eps)
   local grads = {}
   for k, t in ipairs(tensors) do
      local g, flat = t.new(t:size()):zero(), t:view(-1)
      local gflat = g:view(-1)
      for i = 1, flat:nElement() do
         local orig = flat[i]
         flat[i] = orig + eps
         local plus = objective(module, input, weights)
         flat[i] = orig - eps
         local minus = objective(module, input, weights)
         flat[i] = orig
         gflat[i] = (plus - minus) / (2 * eps)
      end
      grads[k] = g
   end
   return grads
end

--[[ The gradients backward computes, with respect to the input and to the
parameters, agree with finite differences within `precision`. ]]
function totem.nn.checkGradients(tester, module, input, precision)
   precision = precision or 1e-5
   local weights = randomLike(module:forward(input))
   local params, gradParams = module:parameters()
   params, gradParams = params or {}, gradParams or {}
   module:zeroGradParameters()
   local gradInput = leaves(cloneTree(module:backward(input, weights)))
   local analytic = {}
   for i = 1, #gradParams do analytic[i] = gradParams[i]:clone() end
   local numInput = numericalGradients(module, input, weights, leaves(input), 1e-6)
   for i = 1, #numInput do
      tester:eq(gradInput[i], numInput[i], 'gradient with respect to input ' .. i, precision)
   end
   local numParams = numericalGradients(module, input, weights, params, 1e-6)
   for i = 1, #numParams do
      tester:eq(analytic[i], numParams[i], 'gradient with respect to parameter ' .. i, precision)
   end
end

local function checkSameOutputs(tester, a, b, input, what)
   local outA, outB = leaves(cloneTree(a:forward(input))), leaves(b:forward(input))
   tester:eq(#outA, #outB, what .. ': number of outputs')
   for i = 1, #outA do tester:eq(outA[i], outB[i], what .. ': output ' .. i, 1e-6) end
   local weights = randomLike(a.output)
   local gA, gB = leaves(cloneTree(a:backward(input, weights))), leaves(b:backward(input, weights))
   for i = 1, #gA do tester:eq(gA[i], gB[i], what .. ': gradInput ' .. i, 1e-6) end
end

-- a module that went through torch.serialize/deserialize computes the same
function totem.nn.checkSerializable(tester, module, input)
   local copy = torch.deserialize(torch.serialize(module))
   checkSameOutputs(tester, module, copy, input, 'serialized copy')
end

local function castTree(x, typename)
   if torch.isTensor(x) then return x:type(typename) end
   local t = {}
   for i = 1, #x do t[i] = castTree(x[i], typename) end
   return t
end

-- a module cast to float and back to double computes the same (within float)
function totem.nn.checkTypeCastable(tester, module, input)
   local double = module:clone():double()
   local float = module:clone():float()
   local outD = leaves(cloneTree(double:forward(castTree(input, 'torch.DoubleTensor'))))
   local outF = leaves(float:forward(castTree(input, 'torch.FloatTensor')))
   for i = 1, #outD do
      tester:eq(outF[i]:type('torch.DoubleTensor'), outD[i], 'float output ' .. i, 1e-4)
      tester:eq(torch.typename(outF[i]), 'torch.FloatTensor', 'float output type ' .. i)
   end
   checkSameOutputs(tester, double:float():double(), double, castTree(input, 'torch.DoubleTensor'),
                    'cast float then double')
end

return totem
