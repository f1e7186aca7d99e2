"""The numpy side of tensor operations.

Every function here receives numpy views of tensor memory (made by
th.native.memory.view) and numbers, and works in place or returns new arrays.
Each family of operations is one module; `export` collects them into the one
table the Lua side sees as `require 'th.native.ops'`.
"""
import importlib

EXPORTS = {}


def export(fn):
    """Make fn callable from Lua under its own name."""
    EXPORTS[fn.__name__] = fn
    return fn


# the families that need neither numpy nor scipy: loaded at start-up, the
# others when an operation first needs one (numpy takes about 0.1 s to import)
LIGHT = ("paths", "timer", "threads", "lfs", "blaslib")


def load_light():
    for name in LIGHT:
        importlib.import_module(f"{__name__}.{name}")
    return EXPORTS


def load_all():
    """Import every module of this package (each one a family) and return the exports.
    Modules import scipy inside their functions: it costs 0.15 s."""
    import os
    import warnings

    import numpy as np
    np.seterr(all="ignore")  # Torch7 computes with IEEE semantics, silently
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    # (os.listdir: pkgutil costs 8 ms of imports, on the first bulk operation's clock)
    for name in sorted(os.listdir(__path__[0])):
        if name.endswith(".py") and name != "__init__.py":
            importlib.import_module(f"{__name__}.{name[:-3]}")
    return EXPORTS
