"""sys and xlua (their Lua sources from the third-party tree) under th, against
what the original Torch7 printed for the same scripts; trepl's start-up globals
(penlight, sys, xlua) and where `require` looks."""
import glob
import os
import re
import shutil
import subprocess
import sys

from conftest import run_th
from thirdparty import FIXTURES, expected, packages_env


def run_fixture(tmp_path, name, *args):
    shutil.copy(os.path.join(FIXTURES, name + ".lua"), tmp_path)
    r = run_th([name + ".lua", *args], cwd=str(tmp_path), env=packages_env(COLUMNS="80"))
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_sys_runs_over_th_libsys(tmp_path):
    assert run_fixture(tmp_path, "sys_api") == expected("sys_api.expected")


def test_xlua_progress_option_parser_profiler(tmp_path):
    out = run_fixture(tmp_path, "xlua_api", "-n", "7", "--verbose", "extra")
    # the progress bar's timings vary (xlua.formatTime: 5ms, 1s20ms... on a
    # busy machine), and so do the padding that follows them and the
    # backspaces that go back over them
    def steady(text):
        text = re.sub(r"(?:\d+(?:ms|D|h|m|s))+", "T", text)
        return re.sub(r"\x08+", "\x08", re.sub(r" +", " ", text))
    assert steady(out) == steady(expected("xlua_api.expected"))


def test_libsys_usleep_bad_and_negative_times(th):
    r = th("local lib = require 'libsys'\nlib.usleep(-5)\nlib.usleep('1000')\n"
           "print(pcall(lib.usleep, {}))")
    assert r.returncode == 0
    assert r.stdout == "false\tbad argument #1 to 'usleep' (number expected, got table)\t\n"


def test_startup_defines_penlight_globals_and_loads_sys_xlua(tmp_path):
    (tmp_path / "s.lua").write_text(
        "print(path.join('a', 'b'), stringx.strip('  x '), tablex.size({1, 2}))\n"
        "print(text.Template ~= nil, dir.getfiles ~= nil, package.loaded.pl ~= nil)\n"
        "print(type(sys), type(xlua), type(sys.clock), type(xlua.progress))\n"
        "print(rawget(_G, 'stringio') == nil, stringio ~= nil)\n")
    r = run_th(["s.lua"], cwd=str(tmp_path), env=packages_env())
    assert r.stdout == ("a/b\tx\t2\t\ntrue\ttrue\ttrue\t\n"
                        "table\ttable\tfunction\tfunction\t\ntrue\ttrue\t\n"), r.stderr


def test_without_sys_and_xlua_start_up_goes_on(th):
    r = th("print(sys, xlua, path ~= nil)")
    assert r.stdout == "nil\tnil\ttrue\t\n", r.stderr


def test_require_searches_lua_path_then_the_standard_places(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "mine.lua").write_text("return 'mine'")
    (tmp_path / "s.lua").write_text(
        "print(require 'mine')\nprint(package.searchpath('pl.path', package.path))\n"
        "print(package.path:find('/usr/local/share/lua/5.1/?/init.lua', 1, true) ~= nil)\n")
    env = dict(os.environ, LUA_PATH=str(tmp_path / "lib" / "?.lua") + ";;")
    r = run_th(["s.lua"], cwd=str(tmp_path), env=env)
    assert r.stdout == "mine\t\n/usr/share/lua/5.1/pl/path.lua\t\ntrue\t\n", r.stderr


def test_home_luarocks_tree_is_searched(tmp_path):
    tree = tmp_path / ".luarocks" / "share" / "lua" / "5.1" / "rockpkg"
    tree.mkdir(parents=True)
    (tree / "init.lua").write_text("return {answer = 42}")
    (tmp_path / "s.lua").write_text("print(require('rockpkg').answer)")
    r = run_th(["s.lua"], cwd=str(tmp_path), env=dict(os.environ, HOME=str(tmp_path)))
    assert r.stdout == "42\t\n", r.stderr


def test_c_modules_load():
    """A C module built for Lua 5.1 (Debian's LuaFileSystem, installed with
    penlight) loads into th's LuaJIT and works."""
    so = glob.glob("/usr/lib/*/lua/5.1/lfs.so")[0]
    r = run_th(["-e", f"local open = package.loadlib('{so}', 'luaopen_lfs')\n"
                      "local clfs = open()\nprint(clfs._VERSION, clfs.attributes('/', 'mode'))"])
    assert r.stdout == "LuaFileSystem 1.8.0\tdirectory\t\n", r.stderr


def test_library_use_leaves_other_lua_runtimes_working():
    """Only the th command exports LuaJIT's C API to C modules: a Python
    program using th and lupa's Lua 5.4 together keeps both working."""
    code = ("import th, lupa.lua54 as l54\nrt = th.Runtime()\n"
            "print(l54.LuaRuntime().execute('return 2^10'), rt.execute('return torch.ones(3):sum()'))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout == "1024.0 3\n", r.stderr
