"""The generated LuaJIT loops (th/lua/torch/maths/kernels.lua) compute as TH's C
code did, for every element type, once LuaJIT has compiled them: each
operation runs 2000 times on tensors of 300 elements (beyond the 64 of the
small-tensor loops, within the loops' limit), and the result is compared with
the same arithmetic done by numpy in the element type (C's wrap-around for
integers, float arithmetic for FloatTensor)."""
import ctypes
import ctypes.util
import math

import numpy as np
import pytest

HOT = 2000
N = 300
TYPES = {
    "Byte": np.uint8, "Char": np.int8, "Short": np.int16, "Int": np.int32,
    "Long": np.int64, "Float": np.float32, "Double": np.float64,
}
INTEGER = ("Byte", "Char", "Short", "Int", "Long")


def operands(dtype):
    """x spans the type's range (so sums and products wrap), y has no zero."""
    rng = np.random.RandomState(7)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -2**31), min(info.max, 2**31 - 1)
        x = rng.randint(lo, hi, N, dtype=np.int64).astype(dtype)
        y = rng.randint(1, min(hi, 1000), N).astype(dtype)
    else:
        x = (rng.randn(N) * 100).astype(dtype)
        y = (rng.rand(N) + 0.5).astype(dtype)
    return x, y


def hot(runtime, tname, code, x, y):
    """code (a Lua statement over res, x, y) run HOT times -> res as numpy."""
    f = runtime.eval(f"""function(x, y)
        local res = torch.{tname}Tensor(x:nElement())
        for _ = 1, {HOT} do {code} end
        return res
    end""")
    res = f(runtime.from_numpy(x), runtime.from_numpy(y))
    return np.array(runtime.to_numpy(res))


@pytest.mark.parametrize("tname", list(TYPES))
@pytest.mark.parametrize("code, expected", [
    ("torch.add(res, x, 7)", lambda x, y, t: x + t(7)),
    ("torch.add(res, x, y)", lambda x, y, t: x + y),
    ("torch.csub(res, x, 3)", lambda x, y, t: x - t(3)),
    ("torch.csub(res, x, y)", lambda x, y, t: x - y),
    ("torch.mul(res, x, 3)", lambda x, y, t: x * t(3)),
    ("torch.cmul(res, x, y)", lambda x, y, t: x * y),
    ("torch.cmax(res, x, y)", lambda x, y, t: np.maximum(x, y)),
    ("torch.cmin(res, x, 5)", lambda x, y, t: np.minimum(x, t(5))),
    ("torch.add(res, x, 2, y)", lambda x, y, t: x + t(2) * y),
])
def test_arithmetic_wraps_as_c(runtime, tname, code, expected):
    t = TYPES[tname]
    x, y = operands(t)
    with np.errstate(over="ignore"):
        want = expected(x, y, t).astype(t)
    np.testing.assert_array_equal(hot(runtime, tname, code, x, y), want)


def cfloat(name):
    """The C library's float function name (expf...), called as Torch7 called it for FloatTensors."""
    f = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name)
    f.argtypes, f.restype = [ctypes.c_float], ctypes.c_float
    return f


@pytest.mark.parametrize("tname", ["Float", "Double"])
@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "abs", "floor", "ceil", "tanh", "sigmoid",
                                  "cinv", "round", "trunc", "frac", "neg"])
def test_math_functions_as_the_c_library(runtime, tname, name):
    t = TYPES[tname]
    x, _ = operands(t)
    x = np.abs(x) if name in ("log", "sqrt") else x
    libm = {            # TH called the C library's functions, as Python's math module does
        "exp": math.exp, "log": math.log, "sqrt": math.sqrt, "abs": abs, "floor": math.floor,
        "ceil": lambda v: math.copysign(math.ceil(v), v), "tanh": math.tanh,
        "sigmoid": lambda v: 1 / (1 + math.exp(-v)), "cinv": lambda v: 1 / v if v else math.inf,
        "round": lambda v: math.copysign(math.floor(abs(v) + 0.5), v),
        "trunc": lambda v: math.copysign(math.trunc(v), v), "frac": lambda v: v - math.trunc(v), "neg": lambda v: -v,
    }[name]
    if tname == "Float" and name in ("exp", "log", "sqrt", "tanh", "sigmoid"):
        # the float functions (expf...), and float steps in the sigmoid
        expf = cfloat("expf")
        libm = (lambda v: 1 / float(np.float32(1 + expf(-v)))) if name == "sigmoid" else cfloat(name + "f")
    with np.errstate(all="ignore"):
        want = np.array([float(libm(v)) for v in x.tolist()]).astype(t)
    got = hot(runtime, tname, f"torch.{name}(res, x)", x, x)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("tname", list(TYPES))
def test_comparisons_and_reductions(runtime, tname):
    t = TYPES[tname]
    x, y = operands(t)
    f = runtime.eval(f"""function(x, y)
        local gt, eq = nil, torch.{tname}Tensor()
        local s, m, n
        for _ = 1, {HOT} do
           gt = torch.gt(x, y); torch.eq(eq, x, x); s = x:sum(); m = x:max(); n = y:min()
        end
        return gt, eq, s, m, n
    end""")
    gt, eq, s, m, n = f(runtime.from_numpy(x), runtime.from_numpy(y))
    np.testing.assert_array_equal(runtime.to_numpy(gt), (x > y).astype(np.uint8))
    np.testing.assert_array_equal(runtime.to_numpy(eq), np.ones(N, t))
    total = 0        # element after element, as TH's loop (floats in a double)
    for v in x.tolist():
        total += v
    assert s == total
    assert m == x.max() and n == y.min()


@pytest.mark.parametrize("src", list(TYPES))
@pytest.mark.parametrize("dst", list(TYPES))
def test_copy_between_types_casts_as_c(runtime, src, dst):
    """Out of range or NaN floats become INT_MIN's low bits in integer tensors
    (INT64_MIN in LongTensors), as x86's cast gave."""
    x, _ = operands(TYPES[src])
    if src in ("Float", "Double"):
        x[:4] = [np.nan, 1e10, -1e10, 3.7]
    got = hot(runtime, dst, "res:copy(x)", x, x)
    if TYPES[dst] in (np.float32, np.float64) or src in INTEGER:
        with np.errstate(all="ignore"):
            want = x.astype(TYPES[dst])
    else:
        v = x.astype(np.float64)
        lim = 2**63 if dst == "Long" else 2**31
        big = ~(np.abs(v) < lim)
        want = np.where(big, -lim, np.trunc(np.where(big, 0, v))).astype(np.int64).astype(TYPES[dst])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("tname", list(TYPES))
def test_fill_and_clone(runtime, tname):
    t = TYPES[tname]
    x, _ = operands(t)
    f = runtime.eval(f"""function(x)
        local a, c = torch.{tname}Tensor(5000)
        for _ = 1, {HOT} do a:fill(-3); c = x:clone() end
        return a, c
    end""")
    a, c = f(runtime.from_numpy(x))
    np.testing.assert_array_equal(runtime.to_numpy(a), np.full(5000, -3).astype(t))
    np.testing.assert_array_equal(runtime.to_numpy(c), x)


@pytest.mark.parametrize("tname", list(TYPES))
def test_fill_of_every_size_hot(runtime, tname):
    # the loop writes the first elements, memcpy doubles them: sizes around
    # each doubling step, a view in the middle of its storage, and -0
    t = TYPES[tname]
    sizes = [1, 255, 256, 257, 511, 512, 513, 1000, 100003]
    f = runtime.eval(f"""function(sizes)
        local out = {{}}
        for k = 1, #sizes do
           local n = sizes[k]
           local s = torch.{tname}Tensor(n + 4):fill(9)
           local v = s:narrow(1, 3, n)
           for i = 1, {HOT // 10} do v:fill(i % 7 - 3) end
           out[k] = s
        end
        local z = torch.{tname}Tensor(1000)
        for _ = 1, {HOT} do z:fill(-0.0) end
        out[#sizes + 1] = z
        return out
    end""")
    out = f(runtime.lua.table_from(sizes))
    for k, n in enumerate(sizes):
        want = np.concatenate([[9, 9], np.full(n, (HOT // 10) % 7 - 3), [9, 9]]).astype(t)
        np.testing.assert_array_equal(runtime.to_numpy(out[k + 1]), want)
    z = runtime.to_numpy(out[len(sizes) + 1])
    assert (z == 0).all() and (np.signbit(z).all() if tname in ("Float", "Double") else True)


def test_nan_stays_the_max_and_min(runtime):
    got = runtime.execute("""
        local x = torch.rand(1000)
        x[500] = 0/0
        local a, b
        for _ = 1, 2000 do a, b = x:max(), x:min() end
        return a ~= a, b ~= b""")
    assert got == (True, True)


def test_non_contiguous_and_expanded_take_the_general_path(runtime):
    """A transposed operand and an expanded (stride-0) result still give TH's results."""
    got = runtime.execute("""
        local a = torch.range(1, 400):resize(20, 20)
        local r = torch.Tensor(20, 20)
        for _ = 1, 2000 do torch.add(r, a:t(), 1) end
        return r[3][1], r[1][3], r:sum()""")
    assert got == (4.0, 42.0, 80600.0)


@pytest.mark.parametrize("tname", list(TYPES))
def test_sums_along_a_dimension(runtime, tname):
    """Each output element adds its line in order (a double for floats, but a
    FloatTensor's along any dimension but the last adds in float, as TH added
    rows into the result); integer results wrap around in the element type,
    as TH's C stored its long sums."""
    t = TYPES[tname]
    x, _ = operands(t)
    x3 = x.reshape(5, 6, 10)
    f = runtime.eval(f"""function(x)
        local a, b, c
        for _ = 1, {HOT} do a, b, c = x:sum(1), x:sum(2), x:sum(3) end
        return a, b, c
    end""")
    got = f(runtime.from_numpy(x3))
    for axis, g in enumerate(got):
        if t in (np.float32, np.float64):
            acc = np.float32 if t == np.float32 and axis < 2 else np.float64
            want = np.zeros(np.delete(x3.shape, axis), acc)
            for k in range(x3.shape[axis]):
                want = want + np.take(x3, k, axis=axis).astype(acc)
        else:
            want = x3.astype(np.int64).sum(axis=axis)
        np.testing.assert_array_equal(np.array(runtime.to_numpy(g)).reshape(want.shape), want.astype(t))


def test_small_matrix_products_and_dots(runtime):
    """Small products and dots, once compiled, give what the first call gave
    (the original's bits: tests/fixtures/bits_blas.lua), contiguous or
    transposed."""
    rng = np.random.RandomState(3)
    a, b = rng.rand(7, 5), rng.rand(5, 6)
    f = runtime.eval(f"""function(a, b)
        local r0, rt0, d0 = torch.mm(a, b), torch.mm(b:t(), a:t()), a:select(2, 1):dot(a:select(2, 2))
        local same = true
        for _ = 1, {HOT} do
           same = same and torch.mm(a, b):equal(r0) and torch.mm(b:t(), a:t()):equal(rt0)
                  and a:select(2, 1):dot(a:select(2, 2)) == d0
        end
        return r0, rt0, d0, same
    end""")
    r, rt, d, same = f(runtime.from_numpy(a), runtime.from_numpy(b))
    assert same
    np.testing.assert_allclose(np.array(runtime.to_numpy(r)), a @ b, rtol=1e-14)
    np.testing.assert_allclose(np.array(runtime.to_numpy(rt)), (a @ b).T, rtol=1e-14)
    assert d == pytest.approx(float(a[:, 0] @ a[:, 1]), rel=1e-14)


def test_transposed_operands_and_expanded_results(runtime):
    """Matrices of any strides: a transposed source is read in the result's
    order; an expanded (stride-0) result accumulates as TH's loop did; a copy
    from an overlapping view of the same storage goes element by element, a
    later element reading what an earlier one wrote (printed by the original)."""
    got = runtime.execute("""
        local A = torch.range(1, 400):resize(20, 20)
        local B, S, E = torch.Tensor(20, 20), torch.Tensor(20, 20), nil
        local F = torch.FloatTensor(20, 20)
        for _ = 1, 2000 do
           B:copy(A:t()); S:add(A:t(), A); F:copy(A:t())
           E = torch.zeros(1, 20):expand(20, 20); E:add(1)
        end
        local C = A:clone(); C:copy(C:t())
        return B[1][2], B[2][1], S[1][2], F[3][1], E[1][1], C[1][2], C[2][1]""")
    assert got == (21.0, 2.0, 23.0, 3.0, 20.0, 21.0, 21.0)


def test_small_matrix_vector_products(runtime):
    rng = np.random.RandomState(4)
    a, v = rng.rand(6, 4), rng.rand(4)
    f = runtime.eval(f"""function(a, v)
        local r0, rt0 = torch.mv(a, v), torch.mv(a:t():t(), v)
        local same = true
        for _ = 1, {HOT} do same = same and torch.mv(a, v):equal(r0) and torch.mv(a:t():t(), v):equal(rt0) end
        return r0, rt0, same
    end""")
    r, rt, same = f(runtime.from_numpy(a), runtime.from_numpy(v))
    assert same
    np.testing.assert_allclose(np.array(runtime.to_numpy(r)), a @ v, rtol=1e-14)
    np.testing.assert_allclose(np.array(runtime.to_numpy(rt)), a @ v, rtol=1e-14)


@pytest.mark.parametrize("tname", list(TYPES))
def test_max_and_min_along_a_dimension(runtime, tname):
    """TH's rule: the first value no other beats (ties keep the first), a NaN
    wins at once; positions are 1-based."""
    t = TYPES[tname]
    x, _ = operands(t)
    x = (x % 7).astype(t).reshape(10, 30)     # many ties
    if t in (np.float32, np.float64):
        x[3, 5] = x[3, 9] = np.nan
    f = runtime.eval(f"""function(x)
        local a, ia, b, ib
        for _ = 1, {HOT} do a, ia = x:max(2); b, ib = x:min(1) end
        return a, ia, b, ib
    end""")
    a, ia, b, ib = (np.array(runtime.to_numpy(v)).reshape(-1) for v in f(runtime.from_numpy(x)))

    def best(line, beats):
        value, at = line[0], 0
        for k, v in enumerate(line):
            if beats(v, value):
                value, at = v, k
                if v != v:
                    break
        return value, at + 1
    want_a = [best(row, lambda v, b: not v <= b) for row in x]
    want_b = [best(col, lambda v, b: not v >= b) for col in x.T]
    np.testing.assert_array_equal(a, [v for v, _ in want_a])
    np.testing.assert_array_equal(ia, [i for _, i in want_a])
    np.testing.assert_array_equal(b, [v for v, _ in want_b])
    np.testing.assert_array_equal(ib, [i for _, i in want_b])


@pytest.mark.parametrize("tname", ["Byte", "Int", "Float", "Double"])
def test_gather_hot(runtime, tname):
    t = TYPES[tname]
    x = (np.arange(120) % 100).astype(t).reshape(4, 30)
    idx = np.random.RandomState(5).randint(1, 31, (4, 20)).astype(np.int64)
    f = runtime.eval(f"""function(x, idx)
        local r
        for _ = 1, {HOT} do r = x:gather(2, idx) end
        return r
    end""")
    got = np.array(runtime.to_numpy(f(runtime.from_numpy(x), runtime.from_numpy(idx))))
    np.testing.assert_array_equal(got, np.take_along_axis(x, idx - 1, axis=1))


def test_index_range_check_hot(runtime):
    # the smallest and largest index, found by a loop once it is compiled:
    # an index out of range anywhere in the tensor is still caught
    f = runtime.eval(f"""function()
        local x = torch.rand(4, 300)
        local idx = torch.LongTensor(4, 300):random(1, 300)
        for _ = 1, {HOT} do x:gather(2, idx) end
        local errors = {{}}
        for _, bad in ipairs{{0, 301, -5}} do
           for _, at in ipairs{{1, 600, 1200}} do
              local i = idx:clone()
              i:storage()[at] = bad
              local ok, msg = pcall(function() return x:gather(2, i) end)
              errors[#errors + 1] = not ok and msg:match('Invalid index in gather') ~= nil
           end
        end
        return unpack(errors)
    end""")
    assert list(f()) == [True] * 9


@pytest.mark.parametrize("tname", list(TYPES))
def test_cumulative_sums_and_products_hot(runtime, tname):
    # along each dimension, as numpy accumulates (float64 or int64) and
    # casts to the type: integer sums wrap around
    t = TYPES[tname]
    x, y = operands(t)
    x, y = x.reshape(15, 20), y.reshape(15, 20)
    f = runtime.eval(f"""function(x, y)
        local a, b, c, d
        for _ = 1, {HOT} do
           a, b = torch.cumsum(x, 1), torch.cumsum(x, 2)
           if x:type() == 'torch.FloatTensor' or x:type() == 'torch.DoubleTensor' then
              c, d = torch.cumprod(y, 1), torch.cumprod(y, 2)
           end
        end
        return a, b, c, d
    end""")
    a, b, c, d = f(runtime.from_numpy(x), runtime.from_numpy(y))
    acc = np.int64 if tname in INTEGER else np.float64
    for got, axis in ((a, 0), (b, 1)):
        want = np.cumsum(x, axis=axis, dtype=acc).astype(t)
        np.testing.assert_array_equal(np.array(runtime.to_numpy(got)), want)
    if c is not None:
        for got, axis in ((c, 0), (d, 1)):
            want = np.cumprod(y, axis=axis, dtype=np.float64).astype(t)
            np.testing.assert_array_equal(np.array(runtime.to_numpy(got)), want)


def rem(a, b):
    return a - b * np.floor(a / b)


@pytest.mark.parametrize("tname", ["Float", "Double"])
@pytest.mark.parametrize("code, expected", [
    ("torch.fmod(res, x, 0.7)", lambda x, y, t: np.fmod(x.astype(np.float64), np.float64(t(0.7))).astype(t)),
    ("torch.cfmod(res, x, y)", lambda x, y, t: np.fmod(x.astype(np.float64), y.astype(np.float64)).astype(t)),
    ("torch.remainder(res, x, 0.7)", lambda x, y, t: rem(x.astype(np.float64), np.float64(t(0.7))).astype(t)),
    ("torch.cremainder(res, x, y)", lambda x, y, t: rem(x.astype(np.float64), y.astype(np.float64)).astype(t)),
    ("torch.addcmul(res, x, 0.3, y, x)", lambda x, y, t: x + t(0.3) * y * x),
    ("torch.addcdiv(res, x, 0.3, x, y)", lambda x, y, t: x + t(0.3) * x / y),
    ("torch.lerp(res, x, y, 0.3)", lambda x, y, t: x + 0.3 * (y - x)),
])
def test_floating_operations_hot(runtime, tname, code, expected):
    # the loops of DoubleTensors and numpy's paths of FloatTensors agree with
    # numpy's definitions (a FloatTensor's fmod computed in double)
    t = TYPES[tname]
    x, y = operands(t)
    got = hot(runtime, tname, code, x, y)
    np.testing.assert_array_equal(got, expected(x, y, t))
