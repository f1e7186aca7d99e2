-- torch.TestSuite(): a table of test functions for torch.Tester:add, which
-- refuses to define a test twice (a copy-pasted test would silently replace
-- the first) and accepts only functions.
local torch = require 'torch'

local type, tostring, error, rawget, setmetatable = type, tostring, error, rawget, setmetatable

local suite = {}

function suite.__index(self, key)
   return rawget(self, '__tests')[key]
end

function suite.__newindex(self, key, value)
   local tests = rawget(self, '__tests')
   if tests[key] ~= nil then
      error('Test ' .. tostring(key) .. ' is already defined.')
   end
   if type(value) ~= 'function' then
      if type(value) == 'table' then
         error('Nested tables of tests are not supported')
      end
      error('Only functions are supported as members of a TestSuite')
   end
   tests[key] = value
end

function torch.TestSuite()
   return setmetatable({__tests = {}, __isTestSuite = true}, suite)
end
