-- torch.CmdLine: command-line options for experiment scripts.  Options
-- (`-name default help`), positional arguments and help text are declared in
-- order; parse() reads the script's `arg` table, string() names a run
-- directory after the options that differ from their defaults, and log() makes
-- every later `print` go to the screen and to a log file.
local torch = require 'torch'

local CmdLine = torch.class('torch.CmdLine')

local type, tostring, tonumber, pairs, ipairs, select = type, tostring, tonumber, pairs, ipairs, select
local insert, concat, sort, rep = table.insert, table.concat, table.sort, string.rep
local date, iotype, open, write, stderr = os.date, io.type, io.open, io.write, io.stderr

-- '-seed' -> 'seed', '--input' -> 'input'
local function strip(key)
   return key:match('^%-*(.*)$')
end

local function pad(s, width)
   return s .. rep(' ', width - #s)
end

function CmdLine:__init(argseparator, keyseparator)
   self.argseparator = argseparator or ','
   self.keyseparator = keyseparator or '='
   self.options = {}      -- '-seed' -> {key, default, help, type}
   self.arguments = {}    -- positional arguments in order: {key, help, type}
   self.helplines = {}    -- strings and option/argument records, in declaration order
   self.dateformat = nil
   self.silentio = false
end

-- Where the original's Lua code failed in its own CmdLine.lua (an assert,
-- Lua's own index or concatenation error), th raises the same message with
-- no position: a line of th's file is no better than the original's, which
-- th leaves out as for its other Lua files.
local function fault(fmt, ...)
   error(fmt:format(...), 0)
end

-- (pairs(t) of what is no table, in the original's loops)
local function checkpairs(t)
   if type(t) ~= 'table' then fault("bad argument #1 to 'pairs' (table expected, got %s)", type(t)) end
end

-- text([txt]): a line of the help text
function CmdLine:text(txt)
   txt = txt or ''
   if type(txt) ~= 'string' then fault('assertion failed!') end
   insert(self.helplines, txt)
end

-- option(key, default, help [, type]): the type is the default's unless given
function CmdLine:option(key, default, help, kind)
   if type(key) ~= 'string' then
      error('CmdLine:option: the option name must be a string', 2)
   end
   if default == nil then
      error('option ' .. key .. ' has no default value', 2)
   end
   kind = kind or type(default)
   if type(default) ~= kind then
      error('option ' .. key .. ' has wrong default type value', 2)
   end
   local option = {key = key, default = default, help = help, type = kind}
   self.options[key] = option
   insert(self.helplines, option)
end

-- argument(key, help [, type]): a positional argument, required, read in order
function CmdLine:argument(key, help, kind)
   -- (a number is its string, as the original's string functions read it;
   -- what is no string fails here, where the original failed when parsing)
   if type(key) == 'number' then key = tostring(key) end
   if type(key) ~= 'string' then
      error('CmdLine:argument: the argument name must be a string', 2)
   end
   local argument = {key = key, help = help, type = kind}
   insert(self.arguments, argument)
   insert(self.helplines, argument)
end

-- the option values before parsing
function CmdLine:default()
   local params = {}
   for key, option in pairs(self.options) do
      params[strip(key)] = option.default
   end
   return params
end

-- error(msg): the message on stderr, the help on stdout, exit status 1
function CmdLine:error(msg)
   print('')
   stderr:write(msg)   -- without a newline, as the original
   print('')
   self:help()
   os.exit(1)
end

-- reads the option at arg[i] into params; returns how many words it used
function CmdLine:__readOption__(params, arg, i)
   local key = arg[i]
   local option = self.options[key]
   if option.type == 'boolean' then
      params[strip(key)] = not option.default
      return 1
   end
   local value = arg[i + 1]
   if value == nil then
      self:error('missing argument for option ' .. key)
   end
   if option.type == 'number' then
      value = tonumber(value)
      if value == nil then
         self:error('invalid type for option ' .. key .. ' (should be number)')
      end
   elseif option.type ~= 'string' then
      self:error('unknown required option type ' .. tostring(option.type))
   end
   params[strip(key)] = value
   return 2
end

-- reads arg[i] as the n-th positional argument
function CmdLine:__readArgument__(params, arg, i, n)
   local value = arg[i]
   local argument = self.arguments[n]
   if not argument then   -- (an unknown option too, in the original's words)
      self:error('invalid argument: ' .. tostring(value))
   end
   if argument.type and type(value) ~= argument.type then
      self:error('invalid argument type for argument ' .. argument.key .. ' (should be ' .. argument.type .. ')')
   end
   params[strip(argument.key)] = value
   return 1
end

-- parse([arg]) -> params: arg defaults to the script's arguments
function CmdLine:parse(arg)
   arg = arg or _G.arg or {}
   if type(arg) ~= 'table' and type(arg) ~= 'string' then
      fault("attempt to get length of local 'arg' (a %s value)", type(arg))
   end
   local params = self:default()
   local i, n = 1, 0
   while i <= #arg do
      local word = arg[i]
      if word == '-h' or word == '-help' or word == '--help' then
         self:help(arg)
         os.exit(0)
      end
      if self.options[word] then
         i = i + self:__readOption__(params, arg, i)
      else
         n = n + 1
         i = i + self:__readArgument__(params, arg, i, n)
      end
   end
   if n < #self.arguments then
      self:error('not enough arguments')
   end
   return params
end

-- string(prefix, params [, ignore]) -> 'prefix,arg=v,opt1=v1,opt2=v2': the
-- positional arguments in order, then the options that differ from their
-- default (or that ignore[name] == false forces in), sorted
function CmdLine:string(prefix, params, ignore)
   prefix = prefix or ''
   ignore = ignore or {}
   checkpairs(params)
   local arguments, options = {}, {}
   for k, v in pairs(params) do
      local option = self.options['-' .. k]
      if ignore[k] then
         print('-- ignore option ' .. k)
      elseif option then
         if v ~= option.default or ignore[k] == false then
            if type(v) == 'boolean' then v = v and 't' or 'f' end
            insert(options, k .. self.keyseparator .. tostring(v))
            print(k, v, option.default)
         end
      else
         local position
         for i, argument in ipairs(self.arguments) do
            if strip(argument.key) == k then position = i end
         end
         if position then
            arguments[position] = k .. self.keyseparator .. tostring(v)
         else
            print('WARNING: unknown option/argument: ' .. k .. ' IGNORING for DIRECTORY NAME')
         end
      end
   end
   sort(options)
   local given = {}
   for i = 1, #self.arguments do
      if arguments[i] then insert(given, arguments[i]) end
   end
   -- as the original: once there are arguments, the separator before the
   -- options comes even when no option follows ('exp,input=a,')
   local str = concat(given, self.argseparator)
   if str == '' then
      str = concat(options, self.argseparator)
   else
      str = str .. self.argseparator .. concat(options, self.argseparator)
   end
   if str == '' then
      return prefix
   end
   if type(prefix) ~= 'string' and type(prefix) ~= 'number' then
      fault("attempt to concatenate local 'prefix' (a %s value)", type(prefix))
   end
   return prefix .. self.argseparator .. str
end

-- silent(): after log(), print writes to the log file only
function CmdLine:silent()
   self.silentio = true
end

-- addTime([name] [, format]): each line of the log file starts with the date
function CmdLine:addTime(name, format)
   format = format or '%F %T'
   if type(format) ~= 'string' then
      error('CmdLine:addTime: the format must be a string', 2)
   end
   self.dateformat = format .. (name and ('[' .. tostring(name) .. ']: ') or '')
end

-- the print of the screen, captured once: logging twice does not echo twice
local screenprint

-- log(file, params): file is a name or an open file; from now on print also
-- writes a line of that file: the date (addTime) and each argument, every one
-- followed by a space, as the original wrote them
function CmdLine:log(file, params)
   local f = file
   if iotype(file) ~= 'file' then
      local err
      f, err = open(file, 'w')
      if not f then
         error('CmdLine:log: cannot open ' .. tostring(file) .. ': ' .. tostring(err), 2)
      end
   end
   screenprint = screenprint or print
   local cmd = self
   function _G.print(...)
      if not cmd.silentio then
         screenprint(...)
      end
      if cmd.dateformat then
         f:write(date(cmd.dateformat), ' ')
      end
      for i = 1, select('#', ...) do
         f:write(tostring((select(i, ...))), ' ')
      end
      f:write('\n')
      f:flush()
   end
   print('[program started on ' .. date() .. ']')
   print('[command line arguments]')
   if params then
      checkpairs(params)
      for k, v in pairs(params) do
         print(k, v)
      end
   end
   print('[----------------------]')
end

-- scriptname(arg) -> arg[0], which the original's help joined to the usage
local function scriptname(arg)
   if type(arg) ~= 'table' and type(arg) ~= 'string' then
      fault("attempt to index local 'arg' (a %s value)", type(arg))
   end
   local name = arg[0]
   if type(name) ~= 'string' and type(name) ~= 'number' then
      fault('attempt to concatenate a %s value', type(name))
   end
   return name
end

-- help([arg]): the usage line (with the script name arg[0] when arg is given:
-- as in the original, a table without [0] is an error), then the text, options
-- and arguments in the order they were declared
function CmdLine:help(arg)
   write('Usage: ')
   if arg then write(scriptname(arg) .. ' ') end
   write('[options]')
   for _, argument in ipairs(self.arguments) do
      write(' <', strip(argument.key), '>')
   end
   write('\n')
   local width = 0
   for _, line in ipairs(self.helplines) do
      if type(line) == 'table' then
         local w = line.default ~= nil and #line.key or #strip(line.key) + 2
         if w > width then width = w end
      end
   end
   for _, line in ipairs(self.helplines) do
      if type(line) == 'table' then
         write('  ')
         if line.default ~= nil then
            write(pad(line.key, width))
            if line.help then write(' ', line.help) end
            write(' [', tostring(line.default), ']')
         else
            write(pad('<' .. strip(line.key) .. '>', width))
            if line.help then write(' ', line.help) end
         end
      else
         write(line)
      end
      write('\n')
   end
end

return CmdLine
