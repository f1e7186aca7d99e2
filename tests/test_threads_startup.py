"""torch.setnumthreads/getnumthreads read their argument as Torch7 did (the
expected values were printed by the original), and `th` starts without
importing numpy, scipy or prompt_toolkit; the threads of BLAS stay what Torch7
left them."""
import subprocess
import sys

import pytest
from lupa.luajit21 import LuaError

from conftest import run_th, th_command


@pytest.mark.parametrize("given, expected", [
    (1, 1), (5, 5), (0, 1), (-3, 1), (3.7, 3), ("'4'", 4), (1e10, 1410065408),
])
def test_setnumthreads_reads_a_c_int(runtime, given, expected):
    got = runtime.execute(f"""
        local before = torch.getnumthreads()
        torch.setnumthreads({given})
        local n = torch.getnumthreads()
        torch.setnumthreads(before)
        return n""")
    assert got == expected


def test_setnumthreads_returns_nothing_and_checks_its_argument(runtime):
    assert runtime.execute("return select('#', torch.setnumthreads(torch.getnumthreads()))") == 0
    # (named as luaL_argerror named the original's C function: after the call,
    # 'setnumthreads', '?' from C; an explicit nil is "got nil")
    for arg, kind in (("'a'", "string"), ("", "no value"), ("nil", "nil")):
        with pytest.raises(LuaError, match=rf"bad argument #1 to 'setnumthreads' \(number expected, got {kind}\)"):
            runtime.execute(f"torch.setnumthreads({arg})")
    with pytest.raises(LuaError, match=r"bad argument #1 to '\?' \(number expected, got table\)"):
        runtime.execute("local ok, e = pcall(torch.setnumthreads, {}) error(e, 0)")


def test_one_thread_gives_the_same_results(runtime):
    got = runtime.execute("""
        local x = torch.range(1, 3e5)
        torch.setnumthreads(1)
        local a = torch.exp(x / 1e5):sum() + torch.add(x, x):sum()
        torch.setnumthreads(2)
        local b = torch.exp(x / 1e5):sum() + torch.add(x, x):sum()
        return a == b""")
    assert got is True


def test_startup_imports_no_numpy():
    code = ("import sys; from th.cli import main; main(['-e', 'local t = torch.rand(10):add(1)']); "
            "print(sorted(m for m in ('numpy', 'scipy', 'prompt_toolkit') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# th -e CODE with PRELOAD_AFTER out of reach; a module `lib` next to it
PRELOADING = """
import sys, th.cli
th.cli.PRELOAD_AFTER = float(sys.argv[2]) if len(sys.argv) > 2 else 1000
th.cli.main(['-e', sys.argv[1]])
"""
WAIT_FOR_NUMPY = """
local flag, t = require('torch.internal').numpyloaded, torch.Timer()
%s
while flag[0] == 0 and t:time().real < %s do end
print(flag[0])
"""


@pytest.mark.parametrize("after, loads, wait, expected", [("1000", "require 'lib'", 0.3, "0"), ("0.05", "", 20, "1")])
def test_the_numpy_import_starts_once_a_script_has_run_a_while(tmp_path, after, loads, wait, expected):
    # (not at a first require: a program's first steps would share the
    # machine with it, and many never need numpy)
    (tmp_path / "lib.lua").write_text("return {}")
    out = subprocess.run([sys.executable, "-c", PRELOADING, WAIT_FOR_NUMPY % (loads, wait), after],
                         capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert out.strip() == expected


def test_a_first_bulk_operation_imports_numpy_and_its_family_only():
    # (the other families' imports would be on that operation's clock; a
    # LongTensor's elements into a FloatTensor, transposed: no LuaJIT loop)
    code = ("import sys, th.cli; th.cli.PRELOAD_AFTER = 1000; "
            "th.cli.main(['-e', 'local x = torch.LongTensor(500, 400):fill(1); torch.FloatTensor(400, 500):copy(x:t())']); "
            "print([m in sys.modules for m in ('numpy', 'th.ops.core', 'th.ops.linalg', 'th.ops.nn_spatial')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[True, True, False, False]"


BEFORE_AND_AFTER_NUMPY = """
local flag = require('torch.internal').numpyloaded
local function ops()
   torch.manualSeed(7)
   local x, y = torch.FloatTensor(300, 400):uniform(-2, 2), torch.FloatTensor(300, 400):uniform(0.5, 3)
   local a, b = torch.rand(400, 300), torch.rand(400, 300)
   return {torch.cmul(x, y), torch.cdiv(x, y), torch.add(x, 0.1), torch.mul(a, 3), torch.add(a, b),
           torch.cmax(a, b), x:gt(0.3), torch.le(a, b), torch.DoubleTensor(400, 300):copy(x:t()),
           torch.IntTensor(400, 300):copy(a:t() * 1000), torch.sqrt(a), torch.abs(x), torch.floor(x)}
end
local before = ops()
local state = flag[0] .. flag[1]
local t = torch.Timer()
while flag[0] == 0 and t:time().real < 60 do end
local after, same = ops(), 0
for i = 1, #before do
   if torch.equal(before[i], after[i]) then same = same + 1 end
end
print(state, flag[0], same, #before)
"""


def test_bulk_operations_before_numpy_run_luajit_loops_with_the_same_bits():
    # a first bulk operation does not wait for numpy's import (45 ms): it
    # starts it in a helper thread and runs a LuaJIT loop meanwhile, whose
    # results are those of the numpy paths taken once numpy is there
    out = subprocess.run([sys.executable, "-c", PRELOADING, BEFORE_AND_AFTER_NUMPY],
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == ["01", "1", "13", "13"]


def test_setnumthreads_leaves_blas_products_as_torch7_did(tmp_path):
    # Torch7's torch.setnumthreads did not change its OpenBLAS's thread count,
    # on which a product's last bits depend; a product through numpy (Long)
    # does not change it either.  Expected: the original's output (OpenBLAS's
    # Haswell kernels, as conftest pins them).
    (tmp_path / "threads.lua").write_text("""
torch.manualSeed(3)
local a, b = torch.randn(75, 16), torch.randn(16, 1024)
local A, B = torch.randn(300, 300), torch.randn(300, 300)
local r2, m2 = torch.mm(a, b), torch.mm(A, B)
torch.setnumthreads(1)
local r1, m1 = torch.mm(a, b), torch.mm(A, B)
torch.setnumthreads(2)
local i = torch.LongTensor(40, 40):random(1, 9)
local _ = torch.mm(i, i)
local r3, m3 = torch.mm(a, b), torch.mm(A, B)
print(torch.equal(r1, r2), torch.equal(r2, r3), torch.equal(m1, m2), torch.equal(m2, m3))
print(string.format('%.17g %.17g', r2:sum(), m2:sum()))
""")
    r = run_th([str(tmp_path / "threads.lua")], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "true\ttrue\ttrue\ttrue\t\n-883.86974262364936 2531.4412630669899\t\n"



# the system's OpenBLAS thread count after a small product and after a
# large one, the environment's OPENBLAS_NUM_THREADS before numpy's import and
# after it, and the thread count of numpy's OpenBLAS as it loaded; arg[1]: a
# command the script runs meanwhile, whose output comes first
BLAS_THREADS = """
local ffi = require 'ffi'
ffi.cdef 'int openblas_get_num_threads(void); int scipy_openblas_get_num_threads64_(void);'
local system = ffi.load('libopenblas.so.0')
local flag, t = require('torch.internal').numpyloaded, torch.Timer()
local _ = torch.mm(torch.randn(40, 40), torch.randn(40, 40))
local small = system.openblas_get_num_threads()
local _ = torch.mm(torch.randn(40, 40), torch.randn(40, 50))
local before = tostring(os.getenv('OPENBLAS_NUM_THREADS'))
if arg[1] then io.write(io.popen(arg[1]):read('*a')) end
while flag[0] == 0 and t:time().real < 20 do end
local bundled = ffi.load(require('torch.internal').py.blas_library())
print(small, system.openblas_get_num_threads(), before, os.getenv('OPENBLAS_NUM_THREADS'),
      bundled.scipy_openblas_get_num_threads64_())
"""
PLAIN_COUNT = ("import ctypes; b = ctypes.CDLL('libopenblas.so.0'); "
               "print(b.openblas_get_num_threads())")


@pytest.mark.parametrize("user", [None, "1", "3"])
def test_blas_threads_and_environment_as_without_th(tmp_path, user):
    # numpy's OpenBLAS is imported under OPENBLAS_NUM_THREADS=1 (its workers
    # would busy-wait on a core the script needs); the system's gets the
    # count it takes in a plain process at the first product it could share
    # among threads (40x40 by 40x50), the user's variable is left alone, and
    # a th the script starts meanwhile sees no count of the user's either
    import os
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")}
    if user:
        env["OPENBLAS_NUM_THREADS"] = user
    plain = subprocess.run([sys.executable, "-c", PLAIN_COUNT], capture_output=True, text=True,
                           env=env, check=True).stdout.strip()
    (tmp_path / "threads.lua").write_text(BLAS_THREADS)
    r = run_th(["threads.lua", " ".join(th_command() + ["threads.lua"])], cwd=str(tmp_path), env=env)
    assert r.returncode == 0, r.stderr
    child, parent = [line.split("\t")[:5] for line in r.stdout.splitlines()]
    if user:   # (a count above the cores' is theirs, in both libraries)
        assert child == parent == [plain, plain, user, user, plain]
    else:
        assert child[:2] == parent[:2] == ["1", plain]
        assert parent[2] in ("1 (th)", "nil") and child[2] in ("1 (th)", "nil")
        assert parent[3:] == child[3:] == ["nil", "1"]
