"""Every call form Torch7 declared (../shared/reference/callforms.txt), with the
arguments scripts/callforms_check.py makes for it (two profiles: 3x3 tensors
and dimension 1, 2x4 tensors and dimension 2), against the original's
recorded results (tests/fixtures/callforms_expected*.txt): th accepts every call
the original accepted and returns the same values and types, and writes the
same values into its tensor arguments.  The calls th still treats differently
are listed in tests/callforms_known_differences.txt, which may only shrink."""
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import callforms_check  # noqa: E402

from conftest import th_command  # noqa: E402
from parity_cases import cases, check  # noqa: E402

KNOWN = pathlib.Path(__file__).resolve().parent / "callforms_known_differences.txt"


def known():
    lines = KNOWN.read_text().splitlines()
    return {line.split()[0] for line in lines if line.strip() and not line.startswith("#")}


@pytest.mark.parametrize("profile", sorted(callforms_check.PROFILES))
def test_declared_call_forms_behave_as_in_torch7(profile, monkeypatch):
    monkeypatch.setattr(callforms_check, "PROFILE", profile)
    todo = callforms_check.calls()
    got = callforms_check.run_all(th_command()[0], todo, size=len(todo))
    diffs = callforms_check.compare(todo, got, callforms_check.load_expected())
    found = {f"{profile}:{cid}": kind for kind, items in diffs.items() for cid, *_ in items}
    listed = {k for k in known() if k.startswith(profile + ":")}
    new = {cid: kind for cid, kind in found.items() if cid not in listed}
    assert not new, f"{len(new)} calls differ from Torch7: {sorted(new.items())[:20]}"
    fixed = listed - set(found)
    assert not fixed, f"now behaving as Torch7, remove from {KNOWN.name}: {sorted(fixed)}"


@pytest.mark.parametrize("case", cases("callforms_"))
def test_forms_beyond_the_declared_list(case):
    check(case)


def test_where_torch7_read_garbage_or_crashed_th_raises(runtime):
    for code in [
        # Torch7 copied size() elements from a shorter storage of another type, past its end
        "torch.DoubleStorage{1, 2, 3}:copy(torch.FloatStorage{9, 8})",
        # integer division by zero: SIGFPE in Torch7
        "torch.IntTensor{1, 2}:div(0)",
        "torch.LongTensor{1, 2}:fmod(0)",
        "torch.ByteTensor{1, 2}:cdiv(torch.ByteTensor{1, 0})",
    ]:
        ok, msg = runtime.execute(f"return pcall(function() return {code} end)")
        assert ok is False and "Traceback" not in msg, code
