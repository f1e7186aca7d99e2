"""The numpy side of tensor operations.

Every function here receives numpy views of tensor memory (made by
th.native.memory.view) and numbers, and works in place or returns new arrays.
Each family of operations is one module; `export` collects them into the one
table the Lua side sees as `require 'th.native.ops'`.
"""
import _thread   # (threading's import is 0.8 ms of every start)
import ctypes
import os
import time

EXPORTS = {}
# _NUMPY[0] is 1 once numpy is imported, _NUMPY[1] once preload started
# its import: Lua reads them through a pointer (numpy_flag), so that an
# import done in the background is seen without a call (a call would wait
# for the GIL, which the import holds)
_NUMPY = (ctypes.c_int32 * 2)()
_ALL = []   # [True] once every family is loaded
_LOCK = _thread.allocate_lock()


def export(fn):
    """Make fn callable from Lua under its own name."""
    EXPORTS[fn.__name__] = fn
    return fn


# the families that need neither numpy nor scipy: loaded at start-up, the
# others when an operation first needs one (numpy takes about 0.1 s to import)
LIGHT = ("paths", "timer", "threads", "lfs", "blaslib")


@export
def numpy_flag():
    """The address of the two int32 flags _NUMPY (the process's own: they
    outlive every Lua runtime)."""
    return ctypes.addressof(_NUMPY)


@export
def preload():
    """Import numpy and every family in a helper thread (once; Lua runs without
    the GIL, so the import overlaps the script): started by th.cli after the
    script's first moments, and by an operation that would have imported
    numpy itself, which runs its LuaJIT loop meanwhile (a first bulk
    operation would otherwise wait 45 ms for numpy)."""
    with _LOCK:
        if not _NUMPY[1]:
            _thread.start_new_thread(_load_soon, ())
            _NUMPY[1] = 1


def _load_soon():
    # a moment without the GIL first: the thread that started this one
    # returns to Lua (an import holds the GIL for a switch interval or more)
    time.sleep(0.002)
    # OpenBLAS's start (5-8 ms) here too, not at the first product: after
    # require 'nn', the first Linear forward 10.5-18 -> 4.7-10 ms
    from th.ops import blaslib
    blaslib.load_system_blas()
    load_all()


def load_light():
    for name in LIGHT:
        __import__(f"{__name__}.{name}")   # (importlib's import is 0.4 ms of every start)
    return EXPORTS


_FAMILY = {}   # exported name -> its module, read from the sources by _family_of


def _family_of(fname):
    """The module that exports fname (None: none does), found in the sources'
    text: importing every family to find out is what a first call must not pay."""
    if not _FAMILY:
        import re   # (here: 5 ms of start-up)
        exported_def = re.compile(r"^@export\n(?:@.*\n)*def (\w+)", re.M)   # as every family writes it
        for name in sorted(os.listdir(__path__[0])):
            if name.endswith(".py") and name != "__init__.py":
                with open(os.path.join(__path__[0], name), encoding="utf-8") as source:
                    for exported in exported_def.findall(source.read()):
                        _FAMILY[exported] = name[:-3]
    return _FAMILY.get(fname)


def _numpy():
    import warnings

    import numpy as np
    from th.ops import blaslib
    blaslib.numpy_imported()
    np.seterr(all="ignore")  # Torch7 computes with IEEE semantics, silently
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    _NUMPY[0] = 1


def load_for(fname):
    """Import numpy and the family that exports fname, or every family when
    none does; returns the exports so far and whether every family is loaded.
    (All of them cost 20 ms beyond numpy's 45, on the first bulk operation's
    clock when it comes before th.cli's preload is done.)"""
    family = _family_of(fname)
    if family is None:
        return load_all(), True
    _numpy()
    __import__(f"{__name__}.{family}")
    return EXPORTS, bool(_ALL)


def load_all():
    """Import every module of this package (each one a family) and return the exports.
    Modules import scipy inside their functions: it costs 0.15 s."""
    _numpy()
    # (os.listdir: pkgutil costs 8 ms of imports, on the first bulk operation's clock)
    for name in sorted(os.listdir(__path__[0])):
        if name.endswith(".py") and name != "__init__.py":
            __import__(f"{__name__}.{name[:-3]}")
    _ALL.append(True)
    return EXPORTS
