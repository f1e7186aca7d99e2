"""Helpers shared by several test modules (import as `from helpers import ...`;
pytest puts this folder on sys.path, the rootdir of conftest.py)."""
import numpy as np
import pytest
from lupa.luajit21 import LuaError


def lua_runner(runtime):
    """-> lua(code, **arrays): sets each array as a Lua global tensor (a numpy
    copy: Lua may write to it), runs code and returns what it returns, a
    tensor as a numpy copy."""
    def run(code, **arrays):
        for name, a in arrays.items():
            runtime.globals[name] = runtime.from_numpy(np.array(a))
        out = runtime.execute(code)
        if runtime.eval("torch.isTensor")(out):
            return np.array(runtime.to_numpy(out))
        return out
    return run


def raises_on_matrix(runtime, code, message):
    """With x the 2x3 DoubleTensor 1..6, code raises a Lua error matching message."""
    runtime.execute("x = torch.Tensor({{1, 2, 3}, {4, 5, 6}})")
    with pytest.raises(LuaError, match=message):
        runtime.execute(code)


def assert_caught_lua_error(runtime, code):
    """The expression code fails as a Lua error pcall catches, not a Python traceback."""
    ok, msg = runtime.execute(f"return pcall(function() return {code} end)")
    assert ok is False and "Traceback" not in msg


def doc_known_failures(path):
    """{(document, line): reason} of a known-failures list of `th --doctest`
    examples (lines "document:line reason"; # starts a comment)."""
    out = {}
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                where, reason = line.split(None, 1)
                name, number = where.rsplit(":", 1)
                out[(name, int(number))] = reason.strip()
    return out
