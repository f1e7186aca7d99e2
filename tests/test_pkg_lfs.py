"""lfs: th's LuaFileSystem against the output of the original LuaFileSystem 1.8.0
(under Torch7's th) on the same script: every function, its return values on
success and failure (nil, message, errno), its errors."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import th_command
from thirdparty import FIXTURES


def unnamed(text):
    """The original named a function '?' in argument errors raised under pcall;
    th names it."""
    return re.sub(r"bad argument #(\d) to '\w+'", r"bad argument #\1 to '?'", text)


@pytest.mark.parametrize("name", ["lfs_api", "lfs_edges", "lfs_names"])
def test_lfs_prints_what_luafilesystem_printed(tmp_path, name):
    """Compared as bytes read as Latin-1: lfs_names prints names that are not UTF-8."""
    shutil.copy(os.path.join(FIXTURES, name + ".lua"), tmp_path)
    r = subprocess.run(th_command() + [name + ".lua"], cwd=str(tmp_path), capture_output=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(FIXTURES, name + ".expected"), "rb") as f:
        assert unnamed(r.stdout.decode("latin-1")) == f.read().decode("latin-1")


def test_lfs_is_a_global_and_penlight_uses_it(th):
    r = th("local l = require 'lfs'\nprint(l == lfs, package.loaded.lfs == lfs)\n"
           "print(require('pl.path').isdir('.'), #require('pl.dir').getfiles('.', '*.lua'))")
    assert r.stdout == "true\ttrue\t\ntrue\t1\t\n", r.stderr


def test_argument_errors_point_at_the_caller(th):
    r = th("local lfs = require 'lfs'\n\nlfs.attributes()")
    assert r.returncode == 1
    assert re.match(r"th: \S*script.lua:3: bad argument #1 to 'attributes' "
                    r"\(string expected, got no value\)\n", r.stderr)


def test_dir_iterates_hot_and_lock_guards_against_another_process(th, tmp_path):
    for i in range(30):
        (tmp_path / f"f{i}.txt").write_text("x")
    r = th("local lfs = require 'lfs'\nlocal n = 0\n"
           "for k = 1, 300 do for name in lfs.dir('.') do n = n + 1 end end\nprint(n)\n"
           "local fh = io.open('f0.txt', 'r+')\nprint(lfs.lock(fh, 'w'))\n"
           "print(os.execute([[python3 -c \"import fcntl, sys; f = open('f0.txt', 'r+');"
           " fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\" 2>/dev/null]]) ~= 0)\n"
           "print(lfs.unlock(fh))\n"
           "print(os.execute([[python3 -c \"import fcntl, sys; f = open('f0.txt', 'r+');"
           " fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\"]]))\n")
    assert r.stdout == f"{300 * 33}\t\ntrue\t\ntrue\t\ntrue\t\n0\t\n", r.stderr


def test_ffi_stat_agrees_with_python_os_stat_when_hot(th, tmp_path):
    """lfs.attributes calls stat(2) through the FFI (the struct layout written
    per architecture); Python's os.stat, its fallback, gives the same fields,
    for every kind of file, thousands of times over (JIT-compiled)."""
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "file").write_bytes(b"x" * 5000)
    os.symlink("file", tmp_path / "link")
    r = th("local stat, py = require 'lfs.stat', require('th.native.ops').lfs_stat\n"
           "local names = {'file', 'link', 'fifo', '.', '/dev/null', 'missing', 'file/x'}\n"
           "local bad = 0\n"
           "for i = 1, 3000 do\n"
           "  local name, follow = names[i % #names + 1], i % 2 == 0\n"
           "  local a, b = {stat(name, follow)}, {py(name, follow)}\n"
           "  for k = 1, 15 do if a[k] ~= b[k] then bad = bad + 1 end end\n"
           "end\n"
           "print(bad, (select(2, stat('link', false))), (select(12, stat('file', true))))")
    assert r.stdout == "0\tlink\t5000\t\n", r.stderr
