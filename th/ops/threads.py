"""Threads of the bulk operations: torch.setnumthreads / torch.getnumthreads.

Torch7 ran its large operations on OpenMP threads, one per core by default,
and its BLAS (the system's OpenBLAS) on the threads OpenBLAS gives itself,
whatever torch.setnumthreads said; th calls the same library the same way.
numpy's and scipy's own BLAS is kept to one thread (its workers busy-wait,
and on a busy machine a 100x100 product then took milliseconds instead of
microseconds); th splits their large products and large memory-bound
operations over up to `torch.getnumthreads()` threads itself (numpy
releases the GIL in its loops), never more threads than cores.
"""
import os

from th.ops import export


def _cores():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


CORES = _cores()
_requested = CORES          # what torch.setnumthreads asked for (Torch7's default: the cores)
_pool = None                # the helper threads, made on first use
_blas_limited = False


def count():
    """How many threads a split operation uses."""
    return max(1, min(_requested, CORES))


@export
def setnumthreads(n):
    global _requested
    _requested = max(1, int(n))


@export
def getnumthreads():
    return _requested


@export
def start_helpers():
    """The helper threads of th's large element loops (th/native/workers.py),
    one per core but this one, made once per process: -> the shared job's
    address, how many helpers run (0, 0 when they cannot be made)."""
    from th.native import workers
    return workers.start(CORES - 1)


def single_threaded_blas():
    """Keep numpy's and scipy's own BLAS (what their wheels bundle, under the
    directory numpy is installed in) to one thread, once, at the first BLAS
    call: threadpoolctl finds the libraries loaded.  The system's OpenBLAS,
    which th calls through LuaJIT's FFI as Torch7 called it, keeps its count
    as Torch7 left it: its products' last bits depend on it."""
    global _blas_limited
    if not _blas_limited:
        _blas_limited = True
        import numpy
        from threadpoolctl import ThreadpoolController
        packages = os.path.dirname(os.path.dirname(os.path.realpath(numpy.__file__))) + os.sep
        loaded = ThreadpoolController().select(user_api="blas")
        bundled = [lib.filepath for lib in loaded.lib_controllers
                   if os.path.realpath(lib.filepath).startswith(packages)]
        if bundled:
            loaded.select(filepath=bundled).limit(limits=1)


def together(*fs):
    """Call the functions at the same time, the first ones in helper threads,
    the last in this one: -> their results, in order."""
    global _pool
    if len(fs) == 1:
        return (fs[0](),)
    if _pool is None:
        from concurrent.futures import ThreadPoolExecutor
        _pool = ThreadPoolExecutor(max(1, CORES - 1))
    futures = [_pool.submit(f) for f in fs[:-1]]
    last = None
    try:
        last = fs[-1]()
    finally:
        results = [f.result() for f in futures]
    return tuple(results) + (last,)


def parts(n, k=None):
    """n split into up to k (the thread count) contiguous ranges: [(start, stop)]."""
    k = max(1, min(k or count(), n))
    step = -(-n // k)
    return [(i, min(n, i + step)) for i in range(0, n, step)]
