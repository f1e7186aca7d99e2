"""Where the tests find torch/nn's Lua sources (../shared/thirdparty, as published:
th itself does not contain nn) and the LUA_PATH a user would set for them."""
import os

from conftest import ROOT


def _thirdparty():
    """The nearest shared/thirdparty above the repository (worktrees sit deeper)."""
    here = ROOT
    while True:
        candidate = os.path.join(here, "shared", "thirdparty")
        if os.path.isdir(os.path.join(candidate, "nn")):
            return candidate
        parent = os.path.dirname(here)
        if parent == here:
            raise RuntimeError("torch/nn's sources (shared/thirdparty/nn) not found above " + ROOT)
        here = parent


THIRDPARTY = _thirdparty()
LUA_PATH = ";".join([THIRDPARTY + "/?.lua", THIRDPARTY + "/?/init.lua",
                     THIRDPARTY + "/moses/?.lua"])


def nn_env():
    """The environment under which `th` finds nn and moses."""
    env = dict(os.environ)
    env["LUA_PATH"] = LUA_PATH
    return env
