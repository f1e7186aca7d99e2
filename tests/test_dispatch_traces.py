"""LuaJIT compiles the maths functions' argument parsing (torch/maths/
dispatch.lua's generated front ends) into the traces of the loops calling
them: over hundreds of MLP training steps (nn's modules, Double and Float,
batches of 1 and 4) and a loop of maths calls in their several forms, no
trace aborts inside dispatch.  A loop over `...` there, or `...` passed on,
aborted the loops' traces at every call until LuaJIT gave up on them: the
first few hundred steps of a training loop ran at twice their later time.
(The fixture prints the aborts it saw with their places; nn's own, such as
its closures made per call, are not ours and not counted.  Nor is "loop
unroll limit reached": a root trace has a budget of loops to unroll, which
its consecutive tail calls count against too, so a trace that unrolled a
dozen small element loops stops at whatever tail call or loop comes next.)"""
import os

from conftest import run_th
from nn_paths import nn_env

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
LUNROLL = "10"   # LuaJIT's LJ_TRERR_LUNROLL, the 11th of lj_traceerr.h's messages


def test_no_trace_aborts_in_dispatch_over_training_steps():
    proc = run_th([os.path.join(FIXTURES, "dispatch_traces.lua"), "600"], env=nn_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[-1] == "steps 600"
    aborts = [line.split() for line in lines if line.startswith("ABORT")]
    assert [" ".join(a) for a in aborts if a[2] != LUNROLL] == []
