"""th's own Lua modules load from cached bytecode (th/bytecode.py): the same
behaviour, files and lines as from their sources, and a cache that cannot be
used is no error."""
import ctypes
import glob
import os

from conftest import run_th
from th import bytecode

ERROR = "torch.Tensor(2):narrow(1, 5, 1)"


def run(cache_home, code):
    return run_th(["-e", code], env={**os.environ, "XDG_CACHE_HOME": str(cache_home)})


def cached_files(cache_home):
    return glob.glob(os.path.join(str(cache_home), "th", "bytecode", "*", "*"))


def test_modules_load_from_the_cache_with_their_files_and_lines(tmp_path):
    first = run(tmp_path, ERROR)
    files = cached_files(tmp_path)
    assert any(f.endswith("%torch%Tensor.lua") for f in files)
    second = run(tmp_path, ERROR)
    assert first.returncode == second.returncode == 1
    # the traceback of the second run (bytecode) names th's files and lines as
    # the first (sources) did
    assert "torch/Tensor.lua:" in first.stderr
    assert second.stderr == first.stderr
    assert sorted(cached_files(tmp_path)) == sorted(files)


def test_an_unusable_cache_is_no_error(tmp_path):
    home = tmp_path / "home"
    home.write_text("a file where the cache directory would be")
    proc = run(home, "io.write(torch.range(1, 3):sum(), '\\n')")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "6\n", "")


def test_a_damaged_cached_file_is_parsed_again_and_rewritten(tmp_path):
    run(tmp_path, "")
    (tensor,) = [f for f in cached_files(tmp_path) if f.endswith("%torch%Tensor.lua")]
    with open(tensor, "rb") as f:
        stamp = f.readline()
    with open(tensor, "wb") as f:
        f.write(stamp + b"not bytecode")
    proc = run(tmp_path, "io.write(torch.Tensor(2):fill(3):sum(), '\\n')")
    assert (proc.returncode, proc.stdout) == (0, "6\n")
    with open(tensor, "rb") as f:
        assert f.readline() == stamp and len(f.read()) > 1000


def test_a_changed_source_is_not_taken_from_the_cache(tmp_path):
    source = tmp_path / "m.lua"
    source.write_text("return 1")
    cache = bytecode.Cache(str(tmp_path / "cache"))
    code, stamp = cache.load(str(source))
    assert code is None and stamp
    compiled = ctypes.create_string_buffer(b"\x1bLJ compiled", 12)
    cache.store(str(source), stamp, ctypes.addressof(compiled), 12)
    assert cache.load(str(source)) == (b"\x1bLJ compiled", stamp)
    source.write_text("return 22")
    code, restamp = cache.load(str(source))
    assert code is None and restamp != stamp
    assert cache.load(str(tmp_path / "missing.lua")) == (None, None)
