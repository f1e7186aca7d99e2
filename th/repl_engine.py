"""The Lua session behind the prompt, `th --doctest` and the Jupyter kernel,
as Python drives it.

The evaluation itself lives in Lua (th/lua/trepl/repl.lua); this class feeds it
text, lets Ctrl-C interrupt the computation (th/interrupt.py: the session
goes on), and answers completion and help requests.  Messages come back as
bytes (Lua strings are bytes, see th/luabytes.py).
"""
import re

from th import luabytes
from th.interrupt import Interrupter

# the expression being completed: names joined by . or :, at the end of the text
_TRAILING_NAME = re.compile(r"[A-Za-z_][\w]*(?:\s*[.:]\s*[A-Za-z_]\w*)*\s*[.:]?\s*\w*$|\w*$")


class Engine:
    def __init__(self, runtime, colour=False, statements_first=False, quit_after=None, prompt=False):
        """statements_first: a line that is a valid statement (a call) prints
        nothing, as in the documentation's transcripts; else calls print their
        results, as trepl did.  quit_after: Ctrl-C pressed that many times
        during one run quits th (see th/interrupt.py).  prompt: th's prompt,
        which shows errors (with the chunk's traceback) and `return` as
        trepl's prompt did; the documents' transcripts printed `return x`."""
        self.runtime = runtime
        self.statements_first = statements_first
        self._repl = runtime.lua.eval("require 'trepl.repl'")
        self._repl.colour = colour
        self._repl.prompt = prompt
        self._interrupter = Interrupter(runtime.lua, quit_after=quit_after)

    def eval(self, text, cell=False):
        """Runs one chunk -> ('ok' | 'incomplete' | 'error', error message as bytes or None).
        cell: a Jupyter cell, whose last lines may be an expression to show."""
        code = luabytes.encode(text)
        result = self._interrupter.run(lambda: self._repl.eval(code, self.statements_first, cell))
        if isinstance(result, tuple):
            return result[0], luabytes.read(*result[1:3])
        return result, None

    def run(self, call):
        """call() (which runs Lua code) with Ctrl-C interrupting it."""
        return self._interrupter.run(call)

    def check(self, text):
        """Compiles without running -> ('ok' | 'incomplete' | 'error', message as eval's)."""
        result = self._repl.check(luabytes.encode(text))
        if isinstance(result, tuple):
            return result[0], luabytes.read(*result[1:3])
        return result, None

    def complete(self, text):
        """Completions of the name being typed at the end of text -> (start offset, names)."""
        match = _TRAILING_NAME.search(text)
        expr = re.sub(r"\s+", "", match.group(0)) if match else ""
        word = re.search(r"\w*$", text).group(0)
        names = self._repl.complete(expr)
        return -len(word), list(names.values()) if names is not None else []

    def help(self, name):
        """`? name`'s text (invalid UTF-8 replaced)."""
        return luabytes.text(*self._repl.help(luabytes.encode(name)))

    def lua(self, code):
        """Runs Lua code in the session's state (not through the REPL's printing)."""
        return self.runtime.lua.execute(code)
