"""numpy's argsort of doubles (its vectorised quicksort), as a C function address
that LuaJIT calls through its FFI (th/lua/torch/maths/simd.lua): a line of
tensor memory sorted with no Python call.

The function is a dtype's `argsort[NPY_QUICKSORT]`, `int f(void *values,
npy_intp *order, npy_intp n, void *array)`, in the PyArray_ArrFuncs table that
numpy 2's C API (`_PyDataType_GetArrFuncs`, slot 365 of the table numpy
publishes as `_ARRAY_API`) gives.  It reads the values and reorders `order`,
touches no Python object and needs no GIL.  It is used only after it sorted
test arrays as np.argsort does; otherwise th keeps its own sort.
"""
import ctypes

from th.ops import export

_GETARRFUNCS = 365      # _PyDataType_GetArrFuncs in numpy 2's C API table
# argsort[NPY_QUICKSORT] in PyArray_ArrFuncs: after cast[21], getitem ...
# fillwithscalar (12 functions) and sort[3]
_ARGSORT = 21 + 12 + 3
_ARGSORTFUNC = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_ssize_t,
                                ctypes.c_void_p)


def _address():
    """The argsort function of float64, or 0."""
    import numpy as np
    if int(np.__version__.split(".")[0]) < 2:
        return 0
    getpointer = ctypes.pythonapi.PyCapsule_GetPointer
    getpointer.restype, getpointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    api = ctypes.cast(getpointer(np._core._multiarray_umath._ARRAY_API, None), ctypes.POINTER(ctypes.c_void_p))
    getarrfuncs = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(api[_GETARRFUNCS])
    table = getarrfuncs(id(np.dtype(np.float64)))
    return ctypes.cast(table, ctypes.POINTER(ctypes.c_void_p))[_ARGSORT] or 0 if table else 0


def _sorts(address):
    """Whether the function at address orders test arrays of distinct doubles
    (a few sizes, either side of numpy's small-array cut-offs) as np.argsort."""
    import numpy as np
    f = _ARGSORTFUNC(address)
    rng = np.random.default_rng(7)
    for n in (1, 2, 5, 16, 17, 64, 100, 257, 1000, 4099):
        x = rng.permutation(n).astype(np.float64) * rng.uniform(0.5, 2.0) - n / 2
        order = np.arange(n, dtype=np.intp)
        if f(x.ctypes.data, order.ctypes.data, n, None) != 0 or not np.array_equal(order, np.argsort(x)):
            return False
    return True


@export
def argsort_function():
    """The address of numpy's argsort of doubles (decimal: Lua reads it as a
    64-bit integer), or "0" when it is not there or did not pass _sorts."""
    try:
        address = _address()
        return str(address if address and _sorts(address) else 0)
    except (AttributeError, ValueError, OSError):   # another numpy's layout
        return "0"
