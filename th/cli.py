"""The `th` command: run a Torch7 script, a statement, or the interactive prompt.

    th [options] [script.lua [arguments]]
    th --doctest [--exact] [--any-numbers] [-l name] [--seed N] FILE.md...

As in the original, `torch` and `paths` are loaded, `print` is trepl's, and the
script sees its arguments in the global `arg` (arg[0] is the script).  An
uncaught Lua error prints `th: file:line: message` and a traceback on stderr,
and the exit status is 1.  Arguments and messages are bytes, as Lua strings
are (th/luabytes.py).
"""
import gc
import os
import sys

from th import luabytes

USAGE = """Usage: th [options] [script.lua [arguments]]

Options:
  -l name            load library name
  -e statement       execute statement
  -h,--help          print this help
  -g,--globals       monitor global variables (print a warning on creation/access)
  -gg,--gglobals     monitor global variables (throw an error on creation/access)
  -i,--interactive   enter the REPL after executing a script

  th --doctest [--exact] [--any-numbers] [-l name] [--seed N] FILE.md...
                     run the examples of markdown documentation and compare
                     what they print with what the document shows (-l: load
                     library name first, e.g. -l nn for nn's documentation;
                     --seed: seed the generator of each document's session)
  th --install-kernel [--sys-prefix | --prefix DIR]
                     install the Jupyter kernel spec `th` (for this user by
                     default; needs the jupyter extra: pip install '.[jupyter]')
"""


class UsageError(Exception):
    pass


def parse_args(argv):
    """-> (libraries, statements, interactive, script or None, script arguments,
    monitor: None, 'print' (-g) or 'error' (-gg), trepl's monitor_G of globals)"""
    libs, statements, interactive, monitor = [], [], False, None
    i = 0
    while i < len(argv):
        opt = argv[i]
        if opt in ("-h", "--help"):
            sys.stdout.write(USAGE)
            raise SystemExit(0)
        if opt in ("-i", "--interactive"):
            interactive = True
        elif opt in ("-g", "--globals", "-gg", "--gglobals"):
            monitor = "error" if opt in ("-gg", "--gglobals") else "print"
        elif opt in ("-e", "-l"):
            if i + 1 >= len(argv):
                raise UsageError(f"option {opt} needs an argument")
            (statements if opt == "-e" else libs).append(argv[i + 1])
            i += 1
        elif opt.startswith("-l") and len(opt) > 2:   # -lname, as the original accepted
            libs.append(opt[2:])
        elif opt.startswith("-") and opt != "-":
            raise UsageError(f"unknown option {opt}")
        else:
            return libs, statements, interactive, opt, argv[i + 1:], monitor
        i += 1
    return libs, statements, interactive, None, [], monitor


_RUN = r"""
function(kind, what, ...)
   local trepl = require 'trepl'
   local f, err
   if kind == 'file' then
      f, err = loadfile(what)
   elseif kind == 'string' then
      f, err = loadstring(what, '=(command line)')
   else
      f = function() return require(what) end
   end
   local ok, msg
   if f then
      ok, msg = trepl.run(f, ...)
   else
      ok, msg = false, err
   end
   io.stdout:flush()
   if ok then return true end
   return false, require('trepl.bytes')(msg)
end
"""

_SETUP = r"""
function(script, tty, start, ...)
   local trepl = require 'trepl'
   trepl.tty, trepl.start = tty, start
   _G.print_old, _G.print = print, trepl.print
   require 'trepl.startup'
   require 'trepl.globals'
   local args = {...}
   local arg = {[0] = script, [-1] = 'th'}
   for i = 1, select('#', ...) do arg[i] = args[i] end
   _G.arg = arg
   if script then
      local dir = script:match('^(.*)[/\\]') or '.'
      package.path = dir .. '/?.lua;' .. dir .. '/?/init.lua;' .. package.path
   else
      package.path = './?.lua;./?/init.lua;' .. package.path
   end
   -- os.exit flushes what the script printed, as the C library did
   local exit = os.exit
   os.exit = function(code, ...)
      io.stdout:flush()
      return exit(code, ...)
   end
   require('torch.internal').nativefunctions[os.exit] = true
   trepl.snapshot()
end
"""


def without_runner_frames(message):
    """The traceback without its last lines, which show how th itself called
    the chunk (re is imported here, on an error: it costs 5 ms of start-up)."""
    import re
    return re.sub(rb"(\nstack traceback:)?\n\t\[C\]: in function 'run'\n\t\[string \"<python>\"\]:\d+: in function <[^\n]*>$",
                  b"", message)


def session(script=None, script_args=()):
    """A Runtime set up as `th` runs code: trepl's print, `arg`, os.exit
    flushing, `require('trepl')()` starting the prompt."""
    import weakref

    from th.runtime import Runtime, export_lua_api
    export_lua_api()
    runtime = Runtime()
    own = weakref.ref(runtime)      # Lua keeps `start`: no cycle, the state still closes

    def start(*_):
        from th.repl import repl
        repl(own())

    runtime.lua.eval(_SETUP)(luabytes.encode(script), sys.stdout.isatty(), start,
                             *map(luabytes.encode, script_args))
    return runtime


# seconds a script runs before th starts importing numpy for it, in a helper
# thread: scripts done sooner (most of the tests, `th -e ''`, short programs)
# never pay the import's 0.07 s of CPU, and a program's first steps do not
# share the machine with it (its first operation that needs numpy starts it
# sooner).  It started at the first `require` too until the twenty-second
# session: the programs of scripts/bench/programs.py took 0.84-1.0x as long
# without that (an MLP with optim.sgd 150 -> 130 ms; a recurrent net, 287 ->
# 255, never needs numpy), and from 0.05 to 0.3 s 0.95-1.0x.
PRELOAD_AFTER = 0.3


def preload():
    """Import numpy and the numpy-based families of operations in a helper
    thread (th.ops.preload) once the script has run PRELOAD_AFTER seconds."""
    import _thread   # (threading's import is 0.8 ms of every start)
    import time

    from th import ops

    def after_a_while():
        time.sleep(PRELOAD_AFTER)
        ops.preload()
    _thread.start_new_thread(after_a_while, ())


def report(message):
    """th: message (text or bytes) on stderr."""
    sys.stdout.flush()
    sys.stderr.buffer.write(b"th: " + luabytes.encode(message) + b"\n")
    sys.stderr.flush()


def install_kernel(args):
    """th --install-kernel [--sys-prefix | --prefix DIR]"""
    if args == ["--sys-prefix"]:
        prefix = sys.prefix
    elif len(args) == 2 and args[0] == "--prefix":
        prefix = args[1]
    elif not args:
        prefix = None
    else:
        sys.stderr.write(f"th: --install-kernel takes --sys-prefix or --prefix DIR\n{USAGE}")
        return 1
    try:
        from th.kernel import install
    except ImportError as exc:
        report(f"the Jupyter kernel needs ipykernel (the jupyter extra of th) ({exc})")
        return 1
    sys.stdout.write(f"installed the Jupyter kernel spec th in {install(prefix=prefix)}\n")
    return 0


def main(argv=None):
    """The `th` command; whatever goes wrong inside, the user sees a th: message,
    never a Python traceback."""
    try:
        return _main(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:
        report("interrupted")
        return 130
    except Exception as exc:  # a fault of th itself: still reported the th way
        report(f"internal error: {exc}")
        return 1


def _main(argv):
    from th.ops import blaslib
    blaslib.one_thread_until_numpy()
    if argv[:1] == ["--doctest"]:
        from th.doctest import main as doctest
        return doctest(argv[1:])
    if argv[:1] == ["--install-kernel"]:
        return install_kernel(argv[1:])
    try:
        libs, statements, interactive, script, script_args, monitor = parse_args(argv)
    except UsageError as exc:
        sys.stderr.write(f"th: {exc}\n{USAGE}")
        return 1
    if script is not None and script != "-" and not os.path.isfile(script):
        report(f"cannot open {script}")
        return 1

    from th.runtime import LuaJITUnavailable
    freeze_imports()
    try:
        runtime = session(script, script_args)
    except LuaJITUnavailable as exc:
        report(str(exc))
        return 1
    run = runtime.lua.eval(_RUN)
    # Ctrl-C: a Lua error `interrupted` where the script is; a second one quits
    from th.interrupt import Interrupter
    interrupter = Interrupter(runtime.lua, quit_after=2)
    preload()

    steps = [("module", lib) for lib in libs]
    # $TREPLSTARTUP: a file run first, unless -i or -e (the original's launcher)
    startup = os.environ.get("TREPLSTARTUP")
    if startup and not (interactive or statements):
        steps.append(("startup", startup))
    if monitor:   # (after the libraries, as the original's launcher)
        steps.append(("string", "monitor_G(true)" if monitor == "error" else "monitor_G()"))
    steps += [("string", s) for s in statements]
    if script == "-":
        steps.append(("string", sys.stdin.buffer.read()))
    elif script is not None:
        steps.append(("file", script))
    for kind, what in steps:
        args = script_args if kind == "file" else ()
        if kind == "startup":
            kind = "file"
        result = interrupter.run(lambda: run(kind, luabytes.encode(what),
                                             *map(luabytes.encode, args)))
        if result is True:
            continue
        message = without_runner_frames(luabytes.read(*result[1:3]))
        if kind == "module":          # as trepl: a library that fails to load is skipped
            report(f"could not load {what}, skipping")
            report(message.split(b"\nstack traceback:")[0])
            continue
        report(message)
        return 130 if message.startswith(b"interrupted") else 1
    if interactive or (script is None and not statements):
        from th.repl import repl
        return repl(runtime)
    return 0


def freeze_imports():
    """The collection at the command's end (command) is what closes the Lua
    state, which lives in a reference cycle.  The modules imported before the
    state is made live as long as the process: set aside (gc.freeze), that
    collection no longer goes over them (0.6 ms of every start)."""
    try:
        import lupa.luajit21  # noqa: F401  (most of those objects are its imports')
    except ImportError:
        return   # (session says so)
    gc.freeze()


def default_sigpipe():
    """SIGPIPE as a C program has it: Python ignores it, and the commands th
    starts (os.execute, io.popen, torch.PipeFile) inherit that, so that `yes |
    head -1` said "yes: standard output: Broken pipe" where under Torch7's th
    it ended quietly; and th itself, writing into a closed pipe (`th script |
    head -1`), now ends there as the original did, with status 141."""
    import _signal   # (signal.py's enums cost 1.5 ms of th's start-up)

    if hasattr(_signal, "SIGPIPE"):
        _signal.signal(_signal.SIGPIPE, _signal.SIG_DFL)


def command():
    """The `th` console script: main(), then the end of the process without
    Python's teardown of its modules (7-10 ms of `th -e ''`'s 60-75).  The Lua
    state is closed first, as the original's luajit closed it after the
    script (its open files flushed and closed, its pipes waited for: a
    gnuplot drawing finished), then Python's and C's output buffers are
    flushed; a failed flush exits 120, as Python does."""
    import ctypes

    default_sigpipe()
    status = main()
    gc.collect()   # (the runtime lives in a reference cycle: this closes its Lua state)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        status = 120
    ctypes.CDLL(None).fflush(None)
    os._exit(status if isinstance(status, int) else 0)


if __name__ == "__main__":
    command()
