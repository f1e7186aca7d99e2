"""The interactive prompt (`th` with no script, or `th -i`).

A minimal line-oriented loop: `th> ` prompt, `..> ` while a chunk is
incomplete, expressions print their values.
"""
import sys

_EVAL = r"""
function(code)
   local trepl = require 'trepl'
   local f, err = loadstring('return ' .. code, '=stdin')
   if not f then
      f, err = loadstring(code, '=stdin')
   end
   if not f then
      if err:find("'<eof>'") then return 'incomplete' end
      return 'error', err
   end
   local res = {trepl.run(f)}
   if not res[1] then return 'error', res[2] end
   if #res > 1 then trepl.print(unpack(res, 2, table.maxn(res))) end
   io.stdout:flush()
   return 'ok'
end
"""


def repl(runtime):
    evaluate = runtime.lua.eval(_EVAL)
    buffer = []
    while True:
        try:
            line = input("..> " if buffer else "th> ")
        except EOFError:
            sys.stdout.write("\n")
            return 0
        except KeyboardInterrupt:
            sys.stdout.write("\n")
            buffer = []
            continue
        if not buffer and line.strip() in ("exit", "os.exit()"):
            return 0
        buffer.append(line)
        status, *rest = evaluate("\n".join(buffer))
        if status == "incomplete":
            continue
        buffer = []
        if status == "error":
            sys.stderr.write(f"{rest[0]}\n")
