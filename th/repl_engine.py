"""The Lua session behind the prompt and `th --doctest`, as Python drives it.

The evaluation itself lives in Lua (th/lua/trepl/repl.lua); this class feeds it
text, turns Ctrl-C during a computation into an interruption of that
computation (the session goes on), and answers completion and help requests.
"""
import re
import signal
import threading

# the expression being completed: names joined by . or :, at the end of the text
_TRAILING_NAME = re.compile(r"[A-Za-z_][\w]*(?:\s*[.:]\s*[A-Za-z_]\w*)*\s*[.:]?\s*\w*$|\w*$")


class Engine:
    def __init__(self, runtime, colour=False, statements_first=False):
        """statements_first: a line that is a valid statement (a call) prints
        nothing, as in the documentation's transcripts; else calls print their
        results, as trepl did."""
        self.runtime = runtime
        self.statements_first = statements_first
        self._repl = runtime.lua.eval("require 'trepl.repl'")
        self._repl.colour = colour
        self._interrupted = False

    def _on_sigint(self, signum, frame):
        self._interrupted = True

    def _poll(self):
        return self._interrupted

    def eval(self, text):
        """Runs one chunk -> ('ok' | 'incomplete' | 'error', error message or None)."""
        self._interrupted = False
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, self._on_sigint) if main else None
        try:
            result = self._repl.eval(text, self._poll if main else None, self.statements_first)
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
        if isinstance(result, tuple):
            return result[0], (result[1] if len(result) > 1 else None)
        return result, None

    def check(self, text):
        """Compiles without running -> 'ok' | 'incomplete' | 'error'."""
        result = self._repl.check(text)
        return result[0] if isinstance(result, tuple) else result

    def complete(self, text):
        """Completions of the name being typed at the end of text -> (start offset, names)."""
        match = _TRAILING_NAME.search(text)
        expr = re.sub(r"\s+", "", match.group(0)) if match else ""
        word = re.search(r"\w*$", text).group(0)
        names = self._repl.complete(expr)
        return -len(word), list(names.values()) if names is not None else []

    def help(self, name):
        return self._repl.help(name)

    def lua(self, code):
        """Runs Lua code in the session's state (not through the REPL's printing)."""
        return self.runtime.lua.execute(code)
