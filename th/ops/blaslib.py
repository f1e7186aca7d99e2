"""Where the BLAS is, which th/lua/torch/maths/cblas.lua calls through
LuaJIT's FFI: the system's OpenBLAS (Debian's libopenblas0, the library
Torch7 was built on: its products give Torch7's bits), else the OpenBLAS
numpy's wheel bundles (numpy.libs).  Found without importing numpy (a light
family, loaded at start-up)."""
import os

from th.ops import export


@export
def system_blas_library():
    """-> the name of the system's OpenBLAS (32-bit integer CBLAS, symbols
    cblas_*), or None.  Tried by its soname: ctypes.util.find_library runs
    ldconfig in a subprocess (8 ms on the first product's clock)."""
    import ctypes
    for name in ("libopenblas.so.0", "libopenblas.so"):
        try:
            ctypes.CDLL(name)
        except OSError:
            continue
        return name
    return None


@export
def blas_library():
    """-> the path of numpy's bundled OpenBLAS (64-bit integer CBLAS, symbols
    scipy_cblas_*64_), or None (a numpy built on another BLAS)."""
    import glob   # (here, as importlib.util: they cost start-up 3 ms)
    import importlib.util
    spec = importlib.util.find_spec("numpy")
    if spec is None or not spec.submodule_search_locations:
        return None
    libs = os.path.join(os.path.dirname(list(spec.submodule_search_locations)[0]), "numpy.libs")
    found = sorted(glob.glob(os.path.join(libs, "libscipy_openblas64_*.so")))
    return found[0] if found else None
