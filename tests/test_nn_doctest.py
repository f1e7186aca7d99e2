"""nn's documentation examples (shared/thirdparty/nn/doc/*.md) under
`th --doctest -l nn`: every example passes or is in
tests/nn_doctest_known_failures.txt with its reason (each one was run under
the original Torch7 as well).  The list is a ratchet: an example that starts
passing must come off it."""
import glob
import os
import re

import pytest

from conftest import run_th
from helpers import doc_known_failures
from nn_paths import THIRDPARTY, nn_env

KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nn_doctest_known_failures.txt")
DOCS = sorted(glob.glob(os.path.join(THIRDPARTY, "nn", "doc", "*.md")))


def known_failures():
    """{(doc file, line): reason}"""
    return doc_known_failures(KNOWN)


@pytest.fixture(scope="module")
def report():
    r = run_th(["--doctest", "-l", "nn", "--seed", "1"] + DOCS, env=nn_env(), timeout=600)
    assert re.search(r"^\d+ passed, \d+ failed$", r.stdout, re.M), r.stdout[-2000:] + r.stderr[-2000:]
    return r.stdout


# examples that print a table of string keys: their order is the string hash's, which
# lupa's LuaJIT seeds at random per process, so they pass or fail from run to run
HASH_ORDERED = {("table.md", 729)}


def outcomes(report, verdict):
    return {(os.path.basename(path), int(n))
            for path, n in re.findall(rf"^{verdict} (\S+):(\d+)\b", report, re.M)} - HASH_ORDERED


def test_every_failure_is_known(report):
    unknown = outcomes(report, "FAIL") - set(known_failures())
    assert not unknown, "new failures: " + ", ".join(f"{f}:{n}" for f, n in sorted(unknown))


def test_known_failures_still_fail(report):
    # the list stays exact: a listed example that passes now, or is gone, comes off it
    fixed = set(known_failures()) - outcomes(report, "FAIL")
    assert not fixed, "passing or missing, take off the list: " + ", ".join(f"{f}:{n}" for f, n in sorted(fixed))


def test_most_examples_pass(report):
    assert len(outcomes(report, "PASS")) >= 139


def test_a_library_that_does_not_load_fails_the_run(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("```\n> = 1\n1\n```\n")
    r = run_th(["--doctest", "-l", "no_such_library", str(doc)], cwd=str(tmp_path))
    assert r.returncode == 1 and "could not load no_such_library" in r.stderr


def test_libraries_load_before_the_examples(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("```\n> = torch.type(nn.Linear(2, 3))\nnn.Linear\n```\n")
    r = run_th(["--doctest", "-lnn", str(doc)], cwd=str(tmp_path), env=nn_env())
    assert r.returncode == 0 and r.stdout.endswith("1 passed, 0 failed\n"), r.stdout + r.stderr
