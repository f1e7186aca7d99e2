"""Documentation examples as tests.

Each tests/examples/<family>/<name>.lua is an example from the seeds (the
Torch7 documentation), run through `th`; <name>.out next to it is what the
documentation (or the original Torch7) prints for it, compared after
normalising trailing whitespace, as the conformance driver does.
"""
import glob
import os

import pytest

from conftest import normalise, run_th

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
EXAMPLES = sorted(glob.glob(os.path.join(HERE, "*", "*.lua")))


@pytest.mark.parametrize("script", EXAMPLES,
                         ids=[os.path.relpath(p, HERE)[:-4] for p in EXAMPLES])
def test_example(script, tmp_path):
    with open(script[:-4] + ".out") as f:
        expected = f.read()
    result = run_th([script], cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert normalise(result.stdout) == normalise(expected)
