"""conv2 / xcorr2 / conv3 / xcorr3 against the definitions (direct sums) and the
conformance corpus values."""
import numpy as np
import pytest

from helpers import assert_caught_lua_error


def direct_xcorr(x, k, full=False, flip=False):
    """out[i, j, ...] = sum over the kernel of x[i + a, j + b, ...] k[a, b, ...]."""
    if flip:
        k = k[(slice(None, None, -1),) * k.ndim]
    if full:
        x = np.pad(x, [(s - 1, s - 1) for s in k.shape])
    shape = tuple(m - s + 1 for m, s in zip(x.shape, k.shape))
    out = np.zeros(shape)
    for idx in np.ndindex(*k.shape):
        out += k[idx] * x[tuple(slice(i, i + n) for i, n in zip(idx, shape))]
    return out


def tensor(runtime, arr, tname="Double"):
    return runtime.from_numpy(np.ascontiguousarray(arr, dtype={"Double": np.float64, "Float": np.float32,
                                                                 "Int": np.int32}[tname]))


def call(runtime, fname, *args):
    f = runtime.eval(f"function(...) return torch.{fname}(...) end")
    return np.array(runtime.to_numpy(f(*args)))


def test_xcorr2_and_conv2_conformance_values(runtime):
    x = tensor(runtime, np.arange(1, 17).reshape(4, 4))
    k = tensor(runtime, [[1, 2], [0, 0]])
    assert call(runtime, "xcorr2", x, k).tolist() == [[5, 8, 11], [17, 20, 23], [29, 32, 35]]
    full = call(runtime, "xcorr2", x, k, "F")
    assert full[0].tolist() == [0, 0, 0, 0, 0] and full[1].tolist() == [2, 5, 8, 11, 4]
    assert call(runtime, "conv2", x, k).tolist() == [[16, 19, 22], [28, 31, 34], [40, 43, 46]]


@pytest.mark.parametrize("fname,full,flip", [("conv2", False, True), ("conv2", True, True),
                                             ("xcorr2", False, False), ("xcorr2", True, False)])
def test_2d_against_definition(runtime, fname, full, flip):
    rng = np.random.default_rng(1)
    x, k = rng.standard_normal((37, 70)), rng.standard_normal((5, 4))
    got = call(runtime, fname, tensor(runtime, x), tensor(runtime, k), "F" if full else "V")
    np.testing.assert_allclose(got, direct_xcorr(x, k, full, flip), rtol=1e-12, atol=1e-12)


def test_3d_input_forms(runtime):
    x = np.arange(1, 19, dtype=float).reshape(2, 3, 3)
    k = np.ones((3, 2, 2, 2))
    k[1] *= 2
    k[2][0] = 0
    got = call(runtime, "conv2", tensor(runtime, x), tensor(runtime, k))
    assert got.tolist() == [[[60, 68], [84, 92]], [[120, 136], [168, 184]], [[48, 52], [60, 64]]]
    k3 = np.random.default_rng(2).standard_normal((2, 2, 3))
    got = call(runtime, "xcorr2", tensor(runtime, x), tensor(runtime, k3), "F")
    for i in range(2):
        np.testing.assert_allclose(got[i], direct_xcorr(x[i], k3[i], True), atol=1e-12)


def test_conv3_forms(runtime):
    rng = np.random.default_rng(3)
    x, k = rng.standard_normal((6, 5, 7)), rng.standard_normal((2, 3, 2))
    np.testing.assert_allclose(call(runtime, "conv3", tensor(runtime, x), tensor(runtime, k)),
                               direct_xcorr(x, k, flip=True), atol=1e-12)
    np.testing.assert_allclose(call(runtime, "xcorr3", tensor(runtime, x), tensor(runtime, k), "F"),
                               direct_xcorr(x, k, full=True), atol=1e-12)
    x4, k5 = rng.standard_normal((2, 4, 4, 4)), rng.standard_normal((3, 2, 2, 2, 2))
    got = call(runtime, "conv3", tensor(runtime, x4), tensor(runtime, k5))
    expected = [sum(direct_xcorr(x4[i], k5[o, i], flip=True) for i in range(2)) for o in range(3)]
    np.testing.assert_allclose(got, expected, atol=1e-12)


def test_sizes_doc_result_form_and_methods(runtime):
    assert runtime.execute("""local x, k = torch.ones(100, 100), torch.ones(10, 10)
        local c = torch.conv2(x, k, 'F')
        return torch.conv2(x, k):size(1), c:size(1), c[1][1], c[10][10], c[50][50]""") == (91, 109, 1, 100, 100)
    assert runtime.execute("""local x = torch.rand(10, 10):t() local k = torch.rand(3, 3)
        local r = torch.Tensor(2, 2) torch.conv2(r, x, k)
        return r:dist(torch.conv2(x:contiguous(), k)) == 0 and r:size(1) == 8, x:conv2(k):equal(r)""") == (True, True)
    assert runtime.execute("""local c = torch.conv3(torch.ones(10, 10, 10), torch.ones(3, 3, 3), 'F')
        return c:size(1), c[1][1][1], c[6][6][6]""") == (12, 1, 27)


def test_integer_and_float_types(runtime):
    x = np.arange(20).reshape(4, 5)
    k = np.array([[1, -1], [2, 0]])
    got = call(runtime, "conv2", tensor(runtime, x, "Int"), tensor(runtime, k, "Int"))
    assert got.dtype == np.int32 and got.tolist() == direct_xcorr(x, k, flip=True).astype(int).tolist()
    got = call(runtime, "xcorr2", tensor(runtime, x, "Float"), tensor(runtime, k, "Float"), "F")
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, direct_xcorr(x, k, full=True))


def test_infinite_values_stay_local(runtime):
    x = np.ones((6, 6))
    x[0, 0] = np.inf
    got = call(runtime, "conv2", tensor(runtime, x), tensor(runtime, np.ones((2, 2))))
    assert np.isinf(got[0, 0]) and np.isfinite(got[1:, :]).all() and np.isfinite(got[:, 1:]).all()


@pytest.mark.parametrize("code", [
    "torch.conv2(torch.ones(3, 3), torch.ones(4, 4))",
    "torch.conv2(torch.ones(3, 3), torch.ones(2, 2), 'X')",
    "torch.conv2(torch.ones(2, 3, 3), torch.ones(3, 2, 2))",
    "torch.conv2(torch.ones(2, 3, 3), torch.ones(4, 3, 2, 2))",
    "torch.conv2(torch.ones(3), torch.ones(2))",
    "torch.conv3(torch.ones(3, 3), torch.ones(2, 2))",
    "torch.conv2(torch.ones(3, 3), torch.IntTensor(2, 2))",
])
def test_bad_input_is_a_lua_error(runtime, code):
    assert_caught_lua_error(runtime, code)


def test_paths_stay_exact_when_hot(runtime):
    # every path (fused blocks, zero weights, narrow sums, full scatter and
    # gather, inf kernels, volumes: LuaJIT's rounded steps and, long,
    # numpy's) thousands of times, on both types: its JIT-compiled traces give
    # the bits of its first, interpreted, calls (nans where they were)
    assert runtime.execute("""
        local ok = true
        -- a result with its nans as zeros, and where they were
        local function clean(t)
           local c, nans = t:clone(), t:ne(t)
           c:maskedFill(nans, 0)
           return c, nans
        end
        local function same(r, first) local c, nans = clean(r); return c:equal(first[1]) and nans:equal(first[2]) end
        for pass = 1, 2 do
        for _, T in ipairs{'Double', 'Float'} do
           torch.manualSeed(5)
           local cases = {
              {torch[T .. 'Tensor'](9, 37):uniform(-1e3, 1e3), torch[T .. 'Tensor'](3, 4):uniform(-1, 1)},
              {torch[T .. 'Tensor'](7, 3):uniform(-1e3, 1e3), torch[T .. 'Tensor'](2, 2):uniform(-1, 1)},
              {torch[T .. 'Tensor'](2, 6, 5):uniform(-1e3, 1e3), torch[T .. 'Tensor'](3, 2, 2, 2):uniform(-1, 1)},
           }
           cases[1][2][2][2] = 0
           -- a kernel holding inf: scattered row by row
           cases[4] = {torch[T .. 'Tensor'](6, 3):uniform(-1e3, 1e3), torch[T .. 'Tensor'](2, 2):uniform(-1, 1)}
           cases[4][2][1][2] = math.huge
           local vols = {{torch[T .. 'Tensor'](4, 4, 5):uniform(-1e3, 1e3), torch[T .. 'Tensor'](2, 2, 2):uniform(-1, 1)},
                         {torch[T .. 'Tensor'](9, 10, 11):uniform(-1e3, 1e3), torch[T .. 'Tensor'](3, 2, 3):uniform(-1, 1)},
                         {torch[T .. 'Tensor'](3, 4, 60):uniform(-1e3, 1e3), torch[T .. 'Tensor'](2, 2, 2):fill(-math.huge)}}
           for _, c in ipairs(cases) do
              for _, f in ipairs{'conv2', 'xcorr2'} do
                 for _, m in ipairs{'V', 'F'} do
                    local first = {clean(torch[f](c[1], c[2], m))}
                    for _ = 1, 1500 do ok = ok and same(torch[f](c[1], c[2], m), first) end
                 end
              end
           end
           for _, vol in ipairs(vols) do
              for _, m in ipairs{'V', 'F'} do
                 local first = {clean(torch.conv3(vol[1], vol[2], m))}
                 for _ = 1, 1500 do ok = ok and same(torch.conv3(vol[1], vol[2], m), first) end
              end
           end
        end
        torch.DoubleTensor(2 ^ 20):add(1)   -- numpy loaded: its loops for long steps
        end
        return ok""") is True


def test_a_strided_result_is_written_as_if_contiguous(runtime):
    # the original filled a result's memory in order, whatever its strides
    # (values printed by the original Torch7)
    storage, view = runtime.execute("""
        local y = torch.range(1, 63):resize(7, 9):int()
        local k = torch.IntTensor{{1, 0}, {0, 0}, {0, 2}}
        local r = torch.IntTensor(8, 5):zero():t()
        torch.xcorr2(r, y, k, 'V')
        return table.concat(r:storage():totable(), ','), table.concat(r:clone():view(-1):totable(), ',')""")
    assert storage == ("41,44,47,50,53,56,59,62,68,71,74,77,80,83,86,89,95,98,101,104,107,110,113,116,"
                       "122,125,128,131,134,137,140,143,149,152,155,158,161,164,167,170")
    assert view == ("41,56,74,89,107,125,140,158,44,59,77,95,110,128,143,161,47,62,80,98,113,131,149,164,"
                    "50,68,83,101,116,134,152,167,53,71,86,104,122,137,155,170")
