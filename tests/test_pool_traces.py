"""th's memory pool hands out the buffers of tensors beyond a kilobyte and
takes back, once per collection cycle, those whose tensor the collector
dropped.  That reclaim once ran inside the collector's finalizer, where
LuaJIT records no trace: its loop over the buffers, compiled on the path of
a buffer still in use, left its trace for the interpreter at every buffer
dropped, and no side trace could ever be grown for that path (in about half
the processes, one exit per clone, 6,400-12,500 per 10,000 clones).  An exit
LuaJIT does grow a side trace for is taken th's `hotexit` (120) times at
most, a few times over when traces are flushed and made again."""
import os

import pytest

from conftest import run_th

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


@pytest.mark.parametrize("process", range(4))
def test_no_exit_taken_per_pooled_buffer(process):
    proc = run_th([os.path.join(FIXTURES, "pool_exits.lua"), "10000"], timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[-1] == "clones 10000"
    counts = [int(line.split()[1]) for line in lines if line.startswith("EXIT")]
    assert max(counts, default=0) < 1000
