-- Lua heap bytes each operation of a benchmark script allocates, under th
-- or the original: the garbage that makes the collector's work.  A call that
-- allocates per element or per line (a cdata a C call returns, a table per
-- row) shows here before it shows in time.
--   th heapbytes.lua [script (families.lua)] [script's arguments...]
-- Prints "name size bytes" for each report of a reporter script
-- (families.lua), "name bytes" for each bench.run of the others.
local script = arg and arg[1] or 'families.lua'
local here = debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './'
if not script:find('/') then script = here .. script end

-- bytes(f, calls) -> heap bytes per call of f, the collector stopped
local function bytes(f, calls)
   for _ = 1, 20 do f() end   -- (compiled first: the interpreter boxes more)
   collectgarbage()
   collectgarbage('stop')
   local before = collectgarbage('count')
   for _ = 1, calls do f() end
   local per = (collectgarbage('count') - before) * 1024 / calls
   collectgarbage('restart')
   return per
end

package.loaded.bench = {
   reporter = function(_, filter)
      return function(name, n, f)
         if filter and not name:find(filter, 1, true) then return end
         print(string.format('%s %d %.0f', name, n, bytes(f, 200)))
      end
   end,
   run = function(name, ops, f)
      print(string.format('%s %.0f', name, bytes(f, 5) / ops))
   end,
}
arg = {[0] = script, select(2, unpack(arg))}
if arg[1] == nil and script:find('families.lua$') then arg[1] = '0' end
dofile(script)
