"""The fast paths give the results of the definitions: blocked convolution
(several blocks, every form and type), Box-Muller on two threads, two-thread
element-wise maths, results allocated without zero-filling."""
import numpy as np
import pytest


def direct_xcorr(x, k, full=False, flip=False):
    """out[i, j] = sum over the kernel of x[i + a, j + b] k[a, b], tap after tap as TH."""
    if flip:
        k = k[::-1, ::-1]
    if full:
        x = np.pad(x, [(s - 1, s - 1) for s in k.shape])
    oh, ow = x.shape[0] - k.shape[0] + 1, x.shape[1] - k.shape[1] + 1
    out = np.zeros((oh, ow), x.dtype)
    for a in range(k.shape[0]):
        for b in range(k.shape[1]):
            out += k[a, b] * x[a:a + oh, b:b + ow]
    return out


def tensor(runtime, arr):
    return runtime.from_numpy(np.ascontiguousarray(arr))


def call(runtime, fname, *args):
    f = runtime.eval(f"function(...) return torch.{fname}(...) end")
    return np.array(runtime.to_numpy(f(*args)))


@pytest.mark.parametrize("mode", ["V", "F"])
def test_conv2_over_many_blocks(runtime, mode):
    # 300 x 250 by 7 x 6: dozens of row blocks, the last one partial
    rng = np.random.default_rng(4)
    x, k = rng.standard_normal((300, 250)), rng.standard_normal((7, 6))
    got = call(runtime, "conv2", tensor(runtime, x), tensor(runtime, k), mode)
    np.testing.assert_allclose(got, direct_xcorr(x, k, mode == "F", True), rtol=1e-11, atol=1e-11)


def test_integer_convolution_is_exact_and_wraps(runtime):
    rng = np.random.default_rng(5)
    x = rng.integers(-1000, 1000, (120, 90)).astype(np.int32)
    k = rng.integers(-9, 9, (5, 4)).astype(np.int32)
    got = call(runtime, "xcorr2", tensor(runtime, x), tensor(runtime, k), "F")
    assert got.dtype == np.int32 and np.array_equal(got, direct_xcorr(x, k, True))
    # bytes wrap around modulo 256 as C arithmetic on unsigned char does
    xb, kb = np.full((5, 5), 200, np.uint8), np.full((2, 2), 3, np.uint8)
    got = call(runtime, "xcorr2", tensor(runtime, xb), tensor(runtime, kb))
    assert got.dtype == np.uint8 and (got == (4 * 600) % 256).all()


def test_float_convolution_stays_float(runtime):
    rng = np.random.default_rng(6)
    x, k = rng.random((64, 80)).astype(np.float32), rng.random((3, 3)).astype(np.float32)
    got = call(runtime, "conv2", tensor(runtime, x), tensor(runtime, k))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, direct_xcorr(x, k, flip=True), rtol=1e-5)


def test_zero_kernel_taps_still_meet_inf_and_nan(runtime):
    # 0 * inf is nan in TH's tap-by-tap sums: a zero weight is not skipped there
    x = np.ones((5, 5))
    x[2, 2] = np.inf
    got = call(runtime, "xcorr2", tensor(runtime, x), tensor(runtime, [[1.0, 0.0], [0.0, 1.0]]))
    assert np.isnan(got[1, 2]) and np.isnan(got[2, 1])
    assert np.isinf(got[1, 1]) and np.isinf(got[2, 2]) and got[0, 0] == 2


def test_summed_and_per_slice_forms_accumulate(runtime):
    rng = np.random.default_rng(7)
    x, k = rng.standard_normal((3, 40, 30)), rng.standard_normal((2, 3, 4, 5))
    got = call(runtime, "conv2", tensor(runtime, x), tensor(runtime, k), "F")
    expected = [sum(direct_xcorr(x[i], k[o, i], True, True) for i in range(3)) for o in range(2)]
    np.testing.assert_allclose(got, expected, rtol=1e-11, atol=1e-11)
    k3 = rng.standard_normal((3, 4, 5))
    got = call(runtime, "xcorr2", tensor(runtime, x), tensor(runtime, k3))
    np.testing.assert_allclose(got, [direct_xcorr(x[i], k3[i]) for i in range(3)], rtol=1e-11, atol=1e-11)


def test_result_may_be_a_transposed_view(runtime):
    # the original fills a transposed result's memory as if it were contiguous
    # (it printed false, true here)
    assert runtime.execute("""local x, k = torch.rand(50, 40), torch.rand(3, 3)
        local r = torch.Tensor(38, 48):t()
        torch.conv2(r, x, k)
        local c = torch.conv2(x, k)
        return r:equal(c), torch.Tensor(r:storage(), 1, c:size()):equal(c)""") == (False, True)


def test_big_normal_draws_continue_the_stream(runtime):
    # a draw big enough for two threads gives the numbers of the same stream
    # drawn in pieces (the cached second value crossing calls), bit for bit
    whole = np.array(runtime.to_numpy(runtime.execute("torch.manualSeed(12) return torch.randn(140001)")))
    parts = runtime.execute("""torch.manualSeed(12)
        local a, b, c = torch.randn(3), torch.randn(70001), torch.randn(69997)
        return a, b, c""")
    pieces = np.concatenate([np.array(runtime.to_numpy(t)) for t in parts])
    assert np.array_equal(whole, pieces)
    # the scalar torch.normal() draws the same stream (libm may differ in the last bit)
    single = np.array(runtime.to_numpy(runtime.execute("""torch.manualSeed(12)
        local t = torch.Tensor(140001) for i = 1, 140001 do t[i] = torch.normal() end return t""")))
    np.testing.assert_allclose(whole, single, rtol=1e-14, atol=1e-14)


def test_big_normal_into_float_and_strided_results(runtime):
    got = runtime.execute("""torch.manualSeed(3) local d = torch.randn(300, 400)
        torch.manualSeed(3) local f = torch.FloatTensor(300, 400):normal()
        torch.manualSeed(3) local t = torch.Tensor(400, 300):t():normal()
        return d:float():equal(f), d:equal(t)""")
    assert got == (True, True)


def test_two_thread_elementwise_matches_one_thread(runtime):
    got = runtime.execute("""local x, y = torch.rand(3, 700001), torch.rand(3, 700001)
        local s, p = torch.add(x, y), torch.cmul(x, y)
        local ok = true
        for _, i in ipairs{1, 350000, 350001, 700001} do
           for r = 1, 3 do
              ok = ok and s[r][i] == x[r][i] + y[r][i] and p[r][i] == x[r][i] * y[r][i]
           end
        end
        return ok""")
    assert got is True


def test_helper_thread_errors_propagate():
    from th.ops.maths import together

    def boom():
        raise ValueError("boom")
    with pytest.raises(ValueError):
        together(boom, lambda: 1)
    with pytest.raises(ValueError):
        together(lambda: 1, boom)
    assert together(lambda: 1, lambda: 2) == (1, 2)


@pytest.mark.parametrize("tname, dtype", [("Double", np.float64), ("Int", np.int32), ("Byte", np.uint8)])
def test_comparisons_and_sums_on_the_numpy_path(runtime, tname, dtype):
    # beyond the loops' limits: comparisons write 0/1 bytes in place, sums
    # along a dimension reduce into the result in the type's accumulator
    rng = np.random.default_rng(3)
    x = (rng.random((300, 200)) * 100).astype(dtype)
    f = runtime.eval(f"""function(x)
        local m = torch.gt(x, 50)
        local r = torch.{tname}Tensor()
        torch.ge(r, x, x:clone():fill(50))
        return m, r, x:sum(1), x:sum(2), x:sum()
    end""")
    m, r, s1, s2, s = f(runtime.from_numpy(x))
    np.testing.assert_array_equal(np.array(runtime.to_numpy(m)), (x > 50).astype(np.uint8))
    np.testing.assert_array_equal(np.array(runtime.to_numpy(r)), (x >= 50).astype(dtype))
    if dtype == np.float64:   # added in order, as TH did
        want1, want2, whole = np.zeros((1, 200)), np.zeros((300, 1)), 0.0
        for k in range(300):
            want1 = want1 + x[k]
        for k in range(200):
            want2 = want2 + x[:, k:k + 1]
        for v in x.ravel().tolist():
            whole += v
    else:
        want1, want2, whole = x.sum(0, dtype=np.int64, keepdims=True), x.sum(1, dtype=np.int64, keepdims=True), \
            x.sum(dtype=np.int64)
    np.testing.assert_array_equal(np.array(runtime.to_numpy(s1)), want1.astype(dtype))
    np.testing.assert_array_equal(np.array(runtime.to_numpy(s2)), want2.astype(dtype))
    assert s == whole


def test_masked_operations_on_the_numpy_path(runtime):
    # beyond the loops: a transposed destination, the mask seen as booleans
    rng = np.random.default_rng(8)
    x, y = rng.standard_normal((120, 90)), rng.standard_normal(120 * 90)
    mask = (rng.random((90, 120)) > 0.5).astype(np.uint8)
    f = runtime.eval("""function(x, y, mask)
        local a, b = x:t():clone(), x:t():clone()
        local xt = x:clone():t()
        xt:maskedFill(mask, 7)
        a:maskedCopy(mask, y)
        return x:t():maskedSelect(mask), xt, a
    end""")
    sel, filled, copied = f(tensor(runtime, x), tensor(runtime, y), runtime.from_numpy(mask))
    m = mask.astype(bool)
    np.testing.assert_array_equal(np.array(runtime.to_numpy(sel)), x.T[m])
    want = x.T.copy()
    want[m] = 7
    np.testing.assert_array_equal(np.array(runtime.to_numpy(filled)), want)
    want = x.T.copy()
    want[m] = y[:m.sum()]
    np.testing.assert_array_equal(np.array(runtime.to_numpy(copied)), want)
