"""Threads of the bulk operations: torch.setnumthreads / torch.getnumthreads.

Torch7 ran its large operations on OpenMP threads, one per core by default,
and its BLAS on as many.  Here BLAS's own thread pool is kept to one thread
(its workers busy-wait, and on a busy machine a 100x100 product then took
milliseconds instead of microseconds); th splits large products and large
memory-bound operations over up to `torch.getnumthreads()` threads itself
(numpy releases the GIL in its loops), never more threads than cores.
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
    """Keep BLAS to one thread (once, at the first BLAS call: threadpoolctl
    finds the BLAS libraries numpy and scipy loaded)."""
    global _blas_limited
    if not _blas_limited:
        _blas_limited = True
        from threadpoolctl import threadpool_limits
        threadpool_limits(1, user_api="blas")


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
