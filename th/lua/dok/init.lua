-- dok: the argument helpers that Torch7 packages (image, ...) call: dok.unpack reads
-- positional or named arguments against a list of definitions, dok.usage formats
-- their help, dok.error raises a package error.  th's own, after dok's documented API.

local dok = {}

-- the help line of one argument definition {arg=, type=, help=, default=, defaulta=, req=}
local function describe(def)
   local name = def.arg or def.type or ''
   local text = def.help or ''
   if def.req then
      text = text .. ' [required]'
   elseif def.default ~= nil then
      text = text .. ' [default = ' .. tostring(def.default) .. ']'
   elseif def.defaulta then
      text = text .. ' [default == ' .. def.defaulta .. ']'
   end
   return string.format('  %-16s -- %s', name, text)
end

-- dok.usage(funcname, description, example, def...): the usage text of a function;
-- a string among the definitions separates alternative call forms
function dok.usage(funcname, description, example, ...)
   local lines = {'', '+++ ' .. tostring(funcname) .. ' +++', ''}
   if description then lines[#lines + 1] = description; lines[#lines + 1] = '' end
   if example then lines[#lines + 1] = example; lines[#lines + 1] = '' end
   local form = {}
   local function flush()
      if #form > 0 then
         lines[#lines + 1] = tostring(funcname) .. '('
         for _, l in ipairs(form) do lines[#lines + 1] = l end
         lines[#lines + 1] = ')'
         form = {}
      end
   end
   for i = 1, select('#', ...) do
      local def = select(i, ...)
      if type(def) == 'table' then
         form[#form + 1] = describe(def)
      else
         flush()
         if def ~= '' then lines[#lines + 1] = tostring(def) end
      end
   end
   flush()
   return table.concat(lines, '\n') .. '\n'
end

-- dok.error(message, domain): raises "<domain> message"
function dok.error(message, domain)
   if domain then message = '<' .. domain .. '> ' .. tostring(message) end
   error(message, 2)
end

-- are the given arguments one table of named arguments (not a tensor or other object)?
local function named(args, defs)
   local only = args[1]
   if #args ~= 1 or type(only) ~= 'table' or getmetatable(only) ~= nil then return false end
   if #defs == 1 and defs[1].type == 'table' then return false end
   return true
end

-- dok.unpack(args, funcname, description, def...): returns args, then the value of each
-- definition: the positional argument, or the named one when args is {{name=value...}},
-- else its default (defaulta: the value of the argument so named).  A missing required
-- argument prints the usage and raises an error.
function dok.unpack(args, funcname, description, ...)
   local defs = {...}
   local byname = named(args, defs)
   local source = byname and args[1] or args
   local values, resolved = {}, {}
   for i, def in ipairs(defs) do
      local v
      if byname then v = source[def.arg] else v = source[i] end
      if v == nil then
         if def.default ~= nil then
            v = def.default
         elseif def.defaulta then
            v = resolved[def.defaulta]
         end
      end
      if v == nil and def.req then
         print(dok.usage(funcname, description, nil, ...))
         dok.error('missing argument: ' .. tostring(def.arg), funcname)
      end
      values[i] = v
      if def.arg then resolved[def.arg] = v end
   end
   return source, unpack(values, 1, #defs)
end

_G.dok = dok
return dok
