"""Where the tests find torch/nn's Lua sources (the third-party tree, as published:
th itself does not contain nn) and the LUA_PATH a user would set for them."""
import os

from conftest import run_th
from thirdparty import THIRDPARTY

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")

LUA_PATH = ";".join([THIRDPARTY + "/?.lua", THIRDPARTY + "/?/init.lua",
                     THIRDPARTY + "/moses/?.lua"])


def nn_env():
    """The environment under which `th` finds nn and moses."""
    env = dict(os.environ)
    env["LUA_PATH"] = LUA_PATH
    return env


def assert_prints_recording(name, coretype=None):
    """fixtures/<name>.lua, run by th from the fixtures folder with nn found,
    prints fixtures/<name>_expected.txt (what the original printed): the
    first differing lines are shown.  coretype: under those OpenBLAS kernels
    (OPENBLAS_CORETYPE), against fixtures/<name>_<coretype>_expected.txt,
    what the original printed under them."""
    env, recording = nn_env(), name
    if coretype:
        env["OPENBLAS_CORETYPE"] = coretype
        recording = f"{name}_{coretype.lower()}"
    proc = run_th([os.path.join(FIXTURES, name + ".lua")], cwd=FIXTURES, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(os.path.join(FIXTURES, recording + "_expected.txt")) as f:
        expected = f.read().splitlines()
    got = proc.stdout.splitlines()
    bad = [(w, g) for w, g in zip(expected, got) if w != g]
    assert not bad and len(got) == len(expected), f"(original, th) {bad[:3]}"
