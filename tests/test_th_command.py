"""The `th` command: scripts, arguments, errors, exit status, require."""
import os
import re

from conftest import run_th


def test_script_arguments_and_globals(th):
    r = th("print(arg[0]:match('script.lua$'), arg[1], arg[2], arg[3], #arg)\n"
           "print(type(torch), type(paths), torch.Tensor ~= nil)", "a", "-lr", "0.1")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "script.lua\ta\t-lr\t0.1\t3\t\ntable\ttable\ttrue\t\n"


def test_require_torch_is_harmless(th):
    r = th("local t = require 'torch'\nprint(t == torch)")
    assert r.stdout == "true\t\n"


def test_error_reports_file_and_line(th):
    r = th("print('before')\nlocal x = torch.Tensor(2)\nx:narrow(1, 3, 1)\n")
    assert r.returncode == 1
    assert r.stdout == "before\t\n"
    first = r.stderr.splitlines()[0]
    assert first.startswith("th: ") and "script.lua:3:" in first and "narrow" in first
    assert "stack traceback" in r.stderr
    assert "Traceback (most recent call last)" not in r.stderr


def test_plain_lua_error(th):
    r = th("local t = nil\nprint(t.x)\n")
    assert r.returncode == 1
    assert "script.lua:2: attempt to index local 't'" in r.stderr


def test_error_with_table_value(th):
    r = th("error({code = 1})")
    assert r.returncode == 1
    assert "{\n  code : 1\n}" in r.stderr       # printed as trepl printed it


def test_syntax_error(th):
    r = th("x = = 1")
    assert r.returncode == 1 and "script.lua:1:" in r.stderr


def test_os_exit_sets_status_and_keeps_output(th):
    r = th("print('kept')\nos.exit(3)\nprint('not reached')")
    assert r.returncode == 3
    assert r.stdout == "kept\t\n"


def test_the_end_of_a_script_closes_its_files_and_waits_for_its_pipes(th, tmp_path):
    # as the original: its luajit closed the Lua state after the script, so a
    # file left open is flushed and a pipe's command has finished when th
    # returns (th then ends without Python's teardown, th.cli.command)
    r = th("local f = io.open('left_open.txt', 'w'); f:write('written')\n"
           "local p = io.popen('exec >/dev/null 2>&1; sleep 0.3; cat > piped.txt', 'w')\n"
           "p:write('through the pipe')\n"
           "kept = newproxy(true); getmetatable(kept).__gc = function() io.write(' finalised') end\n"
           "io.write('no newline at the end')")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "no newline at the end finalised"
    assert (tmp_path / "left_open.txt").read_text() == "written"
    assert (tmp_path / "piped.txt").read_text() == "through the pipe"


def test_require_finds_modules_next_to_the_script(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "mymod.lua").write_text("return {answer = 42}")
    (tmp_path / "sub" / "main.lua").write_text("print(require('mymod').answer)")
    r = run_th([str(tmp_path / "sub" / "main.lua")], cwd=str(tmp_path))
    assert r.stdout == "42\t\n", r.stderr


def test_lua_path_is_honoured(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "onpath.lua").write_text("return 'found'")
    (tmp_path / "main.lua").write_text("print(require('onpath'))")
    env = dict(os.environ, LUA_PATH=str(tmp_path / "lib" / "?.lua") + ";;")
    r = run_th([str(tmp_path / "main.lua")], cwd=str(tmp_path), env=env)
    assert r.stdout == "found\t\n", r.stderr


def test_statement_option(tmp_path):
    r = run_th(["-e", "print(torch.Tensor(2):fill(1):nElement())"], cwd=str(tmp_path))
    assert r.returncode == 0 and r.stdout == "2\t\n"


def test_library_option(tmp_path):
    (tmp_path / "mylib.lua").write_text("mylib_loaded = true")
    env = dict(os.environ, LUA_PATH=str(tmp_path / "?.lua") + ";;")
    r = run_th(["-l", "mylib", "-e", "print(mylib_loaded)"], cwd=str(tmp_path), env=env)
    assert r.stdout == "true\t\n", r.stderr


def test_help(tmp_path):
    r = run_th(["-h"], cwd=str(tmp_path))
    assert r.returncode == 0 and "Usage: th" in r.stdout


def test_missing_script(tmp_path):
    r = run_th([str(tmp_path / "nope.lua")], cwd=str(tmp_path))
    assert r.returncode == 1 and "nope.lua" in r.stderr


def test_script_sees_its_arguments_as_varargs(th):
    # as lua(1) does: the chunk's `...` are the script arguments, the first included
    r = th("print(select('#', ...), ...)", "x", "y z")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "2\tx\ty z\t\n"


def test_traceback_shows_only_the_script_frames(th):
    r = th("local function f() error('deep') end\nf()\n")
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[0].startswith("th: ") and lines[0].endswith("script.lua:1: deep")
    assert lines[-1].strip().endswith("in main chunk")
    assert "<python>" not in r.stderr


def test_traceback_shows_th_frames_as_the_c_functions_of_the_original(th):
    # the original's traceback lines (its runner's frames below the main chunk left out)
    def stack(r):    # (the fixture's script is named by its whole path)
        return [re.sub(r"^\t\S*script\.lua", "\tscript.lua", line) for line in r.stderr.splitlines()[1:]]

    r = th("local function f(x)\n  local r = x:add(torch.Tensor(3))\n  return r\nend\nf(torch.Tensor(2))\n")
    assert stack(r) == ["stack traceback:", "\t[C]: in function 'add'", "\tscript.lua:2: in function 'f'",
                         "\tscript.lua:5: in main chunk"]
    r = th("torch.Tensor(3):apply(function(v) error('inside') end)\n")
    assert stack(r) == [
        "stack traceback:", "\t[C]: in function 'error'", "\tscript.lua:1: in function 'func'",
        "\t[C]: in function 'apply'", "\tscript.lua:1: in main chunk"]
    # (the memory pool's frames too: TH's allocator was C)
    r = th("local x = torch.Tensor(3)\nlocal y = torch.Tensor(2^40)\n")
    assert [re.sub(r"0x[0-9a-f]+", "0x", line) for line in stack(r)] == [
        "stack traceback:", "\t[C]: at 0x", "\t[C]: in function 'Tensor'", "\tscript.lua:2: in main chunk"]


def test_traceback_of_luat_metamethods(th):
    # recorded from the original: luaT's arithmetic and indexing metamethods,
    # and its __call of a C class, called the type's own C function, unnamed
    # ("at 0x..."); its comparisons raised their error themselves
    def stack(r):
        return [re.sub(r"^\t\S*script\.lua", "\tscript.lua", re.sub(r"0x[0-9a-f]+", "0x", line))
                for line in r.stderr.splitlines()[1:]]

    r = th("local x = torch.Tensor(2) local y = x - torch.Tensor(3)\n")
    assert stack(r) == ["stack traceback:", "\t[C]: at 0x", "\t[C]: in function '__sub'",
                        "\tscript.lua:1: in main chunk"]
    r = th("local x = torch.Tensor(2)\nx[5] = 1\n")
    assert stack(r) == ["stack traceback:", "\t[C]: at 0x", "\t[C]: in function '__newindex'",
                        "\tscript.lua:2: in main chunk"]
    r = th("local y = torch.Tensor(2) < torch.Tensor(3)\n")
    assert stack(r) == ["stack traceback:", "\t[C]: in function '__lt'", "\tscript.lua:1: in main chunk"]
    r = th("local y = torch.Tensor{1, 'a'}\n")       # (luaT's __call of the C class)
    assert stack(r) == ["stack traceback:", "\t[C]: at 0x", "\t[C]: in function 'Tensor'",
                        "\tscript.lua:1: in main chunk"]


def test_constructor_tables_print_as_plain_tables(th):
    # luaT's constructor tables (torch.Tensor, a torch.class's) printed as
    # the plain table they are: "table: 0x..." (recorded from the original)
    r = th("torch.class('Zed')\nprint(torch.Tensor, torch.IntStorage, Zed)\n")
    assert r.returncode == 0, r.stderr
    assert re.fullmatch(r"(table: 0x[0-9a-f]+\n){3}", r.stdout), r.stdout


def test_library_option_attached_form(tmp_path):
    # the original th read `-lname` as well as `-l name`
    (tmp_path / "mylib.lua").write_text("mylib_loaded = 42\n")
    r = run_th(["-lmylib", "-e", "print(mylib_loaded)"], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "42\t\n"


def test_missing_library_warns_and_goes_on(tmp_path):
    # as trepl: "could not load nosuchlib, skipping", then the rest runs
    r = run_th(["-l", "no_such_library_here", "-e", "print(1)"], cwd=str(tmp_path))
    assert r.returncode == 0
    assert r.stdout == "1\t\n"
    assert r.stderr.startswith("th: could not load no_such_library_here, skipping\n"
                               "th: module 'no_such_library_here' not found")


def test_ctrl_c_stops_a_script_looping_over_small_tensors(tmp_path):
    # every call is LuaJIT code compiled into one trace, where no hook runs
    import signal
    import subprocess
    import time
    from conftest import th_command
    (tmp_path / "spin.lua").write_text("print('started') io.stdout:flush()\n"
                                       "local x = torch.zeros(3)\nwhile true do x:add(1) end\n")
    child = subprocess.Popen(th_command() + ["spin.lua"], cwd=str(tmp_path),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout.readline() == b"started\t\n"
    time.sleep(1)                     # the loop is compiled by now
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=10)
    assert child.returncode == 130
    assert err.startswith(b"th: interrupted\n") and b"spin.lua:3: in main chunk" in err


def test_globals_options_monitor_globals(tmp_path):
    # th -g / -gg: trepl's monitor_G, as the original's launcher called it
    # after the libraries (what the original printed; -gg's error has no
    # position, the original's was a line of its trepl/init.lua)
    script = tmp_path / "g.lua"
    script.write_text("x = 1\nprint(y)\nlocal function f() z = 2 end\nf()\nx = 3\n")
    r = run_th(["-g", str(script)], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    path = str(script)
    assert r.stdout == (f"created global variable: x @ {path}:1\t\n"
                        f"attempt to read undeclared variable: y @ {path}:2\t\nnil\t\n"
                        f"created global variable: z @ {path}:3\t\n")
    r = run_th(["-gg", str(script)], cwd=str(tmp_path))
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.splitlines()[0] == f"th: created global variable: x @ {path}:1"


def test_trepl_globals_in_scripts(th):
    # the globals trepl defined before every script (setprintlevel, import,
    # who...: tests/fixtures/seeds38_found.lua); who() lists the user's
    r = th("seeds38v = 5\nwho()")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "== User Variables ==\t\n[seeds38v]               = 5\t\n==\t\n"


def test_require_of_a_relative_name(tmp_path):
    # trepl's require of a name starting with '.': relative to the calling
    # file (name.lua, name.th by torch.load, the file itself, name/init.lua),
    # the current folder in a tail call (what the original printed)
    sub = tmp_path / "sub"
    (sub / "pkg").mkdir(parents=True)
    (sub / "m.lua").write_text('return {v = "mod"}')
    (sub / "pkg" / "init.lua").write_text('return {v = "pkg"}')
    (sub / "plainfile").write_text('return {v = "plain"}')
    (sub / "main.lua").write_text(
        "torch.save(paths.concat(paths.dirname(arg[0]), 'obj.th'), {a = 1})\n"
        "print(pcall(function() return require('./m').v end))\n"
        "print(pcall(function() return require('./pkg').v end))\n"
        "print(pcall(function() return require('./obj.th').a end))\n"
        "print(pcall(function() return require('./obj').a end))\n"
        "print(pcall(function() return require('./plainfile').v end))\n"
        "print(pcall(function() return require('../sub/m').v end))\n"
        "print(pcall(function() return require('./m2.lua') end))\n"
        "print(pcall(function() return require('./nothere') end))\n")
    r = run_th(["sub/main.lua"], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("true\tmod\t\ntrue\tpkg\t\ntrue\t1\t\ntrue\t1\t\ntrue\tplain\t\ntrue\tmod\t\n"
                        f"false\tcannot open {tmp_path}/m2.lua/init.lua: No such file or directory\t\n"
                        f"false\tcannot open {tmp_path}/nothere/init.lua: No such file or directory\t\n")


def test_treplstartup_runs_before_a_script(tmp_path):
    # $TREPLSTARTUP: run before a script, not with -e or -i (the original's launcher)
    (tmp_path / "startup.lua").write_text("startup_ran = 42\nprint('startup')")
    (tmp_path / "s.lua").write_text("print(startup_ran)")
    env = dict(os.environ, TREPLSTARTUP=str(tmp_path / "startup.lua"))
    r = run_th([str(tmp_path / "s.lua")], cwd=str(tmp_path), env=env)
    assert r.returncode == 0 and r.stdout == "startup\t\n42\t\n", r.stderr
    r = run_th(["-e", "print(startup_ran)"], cwd=str(tmp_path), env=env)
    assert r.stdout == "nil\t\n"
