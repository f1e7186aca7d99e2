"""Whole training programs against the original Torch7: what
scripts/fuzz_programs.py found, bit for bit (fixtures/nn_programs_found.lua,
nn_programs_found_expected.txt the original's output)."""
from nn_paths import assert_prints_recording


def test_cases_the_programs_fuzz_found():
    """Sigmoid's gradient on a strided gradOutput (an nngraph node feeding a
    Concat then two heads: the Concat's narrow of the summed gradient): THNN
    takes gradOutput * (1 - y) * y in double, th rounded each factor in the
    tensor's type (Float) or multiplied in another order (Double, last bits);
    strided gradInputs too; then three training steps of that program."""
    assert_prints_recording("nn_programs_found")
