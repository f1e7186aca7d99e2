"""nn's spatial, volumetric and temporal modules on th's THNN kernels
(th/lua/thnn/Spatial*, Volumetric*, Temporal*) against the original Torch7.

fixtures/nn_spatial_cases.lua runs forward, updateGradInput and
accGradParameters (scale 0.5) of each module on small deterministic inputs and
prints every value; fixtures/nn_spatial_expected.txt is what the original
printed (its outputs, gradients, pooling indices and shape errors).  Double
results agree to the printed 9 digits, Float ones to float rounding.
"""
import os

import pytest

from conftest import run_th
from nn_paths import nn_env

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def parse(text):
    """{name: (sizes, [values])} of the numeric lines, {name: text} of the errors."""
    values, errors = {}, {}
    for line in text.splitlines():
        name, _, rest = line.partition(" ")
        if name.endswith(".error"):
            errors[name] = rest.strip()
        elif rest:
            sizes, _, data = rest.partition(" ")
            values[name] = (sizes, [float(v) for v in data.split()])
    return values, errors


with open(os.path.join(FIXTURES, "nn_spatial_expected.txt")) as f:
    EXPECTED, EXPECTED_ERRORS = parse(f.read())


@pytest.fixture(scope="module")
def results():
    proc = run_th([os.path.join(FIXTURES, "nn_spatial_cases.lua")], cwd=FIXTURES, env=nn_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return parse(proc.stdout)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_values(results, name):
    sizes, want = EXPECTED[name]
    assert name in results[0], "no output for " + name
    got_sizes, got = results[0][name]
    assert got_sizes == sizes
    tol = 2e-6 if "Float" in name else 1e-8
    assert got == pytest.approx(want, rel=tol, abs=tol)


@pytest.mark.parametrize("name", sorted(EXPECTED_ERRORS))
def test_shape_errors(results, name):
    assert results[1][name] == EXPECTED_ERRORS[name]
