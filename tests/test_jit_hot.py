"""Every element path run hot (2000 times, so LuaJIT compiles and reuses its
traces) for every pair of the seven types: the LuaJIT in lupa miscompiled a
hot store of an int64 through a float* (wrong values, then a segfault).
The Lua side is tests/fixtures/jit_hot.lua; its expected output is what the
original Torch7 printed, and the conversions are checked against numpy too."""
import os

import numpy as np

from conftest import run_th

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
A = [3, -5, 100, 127, 0, 1, 42, -1, 200, 1000, 70000, 9, 2, 11, 15]
DTYPES = {"Byte": np.uint8, "Char": np.int8, "Short": np.int16, "Int": np.int32,
          "Long": np.int64, "Float": np.float32, "Double": np.float64}


def hot_output():
    proc = run_th([os.path.join(FIXTURES, "jit_hot.lua"), "2000"], timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [line.rstrip() for line in proc.stdout.splitlines()]


def test_every_element_path_hot_matches_the_original():
    out = hot_output()
    with open(os.path.join(FIXTURES, "jit_hot.expected")) as f:
        expected = f.read().splitlines()
    assert [line for line in out if line.startswith("UNSTABLE")] == []
    assert len(out) == len(expected)
    for got, want in zip(out, expected):
        assert got == want
    # the conversions against numpy's C casts, independently of the recording
    for line in out:
        name, values = line.split("|")
        path, _, pair = name.partition(" ")
        if ">" not in pair:
            continue
        src, dst = pair.split(">")
        want = np.array(A, np.int64).astype(DTYPES[src]).astype(DTYPES[dst])
        if path == "fill":
            want = np.repeat(want[[1, 10, 9]], 5)
        assert [float(v) for v in values.split()] == want.astype(np.float64).tolist(), name


def test_long_to_float_sum_stays_right_when_hot(th):
    # the reproduction: it failed after ~70 iterations, or segfaulted
    proc = th("for i = 1, 2000 do assert(torch.LongTensor(15):fill(3):float():sum() == 45) end\nprint('ok')")
    assert proc.returncode == 0 and proc.stdout.strip() == "ok"
