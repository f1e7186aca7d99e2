"""Differential cases: tests/parity/NAME.lua run by th must print exactly
NAME.expected, the original Torch7's output (recorded by scripts/record_parity.py)."""
import pathlib

import pytest

from conftest import normalise, run_th

CASES = pathlib.Path(__file__).resolve().parent / "parity"


def cases(prefix):
    """pytest parameters for the cases whose name starts with prefix."""
    return [pytest.param(p, id=p.stem) for p in sorted(CASES.glob(prefix + "*.lua"))]


def check(case):
    out = run_th([case.name], cwd=str(CASES), timeout=120)
    assert normalise(out.stdout) == normalise(case.with_suffix(".expected").read_text()), out.stderr
