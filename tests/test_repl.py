"""The interactive prompt: its logic through prompt_toolkit's pipe input, and
the real `th` driven end to end through a pseudo-terminal."""
import os

import pexpect
import pytest

from conftest import th_command


@pytest.fixture(scope="module")
def runtime():
    """A state set up as `th` sets it up (trepl's print)."""
    from th.cli import session
    return session()


@pytest.fixture
def session(runtime):
    from th.repl import Session
    return Session(runtime)


def feed(session, *lines):
    for line in lines:
        session.handle(line)


def test_expressions_print_and_locals_survive(session, capfd):
    # (a chunk's `return` shows nothing, as in trepl)
    feed(session, "local a = 20", "a + 1", "= a, nil", "a;", "return a * 2")
    assert capfd.readouterr().out == "21\t\n20\t\n"
    feed(session, "_LAST", "local function twice(v) return 2 * v end", "twice(a)")
    assert capfd.readouterr().out == "20\t\n40\t\n"


def test_values_shown_up_to_the_border(session, capfd):
    """trepl printed `_RESULT={line}` up to its length: a nil may end the
    values, or not (LuaJIT's border); the original printed these lines so."""
    feed(session, "1, nil, 3", "nil, 2, nil", "1, 2, nil, 4", "1, 2, 3, nil, 5", "nil, nil", "nil",
         "(function() return 1, nil, 3 end)()", "nil, 1", "b = 3", "b")
    assert capfd.readouterr().out == "1\t\nnil\t2\t\n1\t2\tnil\t4\t\n1\t2\t3\t\n1\t\nnil\t1\t\n3\t\n"


def test_multiline_chunks_and_prompts(session, capfd):
    assert session.prompt == "th> "
    session.handle("for i = 1, 3 do")
    assert session.prompt == "..> "
    session.handle("  io.write(i, ' ')")
    session.handle("end")
    assert session.prompt == "th> "
    assert capfd.readouterr().out == "1 2 3 "


def test_errors_are_reported_and_the_session_goes_on(session, capfd):
    feed(session, "x = 5", "error('boom')", "1 +* 2", "x")
    captured = capfd.readouterr()
    assert "boom" in captured.err and "unexpected symbol" in captured.err
    assert captured.out == "5\t\n"


def test_a_semicolon_alone_is_a_syntax_error(session, capfd):
    # as in the original (`syntax error: [string ";"]:1: unexpected symbol
    # near ';'`): th had run it as `return ;`, silently (found by hand next
    # to fuzz_repl seeds 7801-7806)
    feed(session, ";", " ; ", "=;", "x = 2;", "x;", "x")
    captured = capfd.readouterr()
    assert captured.err == "syntax error: stdin:1: unexpected symbol near ';'\n" * 3
    assert captured.out == "2\t\n"


def test_a_chunks_varargs_are_empty(session, capfd):
    # as in the original: a chunk's `...` is empty (th's held its own
    # functions), and an expression using it runs as a statement, its values
    # not shown (`...` alone a syntax error); found by hand next to fuzz_repl
    # seeds 7801-7806
    feed(session, "local a = 1", "x = select('#', ...)", "x", "y = {...}", "#y", "select('#', ...)",
         "= select('#', ...)", "...", "(function(...) return select('#', ...) end)(1, 2)", "a")
    captured = capfd.readouterr()
    assert captured.err == "syntax error: stdin:1: unexpected symbol near '...'\n"
    assert captured.out == "0\t\n0\t\n2\t\n1\t\n"


def test_a_traceback_taken_at_the_prompt_ends_at_the_chunk(session, capfd):
    # debug.traceback() (nn's Container puts one in its messages) shows th's
    # own frames as the C functions of the original and ends at the typed
    # chunk, as the traceback of an error does (found next to fuzz seeds
    # 8001-8060: th's prompt frames showed as '[C]: at 0x...', a THNN
    # kernel's as th's Lua files)
    feed(session, "print(debug.traceback('x'))", "print(pcall(torch.Tensor(2).narrow, torch.Tensor(2), 5, 1, 1))",
         "print((select(2, xpcall(function() torch.Tensor(2):narrow(5, 1, 1) end, debug.traceback))))")
    out = capfd.readouterr().out
    assert out == ("x\nstack traceback:\n\tstdin:1: in main chunk\t\n"
                   "false\tbad argument #2 to '?' (out of range)\t\n"
                   "stdin:1: bad argument #1 to 'narrow' (out of range)\nstack traceback:\n"
                   "\t[C]: in function 'narrow'\n\tstdin:1: in function <stdin:1>\n"
                   "\t[C]: in function 'xpcall'\n\tstdin:1: in main chunk\t\n")


def test_classes_can_be_redefined(session, capfd):
    feed(session, "local A = torch.class('ReplThing')", "function A:f() return 1 end",
         "local A = torch.class('ReplThing')", "function A:f() return 2 end", "ReplThing():f()")
    assert capfd.readouterr().out == "2\t\n"


def test_completion(session):
    feed(session, "t = torch.Tensor(2)", "local myvariable = 1")
    engine = session.engine
    assert "narrow" in engine.complete("t:na")[1]
    assert engine.complete("t:na")[0] == -2
    assert "dirname" in engine.complete("paths.dir")[1]
    assert "myvariable" in engine.complete("myva")[1]
    assert "function" in engine.complete("fun")[1]
    assert "size" not in engine.complete("torch.Ten")[1]


def test_help_and_special_lines(session, capfd):
    feed(session, "? paths.concat", "?", "$ echo from-the-shell")
    out = capfd.readouterr().out
    assert "paths.concat: function" in out and "absolute" in out
    assert "who()" in out and "from-the-shell" in out
    feed(session, "exit")
    assert session.done


def run_piped(runtime, tmp_path, monkeypatch, keys, prompt_over=lambda make: make().prompt):
    """interact() on prompt_toolkit sessions reading keys from a pipe (a
    history of their own); prompt_over(make) gives the prompt function from
    the session maker"""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from th.repl import Session, interact, prompt_session

    monkeypatch.setenv("TREPL_HISTORY", str(tmp_path / "history"))
    session = Session(runtime)
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        return interact(session, prompt_over(lambda: prompt_session(session, input=pipe, output=DummyOutput())))


def test_prompt_toolkit_pipe_input(runtime, capfd, tmp_path, monkeypatch):
    keys = "local z = 6\rz * 7\rfor i = 1, 2 do\rprint(i) end\rexit\r"
    assert run_piped(runtime, tmp_path, monkeypatch, keys) == 0
    assert capfd.readouterr().out == "42\t\n1\t\n2\t\n"
    assert "z * 7" in (tmp_path / "history").read_text()
    assert "z * 7" in (tmp_path / "history").read_text()


def test_a_cancelled_prompt_is_a_ctrl_c(runtime, capfd):
    # prompt_toolkit turns a SIGINT that lands before its prompt reads keys
    # into asyncio's CancelledError (seen under load after an interrupted
    # computation, as a traceback that ended th): the chunk is dropped and
    # the session goes on
    from asyncio import CancelledError
    from th.repl import Session, _cancelled, interact

    lines = iter([CancelledError(), "print(6 * 7)", EOFError()])

    def prompt(text):
        line = next(lines)
        if isinstance(line, BaseException):
            raise line
        return line
    session = Session(runtime)
    assert interact(session, prompt, None, _cancelled()) == 0
    assert capfd.readouterr().out == "42\t\n"


def test_an_interruption_outside_the_chunk_is_a_ctrl_c(session):
    # the interrupter's hook can fire in the REPL's own Lua code around the
    # chunk (under load, right after it ran): its `interrupted` error was an
    # internal error that ended th; it is the user's Ctrl-C
    engine = session.engine
    with pytest.raises(KeyboardInterrupt):
        engine.run(lambda: engine.runtime.lua.execute("error('interrupted', 0)"))
    assert engine.eval("return 1 + 1")[0] == "ok"


def spawn(tmp_path):
    env = dict(os.environ, TREPL_HISTORY=str(tmp_path / "history"), TERM="xterm",
               PROMPT_TOOLKIT_NO_CPR="1")
    command = th_command()
    child = pexpect.spawn(command[0], command[1:], encoding="utf-8", timeout=20, env=env,
                          dimensions=(24, 100), cwd=str(tmp_path))
    child.expect("th>")
    return child


def test_ctrl_c_while_a_value_prints_leaves_the_session(tmp_path):
    # (the value is printed after the chunk ran: an interruption there is
    # reported as any other, where it used to end th)
    import time
    child = spawn(tmp_path)
    child.sendline("t = torch.rand(2000, 10)")
    child.expect("th>")
    for delay in (0, 0.005, 0.01, 0.02):
        child.sendline("t")
        time.sleep(delay)
        child.sendintr()
        child.expect("th>")
        child.sendline("print('still' .. 'here')")
        child.expect("stillhere")
    child.sendline("os.exit(0)")
    child.expect(pexpect.EOF)


def test_terminal_session(tmp_path):
    (tmp_path / "datafile.t7").write_text("")
    child = spawn(tmp_path)
    child.sendline("local x = 21")
    child.expect("th>")
    child.sendline("x * 2")
    child.expect("42")
    child.expect(r"\[\d+\.\d{4}s\]")          # the per-line timing
    child.sendline("for i = 1, 2 do")
    child.expect(r"\.\.>")
    child.sendline("print(i * 10) end")
    child.expect("20")
    child.sendline("error('oops')")
    child.expect("oops")
    child.sendline("t = torch.Tensor(3)")
    child.expect("th>")
    child.send("t:narr\t")                   # completes to narrow
    child.expect("ow")
    child.sendline("(1, 1, 2):fill(7)")
    child.expect(r"of size 2\]")
    child.send("io.open('data\t")           # file names inside strings
    child.expect("file.t7")
    child.sendline("'):close()")
    child.expect("th>")
    child.sendline("a = torch.rand(300, 300) while true do local y = torch.mm(a, a) end")
    child.expect("while")
    import time
    time.sleep(1)
    child.sendintr()                          # Ctrl-C stops the computation...
    child.expect("interrupted")
    child.sendline("x")                       # ...and the session goes on
    child.expect("21")
    child.sendintr()                          # Ctrl-C at the prompt cancels the line
    child.expect("th>")
    time.sleep(0.5)                           # the prompt reads keys (a Ctrl-D before is EOF)
    child.sendeof()                           # Ctrl-D leaves, after asking
    child.expect(r"Do you really want to exit \(\[y\]/n\)\?")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    history = (tmp_path / "history").read_text()
    assert "local x = 21" in history


def test_piped_input_without_terminal(tmp_path):
    import subprocess
    r = subprocess.run(th_command(), input="local a = 2\na * 3\nprint(a)\n", text=True,
                       capture_output=True, cwd=str(tmp_path), timeout=30)
    assert r.returncode == 0
    assert "6\t\n" in r.stdout and "2\t\n" in r.stdout


def test_a_prompt_left_running_is_made_anew(runtime, tmp_path, monkeypatch, capfd):
    # a prompt cancelled by a SIGINT under load could leave prompt_toolkit's
    # application marked running; every later prompt then failed its
    # "Application is already running" assertion, which ended th
    from th.repl import _renewing

    def left_running(make):
        first = make()
        first.app._is_running = True    # (the state the cancelled prompt left)
        return _renewing(make, first)
    assert run_piped(runtime, tmp_path, monkeypatch, "print(6 * 7)\rexit\r", left_running) == 0
    assert capfd.readouterr().out == "42\t\n"


# A session piped into the original trepl (`th < session`), as it printed it
# but for what th does differently on purpose: no banner, no `[0.0000s]`
# line after each chunk, no exit question at the end of the input, chunks
# named `stdin` (trepl: `[string "_RESULT={twice(nil)}"]`), tracebacks
# without the REPL's own frames below the typed chunk
PIPED_SESSION = """a = 20
a + 1
= a, nil
return a * 2
_LAST
function twice(v)
  return 2 * v
end
twice(a)
twice(nil)
error(true)
error()
io.write('no newline')
print(1, nil, 'a')
for i = 1, 2 do
"""
PIPED_TRANSCRIPT = """th> a = 20
th> a + 1
21\t
th> = a, nil
20\t
th> return a * 2
th> _LAST
20\t
th> function twice(v)
..>   return 2 * v
..> end
th> twice(a)
40\t
th> twice(nil)
stdin:2: attempt to perform arithmetic on local 'v' (a nil value)
stack traceback:
\tstdin:2: in function 'twice'
\tstdin:1: in main chunk
th> error(true)
true\t
th> error()
nil\t
th> io.write('no newline')
no newlinetrue\t
th> print(1, nil, 'a')
1\tnil\ta\t
th> for i = 1, 2 do
..> 
syntax error: stdin:1: 'end' expected near '<eof>'
"""


def test_piped_session_transcript(tmp_path):
    # lines are echoed after their prompt, as the original's readline echoed
    # them; a `return` shows nothing; errors show the chunk's traceback, a
    # value that is no string as print shows it
    import subprocess
    r = subprocess.run(th_command(), input=PIPED_SESSION, text=True, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, cwd=str(tmp_path), timeout=30,
                       env=dict(os.environ, TREPL_HISTORY=str(tmp_path / "history")))
    assert r.returncode == 0
    assert r.stdout == PIPED_TRANSCRIPT


def test_who_lists_the_session_variables(tmp_path):
    # trepl's listing, recorded from the original (which listed them in
    # pairs order, and its own _RESULT); th's surviving locals come last
    import subprocess
    session = "x = 5\ns = 'str'\nt = {1, 2}\nz = torch.Tensor(2):zero()\nc = torch.CmdLine()\nlocal q = 1\nwho()\n"
    r = subprocess.run(th_command(), input=session, text=True, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, cwd=str(tmp_path), timeout=30,
                       env=dict(os.environ, TREPL_HISTORY=str(tmp_path / "history")))
    assert r.stdout.split("th> who()\n")[1] == (
        "== User Variables ==\t\n"
        "[c]                      = torch.CmdLine\t\n"
        "[s]                      = string : \"str\"\t\n"
        "[t]                      = table - size: 2\t\n"
        "[x]                      = 5\t\n"
        "[z]                      = DoubleTensor - size: 2\t\n"
        "[q]                      = 1\t\n"
        "==\t\n"
        "th> \n")


def test_results_from_the_start_and_strings_in_who(tmp_path):
    # recorded from the original (but for its own _RESULT in who()):
    # _RESULTS is there before the first result, a value is shown before it
    # is kept, who() writes a string's line breaks as \n
    import subprocess
    session = "_RESULTS and #_RESULTS\n_RESULTS\n1\n#_RESULTS\ns = \"a\\nb\"\nwho()\n"
    r = subprocess.run(th_command(), input=session, text=True, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, cwd=str(tmp_path), timeout=30,
                       env=dict(os.environ, TREPL_HISTORY=str(tmp_path / "history")))
    assert r.stdout == (
        "th> _RESULTS and #_RESULTS\n0\t\nth> _RESULTS\n{\n  1 : 0\n}\nth> 1\n1\t\nth> #_RESULTS\n3\t\n"
        "th> s = \"a\\nb\"\nth> who()\n== User Variables ==\t\n"
        "[s]                      = string : \"a\\nb\"\t\n==\t\nth> \n")


def test_shell_output_is_kept_and_who_cuts_long_strings(tmp_path):
    # recorded from the original (but for its own _RESULT in who()): `$ cmd`
    # shows its output and keeps it in _LAST and _RESULTS (fuzz_repl seed
    # 5311); who() writes a string's line breaks as \n, then cuts it past 40
    # characters
    import subprocess
    session = "b = ('y'):rep(41)\nc = 'a\\nb' .. ('z'):rep(40)\n$ echo hi\n_LAST\n#_RESULTS\nwho()\n"
    r = subprocess.run(th_command(), input=session, text=True, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, cwd=str(tmp_path), timeout=30,
                       env=dict(os.environ, TREPL_HISTORY=str(tmp_path / "history")))
    assert r.stdout == (
        "th> b = ('y'):rep(41)\nth> c = 'a\\nb' .. ('z'):rep(40)\nth> $ echo hi\nhi\nth> _LAST\nhi\n\t\n"
        "th> #_RESULTS\n2\t\nth> who()\n== User Variables ==\t\n"
        "[b]                      = string : \"" + "y" * 40 + "...\"\t\n"
        "[c]                      = string : \"a\\nb" + "z" * 36 + "...\"\t\n"
        "==\t\nth> \n")


def test_the_prompt_starts_without_numpy(tmp_path):
    # numpy and scipy (0.1 s) are for tensor code, not for showing the prompt
    import subprocess
    import sys
    code = ("import sys\n"
            "from prompt_toolkit.input import create_pipe_input\n"
            "from prompt_toolkit.output import DummyOutput\n"
            "from th.cli import session\n"
            "from th.repl import Session, prompt_session\n"
            "with create_pipe_input() as pipe:\n"
            "    pipe.send_text('x = 1\\r')\n"
            "    ptk = prompt_session(Session(session()), input=pipe, output=DummyOutput())\n"
            "    ptk.prompt('th> ')\n"
            "print([m for m in ('numpy', 'scipy') if m in sys.modules])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       cwd=str(tmp_path), env=dict(os.environ, TREPL_HISTORY=str(tmp_path / "h")))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "[]\n"


def test_last_is_kept_past_results_that_start_with_nil(tmp_path):
    # recorded from the original (fuzz_repl seed 5304): trepl set _LAST only
    # from a first value that is not nil (`nil, 5` left it as it was); th
    # had set it to nil
    import subprocess
    session = "7\nnil, 5\n_LAST\nnil, nil\n_LAST\nfalse, 3\n_LAST\n"
    r = subprocess.run(th_command(), input=session, text=True, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, cwd=str(tmp_path), timeout=30,
                       env=dict(os.environ, TREPL_HISTORY=str(tmp_path / "history")))
    assert r.stdout == (
        "th> 7\n7\t\nth> nil, 5\nnil\t5\t\nth> _LAST\n7\t\nth> nil, nil\nth> _LAST\n7\t\n"
        "th> false, 3\nfalse\t3\t\nth> _LAST\nfalse\t\nth> \n")
