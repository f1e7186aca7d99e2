-- The interactive session behind `th`'s prompt and `th --doctest`: evaluates
-- chunks of input as the original trepl did (a bare expression or `= expr`
-- prints its values, a trailing `;` does not, `_LAST`/`_RESULTS` keep them),
-- keeps the `local` variables of a chunk alive for the next ones, and answers
-- the prompt's questions: completions, `? name` help, who().
-- Python drives it (th/repl_engine.py); nothing here reads the terminal.
local trepl = require 'trepl'
local bytes = require 'trepl.bytes'

local repl = {}

local type, tostring, pairs, ipairs, select, pcall, unpack = type, tostring, pairs, ipairs, select, pcall, unpack
local getmetatable, loadstring, rawget, rawset, getfenv = getmetatable, loadstring, rawget, rawset, getfenv
local getlocal, getinfo = debug.getlocal, debug.getinfo
local insert, concat, sort, format = table.insert, table.concat, table.sort, string.format

local CAPTURE = '__th_capture'
-- an expression runs as `return __th_pass({expr})`: not a tail call, so that
-- error('x') typed at the prompt still says where (stdin:1: x).  Its values
-- are those up to the table's length, as trepl printed them (it built
-- `_RESULT={expr}`): `1, nil, 3` shows 1, `nil` nothing; the same
-- constructor gives LuaJIT's same length
local PASS = '__th_pass'
local function pass(values) return unpack(values, 1, #values) end
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
      if name:sub(1, 1) ~= '(' and name ~= CAPTURE and name ~= PASS then
         remember(name, value)
      end
      i = i + 1
   end
end

-- the chunk takes its head's values by calling __th_take, a global only
-- until then, not as its `...`: that stays empty, as trepl's chunk's was
local TAKE = '__th_take'

-- 'local a, b, __th_pass, __th_capture = __th_take(); ': the remembered locals, on the chunk's first line
local function prefix()
   local names = {}
   for _, name in ipairs(localnames) do
      if localvalues[name] ~= nil then insert(names, name) end
   end
   insert(names, PASS)
   insert(names, CAPTURE)
   return 'local ' .. concat(names, ', ') .. ' = ' .. TAKE .. '(); ', names
end

-- trepl read an expression as a function's, which has no `...`: one using
-- the chunk's runs as a statement (`= select('#', ...)` shows nothing, `...`
-- is a syntax error at once)
local VARARGS = 'varargs'
local function varargs(text)
   return not loadstring('return function() return ' .. text .. '\nend')
end

-- expression(head, text) -> the chunk returning text's values (see PASS),
-- or nil and the error of text as an expression list (inside the table
-- constructor, `a = 1` would read as a field), VARARGS for one using `...`
local function expression(head, text)
   -- a `;` alone is no expression (`return ;` would compile): read as the
   -- statement Lua 5.1 refuses, it is the syntax error trepl gave
   if text:match('^%s*;%s*$') then return loadstring(head .. text, '=stdin') end
   local f, err = loadstring(head .. 'return ' .. text, '=stdin')
   if not f then return nil, err end
   if varargs(text) then return nil, VARARGS end
   return loadstring(head .. 'return ' .. PASS .. '({' .. text:gsub(';%s*$', '') .. '\n})', '=stdin')
end

local function incomplete(err)
   return err ~= nil and err:sub(-7) == "'<eof>'"
end

-- compile(text [, statements]) -> f, names, printing | nil, 'incomplete' |
-- 'error', message.  Text is first read as an expression to print (a
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
   local f, experr = expression(head, text)
   if f and (not statements or forced) then return f, names, printing end
   local asexpression = f
   local err
   f, err = loadstring(head .. text, '=stdin')
   if not f and asexpression then return asexpression, names, printing end
   if not f then
      -- `{1,` or `1 +` go on as an expression on the next line
      if incomplete(err) and experr ~= VARARGS then return nil, 'incomplete', err end
      if incomplete(experr) then return nil, 'incomplete', experr end
      return nil, 'error', err
   end
   -- `return x` shows nothing at the prompt, as in trepl; in the documents'
   -- transcripts (th --doctest) and the kernel, it prints as `= x` does
   if text:match('^%s*return[%s;]') or text:match('^%s*return$') then
      return f, names, printing and not repl.prompt
   end
   -- the same chunk ending by saving its locals, unless it ends with a return
   return loadstring(head .. text .. '\n' .. CAPTURE .. '()', '=stdin') or f, names, false
end

-- compilecell(text): a Jupyter cell, whose last lines may be an expression
-- to show after the statements before them (`x = f()` then `x`)
local function compilecell(text)
   local f, names, printing = compile(text)
   if f and printing then return f, names, printing end
   local lines = {}
   for l in (text .. '\n'):gmatch('(.-)\r?\n') do insert(lines, l) end
   for i = #lines, 2, -1 do
      local expr = concat(lines, '\n', i)
      if expr:match('%S') and not expr:match(';%s*$') then
         local head, cellnames = prefix()
         local g = expression(head .. concat(lines, '\n', 1, i - 1) .. '\n' .. CAPTURE .. '() ', expr)
         if g then return g, cellnames, true end
      end
   end
   return f, names, printing
end

-- the message of a chunk that does not compile: at the prompt
-- (repl.prompt, below) said to be a syntax error, as trepl said
local function syntaxerror(err)
   return bytes(repl.prompt and 'syntax error: ' .. err or err)
end

-- check(text) -> 'ok' | 'incomplete' | 'error', message (as eval's): compiles without running
function repl.check(text)
   local f, status, err = compile(text)
   if f then return 'ok' end
   if err then return status, syntaxerror(err) end
   return status
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
            io.write(colours[type(v)], tostring(v), '\27[0m\t')
         end
         io.write('\n')
         return
      end
   end
   trepl.print(...)
end

-- repl.display(address, length, value): set by a host that shows results
-- itself (the Jupyter kernel): the text print shows (see trepl.bytes), and
-- the first value when it is a tensor
repl.display = nil

-- the values shown, then kept, as trepl did (`_RESULTS` shows those before it)
local function display(n, ...)
   if repl.display then
      local first = ...
      local address, length = bytes(trepl.format(...))
      repl.display(address, length, torch.isTensor(first) and first or nil)
   else
      show(n, ...)
   end
end

local function keep(n, ...)
   if n == 0 then return end
   display(n, ...)
   if (...) ~= nil then _G._LAST = (...) end   -- (trepl kept the last one past `nil, 5`)
   _G._RESULTS = _G._RESULTS or {}
   insert(_G._RESULTS, (...))
end

-- an error at the prompt (repl.prompt), as trepl printed it: a message
-- that is a string with the traceback of the typed chunk's frames (less the
-- REPL's own frames below the chunk), any other value as print shows it
-- (`error()`: nil).  Else (th --doctest, the kernel) as trepl.message shows it
repl.prompt = false

local function report(msg)
   if not repl.prompt then return trepl.message(msg) end
   if type(msg) ~= 'string' then return (trepl.format(msg):gsub('\n$', '')) end
   local text = trepl.traceback(msg, 3)
   return text:match('^(.*\n\tstdin:%d+: in main chunk)\n') or text
end

local function finish(ok, ...)
   return ok, select('#', ...), ...
end

-- eval(text [, statements [, cell]]) -> 'ok' | 'incomplete' | 'error',
-- address, length of the message's bytes (see trepl.bytes; statements: see
-- compile; cell: see compilecell).  Errors
-- are reported by their message (a table as print shows it): a traceback
-- would show the REPL's own frames.  Ctrl-C is th/interrupt.py's.
function repl.eval(text, statements, cell)
   local f, names, printing = (cell and compilecell or compile)(text, statements)
   if not f then
      if names == 'error' then return 'error', syntaxerror(printing) end
      return names
   end
   local values = {}
   for i, name in ipairs(names) do values[i] = localvalues[name] end
   values[#names - 1], values[#names] = pass, capture
   local env = getfenv(f)
   rawset(env, TAKE, function()
      rawset(env, TAKE, nil)
      return unpack(values, 1, #names)
   end)
   local res = {finish(xpcall(function() return f() end, report))}
   rawset(env, TAKE, nil)
   if not res[1] then
      return 'error', bytes(tostring(res[3]))
   end
   -- (Ctrl-C may come while the value prints: an error to report, not th's end)
   local ok, err = pcall(function()
      if printing then keep(res[2], unpack(res, 3, res[2] + 2)) end
      io.stdout:flush()
   end)
   if not ok then return 'error', bytes(tostring(err)) end
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
         if type(k) == 'string' and k:match('^[%a_][%w_]*$') then insert(names, k) end
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
local function help(name)
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

-- help(name) -> address, length of help's text (see trepl.bytes)
function repl.help(name)
   return bytes(help(name))
end

-- the globals that existed when the session started, and th's own
local initial = {_LAST = true, _RESULTS = true}
_G._RESULTS = _G._RESULTS or {}     -- (there from the start, as in trepl)

-- hide(name): a global th defines, which who() does not list
function repl.hide(name)
   initial[name] = true
end

-- what who() says of a value, as trepl said it: a string quoted (its line
-- breaks as \n, then cut past 40 characters), a plain table by its length,
-- an object of a torch.class by its class, a tensor or storage by its
-- sizes, the rest as tostring
local function whatis(v)
   if type(v) == 'string' then
      local text = v:gsub('\n', '\\n')
      return 'string : "' .. (#text > 40 and text:sub(1, 40) .. '...' or text) .. '"'
   end
   if type(v) == 'table' then
      return torch and torch.typename(v) or 'table - size: ' .. #v
   end
   return trepl.describe(v)
end

-- who(): the variables this session defined (its globals, then the locals
-- that survive), in trepl's listing: `[name]` padded to the longest, `= what`
function repl.who()
   local names = {}
   for k in pairs(_G) do
      if type(k) == 'string' and not initial[k] then insert(names, k) end
   end
   sort(names)
   local values = {}
   for _, k in ipairs(names) do values[k] = _G[k] end
   for _, k in ipairs(localnames) do
      if localvalues[k] ~= nil and values[k] == nil then
         insert(names, k)
         values[k] = localvalues[k]
      end
   end
   local width = 24
   for _, k in ipairs(names) do width = math.max(width, #k + 2) end
   trepl.print('== User Variables ==')
   for _, k in ipairs(names) do
      trepl.print(format('%-' .. width .. 's = %s', '[' .. k .. ']', whatis(values[k])))
   end
   trepl.print('==')
end

_G.who = repl.who
for k in pairs(trepl.initial or _G) do initial[k] = true end
initial.who = true

return repl
