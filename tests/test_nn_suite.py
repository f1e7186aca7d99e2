"""torch/nn's own test suite (nn/test.lua, 212 tests) under th, as a ratchet.

One th process runs nn.test with a fixed seed and the report's per-test
verdicts are read.  The failing tests are listed in nn_known_failures.txt,
which may only shrink: a listed test that passes fails this test (take it off
the list), and so does an unlisted test that fails.  (The original fails
DontCast too, with Moses 2.x; CAdd fails on th's in-place add into an expanded
tensor, which does not accumulate as TH did.)
"""
import os
import re

import pytest

from conftest import run_th, uncoloured
from nn_paths import nn_env

KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nn_known_failures.txt")
VERDICT = re.compile(r"(\d+)/(\d+) (\S+) \.+ \[(PASS|FAIL|ERROR)\]")
RUN = "require 'nn'; require 'nn.test'; nn.test(nil, 1)"


def known_failures():
    with open(KNOWN) as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    proc = run_th(["-e", RUN], cwd=str(tmp_path_factory.mktemp("nn")), env=nn_env(),
                  timeout=3600)   # the volumetric tests are slow on a busy machine
    found = {m.group(3): m.group(4) for m in VERDICT.finditer(uncoloured(proc.stdout))}
    assert found, proc.stdout[-2000:] + proc.stderr[-2000:]
    return found


def test_every_test_reports(verdicts):
    assert len(verdicts) == 212


def test_failures_only_shrink(verdicts):
    failing = {name for name, v in verdicts.items() if v != "PASS"}
    known = known_failures()
    assert sorted(failing - known) == [], "newly failing nn tests: %s" % sorted(failing - known)
    assert sorted(known - failing) == [], "passing now, take them off nn_known_failures.txt: %s" % sorted(known - failing)
