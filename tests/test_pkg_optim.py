"""optim (its Lua from the third-party tree) under th: its own test scripts
(optim/test/test_*.lua, the random generator seeded) print what the original
Torch7 printed, and a script running the algorithms those do not (nag, asgd,
rprop, fista, checkgrad, polyinterp, Logger, ConfusionMatrix) too.
test_fista needs the `unsup` package and test_logger a screen terminal for
gnuplot: the original ran neither here."""
import os
import shutil

import pytest

from thirdparty import FIXTURES, THIRDPARTY, expected, run_with_packages

EXACT = ["adadelta", "adagrad", "adam", "adamax", "cg", "confusion", "de", "lbfgs",
         "lbfgs_w_ls", "rmsprop", "sgd"]


@pytest.fixture
def optim_tests(tmp_path):
    """A copy of optim/test (the scripts write files next to themselves)."""
    shutil.copytree(os.path.join(THIRDPARTY, "optim", "test"), tmp_path / "test")
    shutil.copy(os.path.join(FIXTURES, "optim", "seeded.lua"), tmp_path / "test")
    return tmp_path / "test"


def run_seeded(directory, script):
    r = run_with_packages(["seeded.lua", script], cwd=str(directory), timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("name", EXACT)
def test_optim_test_script_prints_what_the_original_printed(optim_tests, name):
    out = run_seeded(optim_tests, f"test_{name}.lua")
    assert out == expected(os.path.join("optim", f"test_{name}.expected"))


def test_cmaes_converges_as_the_original(optim_tests):
    """CMA-ES meets covariance matrices with nearly equal eigenvalues, whose
    eigenvectors LAPACK builds choose differently: the path differs from the
    original's after a few generations, the optimum found does not."""
    out = run_seeded(optim_tests, "test_cmaes.lua").split("\n")
    ref = expected(os.path.join("optim", "test_cmaes.expected")).split("\n")
    assert out[0] == ref[0] and out[2:16] == ref[2:16]      # x = the optimum, all 1.0000
    evals = int(out[1].split("\t")[1])
    assert evals < 10000            # it stopped on convergence, not on its maxEval budget
    history = [float(line.split("\t")[1]) for line in out[16:] if line.count("\t") == 2]
    assert history[0] == float(ref[16].split("\t")[1])     # the same first generation
    assert history[-1] < 1e-10


def test_other_algorithms_print_what_the_original_printed(tmp_path):
    shutil.copy(os.path.join(FIXTURES, "optim", "optim_more.lua"), tmp_path)
    shutil.copy(os.path.join(THIRDPARTY, "optim", "test", "rosenbrock.lua"), tmp_path)
    r = run_with_packages(["optim_more.lua"], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout == expected(os.path.join("optim", "optim_more.expected"))
