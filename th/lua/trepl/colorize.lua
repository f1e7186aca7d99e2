-- trepl.colorize: colorize.red(s) is s between the red escape and the reset
-- (plain s when the output is not a terminal), for every name of trepl.colors.
local colors = require 'trepl.colors'

local colorize = {}
for name in pairs(colors) do
   -- (the code read at each call: noColors() empties them all)
   colorize[name] = function(s) return colors[name] .. tostring(s) .. colors.none end
end
return colorize
