"""The conformance corpus recorded from the original Torch7 (../shared/conformance),
as a ratchet.

Every case runs under `th` as the corpus driver runs it (fresh empty working
directory, stdin from /dev/null, 20 s limit) and its stdout and exit status are
compared with the recording (trailing whitespace and trailing blank lines
ignored).  The cases that do not pass yet are listed in
conformance_known_failures.txt, which may only shrink: a listed case that
passes fails this test (take it off the list), and so does an unlisted case
that fails.
"""
import glob
import os
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import SHARED, normalise, th_command

CORPUS = os.path.join(SHARED, "conformance")
KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "conformance_known_failures.txt")
CASES = sorted(os.path.relpath(p, os.path.join(CORPUS, "cases"))[:-4]
               for p in glob.glob(os.path.join(CORPUS, "cases", "*", "*.lua")))


def known_failures():
    with open(KNOWN) as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def normalise_recording(text):
    """The driver's normalisation of `stdout + [exit N]`: no trailing whitespace,
    no blank lines just before the exit line."""
    lines = normalise(text).split("\n")
    last, body = lines[-1], lines[:-1]
    while body and body[-1] == "":
        body.pop()
    return "\n".join(body + [last])


def run_case(case):
    """-> (normalised expected, normalised actual) as the corpus driver compares them."""
    with open(os.path.join(CORPUS, "expected", case + ".txt")) as f:
        expected = normalise_recording(f.read())
    with tempfile.TemporaryDirectory() as cwd:
        try:
            proc = subprocess.run(th_command() + [os.path.join(CORPUS, "cases", case + ".lua")],
                                  cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                                  timeout=20)
            out, rc = proc.stdout.decode("utf-8", "replace"), proc.returncode
        except subprocess.TimeoutExpired as exc:
            out, rc = (exc.stdout or b"").decode("utf-8", "replace"), 124
    if out and not out.endswith("\n"):
        out += "\n"
    actual = normalise_recording(out + f"[exit {rc}]")
    return expected, actual


@pytest.fixture(scope="module")
def results():
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(CASES, pool.map(run_case, CASES)))


def test_corpus_is_present():
    assert CASES, f"no conformance cases found under {CORPUS}"


def test_known_failures_are_real_cases():
    assert known_failures() <= set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_case(case, results):
    expected, actual = results[case]
    if case in known_failures():
        assert expected != actual, f"{case} passes now: take it off {os.path.basename(KNOWN)}"
    else:
        assert actual == expected
