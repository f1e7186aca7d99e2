"""torch/nn's own test suite (nn/test.lua, 212 tests) under th, as a ratchet.

The suite runs in SHARDS th processes, one per test class, so that pytest-xdist
(`--dist loadscope`) spreads its minutes over the workers: shard k runs the
tests whose place in name order is k modulo SHARDS, with a fixed seed.  The
report's per-test verdicts are read.  The failing tests are listed in
nn_known_failures.txt, which may only shrink: a listed test that passes fails
this test (take it off the list), and so does an unlisted test that fails.
(The original fails DontCast too, with Moses 2.x.)
"""
import os
import re

import pytest

from conftest import run_th, uncoloured
from nn_paths import nn_env

KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nn_known_failures.txt")
VERDICT = re.compile(r"(\d+)/(\d+) (\S+) \.+ \[(PASS|FAIL|ERROR)\]")
TOTAL, SHARDS = 212, 4

# nn/test.lua adds its tests to a torch.Tester when required and runs them all
# in nn.test: Tester.run is wrapped to run one shard's names instead
RUN = """
require 'nn'
local run = torch.Tester.run
function torch.Tester.run(self)
   local names = {}
   for name in pairs(self.tests) do names[#names + 1] = name end
   table.sort(names)
   local mine = {}
   for i, name in ipairs(names) do
      -- (Tester.run takes patterns)
      if i %% %d == %d then mine[#mine + 1] = '^' .. name:gsub('%%W', '%%%%%%0') .. '$' end
   end
   return run(self, mine)
end
require 'nn.test'
nn.test(nil, 1)
"""


def known_failures():
    with open(KNOWN) as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


class Shard:
    index = None

    @pytest.fixture(scope="class")
    @classmethod
    def verdicts(cls, tmp_path_factory):
        proc = run_th(["-e", RUN % (SHARDS, cls.index)], cwd=str(tmp_path_factory.mktemp("nn")),
                      env=nn_env(), timeout=3600)   # the volumetric tests are slow on a busy machine
        found = {m.group(3): m.group(4) for m in VERDICT.finditer(uncoloured(proc.stdout))}
        assert found, proc.stdout[-2000:] + proc.stderr[-2000:]
        return found

    def test_every_test_reports(self, verdicts):
        assert len(verdicts) == len(range(self.index or SHARDS, TOTAL + 1, SHARDS))

    def test_failures_only_shrink(self, verdicts):
        failing = {name for name, v in verdicts.items() if v != "PASS"}
        known = known_failures() & set(verdicts)
        assert sorted(failing - known) == [], "newly failing nn tests: %s" % sorted(failing - known)
        assert sorted(known - failing) == [], \
            "passing now, take them off nn_known_failures.txt: %s" % sorted(known - failing)


class TestShard0(Shard):
    index = 0


class TestShard1(Shard):
    index = 1


class TestShard2(Shard):
    index = 2


class TestShard3(Shard):
    index = 3
