"""Numpy buffers behind Torch storages.

Storages are allocated by LuaJIT itself and get an ndarray over their memory
only when bulk maths needs one (`from_cdata`).  Buffers made here (file
mappings, windows, foreign memory) are owned by Lua through the lupa reference
it holds: when Lua's garbage collector drops it, the array is released.
Lua reads and writes elements through an FFI pointer; bulk maths gets a
strided `view` of the same memory.
"""
import ctypes
import sys

import numpy as np

DTYPES = {
    "Byte": np.dtype(np.uint8),
    "Char": np.dtype(np.int8),
    "Short": np.dtype(np.int16),
    "Int": np.dtype(np.int32),
    "Long": np.dtype(np.int64),
    "Float": np.dtype(np.float32),
    "Double": np.dtype(np.float64),
    "Half": np.dtype(np.float16),
}
TYPENAMES = {dt: name for name, dt in DTYPES.items()}


def address(arr):
    return arr.ctypes.data


def window(arr, offset, n):
    """A buffer sharing arr's memory from element `offset` (0-based), n elements long."""
    sub = arr[int(offset):int(offset) + int(n)]
    return sub, sub.ctypes.data


def view(arr, offset, *dims):
    """The ndarray seen by a tensor: sizes then strides (in elements) in `dims`."""
    n = len(dims) // 2
    item = arr.itemsize
    return np.ndarray(dims[:n], arr.dtype, arr, offset * item,
                      tuple(s * item for s in dims[n:]))


def from_file(tname, filename, shared):
    """A buffer mapped on a file: writes reach the file only when `shared`."""
    dtype = DTYPES[tname]
    raw = np.memmap(filename, dtype=np.uint8, mode="r+" if shared else "c")
    # (the whole elements the file holds, as TH's mapping counted them: bytes
    # past the last one are left out)
    n = len(raw) // dtype.itemsize
    arr = raw[:n * dtype.itemsize].view(dtype)
    if not shared:
        canonical_nans(arr)
    return arr, arr.ctypes.data


# the bits of the default NaN (what 0/0 gives) and the lowest bit pattern
# above it, by float dtype's width; little-endian hosts
_NANS = {4: (np.uint32, 0xffc00000, 0xff800000), 8: (np.uint64, 0xfff8000000000000, 0xfff8000000000000)}


def canonical_nans(arr, chunk=1 << 22):
    """Negative NaNs of a large payload made the default NaN, in place.

    LuaJIT's FFI reads a double whose high word is 0xfff90000 or above (a float
    converts to one) as a tagged value, nil or a crash; the original's
    lua_pushnumber made every NaN it pushed the default one.  File reads do the
    same (File.lua's canonicalnans); here for a private mapping of a file,
    whose pages are copied only where such a NaN is."""
    if arr.dtype.kind != "f" or arr.itemsize not in _NANS or sys.byteorder != "little":
        return
    utype, nan, above = _NANS[arr.itemsize]
    bits = arr.view(utype)
    for start in range(0, len(bits), chunk):
        part = bits[start:start + chunk]
        hit = np.flatnonzero(part > utype(above))
        if len(hit):
            part[hit] = utype(nan)


def from_cdata(tname, addr, n, owner):
    """An ndarray over a LuaJIT buffer (storages live in LuaJIT memory): it
    holds `owner`, the buffer's cdata, so the buffer lives as long as the array."""
    dtype = DTYPES[tname]
    n = int(n)
    raw = (ctypes.c_char * (n * dtype.itemsize)).from_address(int(addr))
    raw.owner = owner
    return np.ndarray((n,), dtype, raw)


def from_cdata_view(tname, addr, n, owner, offset, *dims):
    """from_cdata's array and a view of it (as `view`), for one call from Lua."""
    arr = from_cdata(tname, addr, n, owner)
    return arr, view(arr, offset, *dims)


def from_address(tname, addr, n):
    """A buffer over memory someone else owns (torch.Storage(size, pointer))."""
    dtype = DTYPES[tname]
    raw = (ctypes.c_char * (int(n) * dtype.itemsize)).from_address(int(addr))
    return np.frombuffer(raw, dtype=dtype, count=int(n))
