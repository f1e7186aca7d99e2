"""The real `th` prompt driven through a pseudo-terminal, one test per
behaviour of issue 13 (the REPL at least as sturdy as trepl).  Expected
outputs marked "trepl" were recorded from the original Torch7 `th`."""
import os
import re
import stat
import subprocess
import time

import pexpect
import pytest

from conftest import th_command

PROMPT = b"th>"     # (the space after it is drawn as a cursor move)


def spawn(tmp_path, args=(), env=None, history=True, command=None):
    """`th` on a pty, in tmp_path, output read as bytes (Lua strings are bytes)."""
    environment = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", HOME=str(tmp_path))
    if history:
        environment["TREPL_HISTORY"] = str(tmp_path / "history")
    environment.update(env or {})
    if command is None:
        command = th_command() + list(args)
    child = pexpect.spawn(command[0], command[1:], timeout=20, env=environment,
                          dimensions=(24, 120), cwd=str(tmp_path))
    child.expect(PROMPT)
    return child


def line(child, text):
    child.sendline(text)


def leave(child):
    child.sendline("exit")
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


# 1. bytes that are not UTF-8
def test_non_utf8_bytes_in_errors_everywhere(tmp_path):
    child = spawn(tmp_path)
    line(child, r'error("bad \255 byte")')
    child.expect(b"stdin:1: bad \xff byte")
    line(child, r'f, msg = io.open("caf\233/x.txt")')
    line(child, "print(msg)")
    child.expect(b"caf\xe9/x.txt: No such file or directory")
    line(child, r'assert(io.open("caf\233/x.txt"))')
    child.expect(b"caf\xe9/x.txt: No such file or directory")
    line(child, "print('still here')")
    child.expect(b"still here")
    assert leave(child) == 0
    r = subprocess.run(th_command() + ["-e", r'error("bad \255 byte")'], capture_output=True)
    assert r.returncode == 1
    assert r.stderr.startswith(b"th: (command line):1: bad \xff byte\nstack traceback:")
    (tmp_path / "s.lua").write_bytes(b'print("caf\xe9")\nerror("caf\xe9")\n')
    r = subprocess.run(th_command() + ["s.lua"], capture_output=True, cwd=str(tmp_path))
    assert r.stdout == b"caf\xe9\t\n" and r.returncode == 1
    assert r.stderr.startswith(b"th: s.lua:2: caf\xe9\n")


# 2. a history file that cannot be written
@pytest.mark.parametrize("where", ["home", "directory"])
def test_unwritable_history_is_skipped_silently(tmp_path, where):
    if where == "home":
        env = {"HOME": "/nonexistent"}
        history = False
    else:
        env = {"TREPL_HISTORY": str(tmp_path / "missing" / "history")}
        history = True
    child = spawn(tmp_path, env=env, history=history)
    for i in range(3):
        line(child, f"print({i} * 7)")
        child.expect(str(i * 7).encode())
    assert leave(child) == 0
    assert b"Traceback" not in child.before and b"Error" not in child.before


# 3. Ctrl-C stops heavy tensor loops and loops inside functions; data intact
def test_ctrl_c_stops_heavy_tensor_loops_and_loops_in_functions(tmp_path):
    child = spawn(tmp_path)
    line(child, "a = torch.rand(400, 400) b = torch.ones(5) kept = 42")
    child.expect(PROMPT)
    for code in ["for i = 1, 1e6 do c = torch.mm(a, a) end",
                 "function spin() while true do local c = a:clone():mul(2) end end spin()",
                 "function count() local n = 0 while true do n = n + #tostring(n) end end count()",
                 # small tensors: all LuaJIT code, compiled into one trace that runs no hook
                 "function small() local x = torch.zeros(3) while true do x:add(1) end end small()",
                 "function elements() local s = 0 while true do s = s + b[1] + b:sum() end end elements()",
                 "function stores() local t = torch.DoubleStorage(3) local i = 0 "
                 "while true do i = i + 1 t[1] = i end end stores()",
                 "while true do torch.add(b, b, 1) end"]:
        line(child, code)
        time.sleep(1)
        child.sendintr()
        child.expect(b"interrupted", timeout=5)
        child.expect(PROMPT)
    line(child, "print(kept, a:size(1))")
    child.expect(b"42\t400")
    assert leave(child) == 0


def test_ctrl_c_thrice_quits_a_loop_no_hook_can_reach(tmp_path):
    # a JIT-compiled loop that never leaves its trace: trepl hung for good
    child = spawn(tmp_path)
    line(child, "function f() while true do end end f()")
    time.sleep(1)
    child.sendintr()
    time.sleep(0.5)
    child.sendintr()
    child.expect(b"Ctrl-C once more quits th")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


# 4. readline's history format, private, both ways with trepl
def test_history_in_readline_format(tmp_path):
    history = tmp_path / "history"
    history.write_text("print('typed under trepl')\n")
    child = spawn(tmp_path)
    child.send("\x1b[A")                     # Up: trepl's last line
    child.sendline("")
    child.expect(b"typed under trepl")
    line(child, "x = 1")
    child.expect(PROMPT)
    line(child, "for i = 1, 2 do")
    line(child, "end")
    child.expect(PROMPT)
    assert leave(child) == 0
    assert history.read_text() == ("print('typed under trepl')\n"
                                   "x = 1\nfor i = 1, 2 do\nend\nexit\n")
    fresh = tmp_path / "fresh"
    child = spawn(tmp_path, env={"TREPL_HISTORY": str(fresh)})
    line(child, "y = 2")
    child.expect(PROMPT)
    assert leave(child) == 0
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o600


# 5. Ctrl-D at ..> drops the chunk
def test_ctrl_d_drops_an_unfinished_chunk(tmp_path):
    child = spawn(tmp_path)
    line(child, "for i = 1, 3 do")
    child.expect(rb"\.\.>")
    time.sleep(0.5)
    child.sendeof()
    child.expect(PROMPT)
    line(child, "print('alive')")
    child.expect(b"alive")
    child.expect(PROMPT)
    time.sleep(0.5)                          # the prompt reads keys (a Ctrl-D before is EOF)
    child.sendeof()                          # at th>: asks first, as trepl did
    child.expect(rb"Do you really want to exit \(\[y\]/n\)\?")
    child.sendline("n")
    child.expect(PROMPT)
    line(child, "print('still')")
    child.expect(b"still")
    assert leave(child) == 0


# 6. expressions continued over lines
def test_multiline_expressions_continue(tmp_path):
    child = spawn(tmp_path, env={"TREPL_TIMER": "0"})
    line(child, "{1,")
    child.expect(rb"\.\.>")
    line(child, "2}")
    child.expect(b"1 : 1\r\n  2 : 2\r\n}")
    line(child, "1 +")
    child.expect(rb"\.\.>")
    line(child, "2")
    child.expect(rb"(\x1b\[36m|\n)3(\x1b\[0m)?\t")     # (numbers in colour)
    assert leave(child) == 0


# 7. typed code runs with the JIT on, as a script does
def test_typed_code_is_jit_compiled(tmp_path):
    child = spawn(tmp_path)
    line(child, "traces = 0 jit.attach(function(what) if what == 'stop' then traces = traces + 1 end end, 'trace')")
    line(child, "for i = 1, 1e6 do end print('loop', traces > 0)")
    child.expect(b"loop\ttrue")
    line(child, "function f() local s = 0 for i = 1, 1e6 do s = s + i end return s end")
    line(child, "before = traces print('sum', f(), traces > before)")
    child.expect(b"sum\t500000500000\ttrue")
    assert leave(child) == 0


# 8. nested tables cut at trepl's depth, in scripts too
NESTED_TREPL = ("{\n  a : \n    {\n      b : \n        {\n          c : \n            {\n"
                "              d : \n                {\n                  e : {...}\n"
                "                }\n            }\n        }\n    }\n}\n")


def test_nested_tables_cut_at_trepls_depth(tmp_path):
    code = "print({a={b={c={d={e={f=1}}}}}})"
    r = subprocess.run(th_command() + ["-e", code], capture_output=True, text=True)
    assert r.stdout == NESTED_TREPL                       # trepl
    child = spawn(tmp_path, env={"TREPL_TIMER": "0"})
    line(child, code)
    child.expect(re.escape(NESTED_TREPL.replace("\n", "\r\n")).encode())
    assert leave(child) == 0


# 9. the smaller items
def test_require_from_the_current_directory_and_table_errors(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "init.lua").write_text("return {answer = 42}")
    child = spawn(tmp_path)
    line(child, "print(require('pkg').answer)")
    child.expect(b"42")
    line(child, "error({code=1})")                          # trepl printed the table
    child.expect(b"{\r\n  code : 1\r\n}")
    assert leave(child) == 0


def test_who_lists_only_the_users_variables(tmp_path):
    child = spawn(tmp_path, env={"TREPL_TIMER": "0"})
    line(child, "x = 1 local y = 'a' who() print('END')")
    child.expect(b"\r\nEND")
    listing = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", child.before.decode())
    names = re.findall(r"^\[(\w+)\] +=", listing, re.M)
    assert names == ["x"] or names == ["x", "y"], listing
    assert leave(child) == 0


def test_results_and_last(tmp_path):
    child = spawn(tmp_path, env={"TREPL_TIMER": "0"})
    line(child, "10 + 1")
    line(child, "20 + 2")
    line(child, "print(_LAST, #_RESULTS, _RESULTS[#_RESULTS - 1])")
    child.expect(b"22\t2\t11")
    assert leave(child) == 0


def test_ctrl_z_suspends(tmp_path):
    # under an interactive shell with job control, as a user runs it
    shell = ["bash", "--norc", "--noprofile", "-i"]
    child = pexpect.spawn(shell[0], shell[1:], timeout=20, cwd=str(tmp_path),
                          env=dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1",
                                   PS1="$ ", TREPL_HISTORY=str(tmp_path / "history")))
    child.sendline(" ".join(th_command()))
    child.expect(PROMPT)
    child.sendcontrol("z")
    child.expect(b"Stopped")
    child.sendline("fg")
    line(child, "print('resumed')")
    child.expect(b"resumed")
    line(child, "exit")
    # (the shell's prompt first: typed ahead while th still read the
    # terminal, the shell's exit went to th, on a busy machine)
    child.expect_exact(b"$ ")
    child.sendline("exit")
    child.expect(pexpect.EOF)


def test_unfinished_chunk_at_the_end_of_piped_input(tmp_path):
    r = subprocess.run(th_command(), input=b"x = 1\nfor i = 1, 2 do\nprint(i)\n",
                       capture_output=True, cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0
    # the chunk's own line numbers, as trepl's [string "for i = 1, 2 do..."]:2:,
    # said to be a syntax error as trepl said
    assert r.stderr == b"syntax error: stdin:2: 'end' expected (to close 'for' at line 1) near '<eof>'\n"


def test_line_editing_with_output_piped(tmp_path):
    # th | cat: stdin is the terminal, the prompt edits there, results go to the pipe
    command = ["bash", "-c", " ".join(th_command()) + " | cat"]
    child = spawn(tmp_path, command=command)
    line(child, "t = torch.Tensor(3)")
    child.expect(PROMPT)
    child.send("t:narr\t")
    child.expect(b"ow")
    child.sendline("(1, 1, 2):fill(7)")
    child.expect(rb"of size 2\]")
    line(child, "exit")
    child.expect(pexpect.EOF)


def test_trepl_is_a_callable_repl_with_colorize(tmp_path):
    (tmp_path / "s.lua").write_text("secret = 5\nlocal repl = require 'trepl'\nrepl()\nprint('after the repl')\n")
    child = spawn(tmp_path, args=["s.lua"])
    line(child, "print(secret * 2)")
    child.expect(b"10")
    line(child, "io.write(require('trepl').colorize.red('x'), '\\n')")
    child.expect(b"\x1b\\[0;31mx\x1b\\[0m")
    line(child, "exit")
    child.expect(b"after the repl")
    child.expect(pexpect.EOF)
    r = subprocess.run(th_command() + ["-e", "print(require('trepl').colorize.red('x'))"],
                       capture_output=True, text=True)
    assert r.stdout == "x\t\n"                            # not a terminal: plain, as trepl


# 10. the prompt is shown before prompt_toolkit has loaded (th/early_prompt.py)
def test_keys_typed_as_the_prompt_shows_are_kept(tmp_path):
    # typed at once (while prompt_toolkit still loads): held, unechoed, for
    # its line editor; Ctrl-C and Ctrl-D are keys there, not a signal and
    # the end of the input
    child = spawn(tmp_path, env={"TREPL_TIMER": "0"})
    child.send(b"abc\x03print(6 * 7)\r\x04")
    child.expect(b"42")
    child.expect(rb"Do you really want to exit \(\[y\]/n\)\?")
    line(child, "n")
    line(child, "print('still' .. 'here')")
    child.expect(b"stillhere")
    assert leave(child) == 0
    assert b"interrupted" not in child.before


def test_typed_lua_is_highlighted(tmp_path):
    # (pygments' lexer arrives once the prompt is drawn: th/highlight.py)
    child = spawn(tmp_path)
    child.send("local")
    child.expect(rb"\x1b\[[0-9;]+mlocal")
    child.sendcontrol("c")
    assert leave(child) == 0
