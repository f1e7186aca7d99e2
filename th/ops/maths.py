"""The bulk paths of the maths reference (th/lua/torch/maths/): element-wise
functions, reductions, sorting, BLAS and comparisons on numpy views.

Every function receives numpy views of tensor memory (the result first) and
numbers.  They compute as TH does: integer division truncates toward zero,
integer sums accumulate in int64 and floating ones in float64, float tensors
apply the math functions in double precision before rounding.
"""
import warnings

import numpy as np

from th.ops import export, threads
from th.ops.threads import together

F64 = np.dtype(np.float64)
F32 = np.dtype(np.float32)


PARALLEL = 1 << 20     # from this many elements, memory-bound ufuncs run on the threads
PARALLEL_FLOPS = 1 << 24   # from this many multiply-adds, a matrix product is split by rows
PARALLEL_MATH = 1 << 17    # from this many elements, the math functions are split (as TH's OpenMP)


def _split(fn, out, a, b):
    """fn(a, b, out=out) on parts along the first axis, one per thread (one
    core does not saturate the memory bus)."""
    def part(s):
        pa = a[s] if isinstance(a, np.ndarray) else a
        pb = b[s] if isinstance(b, np.ndarray) else b
        return lambda: fn(pa, pb, out=out[s], casting="unsafe")
    together(*[part(slice(i, j)) for i, j in threads.parts(out.shape[0])])


def _isint(arr):
    return arr.dtype.kind in "iu"


def _scalar(v, dtype):
    """A Lua number as TH casts it to the tensor's element type (C conversion);
    the string '-0' is -0 (lupa passes -0 as the integer 0)."""
    if dtype.kind in "iu":
        return np.array(int(v), np.int64).astype(dtype)[()]
    return dtype.type(v)


def _like(src, out):
    """src seen with out's shape (counts match; sizes may differ, as TH allows)."""
    if isinstance(src, np.ndarray) and src.shape != out.shape:
        return src.reshape(out.shape)
    return src


def _idiv(a, b):
    """C integer division: the quotient truncated toward zero."""
    q = np.floor_divide(a, b)
    fix = (np.remainder(a, b) != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0))
    return q + fix


def _round(x, out=None):
    """C round(): halfway cases away from zero (x may be out)."""
    step = np.abs(x - np.trunc(x)) >= 0.5
    r = np.trunc(x, out=out)
    return np.add(r, np.copysign(step, r), out=r)


def _frac(x, out=None):
    """x - trunc(x): into out through its own memory when out is not x's
    (no temporary array: its fresh pages cost more than the arithmetic)."""
    if out is None or np.may_share_memory(x, out):
        return np.subtract(x, np.trunc(x), out=out)
    np.trunc(x, out=out)
    return np.subtract(x, out, out=out)


def _negate(x, out=None):
    """TH's negation, x * -1: a NaN keeps its sign bit (numpy's negative flips it)."""
    return np.multiply(x, -1, out=out)


def _sign(x, out=None):
    """TH's sign, x > 0 and 1 or x < 0 and -1 or 0: 0 for NaN and -0 (numpy's
    sign gives NaN and -0).  The two tests are subtracted as int8, one pass
    that writes out (x may be out: both are read first)."""
    up, down = np.greater(x, 0).view(np.int8), np.less(x, 0).view(np.int8)
    if out is None:
        return np.subtract(up, down, dtype=x.dtype)
    if out.dtype.kind == "u":    # a Byte tensor has no -1
        return np.greater(x, 0, out=out)
    return np.subtract(up, down, out=out)


# the exactly rounded functions (exp, log, sin... are C's, computed in
# LuaJIT: numpy's vectorised ones round differently on some CPUs)
UNARY = {
    "abs": np.abs, "sign": _sign, "neg": _negate, "ceil": np.ceil, "floor": np.floor,
    "round": _round, "sqrt": np.sqrt, "rsqrt": lambda x: 1.0 / np.sqrt(x), "trunc": np.trunc,
    "frac": _frac, "cinv": lambda x: 1.0 / x,
}


@export
def math_unary(name, out, x):
    """out = f(x); float32 is computed in double and rounded, as TH's libm calls.
    Large tensors are split over the threads, as TH's OpenMP loops were."""
    x = _like(x, out)
    f = UNARY[name]
    if out.dtype.kind != "f" and name not in ("abs", "neg", "sign"):
        raise ValueError(f"{name} is not available for integer tensors")
    # abs leaves a NaN as it was, sign bit included, as TH did (numpy's clears
    # it); kept before: out may be x.  (neg is x * -1, TH's: a NaN's sign kept)
    nan = nans = None
    if name == "abs" and out.dtype.kind == "f":
        nan = np.isnan(x)
        nans = x[nan] if nan.any() else None
    if out.size >= PARALLEL_MATH and out.shape[0] >= 2 and threads.count() > 1:
        together(*[(lambda s: lambda: _unary(f, out[s], x[s]))(slice(i, j))
                   for i, j in threads.parts(out.shape[0])])
    else:
        _unary(f, out, x)
    if nans is not None:
        out[nan] = nans


def _unary(f, out, x):
    if out.dtype.kind == "f" and out.dtype != F64:
        np.copyto(out, f(x.astype(F64)), casting="unsafe")
    elif isinstance(f, np.ufunc) or f in (_round, _frac, _negate, _sign):
        f(x, out=out)
    else:
        out[...] = f(x)


def _max(a, b):
    """TH's cmax, a > b ? a : b: b wins ties (+0 against -0) and NaN (numpy's
    maximum returns the NaN)."""
    return np.where(np.greater(a, b), a, b)


def _min(a, b):
    """TH's cmin, a < b ? a : b."""
    return np.where(np.less(a, b), a, b)


def _remainder(a, b):
    a = np.asarray(a)
    if a.dtype.kind in "iu":
        return _iremainder(a, np.asarray(b, a.dtype))
    return a - b * np.floor(a / b)


def _fremainder(a, b):
    """A FloatTensor's remainder: the quotient of the floats rounded to a
    float before the floor, the rest in double (rounded once by the caller)."""
    q = np.floor(np.divide(a, b, dtype=np.float32))
    return np.asarray(a, F64) - np.asarray(b, F64) * q


def _iremainder(a, b):
    """TH's integer remainder: C's a % b, plus b where r * b is negative, the
    product and the sum computed as C did (in int for the narrower types, in
    the element type for Int and Long, wrapping around)."""
    r = np.fmod(a, b)
    wide = np.int32 if a.dtype.itemsize < 4 else a.dtype
    negative = (r != 0) & (np.multiply(r, b, dtype=wide, casting="unsafe") < 0)
    return np.where(negative, np.add(r, b, dtype=a.dtype), r)


def _pow(a, b):
    """An integer tensor's cpow, in double as TH's C pow (a floating one's is
    C's pow itself, in LuaJIT)."""
    return np.power(np.asarray(a, F64), np.asarray(b, F64))


def _div(a, b):
    if np.asarray(a).dtype.kind in "iu":
        return _idiv(a, b)
    return np.true_divide(a, b)


def _shiftcounts(a, b):
    """Shift counts of a tensor operand as x86 took them from TH's element
    loop: modulo the width of C's int (long for a LongTensor).  A number
    operand went through a vectorised loop instead, whose out-of-range
    counts gave 0 (numpy's answer) in most elements."""
    if isinstance(b, np.ndarray):
        return np.bitwise_and(b, 63 if a.dtype.itemsize == 8 else 31)
    return b


def _lshift(a, b):
    a = np.asarray(a)
    return np.left_shift(a, _shiftcounts(a, b))


def _rshift(a, b):
    """TH shifted the bits of the element type's unsigned counterpart: a
    logical shift, zeros coming in from the left of negative numbers too."""
    a = np.asarray(a)
    b = _shiftcounts(a, b)
    if a.dtype.kind == "i":
        u = a.view(a.dtype.newbyteorder("=").str.replace("i", "u"))
        return np.right_shift(u, np.asarray(b).astype(u.dtype))
    return np.right_shift(a, b)


BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": _div,
    "fmod": np.fmod, "remainder": _remainder, "pow": _pow,
    "max": _max, "min": _min,
    "lshift": _lshift, "rshift": _rshift,
    "bitand": np.bitwise_and, "bitor": np.bitwise_or, "bitxor": np.bitwise_xor,
}


def _expanded_inplace(out, a):
    """Is out an expanded (stride-0) view updated in place (a is out)?"""
    return (0 in out.strides and isinstance(a, np.ndarray) and a.strides == out.strides
            and a.__array_interface__["data"][0] == out.__array_interface__["data"][0])


def _accumulate(f, out, b):
    """out[k] = f(out[k], b[k]) for each element k in row-major order, as TH's
    element loop did: where out repeats an element (stride 0) the updates add up
    (x = zeros(1):expand(100); x:add(ones(100)) leaves 100)."""
    item = out.itemsize
    offsets = np.zeros((), np.int64)
    for size, stride in zip(out.shape, out.strides):
        offsets = np.add.outer(offsets, np.arange(size, dtype=np.int64) * (stride // item))
    offsets = offsets.reshape(-1)
    flat = np.lib.stride_tricks.as_strided(out, shape=(int(offsets.max()) + 1,), strides=(item,))
    b = np.broadcast_to(b, out.shape).reshape(-1) if isinstance(b, np.ndarray) else b
    if isinstance(f, np.ufunc) and f.nin == 2:
        f.at(flat, offsets, np.asarray(b).astype(out.dtype, casting="unsafe"))
        return
    # (each result stored through numpy's C cast, as TH's element loop stored
    # it: an integer cpow beyond the type's range is x86's conversion, not a
    # Python integer's overflow error)
    cell = np.empty(1, out.dtype)
    for k, o in enumerate(offsets):
        v = b[k] if isinstance(b, np.ndarray) else b
        np.copyto(cell, f(flat[o], v), casting="unsafe")
        flat[o] = cell[0]


@export
def math_binary(name, out, a, b):
    """out = a <op> b; a and b are views or numbers (already of the element type)."""
    if not isinstance(a, np.ndarray):
        a = _scalar(a, out.dtype)
    if not isinstance(b, np.ndarray):
        b = _scalar(b, out.dtype)
    a, b = _like(a, out), _like(b, out)
    f = BINARY[name]
    if _expanded_inplace(out, a):
        return _accumulate(f, out, b)
    if name in ("add", "sub", "mul") or name.startswith("bit"):
        if out.size >= PARALLEL and out.shape[0] >= 2 and threads.count() > 1:
            _split(f, out, a, b)
        else:
            f(a, b, out=out, casting="unsafe")
    elif out.dtype == np.float32 and name == "remainder":
        np.copyto(out, _fremainder(a, b), casting="unsafe")
    elif out.dtype.kind == "f" and out.dtype != F64 and name in ("fmod", "remainder"):
        np.copyto(out, f(np.asarray(a, F64), np.asarray(b, F64)), casting="unsafe")
    else:
        np.copyto(out, f(a, b), casting="unsafe")


@export
def math_addscaled(out, a, v, b):
    """out = a + v * b (add with a scale, csub)."""
    a, b = _like(a, out), _like(b, out)
    v = _scalar(v, out.dtype)
    if _expanded_inplace(out, a):
        return _accumulate(np.add, out, v * b)
    if out.dtype.kind == "f" and a.dtype == b.dtype == out.dtype:
        # the same roundings as a + v * b, without the copy (split over the threads when large)
        if out.size >= PARALLEL and out.shape[0] >= 2 and threads.count() > 1:
            together(*[(lambda s: lambda: np.add(a[s], np.multiply(b[s], v), out=out[s]))(slice(i, j))
                       for i, j in threads.parts(out.shape[0])])
        else:
            np.add(a, np.multiply(b, v), out=out)
        return
    np.copyto(out, a + v * b, casting="unsafe")


@export
def math_addc(name, out, a, v, b, c):
    """addcmul / addcdiv: out = a + v * (b * c) or a + v * (b / c)."""
    a, b, c = _like(a, out), _like(b, out), _like(c, out)
    v = _scalar(v, out.dtype)
    if name == "addcmul":
        term = v * b * c                  # TH's order: value * t1 * t2
    elif _isint(out):
        # value * t1 / t2 in C: the product in (at least) int, then a truncating division
        wide = np.promote_types(out.dtype, np.int32)
        term = _idiv(b.astype(wide) * wide.type(v), c.astype(wide))
    else:
        term = v * b / c
    if _expanded_inplace(out, a):
        return _accumulate(np.add, out, term)
    np.copyto(out, a + term, casting="unsafe")


@export
def math_clamp(out, x, lo, hi):
    x = _like(x, out)
    lo, hi = _scalar(lo, out.dtype), _scalar(hi, out.dtype)
    if not lo <= hi:   # TH tested the lower bound first: x < lo gives lo, else x > hi gives hi
        # (a NaN bound is never taken)
        np.copyto(out, np.where(x < lo, lo, np.where(x > hi, hi, x)), casting="unsafe")
        return
    np.clip(x, lo, hi, out=out, casting="unsafe")


@export
def math_lerp(out, a, b, w):
    a, b = _like(a, out), _like(b, out)
    w = _scalar(w, out.dtype)
    np.copyto(out, a + w * (b - a), casting="unsafe")


COMPARE = {"lt": np.less, "le": np.less_equal, "gt": np.greater,
           "ge": np.greater_equal, "eq": np.equal, "ne": np.not_equal}


@export
def math_compare(name, out, a, b):
    """out (ByteTensor or the operands' type) = a <cmp> b as 0/1."""
    if not isinstance(b, np.ndarray):
        b = _scalar(b, a.dtype)
    a = _like(a, out)
    b = _like(b, out)
    f = COMPARE[name]
    if out.dtype == np.uint8:
        f(a, b, out=out.view(np.bool_))    # 0/1 bytes written in place
    else:
        np.copyto(out, f(a, b), casting="unsafe")


@export
def math_equal(a, b):
    return bool(np.array_equal(a, b))


# ---------------------------------------------------------------------------
# reductions


def _acc(x):
    return np.int64 if _isint(x) else F64


@export
def math_reduceall(name, x):
    """sum, prod, max, min, mean of all elements, as a Lua number."""
    # the ufuncs' own reduce: np.sum's Python-level dispatch cost 2 us a call
    if name == "sum":
        r = np.add.reduce(x, axis=None, dtype=_acc(x))
    elif name == "prod":
        r = np.multiply.reduce(x, axis=None, dtype=_acc(x))
    elif name == "max":
        r = np.max(x)
    elif name == "min":
        r = np.min(x)
    elif name == "all":
        return bool(np.all(x))
    elif name == "any":
        return bool(np.any(x))
    else:
        raise ValueError(name)
    return r.item()


@export
def math_reducedim(name, out, x, axis):
    """sum, prod, cumsum, cumprod along an axis (0-based), into out."""
    acc = _acc(x)
    if name in ("sum", "prod"):
        f = np.add if name == "sum" else np.multiply
        if out.dtype == acc:
            f.reduce(x, axis=axis, dtype=acc, keepdims=True, out=out)
            return
        r = f.reduce(x, axis=axis, dtype=acc, keepdims=True)
    elif name == "mean":
        r = np.mean(x, axis=axis, dtype=F64, keepdims=True)
    elif name == "cumsum":
        r = np.cumsum(x, axis=axis, dtype=acc)
    elif name == "cumprod":
        r = np.cumprod(x, axis=axis, dtype=acc)
    else:
        raise ValueError(name)
    np.copyto(out, r, casting="unsafe")


@export
def math_var(x, axis, biased, root, out=None):
    """var / std of all elements (axis < 0: returns a number) or along an axis."""
    ddof = 0 if biased else 1
    with warnings.catch_warnings():   # one element, unbiased: NaN as in TH, without numpy's warning
        warnings.simplefilter("ignore", RuntimeWarning)
        if axis < 0:
            r = np.var(x, dtype=F64, ddof=ddof)
            return float(np.sqrt(r) if root else r)
        r = _dimvar(x, axis, biased)
    if root:   # TH's std is the root of the variance already in the element type
        r = np.sqrt(np.asarray(r.astype(out.dtype), F64))
    np.copyto(out, r, casting="unsafe")


def _dimvar(x, axis, biased):
    """TH's variance along a dimension: from the sums of x and x^2 (x^2 in the
    element type, the sums in double; numpy adds them in pairs where TH added
    in order, which can change a double's last bit), the unbiased one with the
    factor n / (n - 1) computed in the element type."""
    n = x.shape[axis]
    x64 = np.asarray(x, F64)
    mean = np.sum(x64, axis=axis, keepdims=True) / n
    squares = np.sum(np.asarray(x * x, F64), axis=axis, keepdims=True)   # x * x in the element type
    if biased:
        r = squares / n - mean * mean
    else:
        real = x.dtype.type
        r = squares / (n - 1) - float(real(n) / real(n - 1)) * mean * mean
    return np.where(r < 0, 0.0, r)


def _pnorm(x, p, axis=None):
    x = np.asarray(x, F64)
    if p == 0:
        return np.sum(x != 0, axis=axis, keepdims=axis is not None).astype(F64)
    if p == 1:
        return np.sum(np.abs(x), axis=axis, keepdims=axis is not None)
    if p == 2:
        return np.sqrt(np.sum(x * x, axis=axis, keepdims=axis is not None))
    return np.sum(np.abs(x) ** p, axis=axis, keepdims=axis is not None) ** (1.0 / p)


@export
def math_norm(x, p, axis, out=None):
    """p-norm of all elements (axis < 0: a number) or along an axis into out."""
    if axis < 0:
        return float(_pnorm(x, p))
    np.copyto(out, _pnorm(x, p, axis), casting="unsafe")


@export
def math_dist(a, b, p):
    """TH's sum(|a - b|^p)^(1/p) for every p: p = 0 gives n^inf (1 or inf), not a count."""
    b = _like(b, a)
    if p > 0:
        return float(_pnorm(np.asarray(a, F64) - np.asarray(b, F64), p))
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        total = np.sum(np.abs(np.asarray(a, F64) - np.asarray(b, F64)) ** p)
        return float(total ** (np.float64(1) / p) if p != 0 else total ** np.inf)


@export
def math_renorm(out, x, p, axis, maxnorm):
    """Each slice along axis whose p-norm exceeds maxnorm is scaled down to it."""
    moved = np.moveaxis(np.asarray(x, F64), axis, 0)
    norms = _pnorm(moved.reshape(moved.shape[0], -1), p, 1)[:, 0]
    scale = np.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)
    shape = [1] * x.ndim
    shape[axis] = -1
    np.copyto(out, x * scale.reshape(shape), casting="unsafe")


@export
def math_extreme(name, vals, idx, x, axis):
    """max / min along an axis: values and 1-based indices (first on ties)."""
    pick = np.argmax if name == "max" else np.argmin
    i = np.expand_dims(pick(x, axis=axis), axis)
    vals[...] = np.take_along_axis(x, i, axis)
    idx[...] = i + 1


@export
def math_sort_distinct(vals, idx, x, axis, descending, partial):
    """Sorts floating x along axis into vals and 1-based idx where no two of a
    line's values are equal and none is NaN (its sorted order is then the
    only one: TH's quicksort gives it too) -> True when that is every line;
    when some lines are not (ties and NaN come out in TH's order only from
    its algorithm) and `partial`, a few of them: every line written and
    those lines' numbers (C order of the other dimensions) as a string, for
    the caller to sort again; else writes nothing -> False.  The values are
    sorted first: a failed try costs a tenth of the sort."""
    ordered = np.sort(x, axis=axis)
    lines = np.moveaxis(ordered, axis, -1)
    # (numpy sorts NaN last; -0 == 0 is a tie too)
    bad = np.isnan(lines[..., -1]) | (lines[..., 1:] == lines[..., :-1]).any(axis=-1)
    count = int(np.count_nonzero(bad))
    if count and (not partial or count * _RETRIES > bad.size):
        return False
    order = np.argsort(x, axis=axis)
    if descending:
        order, ordered = np.flip(order, axis), np.flip(ordered, axis)
    vals[...] = ordered
    idx[...] = order + 1
    return " ".join(map(str, np.flatnonzero(bad))) if count else True


# lines sorted again in TH's order after numpy's try: at most one in this many
_RETRIES = 8


@export
def math_dense_ranks(dst, x):
    """dst (doubles of x's shape) = each element's rank among x's distinct
    values, 0 for the smallest: the order and the ties of x's int64 values,
    in numbers a double holds exactly (for the selections, which sort lines
    of doubles, of a LongTensor holding values beyond 2^53)."""
    x = np.asarray(x)
    dst[...] = np.unique(x, return_inverse=True)[1].reshape(x.shape)


@export
def math_kth_distinct(vals, idx, x, axis, k):
    """The k-th smallest of each line of x along axis into vals and its 1-based
    position into idx (both of x's sizes with 1 at axis) when no other value
    of its line equals it and no line holds NaN (the answer is then the only
    one: TH's quickselect gives it too) -> True; else writes nothing -> False."""
    x = np.asarray(x)
    # (max propagates NaN: a third of isnan's time)
    if x.dtype.kind == "f" and np.isnan(x.max()):
        return False
    # (partition of the values and the one place equal to the k-th: a third
    # of argpartition's time; one line's count without a sum of booleans)
    if x.ndim == 1:
        value = np.partition(x, k - 1)[k - 1]
        equal = x == value
        if np.count_nonzero(equal) != 1:
            return False
        vals[0], idx[0] = value, int(equal.argmax()) + 1
        return True
    value = np.take(np.partition(x, k - 1, axis=axis), [k - 1], axis=axis)
    equal = x == value
    if (equal.sum(axis=axis) != 1).any():
        return False
    vals[...] = value
    idx[...] = np.expand_dims(equal.argmax(axis=axis), axis) + 1
    return True


@export
def math_cross(out, a, b, axis):
    a, b = np.asarray(a), _like(b, a)
    np.copyto(out, np.cross(a, b, axis=axis), casting="unsafe")


# ---------------------------------------------------------------------------
# BLAS


def _matmul(a, b, out=None):
    """a @ b (integers in int64), a large 2-D product split by rows of a over
    the threads, each on one BLAS thread."""
    threads.single_threaded_blas()
    if _isint(a):
        a, b = a.astype(np.int64), b.astype(np.int64)
    if a.ndim == 2 and b.ndim == 2 and a.shape[0] > 1 and threads.count() > 1 \
            and a.shape[0] * a.shape[1] * b.shape[1] >= PARALLEL_FLOPS:
        if out is None:
            out = np.empty((a.shape[0], b.shape[1]), np.result_type(a, b))
        together(*[(lambda s: lambda: np.matmul(a[s], b, out=out[s]))(slice(i, j))
                   for i, j in threads.parts(a.shape[0])])
        return out
    return np.matmul(a, b, out=out)


def _run(x):
    """How many of x's elements, in order, TH's TH_TENSOR_APPLY2 took as one
    evenly spaced section: all of a contiguous tensor (size-1 dimensions
    skipped); else the last dimension and those before it that continue its
    spacing, a size-1 dimension included (whose stride then counts: a 3x4x1
    view of strides 2, 6, 1 goes element by element)."""
    if x.ndim == 0:
        return 1
    if x.flags.c_contiguous:
        return x.size
    n = x.shape[-1]
    for i in range(x.ndim - 2, -1, -1):
        if x.strides[i] != x.strides[i + 1] * x.shape[i + 1]:
            break
        n *= x.shape[i]
    return n


def _intdot(a, b):
    """TH's dot of integer tensors: each stretch of elements that both
    operands hold evenly spaced (the whole of contiguous ones) summed in the
    element type, wrapping around (int64 products and sums wrap as C's, then
    the wrap into a narrower type), the stretches' sums added in a long."""
    runs, dtype = (_run(a), _run(b)), a.dtype
    a, b = a.reshape(-1).astype(np.int64), b.reshape(-1).astype(np.int64)
    if a.size == 0:
        return 0
    starts = np.union1d(np.arange(0, a.size, runs[0]), np.arange(0, a.size, runs[1]))
    parts = np.add.reduceat(a * b, starts).astype(dtype)
    return int(parts.astype(np.int64).sum())


@export
def math_dot(a, b):
    if _isint(a):
        return _intdot(a, b)
    a = a.reshape(-1)
    b = b.reshape(-1)
    return float(np.dot(a.astype(F64), b.astype(F64))) if a.dtype != F64 else float(np.dot(a, b))


def _store_scaled(out, beta, c, alpha, prod):
    """out = beta * c + alpha * prod, the scaling of the BLAS-like products
    (c may be None; factors of 1 and a beta of 0 cost nothing)."""
    if alpha != 1:
        prod = prod * alpha
    if c is not None and beta != 0:
        prod = prod + (c * beta if beta != 1 else c)
    np.copyto(out, prod, casting="unsafe")


@export
def math_gemm(out, beta, c, alpha, a, b, batchsum):
    """out = beta * c + alpha * (a @ b) for vectors, matrices and batches;
    batchsum adds the products of the batch together (addbmm).  c may be None."""
    if (c is None or beta == 0) and alpha == 1 and not batchsum and out.dtype == a.dtype == b.dtype \
            and not _isint(a):
        _matmul(a, b, out)
        return
    prod = _matmul(a, b)
    if batchsum:
        prod = prod.sum(axis=0)
    _store_scaled(out, beta, c, alpha, prod)


@export
def math_ger(out, beta, c, alpha, x, y):
    prod = np.multiply.outer(x, y)
    _store_scaled(out, beta, c, alpha, prod)


# ---------------------------------------------------------------------------
# construction


@export
def math_histc(out, x, nbins, lo, hi):
    """Counts of x in nbins equal bins over [lo, hi] (hi falls in the last bin);
    a 2-D out makes one histogram per row of x (bhistc)."""
    x = np.asarray(x, F64)
    rows = x.reshape(out.shape[0], -1) if out.ndim == 2 else x.reshape(1, -1)
    res = out if out.ndim == 2 else out.reshape(1, -1)
    for r in range(rows.shape[0]):
        row = rows[r]
        row = row[(row >= lo) & (row <= hi)]
        bins = ((row - lo) / (hi - lo) * nbins).astype(np.int64)
        bins[bins >= nbins] = nbins - 1
        res[r] = np.bincount(bins, minlength=int(nbins))[:int(nbins)]


@export
def math_minmax(x):
    return float(np.min(x)), float(np.max(x))


@export
def math_range(out, a, step):
    out[...] = (a + np.arange(out.size, dtype=F64) * step).reshape(out.shape)


@export
def math_triangle(out, x, k, upper):
    np.copyto(out, np.triu(x, int(k)) if upper else np.tril(x, int(k)), casting="unsafe")


@export
def math_cat(out, axis, *parts):
    np.concatenate(parts, axis=axis, out=out, casting="unsafe")
