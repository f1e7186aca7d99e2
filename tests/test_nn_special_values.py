"""nn modules and criterions on special values (NaN, infinities, signed zeros,
subnormals), adaptive pooling's cells bit for bit, BCE's rounding in Float,
against the original Torch7: fixtures/nn_special_values.lua printed by the
original into fixtures/nn_special_values_expected.txt (under the Haswell
kernels the tests pin: LookupTable's gradient is OpenBLAS's axpy).  Where NaN goes was
each THNN kernel's comparisons: SoftShrink and HardShrink made it 0, the
adaptive and temporal max poolings never took it, LeakyReLU in place kept
its gradient, the criterions' gradients left it out."""
import os

from conftest import run_th
from nn_paths import nn_env

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def check(name):
    proc = run_th([os.path.join(FIXTURES, name + ".lua")], cwd=FIXTURES, env=nn_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(os.path.join(FIXTURES, name + "_expected.txt")) as f:
        expected = f.read().splitlines()
    got = proc.stdout.splitlines()
    assert len(got) == len(expected)
    bad = [(w, g) for w, g in zip(expected, got) if w != g]
    assert not bad, bad[:5]


def test_special_values_as_the_original():
    check("nn_special_values")


def test_criteria_bit_for_bit():
    # Abs, SmoothL1, SoftMargin, DistKLDiv, MSE, Margin: losses summed one
    # element after another in the element type, SoftMargin's gradient in
    # THNN's steps (each once differed in the last bit, in Double or Float)
    check("nn_criteria_bits")
