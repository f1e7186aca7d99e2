"""The numpy side of tensor operations.

Every function here receives numpy views of tensor memory (made by
th.native.memory.view) and numbers, and works in place or returns new arrays.
Each family of operations is one module; `export` collects them into the one
table the Lua side sees as `require 'th.native.ops'`.
"""
import ctypes
import importlib

EXPORTS = {}
# set to 1 by load_all: Lua reads it through a pointer (loaded_flag), so that
# an import done in the background (th.cli.preload) is seen without a call
_LOADED = ctypes.c_int32(0)


def export(fn):
    """Make fn callable from Lua under its own name."""
    EXPORTS[fn.__name__] = fn
    return fn


# the families that need neither numpy nor scipy: loaded at start-up, the
# others when an operation first needs one (numpy takes about 0.1 s to import)
LIGHT = ("paths", "timer", "threads", "lfs", "blaslib")


@export
def loaded_flag():
    """The address of the int32 that is 1 once every family is loaded (the
    process's own: it outlives every Lua runtime)."""
    return ctypes.addressof(_LOADED)


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
    _LOADED.value = 1
    return EXPORTS
