-- trepl.colorize: colorize.red(s) is s between the red escape and the reset
-- (plain s when the output is not a terminal), for every name of trepl.colors.
local colors = require 'trepl.colors'

local colorize = {}
for name, code in pairs(colors) do
   colorize[name] = function(s) return code .. tostring(s) .. colors.none end
end
return colorize
