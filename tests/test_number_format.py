"""Numbers print as Torch7's LuaJIT (2.1.0-beta3) printed them: exact ties
round away from zero, %f of tiny numbers is 0.  Expected outputs were printed
by the original `th` (tests/fixtures/number_format.expected)."""
import os

from conftest import run_th

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def differences_from_the_original(fixture):
    """(expected, th's) line pairs that differ, running fixtures/<fixture>.lua"""
    proc = run_th([os.path.join(FIXTURES, fixture + ".lua")])
    assert proc.returncode == 0, proc.stderr[-2000:]
    with open(os.path.join(FIXTURES, fixture + ".expected")) as f:
        expected = f.read().splitlines()
    out = proc.stdout.splitlines()
    assert len(out) == len(expected)
    return [(e, o) for e, o in zip(expected, out) if e != o]


def test_format_tostring_and_tensor_printing_match_the_original():
    assert differences_from_the_original("number_format") == []


def test_format_errors_are_the_raw_ones(th):
    proc = th("for _, a in ipairs{{'%d', 'x'}, {'%5.2f', {}}, {'%y', 1}, {'%5.2f'}, {}, {'%.100f', 1}} do\n"
              "  print(pcall(string.format, unpack(a)))\nend\n"
              "print(pcall(function() io.write({}) end))")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[-1].endswith("script.lua:4: bad argument #1 to 'write' (string expected, got table)\t")
    assert out[:-1] == [
        "false\tbad argument #2 to '?' (number expected, got string)\t",
        "false\tbad argument #2 to '?' (number expected, got table)\t",
        "false\tinvalid option '%y' to 'format'\t",
        "false\tbad argument #2 to '?' (value expected)\t",
        "false\tbad argument #1 to '?' (string expected, got no value)\t",
        "false\tinvalid option '%.100' to 'format'\t",
    ]


def test_near_ties_and_subnormals_round_as_the_original():
    """Numbers a little past halfway (a 5, then zeros, then other digits),
    subnormal numbers and %.0g: lupa's LuaJIT took some for ties (rounded to
    even), the original rounded them by their exact value (found by
    scripts/fuzz_print.py; tests/fixtures/number_near_ties.expected)."""
    assert differences_from_the_original("number_near_ties") == []
