"""nn modules and criterions on special values (NaN, infinities, signed zeros,
subnormals), adaptive pooling's cells bit for bit, BCE's rounding in Float,
against the original Torch7: fixtures/nn_special_values.lua printed by the
original into fixtures/nn_special_values_expected.txt.  Where NaN goes was
each THNN kernel's comparisons: SoftShrink and HardShrink made it 0, the
adaptive and temporal max poolings never took it, LeakyReLU in place kept
its gradient, the criterions' gradients left it out."""
import os

from conftest import run_th
from nn_paths import nn_env

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def test_special_values_as_the_original():
    proc = run_th([os.path.join(FIXTURES, "nn_special_values.lua")], cwd=FIXTURES, env=nn_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(os.path.join(FIXTURES, "nn_special_values_expected.txt")) as f:
        expected = f.read().splitlines()
    got = proc.stdout.splitlines()
    assert len(got) == len(expected)
    bad = [(w, g) for w, g in zip(expected, got) if w != g]
    assert not bad, bad[:5]
