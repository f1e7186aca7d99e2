"""The clocks behind torch.Timer."""
import resource
import time

from th.ops import export


@export
def timer_clock():
    """-> (real, user, sys) in seconds: a monotonic wall clock and this process's
    CPU times (getrusage, microsecond resolution, as the original Timer read them)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return time.perf_counter(), usage.ru_utime, usage.ru_stime
