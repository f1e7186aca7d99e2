"""nn's modules whose THNN kernels th provides (th/lua/thnn), against the original.

fixtures/nn_modules.lua runs forward and backward passes (Double and Float)
on seeded inputs and prints every result; fixtures/nn_modules_expected.txt is
what the original Torch7 printed for it.  Each printed tensor must have the
original's size and values (within float rounding).  (The run also guards
th's small LongTensor -> FloatTensor copy, which lupa's LuaJIT miscompiled once
hot: LookupTable's Float inputs became zeros.)
"""
import os

import numpy as np
import pytest

from conftest import run_th
from nn_paths import nn_env

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def parse(text):
    """-> {'Module Type field': (size, values)} from the fixture's printout."""
    results = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 3 or parts[1] not in ("Double", "Float"):
            continue
        values = parts[3:]
        size = values.pop(0) if values and values[0].startswith("[") else None
        results[" ".join(parts[:3])] = (size, np.array([float(v) for v in values]))
    return results


with open(os.path.join(FIXTURES, "nn_modules_expected.txt")) as f:
    EXPECTED = parse(f.read())


@pytest.fixture(scope="module")
def actual(tmp_path_factory):
    proc = run_th([os.path.join(FIXTURES, "nn_modules.lua")], env=nn_env(), timeout=300,
                  cwd=str(tmp_path_factory.mktemp("nn")))
    assert proc.returncode == 0, proc.stderr
    return parse(proc.stdout)


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_as_the_original(actual, key):
    size, want = EXPECTED[key]
    assert key in actual
    got_size, got = actual[key]
    assert got_size == size
    tol = 1e-5 if " Float " in key else 1e-9
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)



@pytest.mark.parametrize("family", ["LSTMFused", "GRUFused"])
def test_fused_recurrent_kernels_fail_on_cpu_as_the_original(th, family):
    """The original's libTHNN had these for CUDA only: an assertion on CPU tensors."""
    proc = th(f"""
require 'nn'
local x = torch.randn(2, 12)
print(pcall(x.THNN.{family}_updateOutput, x:cdata(), x:cdata()))
""", env=nn_env())
    assert proc.stdout.strip().startswith("false")
    assert "Assertion `false' failed. Not implemented for CPU" in proc.stdout
