-- Which of th's Lua functions became roots of function-entry traces while a
-- script ran: their first bytecode turned from FUNCF into JFUNCF.  A trace
-- that reaches such a function stops there and links to it, and that trace,
-- made for the calls seen when it became hot, may return to the interpreter:
-- an operation then runs as fragments (copy of 100 bytes into doubles, 0.14 us
-- alone, 0.5-1.1 us after the other families had run).  Vararg functions
-- never become such roots.
--   th scripts/bench/traceroots.lua script.lua [args...]
-- Prints the count, then "file:line" of each root, on stderr.
local jutil = require 'jit.util'

local JFUNCF = 91   -- (LuaJIT 2.1's opcode numbers: FUNCF 89, IFUNCF 90, JFUNCF 91)

local script = table.remove(arg, 1)
dofile(script)

-- th's functions reachable from the loaded modules and the registry:
-- through tables (keys, values, metatables) and functions' upvalues
local seen, roots = {}, {}
local function walk(v)
   if seen[v] then return end
   local kind = type(v)
   if kind ~= 'table' and kind ~= 'function' then return end
   seen[v] = true
   if kind == 'table' then
      for k, x in next, v do
         walk(k)
         walk(x)
      end
      local mt = debug.getmetatable(v)
      if mt then walk(mt) end
      return
   end
   local info = jutil.funcinfo(v)
   local source = info.source and info.source:match('/th/(.*)$')
   if source then
      local ins = jutil.funcbc(v, 0)
      if ins and bit.band(ins, 0xff) == JFUNCF then
         roots[#roots + 1] = source .. ':' .. info.linedefined
      end
   end
   local i = 1
   while true do
      local name, x = debug.getupvalue(v, i)
      if not name then break end
      walk(x)
      i = i + 1
   end
end
walk(package.loaded)
walk(debug.getregistry())
table.sort(roots)
io.stderr:write(#roots, ' function-entry trace roots\n', table.concat(roots, '\n'), '\n')
