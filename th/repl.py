"""The interactive prompt (`th` with no script, or `th -i`), on prompt_toolkit.

`th> ` reads a line, `..> ` continues a chunk that does not compile yet; a
bare expression or `= expr` prints its values (not with a trailing `;`).
Besides Lua, a line may be `? name` (help), `?` (this help), `$ command` (a
shell command) or `exit`.  Tab completes globals, keywords, fields and methods
(after `.` and `:`), and file names inside strings; Ctrl-C cancels the line or
interrupts the running computation; Ctrl-D drops an unfinished chunk, or
leaves after asking, as trepl did; Ctrl-Z suspends.  History is kept in
$TREPL_HISTORY or ~/.luahistory (th/history.py).  The evaluation is
th/repl_engine.py's; prompt_toolkit is imported only here, when the prompt
starts, after the prompt is shown (th/early_prompt.py), and pygments' lexer
once it is drawn (th/highlight.py).
"""
import os
import re
import sys
import time

from th import early_prompt, highlight
from th.repl_engine import Engine

HELP = """th: Torch7 for Lua, interactively.
  expression, = expr    print the values (a trailing ; prints nothing)
  _LAST, _RESULTS       the last printed value, all of them
  ? name                what name is, with its documentation comment
  $ command             run a shell command
  who()                 the variables defined in this session
  timer_off(), timer_on()   hide or show the time each line took
  Tab                   complete names, fields, methods (x:na<Tab>), file names in strings
  Ctrl-C                cancel the line, or interrupt a running computation
  Ctrl-D               drop an unfinished chunk; at th> leave (after asking)
  exit                 leave
"""

BANNER = """  ______             __   |  Torch7 (th)
 /_  __/__  ________/ /   |  Scientific computing for Lua.
  / / / _ \\/ __/ __/ _ \\  |  Type ? for help
 /_/  \\___/_/  \\__/_//_/  |
"""

# inside an unterminated string literal: the path typed so far
_OPEN_STRING = re.compile(r"""^(?:[^"'\\]|\\.|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')*["']([^"']*)$""")


def path_completions(fragment):
    """File names that complete `fragment` (a path being typed inside a string)."""
    directory, prefix = os.path.split(fragment)
    try:
        names = sorted(os.listdir(os.path.expanduser(directory) or "."))
    except OSError:
        return []
    out = []
    for name in names:
        if name.startswith(prefix) and (prefix.startswith(".") or not name.startswith(".")):
            full = os.path.join(os.path.expanduser(directory) or ".", name)
            out.append(name + ("/" if os.path.isdir(full) else ""))
    return out


class Session:
    """One interactive session: the Lua engine plus what the prompt adds
    (special lines, timing, colours).  `handle(line)` is the whole logic of one
    line of input, independent of where lines come from."""

    def __init__(self, runtime, colour=False):
        self.engine = Engine(runtime, colour=colour, quit_after=3, prompt=True)
        self.colour = colour
        self.timing = colour and os.environ.get("TREPL_TIMER", "1") != "0"
        self.buffer = []
        self.done = False
        lua_globals = runtime.lua.globals()
        lua_globals.timer_on = lambda: self._set_timing(True)
        lua_globals.timer_off = lambda: self._set_timing(False)
        for name in ("timer_on", "timer_off"):
            self.engine.lua(f"require('trepl.repl').hide('{name}')")

    def _set_timing(self, on):
        self.timing = on

    def _paint(self, code, text):
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text

    def _error(self, message):
        """Writes an error message (bytes: Lua's, whatever they hold) on stderr."""
        sys.stdout.flush()
        if self.colour:
            message = b"\x1b[31m" + message + b"\x1b[0m"
        sys.stderr.buffer.write(message + b"\n")
        sys.stderr.flush()

    @property
    def prompt(self):
        return "..> " if self.buffer else "th> "

    def cancel(self):
        self.buffer = []

    def _shell(self, command):
        """`$ command`: its output is shown and, as in trepl, kept in _LAST
        and at the end of _RESULTS"""
        import subprocess   # (here: 2 ms of the prompt's start)

        sys.stdout.flush()
        output = subprocess.run(command, shell=True, stdout=subprocess.PIPE).stdout
        sys.stdout.buffer.write(output)
        sys.stdout.flush()
        lua_globals = self.engine.runtime.lua.globals()
        lua_globals._LAST = output
        results = lua_globals._RESULTS
        if results is None:   # (made again, as the Lua side does after `_RESULTS = nil`)
            results = lua_globals._RESULTS = self.engine.runtime.lua.table()
        results[len(results) + 1] = output

    def handle(self, line):
        """Handles one line of input; returns when it has been run (or buffered)."""
        if not self.buffer:
            stripped = line.strip()
            if stripped in ("exit", "quit", "os.exit()"):
                self.done = True
                return
            if stripped == "?":
                sys.stdout.write(HELP)
                return
            if stripped.startswith("?"):
                sys.stdout.write(self.engine.help(stripped[1:]) + "\n")
                return
            if stripped.startswith("$"):
                self._shell(stripped[1:])
                return
            if not stripped:
                return
        self.buffer.append(line)
        sys.stdout.flush()
        start = time.perf_counter()
        status, message = self.engine.eval("\n".join(self.buffer))
        elapsed = time.perf_counter() - start
        if status == "incomplete":
            return
        self.buffer = []
        if status == "error":
            self._error(message)
        elif self.timing:
            sys.stdout.write(self._paint("90", f"{'':>70}[{elapsed:0.4f}s]") + "\n")

    def end_of_input(self):
        """The input ended: an unfinished chunk is reported (what Lua says of it)."""
        if self.buffer:
            status, message = self.engine.check("\n".join(self.buffer))
            self.buffer = []
            self._error(message or b"unfinished chunk at the end of input")


def _completer(engine):
    from prompt_toolkit.completion import Completer, Completion

    class LuaCompleter(Completer):
        def get_completions(self, document, complete_event):
            line = document.current_line_before_cursor
            inside = _OPEN_STRING.match(line)
            if inside:
                fragment = inside.group(1)
                start = -len(os.path.basename(fragment))
                for name in path_completions(fragment):
                    yield Completion(name, start_position=start)
                return
            start, names = engine.complete(document.text_before_cursor)
            for name in names:
                yield Completion(name, start_position=start)

    return LuaCompleter()


def prompt_session(session, input=None, output=None):
    """The prompt_toolkit PromptSession for a Session (input/output for tests;
    by default the terminal, even when stdout is a pipe: `th | tee log`)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.output import create_output
    from th.history import ReadlineHistory, history_file

    ptk = PromptSession(history=ReadlineHistory(history_file()),
                        completer=_completer(session.engine), complete_while_typing=False,
                        enable_suspend=True, input=input,
                        output=output or create_output(always_prefer_tty=True))
    highlight.attach(ptk)
    return ptk


def interact(session, prompt, confirm_exit=None, cancelled=(KeyboardInterrupt,)):
    """The read-eval-print loop: prompt(text) returns a line, raises one of
    `cancelled` (Ctrl-C: cancel) or EOFError (Ctrl-D: drop the chunk, or leave
    if confirm_exit() agrees; at the end of piped input: leave)."""
    while not session.done:
        try:
            line = prompt(session.prompt)
        except cancelled:
            session.cancel()
            continue
        except EOFError:
            if confirm_exit is None:
                session.end_of_input()
                break
            sys.stdout.write("\n")
            if session.buffer:
                session.cancel()
                continue
            if confirm_exit():
                break
            continue
        try:
            session.handle(line)
        except KeyboardInterrupt:
            session.cancel()
            sys.stdout.write("\ninterrupted\n")
    sys.stdout.flush()
    return 0


def _plain_prompt(text):
    """A line of piped input after its prompt, echoed as the original's
    readline echoed it, so that the output reads as the session's transcript
    (the prompt is written first: a program driving th waits for it)."""
    sys.stdout.write(text)
    sys.stdout.flush()
    line = sys.stdin.buffer.readline()
    if not line:
        sys.stdout.write("\n")      # (the last prompt's line ends)
        raise EOFError
    line = line.rstrip(b"\n")
    sys.stdout.buffer.write(line + b"\n")
    sys.stdout.flush()
    return line.decode("utf-8", "surrogateescape")


# A Ctrl-C that reaches prompt_toolkit as SIGINT rather than as a key (the
# terminal not yet in raw mode: right after an interrupted computation, on a
# busy machine) cancels its prompt's task: asyncio's CancelledError, which
# is the same Ctrl-C
def _cancelled():
    from asyncio import CancelledError
    return (KeyboardInterrupt, CancelledError)


def _renewing(make, first=None):
    """A prompt function over a PromptSession (first, else make()'s at the
    first prompt), made anew by make() when the last one's application is
    still marked running: a prompt cancelled by a SIGINT under load can leave
    it so, and prompt_toolkit then refused every later prompt ("Application
    is already running", which ended th)."""
    current = [first]

    def prompt(text):
        if current[0] is None or current[0].app.is_running:
            current[0] = make()
        return current[0].prompt(text)
    return prompt


def _confirmer(ptk):
    """Asks before leaving on Ctrl-D, as trepl did (Enter, y or Ctrl-D: yes)."""
    from prompt_toolkit import PromptSession
    # (not in the history; made at the first Ctrl-D: 4 ms of the prompt's start)
    question = _renewing(lambda: PromptSession(input=ptk.input, output=ptk.output))

    def confirm():
        try:
            answer = question("Do you really want to exit ([y]/n)? ")
        except (EOFError,) + _cancelled():
            return True
        return answer.strip().lower() not in ("n", "no")
    return confirm


def repl(runtime):
    """`th`'s prompt: prompt_toolkit when typing at a terminal, plain lines
    from piped input."""
    session = Session(runtime, colour=sys.stdout.isatty())
    if not sys.stdin.isatty():
        return interact(session, _plain_prompt)
    sys.stdout.write(BANNER + "\n")
    with early_prompt.shown(session.prompt):
        ptk = prompt_session(session)
        prompt = _renewing(lambda: prompt_session(session, input=ptk.input, output=ptk.output), ptk)
        confirm = _confirmer(ptk)
    return interact(session, prompt, confirm, _cancelled())
