-- trepl.colors: ANSI escape sequences by name (lowercase: normal colour,
-- Capitalised: bright, _underscored: background), empty strings when the
-- output is not a terminal, as in the original.
local codes = {none = '0', bright = '1', dim = '2', underline = '4', blink = '5',
               reverse = '7', hidden = '8'}
local names = {'black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'}
for i, name in ipairs(names) do
   codes[name] = '0;3' .. (i - 1)
   codes[name:sub(1, 1):upper() .. name:sub(2)] = '1;3' .. (i - 1)
   codes['_' .. name] = '4' .. (i - 1)
end

local colors = {}
local tty = require('trepl').tty
for name, code in pairs(codes) do
   colors[name] = tty and ('\27[' .. code .. 'm') or ''
end
return colors
