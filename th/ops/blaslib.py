"""Where the BLAS is, which th/lua/torch/maths/cblas.lua calls through
LuaJIT's FFI: the system's OpenBLAS (Debian's libopenblas0, the library
Torch7 was built on: its products give Torch7's bits), else the OpenBLAS
numpy's wheel bundles (numpy.libs).  Found without importing numpy (a light
family, loaded at start-up).

An OpenBLAS starts its worker threads as it loads, and they busy-wait for
work a tenth of a second before they sleep.  Loaded by the imports th makes
in the background while the script runs, they took a core from the script on
a machine of two: its first operations waited for the processor (the first
sort after `require 'nn'` 3 -> 10-30 ms).  So the `th` command has
OPENBLAS_NUM_THREADS=1 in the environment until numpy is imported (set
before any thread runs, removed after: unsetenv frees nothing a concurrent
getenv could be reading), as "1 (th)": OpenBLAS reads the number, a th
started meanwhile by the script knows it is not the user's.  numpy's
OpenBLAS keeps its one thread (th keeps it to one anyway: th/ops/threads.py);
the system's, the one Torch7 used, gets
the count it takes by itself (its products' last bits depend on it) at th's
first call it could share among threads (th/lua/torch/maths/cblas.lua):
before that call, the count changes nothing but the workers' waiting."""
import _thread
import os

from th.ops import export

THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
ONE_THREAD = "1 (th)"
_ONE_THREAD = []          # [True] while th's OPENBLAS_NUM_THREADS=1 is in the environment
_ENVIRONMENT = _thread.allocate_lock()   # held while a library loads, or the variable goes
_SYSTEM = {}              # the system's OpenBLAS once loaded: its name, whether on th's one thread


def one_thread_until_numpy():
    """At the `th` command's start, before any thread: OpenBLAS libraries
    loading from now on take one thread, unless the user chose a count."""
    if os.environ.get("OPENBLAS_NUM_THREADS") == ONE_THREAD:   # (a parent th's)
        del os.environ["OPENBLAS_NUM_THREADS"]
    if not any(name in os.environ for name in THREAD_VARIABLES):
        os.environ["OPENBLAS_NUM_THREADS"] = ONE_THREAD
        _ONE_THREAD.append(True)


def numpy_imported():
    """numpy's OpenBLAS has loaded: the environment is the user's again (a
    child process, or scipy's OpenBLAS, sees what it would without th)."""
    with _ENVIRONMENT:
        if _ONE_THREAD:
            del os.environ["OPENBLAS_NUM_THREADS"]
            _ONE_THREAD.clear()


def load_system_blas():
    """Load the system's OpenBLAS (32-bit integer CBLAS, symbols cblas_*),
    once: -> its name, or None.  Tried by its soname: ctypes.util.find_library
    runs ldconfig in a subprocess (8 ms on the first product's clock)."""
    import ctypes
    with _ENVIRONMENT:
        if not _SYSTEM:
            _SYSTEM["name"] = None
            for name in ("libopenblas.so.0", "libopenblas.so"):
                try:
                    _SYSTEM["library"] = ctypes.CDLL(name)
                except OSError:
                    continue
                _SYSTEM.update(name=name, alone=bool(_ONE_THREAD))
                break
    return _SYSTEM["name"]


@export
def system_blas_library():
    """-> the name of the system's OpenBLAS (None: none), and whether it
    loaded on the one thread of th's OPENBLAS_NUM_THREADS (cblas.lua then
    gives it its own count at the first call it could share)."""
    name = load_system_blas()
    return name, bool(name) and _SYSTEM["alone"]


@export
def blas_library():
    """-> the path of numpy's bundled OpenBLAS (64-bit integer CBLAS, symbols
    scipy_cblas_*64_), or None (a numpy built on another BLAS)."""
    import glob   # (here, as importlib.util: they cost start-up 3 ms)
    import importlib.util
    spec = importlib.util.find_spec("numpy")
    if spec is None or not spec.submodule_search_locations:
        return None
    libs = os.path.join(os.path.dirname(list(spec.submodule_search_locations)[0]), "numpy.libs")
    found = sorted(glob.glob(os.path.join(libs, "libscipy_openblas64_*.so")))
    return found[0] if found else None
