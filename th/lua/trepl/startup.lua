-- The packages trepl's start-up loaded when they were installed: penlight
-- (`require 'pl'` makes stringx, tablex, path, dir, text, List... globals
-- that load on first use), then sys and xlua.  A package that is missing or
-- fails to load is skipped, as trepl skipped it.
for _, name in ipairs({'pl', 'sys', 'xlua'}) do
   pcall(require, name)
end
