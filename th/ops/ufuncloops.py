"""numpy's inner loops of the arithmetic, comparison, maximum/minimum and clip ufuncs, as C function addresses that
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
# comparisons write numpy's bools: bytes of 0 or 1, a ByteTensor's elements,
# as C's comparisons gave them (NaN compares with nothing)
_COMPARISONS = {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal",
                "eq": "equal", "ne": "not_equal"}
# maximum/minimum (NaN-propagating, exact on ordered distinct operands: th
# fixes up the rest to TH's rule, minmax.lua; a LongTensor index's smallest
# and largest in their reduction form, simd.extremes) and clip (TH's clamp rule for
# lo <= hi, signed zeros and NaN included, measured: tests/fixtures/bits_minmax)
_EXTREMES = {"max": "maximum", "min": "minimum", "clip": "clip"}
# trunc (exact), for frac: x - trunc(x); and the exact unary functions of
# floats: C's floor, ceil and sqrt (correctly rounded), 1 / x (a division:
# cinv, and rsqrt after sqrt), fabs (abs of a tensor holding no NaN)
_FLOATS = {"Float": "float32", "Double": "float64"}
_UNARY = {"trunc": "trunc", "floor": "floor", "ceil": "ceil", "sqrt": "sqrt", "reciprocal": "reciprocal",
          "absolute": "absolute"}
# the bit operations of integers (bitops.lua): TH's right shift is logical,
# the loop of each type's unsigned counterpart (same bits); counts are in
# range (th takes the others elsewhere)
_INTS = {k: v for k, v in _TYPES.items() if k not in _FLOATS}
_BITWISE = {"bitand": ("bitwise_and", _INTS), "bitor": ("bitwise_or", _INTS),
            "bitxor": ("bitwise_xor", _INTS), "lshift": ("left_shift", _INTS),
            "rshift": ("right_shift", {"Byte": "uint8", "Char": "uint8", "Short": "uint16",
                                       "Int": "uint32", "Long": "uint64"})}


def _loops(ufunc, dtypes, boolean=False):
    """{type name: (loop address, data address)} for the ufunc's loops whose
    operands are all of one of the dtypes, and so is the result (a bool
    when `boolean`); {} when the object does not have the layout expected
    (then th keeps its own loops)."""
    import numpy as np
    u = _UFunc.from_address(id(ufunc))
    if (u.nin, u.nout, u.ntypes) != (ufunc.nin, 1, ufunc.ntypes) or u.name != ufunc.__name__.encode():
        return {}
    found = {}
    nargs = u.nin + 1
    for tname, dt in dtypes.items():
        num = np.dtype(dt).num
        want = [num] * u.nin + [np.dtype(np.bool_).num if boolean else num]
        for i in range(u.ntypes):
            sig = [ord(u.types[i * nargs + k]) for k in range(nargs)]
            if sig == want and u.functions[i]:
                found[tname] = (u.functions[i], u.data[i] or 0)
                break
    return found


@export
def ufunc_loops():
    """The loops of add, sub, mul, div, the comparisons, max, min, clip, the
    unary functions of _UNARY and the bit operations, a line each:
    "operation type loop-address data-address" (decimal: Lua reads them as
    64-bit integers)."""
    import numpy as np
    found = [(op, _loops(getattr(np, name), dtypes)) for op, (name, dtypes) in _UFUNCS.items()]
    found += [(op, _loops(getattr(np, name), _TYPES, True)) for op, name in _COMPARISONS.items()]
    found += [(op, _loops(getattr(np._core.umath, name), _TYPES)) for op, name in _EXTREMES.items()]
    found += [(op, _loops(getattr(np, name), _FLOATS)) for op, name in _UNARY.items()]
    found += [(op, _loops(getattr(np, name), dtypes)) for op, (name, dtypes) in _BITWISE.items()]
    return "\n".join(f"{op} {t} {f} {d}" for op, loops in found for t, (f, d) in loops.items())
