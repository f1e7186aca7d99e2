-- The interactive session behind `th`'s prompt and `th --doctest`: evaluates
-- chunks of input as the original trepl did (a bare expression or `= expr`
-- prints its values, a trailing `;` does not, `_LAST`/`_RESULTS` keep them),
-- keeps the `local` variables of a chunk alive for the next ones, and answers
-- the prompt's questions: completions, `? name` help, who().
-- Python drives it (th/repl_engine.py); nothing here reads the terminal.
local trepl = require 'trepl'

local repl = {}

local type, tostring, pairs, ipairs, select, pcall, unpack = type, tostring, pairs, ipairs, select, pcall, unpack
local getmetatable, loadstring, rawget = getmetatable, loadstring, rawget
local getlocal, getinfo, sethook = debug.getlocal, debug.getinfo, debug.sethook
local insert, concat, sort, format = table.insert, table.concat, table.sort, string.format
local write = io.write

local CAPTURE = '__th_capture'
local MAXLOCALS = 150          -- a Lua function has at most 200 locals

-- the locals of earlier chunks: names in order of declaration, and values
local localnames, localvalues = {}, {}

local function remember(name, value)
   if localvalues[name] == nil and value ~= nil then
      insert(localnames, name)
      if #localnames > MAXLOCALS then
         localvalues[table.remove(localnames, 1)] = nil
      end
   end
   localvalues[name] = value
end

-- called as the last statement of a chunk: its live top-level locals survive
local function capture()
   local i = 1
   while true do
      local name, value = getlocal(2, i)
      if not name then break end
      if name:sub(1, 1) ~= '(' and name ~= CAPTURE then
         remember(name, value)
      end
      i = i + 1
   end
end

-- 'local a, b, __th_capture = ...; ': the remembered locals, on the chunk's first line
local function prefix()
   local names = {}
   for _, name in ipairs(localnames) do
      if localvalues[name] ~= nil then insert(names, name) end
   end
   insert(names, CAPTURE)
   return 'local ' .. concat(names, ', ') .. ' = ...; ', names
end

local function incomplete(err)
   return err:sub(-7) == "'<eof>'"
end

-- compile(text [, statements]) -> f, names, printing | nil, 'incomplete' |
-- nil, 'error', message.  Text is first read as an expression to print (a
-- call prints its results, as trepl did), or with `statements` first as a
-- statement (a call prints nothing, as the documentation's transcripts show)
local function compile(text, statements)
   local printing = true
   local forced = text:match('^%s*=')
   if forced then
      text = text:gsub('^%s*=', '', 1)
   end
   if text:match(';%s*$') then printing = false end
   local head, names = prefix()
   local f = (not statements or forced) and loadstring(head .. 'return ' .. text, '=stdin')
   if f then return f, names, printing end
   local err
   f, err = loadstring(head .. text, '=stdin')
   if not f and statements then
      local expression = loadstring(head .. 'return ' .. text, '=stdin')
      if expression then return expression, names, printing end
   end
   if not f then
      if incomplete(err) then return nil, 'incomplete' end
      return nil, 'error', err
   end
   -- `return x` prints as `= x` does
   if text:match('^%s*return[%s;]') or text:match('^%s*return$') then
      return f, names, printing
   end
   -- the same chunk ending by saving its locals, unless it ends with a return
   return loadstring(head .. text .. '\n' .. CAPTURE .. '()', '=stdin') or f, names, false
end

-- check(text) -> 'ok' | 'incomplete' | 'error', message: compiles without running
function repl.check(text)
   local f, status, err = compile(text)
   if f then return 'ok' end
   return status, err
end

-- colours of printed values, when the output is a terminal
local colours = {number = '\27[36m', string = '\27[32m', boolean = '\27[35m', ['nil'] = '\27[35m'}
repl.colour = false

local function show(n, ...)
   if repl.colour then
      local scalars = true
      for i = 1, n do
         if not colours[type((select(i, ...)))] then scalars = false end
      end
      if scalars then
         for i = 1, n do
            local v = select(i, ...)
            write(colours[type(v)], tostring(v), '\27[0m\t')
         end
         write('\n')
         return
      end
   end
   trepl.print(...)
end

local function keep(n, ...)
   if n == 0 then return end
   _G._LAST = (...)
   _G._RESULTS = _G._RESULTS or {}
   insert(_G._RESULTS, (...))
   show(n, ...)
end

-- interruption: the hook asks Python (every so many VM instructions of
-- interpreted code) whether Ctrl-C was pressed.  A loop compiled by the JIT
-- inside a called function cannot be interrupted (as with LuaJIT itself).
local HOOKCOUNT = 100000

-- errors are reported by their message: a traceback would show the REPL's own frames
local function message(err)
   if type(err) == 'string' then return err end
   local mt = getmetatable(err)
   if mt and mt.__tostring then return tostring(err) end
   return '(error object is a ' .. type(err) .. ' value)'
end

local function finish(ok, ...)
   sethook()
   return ok, select('#', ...), ...
end

-- eval(text [, interrupted [, statements]]) -> 'ok' | 'incomplete' | 'error', message
-- (interrupted() says whether Ctrl-C was pressed; statements: see compile)
function repl.eval(text, interrupted, statements)
   local f, names, printing = compile(text, statements)
   if not f then return names, printing end
   local values = {}
   for i, name in ipairs(names) do values[i] = localvalues[name] end
   values[#names] = capture
   if interrupted then
      -- the hook never runs inside JIT-compiled traces: the chunk's own code
      -- (a loop typed at the prompt) stays interpreted, what it calls does not
      jit.off(f)
      sethook(function()
         if interrupted() then
            sethook()
            error('interrupted', 2)
         end
      end, '', HOOKCOUNT)
   end
   local res = {finish(xpcall(function() return f(unpack(values, 1, #names)) end, message))}
   if not res[1] then
      return 'error', tostring(res[3])
   end
   if printing then keep(res[2], unpack(res, 3, res[2] + 2)) end
   io.stdout:flush()
   return 'ok'
end

-- Name lookup as a chunk sees it: remembered locals first, then globals.
local function lookup(name)
   local v = localvalues[name]
   if v == nil then v = _G[name] end
   return v
end

-- resolve('a.b.c') -> the value, following only field accesses (never calls)
local function resolve(path)
   local first, rest = path:match('^([%a_][%w_]*)(.*)$')
   if not first then return nil end
   local v = lookup(first)
   for key in rest:gmatch('[.:]([%a_][%w_]*)') do
      if v == nil then return nil end
      local ok, field = pcall(function() return v[key] end)
      if not ok then return nil end
      v = field
   end
   return v
end

-- the string keys of a value: its own (tables), then its class's up the hierarchy
local function keys(v, into)
   local seen = {}
   local function add(t)
      for k in pairs(t) do
         if type(k) == 'string' and not seen[k] then
            seen[k] = true
            insert(into, k)
         end
      end
   end
   if type(v) == 'table' then add(v) end
   local mt = getmetatable(v)
   local depth = 0
   while type(mt) == 'table' and depth < 16 do
      add(mt)
      local index = rawget(mt, '__index')
      if type(index) == 'table' and index ~= mt then add(index) end
      mt = getmetatable(mt)
      depth = depth + 1
   end
   return into
end

local KEYWORDS = {'and', 'break', 'do', 'else', 'elseif', 'end', 'false', 'for', 'function',
   'if', 'in', 'local', 'nil', 'not', 'or', 'repeat', 'return', 'then', 'true', 'until', 'while'}

-- complete(expression) -> sorted candidates for the last word of `a.b:pre`
function repl.complete(expr)
   local base, sep, word = expr:match('^(.-)([.:])([%w_]*)$')
   local names = {}
   if base then
      local v = resolve(base)
      if v == nil or type(v) == 'string' then return {} end
      for _, k in ipairs(keys(v, {})) do
         if k:match('^[%a_][%w_]*$') then
            local ok, field = pcall(function() return v[k] end)
            if sep == '.' or (ok and type(field) == 'function') then insert(names, k) end
         end
      end
   else
      word = expr
      for _, k in ipairs(KEYWORDS) do insert(names, k) end
      for _, k in ipairs(localnames) do insert(names, k) end
      for k in pairs(_G) do
         if type(k) == 'string' then insert(names, k) end
      end
   end
   local found, seen = {}, {}
   for _, k in ipairs(names) do
      local private = k:sub(1, 1) == '_' and word:sub(1, 1) ~= '_'
      if not seen[k] and not private and k:sub(1, #word) == word then
         seen[k] = true
         insert(found, k)
      end
   end
   sort(found)
   return found
end

-- the comment lines just above line `line` of a source file
local function leadingcomment(file, line)
   local f = io.open(file)
   if not f then return nil end
   local lines = {}
   for l in f:lines() do
      insert(lines, l)
      if #lines >= line then break end
   end
   f:close()
   local comment = {}
   for i = line - 1, 1, -1 do
      local c = lines[i] and lines[i]:match('^%s*%-%-+%s?(.*)$')
      if not c then break end
      insert(comment, 1, c)
   end
   return #comment > 0 and concat(comment, '\n') or nil
end

-- help(name) -> text describing what `name` is (its documentation comment for
-- a Lua function, its fields for a table)
function repl.help(name)
   name = name:match('^%s*(.-)%s*$')
   local v = resolve(name)
   if v == nil then
      return format("%s: unknown (nil)", name)
   end
   local out = {format('%s: %s', name, torch and torch.typename(v) or type(v))}
   if type(v) == 'function' then
      local info = getinfo(v, 'S')
      if info.what == 'Lua' and info.source:sub(1, 1) == '@' then
         local file = info.source:sub(2)
         insert(out, format('defined at %s:%d', file, info.linedefined))
         insert(out, leadingcomment(file, info.linedefined))
      else
         insert(out, 'a built-in function')
      end
   elseif type(v) == 'table' or type(v) == 'userdata' then
      local fields = keys(v, {})
      local public = {}
      for _, k in ipairs(fields) do
         if not k:match('^_') then insert(public, k) end
      end
      sort(public)
      if #public > 0 then insert(out, 'fields: ' .. concat(public, ' ')) end
   else
      insert(out, 'value: ' .. tostring(v))
   end
   return concat(out, '\n')
end

-- the globals that existed when the session started (filled below)
local initial = {}

-- who(): the variables this session defined, with their types
function repl.who()
   local names = {}
   for k in pairs(_G) do
      if type(k) == 'string' and not initial[k] then insert(names, k) end
   end
   sort(names)
   for _, k in ipairs(names) do
      write(format('  %-20s %s\n', k, torch and torch.type(_G[k]) or type(_G[k])))
   end
   for _, k in ipairs(localnames) do
      local v = localvalues[k]
      if v ~= nil then write(format('  %-20s %s (local)\n', k, torch and torch.type(v) or type(v))) end
   end
end

_G.who = repl.who
for k in pairs(_G) do initial[k] = true end

return repl
