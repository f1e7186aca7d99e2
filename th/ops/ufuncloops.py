"""numpy's inner loops of the arithmetic ufuncs, as C function addresses that
LuaJIT calls through its FFI (th/lua/torch/maths/simd.lua): numpy's SIMD
loops run on tensor memory with no Python call per operation.

A loop is `void loop(char **args, npy_intp const *dimensions, npy_intp const
*steps, void *data)`; the legacy table of a ufunc (PyUFuncObject's functions,
data and types, found at the offsets of numpy's public header) holds one per
type signature.  The loops kept here are plain IEEE or wrapping integer
arithmetic: they touch no Python object and need no GIL.
"""
import ctypes
import sys

from th.ops import export

# PyUFuncObject after PyObject_HEAD: int nin, nout, nargs, identity;
# PyUFuncGenericFunction *functions; void **data; int ntypes, reserved1;
# const char *name; char *types
_HEAD = ctypes.sizeof(ctypes.c_ssize_t) + ctypes.sizeof(ctypes.c_void_p)
if hasattr(sys, "gettotalrefcount"):  # pragma: no cover - a debug build's header is longer
    _HEAD += 2 * ctypes.sizeof(ctypes.c_void_p)


class _UFunc(ctypes.Structure):
    _fields_ = [("head", ctypes.c_char * _HEAD),
                ("nin", ctypes.c_int), ("nout", ctypes.c_int), ("nargs", ctypes.c_int),
                ("identity", ctypes.c_int),
                ("functions", ctypes.POINTER(ctypes.c_void_p)),
                ("data", ctypes.POINTER(ctypes.c_void_p)),
                ("ntypes", ctypes.c_int), ("reserved1", ctypes.c_int),
                ("name", ctypes.c_char_p), ("types", ctypes.POINTER(ctypes.c_char))]


# Torch's element types by name, as numpy's dtypes
_TYPES = {"Byte": "uint8", "Char": "int8", "Short": "int16", "Int": "int32",
          "Long": "int64", "Float": "float32", "Double": "float64"}
# integer division truncates in C (numpy's floors): floats only
_UFUNCS = {"add": ("add", _TYPES), "sub": ("subtract", _TYPES), "mul": ("multiply", _TYPES),
           "div": ("divide", {"Float": "float32", "Double": "float64"})}


def _loops(ufunc, dtypes):
    """{type name: (loop address, data address)} for the ufunc's loops whose
    operands and result are all of one of the dtypes; {} when the object
    does not have the layout expected (then th keeps its own loops)."""
    import numpy as np
    u = _UFunc.from_address(id(ufunc))
    if (u.nin, u.nout, u.ntypes) != (2, 1, ufunc.ntypes) or u.name != ufunc.__name__.encode():
        return {}
    found = {}
    for tname, dt in dtypes.items():
        num = np.dtype(dt).num
        for i in range(u.ntypes):
            sig = [ord(u.types[i * 3 + k]) for k in range(3)]
            if sig == [num] * 3 and u.functions[i]:
                found[tname] = (u.functions[i], u.data[i] or 0)
                break
    return found


@export
def ufunc_loops():
    """The loops of add, sub, mul and div, a line each: "operation type
    loop-address data-address" (decimal: Lua reads them as 64-bit integers)."""
    import numpy as np
    lines = []
    for op, (name, dtypes) in _UFUNCS.items():
        for t, (f, d) in _loops(getattr(np, name), dtypes).items():
            lines.append(f"{op} {t} {f} {d}")
    return "\n".join(lines)
