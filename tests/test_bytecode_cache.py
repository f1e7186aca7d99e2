"""Lua modules load from cached bytecode (th/bytecode.lua), th's own and
those of package.path: the same behaviour, files and lines as from their
sources, a source changed in any byte is parsed again, and a cache that cannot
be used is no error."""
import glob
import os

from conftest import run_th

# LuaJIT's own traceback of an error in th's code (th's debug.traceback, as
# its uncaught-error traceback, shows th's frames as the original's C functions)
ERROR = ("print(select(2, xpcall(function() torch.Tensor(2):narrow(1, 5, 1) end, "
         "require('torch.internal').traceback)))")


def run(cache_home, code, cwd=None, lua_path=None):
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    if lua_path:
        env["LUA_PATH"] = lua_path
    return run_th(["-e", code], cwd=cwd, env=env)


def cached_files(cache_home):
    """(hidden ones too: ./m.lua's file is .%m.lua)"""
    return [os.path.join(d, f) for d in glob.glob(os.path.join(str(cache_home), "th", "bytecode", "*"))
            for f in os.listdir(d)]


def cached_file(cache_home, suffix):
    (found,) = [f for f in cached_files(cache_home) if f.endswith(suffix)]
    return found


def test_modules_load_from_the_cache_with_their_files_and_lines(tmp_path):
    first = run(tmp_path, ERROR)
    files = cached_files(tmp_path)
    assert any(f.endswith("%torch%Tensor.lua") for f in files)
    second = run(tmp_path, ERROR)
    assert first.returncode == second.returncode == 0
    # the traceback of the second run (bytecode) names th's files and lines as
    # the first (sources) did
    assert "torch/Tensor.lua:" in first.stdout
    assert second.stdout == first.stdout
    assert sorted(cached_files(tmp_path)) == sorted(files)


def test_an_unusable_cache_is_no_error(tmp_path):
    home = tmp_path / "home"
    home.write_text("a file where the cache directory would be")
    proc = run(home, "io.write(torch.range(1, 3):sum(), '\\n')")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "6\n", "")


def test_a_damaged_cached_file_is_parsed_again_and_rewritten(tmp_path):
    run(tmp_path, "")
    tensor = cached_file(tmp_path, "%torch%Tensor.lua")
    with open(tensor, "rb") as f:
        length = f.readline()
        source = f.read(int(length))
    with open(tensor, "wb") as f:
        f.write(length + source + b"not bytecode")
    proc = run(tmp_path, "io.write(torch.Tensor(2):fill(3):sum(), '\\n')")
    assert (proc.returncode, proc.stdout) == (0, "6\n")
    with open(tensor, "rb") as f:
        assert f.readline() == length and f.read(int(length)) == source
        assert f.read(4) == b"\x1bLJ\x02" and len(f.read()) > 1000


LIBRARY = """local m = {}
function m.where() return debug.getinfo(1, 'S').source .. ':' .. debug.getinfo(1, 'l').currentline end
function m.fail() error('failed here') end
return m
"""


def test_modules_of_package_path_load_from_the_cache_with_their_files_and_lines(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "mylib.lua").write_text(LIBRARY)
    path = f"{lib}/?.lua;;"
    code = "local m = require 'mylib'; io.write(m.where(), '\\n', select(2, pcall(m.fail)), '\\n')"
    first = run(tmp_path / "cache", code, lua_path=path)
    where, failed = first.stdout.splitlines()
    # (Lua shortens a long file name in a message, from its start)
    assert (first.returncode, where) == (0, f"@{lib}/mylib.lua:2")
    assert failed.endswith("/lib/mylib.lua:3: failed here")
    cached = cached_file(tmp_path / "cache", "%mylib.lua")
    stamp = os.stat(cached).st_mtime_ns
    second = run(tmp_path / "cache", code, lua_path=path)
    assert (second.returncode, second.stdout) == (0, first.stdout)
    assert os.stat(cached).st_mtime_ns == stamp    # (read, not written again)


def test_a_changed_source_is_parsed_again_even_of_the_same_size_and_time(tmp_path):
    source = tmp_path / "lib" / "m.lua"
    source.parent.mkdir()
    path = f"{source.parent}/?.lua;;"
    source.write_text("return 11")
    first = run(tmp_path / "cache", "io.write(require 'm', '\\n')", lua_path=path)
    stat = os.stat(source)
    source.write_text("return 22")
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    second = run(tmp_path / "cache", "io.write(require 'm', '\\n')", lua_path=path)
    assert (first.stdout, second.stdout) == ("11\n", "22\n")


def test_a_module_found_by_a_relative_path_keeps_that_path_from_any_directory(tmp_path):
    # one cached file for ./rel.lua wherever it is: the source decides
    for n, where in enumerate(["a", "b", "a"]):
        folder = tmp_path / where
        folder.mkdir(exist_ok=True)
        (folder / "rel.lua").write_text(f"return debug.getinfo(1, 'S').source .. ' {where}'")
        proc = run(tmp_path / "cache", "io.write(require 'rel', '\\n')", cwd=str(folder), lua_path="./?.lua;;")
        assert (proc.returncode, proc.stdout) == (0, f"@./rel.lua {where}\n")
    assert [os.path.basename(f) for f in cached_files(tmp_path / "cache") if f.endswith("rel.lua")] == [".%rel.lua"]


def test_a_syntax_error_in_a_module_reads_as_lua_s(tmp_path):
    (tmp_path / "bad.lua").write_text("local x = = 1\n")
    proc = run(tmp_path / "cache", "io.write(select(2, pcall(require, 'bad')))", lua_path=f"{tmp_path}/?.lua;;")
    head, message = proc.stdout.split("\n")
    assert head == f"error loading module 'bad' from file '{tmp_path}/bad.lua':"
    assert message.startswith("\t") and message.endswith("/bad.lua:1: unexpected symbol near '='")
