"""nngraph (with graph, over nn) from the third-party tree runs under th.

- nngraph's own test files (test/test_*.lua) pass, with the assert counts the
  original Torch7 reported for them.  They `require 'totem'`, which is not in the
  third-party tree: tests/lua/totem.lua stands in for it (the original ran them
  with the same stand-in).  test_old and the graph-drawing tests need graphviz
  (the `dot` command and libgvc through FFI; .ci/run installs it).
- A char-rnn-style LSTM step (fixtures/packages/nngraph_lstm.lua) built with
  nn.gModule: the original built it from a seed, ran forward/backward and saved
  it (nngraph_lstm_torch7.t7, its printout nngraph_lstm_expected.txt); th loads
  that file and gives the same numbers, builds the same model from the same seed,
  and wrote nngraph_lstm_th.t7, which the original loaded and ran
  (nngraph_lstm_original_on_th_file.txt).
- A few iterations of truncated backpropagation through time over clones of the
  step, with dropout and optim.rmsprop, give the original's losses
  (nngraph_train_expected.txt).
All expected outputs were recorded by running /opt/torch7-ref/bin/th with these
packages on its LUA_PATH.
"""
import os
import re
import shutil

import pytest

from conftest import run_th, uncoloured
from thirdparty import FIXTURES, THIRDPARTY, expected, packages_env

NNGRAPH_TESTS = os.path.join(THIRDPARTY, "nngraph", "test")
LSTM = os.path.join(FIXTURES, "nngraph_lstm.lua")
TOTEM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lua")

# the summary line the original printed for each of nngraph's test files
ORIGINAL_SUMMARY = {
    "test_JustElement": "Completed 3 asserts in 3 tests with 0 failures and 0 errors and 1 warning",
    "test_JustTable": "Completed 2 asserts in 2 tests with 0 failures and 0 errors and 1 warning",
    "test_ModuleFromCriterion": "Completed 14 asserts in 4 tests with 0 failures and 0 errors and 1 warning",
    "test_connectivity": "Completed 1 assert in 1 test with 0 failures and 0 errors",
    "test_debug": "Completed 6 asserts in 2 tests with 0 failures and 0 errors",
    "test_nest": "Completed 1 assert in 1 test with 0 failures and 0 errors and 1 warning",
    "test_nngraph": "Completed 106 asserts in 28 tests with 0 failures and 0 errors and 1 warning",
}


def nngraph_env():
    env = packages_env()
    env["LUA_PATH"] = f"{TOTEM}/?.lua;{THIRDPARTY}/moses/?.lua;" + env["LUA_PATH"]
    return env


def run_lua(args, cwd, timeout=300):
    proc = run_th(args, cwd=str(cwd), env=nngraph_env(), timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    return proc.stdout


def plain(text):
    """Tester's report without colours and without the WAIT half of each line."""
    text = uncoloured(text)
    return re.sub(r"[^\n]*\[WAIT\]", "", text)


@pytest.mark.parametrize("name", sorted(ORIGINAL_SUMMARY))
def test_nngraph_own_test_file(name, tmp_path):
    if name == "test_nngraph":
        assert shutil.which("dot"), "graphviz is not installed (.ci/run installs it)"
    out = plain(run_lua([os.path.join(NNGRAPH_TESTS, name + ".lua")], tmp_path))
    assert ORIGINAL_SUMMARY[name] in out.splitlines()


def label_fields(text):
    """A dot file's node labels with their fields sorted: nngraph lists a node's
    fields in pairs() order, which follows the LuaJIT build's string hashing."""
    def sort_label(m):
        head, _, fields = m.group(1).partition("\\n")
        return 'label="' + head + "\\n" + "\\l".join(sorted(fields.split("\\l"))) + '"'
    return re.sub(r'label="([^"]*)"', sort_label, text)


def test_nngraph_test_old_draws_its_graphs(tmp_path):
    assert shutil.which("dot"), "graphviz is not installed (.ci/run installs it)"
    out = run_lua([os.path.join(NNGRAPH_TESTS, "test_old.lua")], tmp_path)
    assert label_fields(out) == label_fields(expected("nngraph_test_old_expected.txt"))
    for name in ("new", "old"):           # simple_print.dot and graph.dot (libgvc)
        assert (tmp_path / f"{name}.svg").read_text().rstrip().endswith("</svg>")
        assert "nn.Linear(10 -> 10)" in (tmp_path / f"{name}.dot").read_text()


def numbers(text):
    """-> [(words, [floats])] per line of the LSTM script's printout."""
    rows = []
    for line in text.splitlines():
        words = line.split()
        rows.append(([w for w in words if not re.fullmatch(r"-?[\d.]+(e-?\d+)?", w)],
                     [float(w) for w in words if re.fullmatch(r"-?[\d.]+(e-?\d+)?", w)]))
    return rows


def assert_same_numbers(got, want, rtol=1e-12):
    got, want = numbers(got), numbers(want)
    assert [w for w, _ in got] == [w for w, _ in want]
    for (_, g), (_, w) in zip(got, want):
        assert g == pytest.approx(w, rel=rtol, abs=1e-14)


def test_lstm_saved_by_the_original_runs_the_same_in_th(tmp_path):
    out = run_lua([LSTM, "check", os.path.join(FIXTURES, "nngraph_lstm_torch7.t7")], tmp_path)
    assert_same_numbers(out, expected("nngraph_lstm_expected.txt") + "largest difference 0 0 0\n")


def test_lstm_built_in_th_is_the_originals(tmp_path):
    out = run_lua([LSTM, "build"], tmp_path)
    assert_same_numbers(out, expected("nngraph_lstm_expected.txt"))


def test_lstm_saved_by_th_gives_what_the_original_read_from_it(tmp_path):
    out = run_lua([LSTM, "check", os.path.join(FIXTURES, "nngraph_lstm_th.t7")], tmp_path)
    assert_same_numbers(out, expected("nngraph_lstm_original_on_th_file.txt"))


def test_lstm_save_and_load_in_th(tmp_path):
    made = run_lua([LSTM, "make", "lstm.t7"], tmp_path)
    checked = run_lua([LSTM, "check", "lstm.t7"], tmp_path)
    assert checked == made + "largest difference 0 0 0\t\n"


def test_charrnn_training_gives_the_originals_losses(tmp_path):
    out = run_lua([LSTM, "train"], tmp_path)
    assert_same_numbers(out, expected("nngraph_train_expected.txt"), rtol=1e-9)
