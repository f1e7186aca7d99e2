"""Where the tests find torch/nn's Lua sources (the third-party tree, as published:
th itself does not contain nn) and the LUA_PATH a user would set for them."""
import os

from thirdparty import THIRDPARTY

LUA_PATH = ";".join([THIRDPARTY + "/?.lua", THIRDPARTY + "/?/init.lua",
                     THIRDPARTY + "/moses/?.lua"])


def nn_env():
    """The environment under which `th` finds nn and moses."""
    env = dict(os.environ)
    env["LUA_PATH"] = LUA_PATH
    return env
