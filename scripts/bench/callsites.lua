-- Per-call cost of the 24 unary functions on 100 elements into a given
-- result, each called from a call site of its own (as a program's code
-- would), in the "op size microseconds" lines of families.lua:
--   th callsites.lua [budget_seconds]
-- Run it in several processes: in about half of them (th, November 2026)
-- the cheap ones cost 0.2-0.3 us more a call (trunc 0.13-0.16 or 0.29-0.49),
-- a difference between processes whose cause is not found yet.
local budget = tonumber(arg and arg[1]) or 0.02
package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget)

local names = {'abs', 'sign', 'neg', 'acos', 'asin', 'atan', 'ceil', 'cos', 'cosh', 'exp', 'floor',
               'log', 'log1p', 'round', 'sin', 'sinh', 'sqrt', 'rsqrt', 'tan', 'tanh', 'sigmoid',
               'trunc', 'frac', 'cinv'}
torch.manualSeed(1)
local y = torch.rand(100):add(0.5)
local r = torch.Tensor(100)
for _, f in ipairs(names) do
   -- (a function of its own per operation: one closure of the same code for
   -- all would be one call site calling each in turn)
   local call = loadstring(('local torch, r, y = ...\nreturn function() torch.%s(r, y) end'):format(f))
   report('callsite/' .. f, 100, call(torch, r, y))
end
