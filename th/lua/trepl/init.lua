-- What the `th` command adds to plain Lua, as the original trepl did: the
-- pretty `print` (tensors in full, tables recursively) and running a script
-- or a chunk with a traceback on error.
local torch = require 'torch'

local trepl = {}

local write, tostring, type, select, pairs = io.write, tostring, type, select, pairs

-- "DoubleTensor - size: 2x3", "IntStorage - size: 4", "DoubleTensor - empty"
local function sizestr(x)
   local name = torch.typename(x):match('torch%.(.+)')
   if torch.isStorage(x) then
      return name .. ' - size: ' .. x:size()
   end
   if x:nDimension() == 0 then
      return name .. ' - empty'
   end
   local s = {}
   for i = 1, x:nDimension() do s[i] = x:size(i) end
   return name .. ' - size: ' .. table.concat(s, 'x')
end

-- a value inside a printed table
local function describe(v)
   local t = type(v)
   if t == 'string' then
      return '"' .. v .. '"'
   elseif t == 'userdata' or t == 'cdata' then
      local name = torch.typename(v) or ''
      if name:find('torch.*Tensor') or name:find('torch.*Storage') then
         return sizestr(v)
      end
   end
   return tostring(v)
end

local function rawprint(o)
   write(tostring(o), '\n')
end

local function line(indent, s)
   write(string.rep(' ', indent), s, '\n')
end

-- tables print as `{`, `  key : value` lines, `}`; a table met again while
-- printing itself prints as {...} (the original recursed forever)
local function printtable(obj, indent, seen)
   if next(obj) == nil then
      return line(indent, '{}')
   end
   seen[obj] = true
   line(indent, '{')
   for k, v in pairs(obj) do
      if type(v) == 'table' then
         if next(v) == nil or seen[v] then
            line(indent + 2, tostring(k) .. ' : {...}')
         else
            line(indent + 2, tostring(k) .. ' : ')
            printtable(v, indent + 4, seen)
         end
      else
         line(indent + 2, tostring(k) .. ' : ' .. describe(v))
      end
   end
   line(indent, '}')
   seen[obj] = nil
end

-- print(...): numbers, strings... are followed by a tab and the line ends after
-- the last one; tensors, storages and objects with __tostring print whole
function trepl.print(...)
   local n = select('#', ...)
   for i = 1, n do
      local obj = select(i, ...)
      local t = type(obj)
      if t == 'table' then
         local mt = getmetatable(obj)
         if mt and mt.__tostring then
            rawprint(obj)
         else
            printtable(obj, 0, {})
         end
      elseif t == 'userdata' or t == 'cdata' then
         rawprint(obj)
      else
         write(tostring(obj), '\t')
         if i == n then write('\n') end
      end
   end
end

-- traceback for xpcall: the message, then the Lua stack
function trepl.traceback(msg)
   if type(msg) ~= 'string' then
      local mt = getmetatable(msg)
      msg = (mt and mt.__tostring) and tostring(msg) or ('(error object is a ' .. type(msg) .. ' value)')
   end
   return debug.traceback(msg, 2)
end

-- run(f, ...) -> true, results... or false, message with traceback
function trepl.run(f, ...)
   return xpcall(f, trepl.traceback, ...)
end

return trepl
