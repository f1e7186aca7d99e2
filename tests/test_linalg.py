"""LAPACK functions: values from the documentation / conformance corpus,
checked as reconstructions, with TH's result layout and errors."""
import numpy as np
import pytest

from helpers import assert_caught_lua_error

A_GESV = [[6.80, -6.05, -0.45, 8.32, -9.67], [-2.11, -3.30, 2.58, 2.71, -5.14],
          [5.66, 5.36, -2.70, 4.35, -7.26], [5.97, -4.44, 0.27, -7.17, 6.08],
          [8.23, 1.08, 9.04, 2.14, -6.87]]
B_GESV = [[4.02, -1.56, 9.81], [6.19, 4.00, -4.09], [-8.22, -8.67, -4.57],
          [-7.57, 1.75, -8.61], [-3.03, 2.86, 8.99]]
SPD = [[1.2705, 0.9971, 0.4948, 0.1389, 0.2381], [0.9971, 0.9966, 0.6752, 0.0686, 0.1196],
       [0.4948, 0.6752, 1.1434, 0.0314, 0.0582], [0.1389, 0.0686, 0.0314, 0.0270, 0.0526],
       [0.2381, 0.1196, 0.0582, 0.0526, 0.3957]]


def lua_matrix(m):
    return "{" + ", ".join("{" + ", ".join(repr(float(v)) for v in row) + "}" for row in m) + "}"


def values(runtime, code):
    out = runtime.execute(code)
    out = out if isinstance(out, tuple) else (out,)
    return [np.array(runtime.to_numpy(t)) if not isinstance(t, (int, float, str)) else t for t in out]


def test_gesv_doc_values_and_layout(runtime):
    x, lu, stride = values(runtime, f"""local a = torch.Tensor({lua_matrix(A_GESV)})
        local b = torch.Tensor({lua_matrix(B_GESV)})
        local x, lu = torch.gesv(b, a) return x, lu, x:stride(2)""")
    expected = [[-0.8007, -0.3896, 0.9555], [-0.6952, -0.5544, 0.2207], [0.5939, 0.8422, 1.9006],
                [1.3217, -0.1038, 5.3577], [0.5658, 0.1057, 4.0406]]
    np.testing.assert_allclose(x, expected, atol=5e-5)
    assert stride == 5          # column-major, as TH returns LAPACK results
    assert lu.shape == (5, 5)


def test_gesv_result_form_float_and_noncontiguous(runtime):
    x, = values(runtime, f"""local a = torch.FloatTensor({lua_matrix(A_GESV)}):t():t()
        local b = torch.FloatTensor({lua_matrix(np.array(B_GESV).T)}):t()
        local rb, ra = torch.FloatTensor(), torch.FloatTensor()
        local x = torch.gesv(rb, ra, b, a)
        assert(x == rb) return rb""")
    assert x.dtype == np.float32
    np.testing.assert_allclose(np.array(A_GESV) @ x, B_GESV, atol=1e-3)


def test_trtrs_and_flags(runtime):
    a = np.triu(np.array(A_GESV).T)
    x, xl, xt = values(runtime, f"""local a = torch.Tensor({lua_matrix(a)})
        local b = torch.Tensor({lua_matrix(B_GESV)})
        return (torch.trtrs(b, a)), (torch.trtrs(b, a:t(), 'L')), (torch.trtrs(b, a, 'U', 'T'))""")
    np.testing.assert_allclose(x[0], [-3.5416, -0.2514, 3.0847], atol=5e-5)
    np.testing.assert_allclose(a @ x, B_GESV, atol=1e-10)
    np.testing.assert_allclose(a.T @ xt, B_GESV, atol=1e-10)
    np.testing.assert_allclose(xl, xt, atol=1e-10)      # a' as a lower triangle


def test_potrf_potrs_potri(runtime):
    u, l, solve, inv = values(runtime, f"""local A = torch.Tensor({lua_matrix(SPD)})
        local B = torch.Tensor{{{{0.6219, 0.3439, 0.0431}}, {{0.5642, 0.1756, 0.0153}}, {{0.2334, 0.8594, 0.4103}},
                                {{0.7556, 0.1966, 0.9637}}, {{0.1420, 0.7185, 0.7476}}}}
        local u = torch.potrf(A)
        local l = torch.Tensor() torch.potrf(l, A, 'L')
        return u, l, torch.potrs(B, u), torch.potri(u)""")
    np.testing.assert_allclose(u[0], [1.1272, 0.8846, 0.4390, 0.1232, 0.2112], atol=5e-5)
    assert np.allclose(np.tril(u, -1), 0) and np.allclose(np.triu(l, 1), 0)
    np.testing.assert_allclose(u.T @ u, SPD, atol=1e-12)
    np.testing.assert_allclose(l, u.T, atol=1e-12)
    np.testing.assert_allclose(solve[:, 0], [-94.2808, 85.0306, -17.9665, 339.4752, -11.0946], atol=5e-4)
    np.testing.assert_allclose(inv, np.linalg.inv(SPD), rtol=1e-8)


def test_pstrf_doc(runtime):
    u, piv = values(runtime, f"return torch.pstrf(torch.Tensor({lua_matrix(SPD)}))")
    assert piv.dtype == np.int32 and piv.tolist() == [1, 3, 5, 2, 4]
    np.testing.assert_allclose(u[0], [1.1272, 0.4390, 0.2112, 0.8846, 0.1232], atol=5e-5)
    p = np.array(SPD)[np.ix_(piv - 1, piv - 1)]
    np.testing.assert_allclose(u.T @ u, p, atol=1e-12)


def test_gels_returns_the_n_by_k_solution(runtime):
    a = np.array([[1.44, -9.96, -7.55, 8.34, 7.08, -5.45], [-7.84, -0.28, 3.24, 8.09, 2.52, -5.70],
                  [-4.39, -3.24, 6.27, 5.28, 0.74, -1.19], [4.53, 3.83, -6.64, 2.06, -2.47, 4.70]]).T
    b = np.array([[8.58, 8.26, 8.48, -5.28, 5.72, 8.93], [9.35, -4.43, -0.70, -0.26, -7.36, -2.52]]).T
    x, = values(runtime, f"return (torch.gels(torch.Tensor({lua_matrix(b)}), torch.Tensor({lua_matrix(a)})))")
    assert x.shape == (4, 2)
    np.testing.assert_allclose(x, np.linalg.lstsq(a, b, rcond=None)[0], atol=1e-10)
    np.testing.assert_allclose(x[0], [-0.4506, 0.2497], atol=5e-5)


def test_symeig_eig_svd(runtime):
    a = np.array([[1.96, -6.49, -0.47, -7.20, -0.65], [0, 3.80, -6.39, 1.50, -6.34], [0, 0, 4.17, -1.51, 2.67],
                  [0, 0, 0, 5.70, 1.80], [0, 0, 0, 0, -7.10]])
    e, v, stride, ee, ev = values(runtime, f"""local a = torch.Tensor({lua_matrix(a)})
        local e, v = torch.symeig(a, 'V')
        local b = a:clone() b:copy(torch.Tensor({lua_matrix(np.triu(a) + np.triu(a, 1).T)}))
        local ee, ev = torch.eig(b, 'V')
        return e, v, v:stride(2), ee, ev""")
    np.testing.assert_allclose(e, [-11.0656, -6.2287, 0.8640, 8.8655, 16.0948], atol=5e-5)
    assert stride == 5
    full = np.triu(a) + np.triu(a, 1).T
    np.testing.assert_allclose(v @ np.diag(e) @ v.T, full, atol=1e-10)
    assert ee.shape == (5, 2) and np.allclose(ee[:, 1], 0)
    np.testing.assert_allclose(sorted(ee[:, 0]), e, atol=1e-10)
    np.testing.assert_allclose(ev @ np.diag(ee[:, 0]) @ ev.T, full, atol=1e-10)
    m = np.array([[3.0, 0], [0, 2], [0, 0]])
    u, s, vv, ua = values(runtime, f"""local a = torch.Tensor({lua_matrix(m)})
        local u, s, v = torch.svd(a) local ua = torch.svd(a, 'A') return u, s, v, ua""")
    assert u.shape == (3, 2) and vv.shape == (2, 2) and ua.shape == (3, 3)
    np.testing.assert_allclose(s, [3, 2])
    np.testing.assert_allclose(u @ np.diag(s) @ vv.T, m, atol=1e-12)
    np.testing.assert_allclose(ua.T @ ua, np.eye(3), atol=1e-12)


def test_inverse_forms(runtime):
    y, r, stride = values(runtime, """local x = torch.Tensor({{4, 7, 2}, {3, 6, 1}, {2, 5, 3}})
        local r = torch.Tensor() torch.inverse(r, x)
        return torch.inverse(x), r, r:stride(2)""")
    np.testing.assert_allclose(y[0], [1.4444, -1.2222, -0.5556], atol=5e-5)
    np.testing.assert_allclose(r, y)
    assert stride == 3


def test_qr_geqrf_orgqr_ormqr(runtime):
    q, r, q2, c = values(runtime, """local a = torch.Tensor{{12, -51, 4}, {6, 167, -68}, {-4, 24, -41}}
        local q, r = torch.qr(a)
        local m, tau = torch.geqrf(a)
        local c = torch.Tensor{{1, 2}, {3, 4}, {5, 6}}
        return q, r, torch.orgqr(m, tau), torch.ormqr(m, tau, c)""")
    np.testing.assert_allclose(r, [[-14, -21, 14], [0, -175, 70], [0, 0, -35]], atol=1e-10)
    np.testing.assert_allclose(q[:, 0], [-0.857142857, -0.428571429, 0.285714286], atol=1e-8)
    np.testing.assert_allclose(q2, q, atol=1e-12)
    np.testing.assert_allclose(c, q @ [[1, 2], [3, 4], [5, 6]], atol=1e-10)


@pytest.mark.parametrize("code", [
    "torch.gesv(torch.Tensor{{1}, {2}}, torch.Tensor{{1, 2}, {2, 4}})",
    "torch.inverse(torch.Tensor{{1, 2}, {2, 4}})",
    "torch.potrf(torch.Tensor{{1, 2}, {2, 1}})",
    "torch.inverse(torch.Tensor(2, 3):zero())",
    "torch.gesv(torch.Tensor(3, 1), torch.Tensor(2, 2))",
    "torch.inverse(torch.IntTensor{{1, 0}, {0, 1}})",
    "torch.symeig(torch.Tensor{{1, 0}, {0, 1}}, 'X')",
])
def test_bad_input_is_a_lua_error(runtime, code):
    assert_caught_lua_error(runtime, code)


def test_singular_error_as_the_original(runtime):
    # as Torch7 (run there): LAPACK works in a column-major result's own memory,
    # so a failure leaves its partial factorisation there; an input overwritten
    # in its own (row-major) layout is worked on in a copy and stays as it was
    ok, msg, r, a = runtime.execute("""local r = torch.Tensor{{9, 9}, {9, 9}}
        local ok, msg = pcall(torch.inverse, r, torch.Tensor{{1, 2}, {2, 4}})
        local a = torch.Tensor{{1, 2}, {2, 1}}
        assert(not pcall(torch.potrf, a, a))
        return ok, msg, r, a""")
    assert ok is False and msg.endswith("Lapack Error getrf : U(2,2) is 0, U is singular")
    assert runtime.to_numpy(r).tolist() == [[2, 4], [0.5, 0]]
    assert runtime.to_numpy(a).tolist() == [[1, 2], [2, 1]]


def test_hot_calls_give_the_cold_bits(runtime):
    # every FFI path (copies in and out, in place and through scratch, both
    # types) compiled hot gives the bits of its first call
    bad = runtime.execute("""local bad = 0
        local function same(x, y) return torch.type(x) == torch.type(y) and x:isSameSizeAs(y)
           and (x:nElement() == 0 or x:eq(y):sum() == x:nElement()) end
        for _, T in ipairs{'Float', 'Double'} do
           local a = torch[T .. 'Tensor'](7, 5)
           for i = 1, 7 do for j = 1, 5 do a[i][j] = ((i * 37 + j * 91) % 101) / 101 - 0.5 end end
           local sq = a:narrow(1, 1, 5)
           local spd = torch.mm(sq, sq:t()):add(torch[T .. 'Tensor'](5, 5):copy(torch.eye(5)))
           local b = a:narrow(2, 1, 2)
           local cases = {
              function() return {torch.gesv(b:narrow(1, 1, 5), sq)} end,
              function() return {torch.inverse(sq:t())} end,
              function() return {torch.svd(a)} end,
              function() return {torch.svd(a:t(), 'A')} end,
              function() return {torch.symeig(spd, 'V')} end,
              function() return {torch.eig(sq, 'V')} end,
              function() return {torch.pstrf(spd)} end,
              function() return {torch.potri(torch.potrf(spd, 'L'), 'L')} end,
              function() return {torch.gels(b, a)} end,
              function() return {torch.qr(a)} end,
              function() local r = sq:clone() torch.inverse(r, r) return {r} end,
           }
           for _, f in ipairs(cases) do
              local first = f()
              for _ = 1, 2000 do
                 local again = f()
                 for i = 1, #first do
                    if not same(first[i], again[i]) then bad = bad + 1 end
                 end
              end
           end
        end
        return bad""")
    assert bad == 0


def test_without_system_lapack_the_python_path_gives_the_same_layouts(runtime):
    # lapack.routines answers nil when no system LAPACK is found: scipy's LAPACK
    # then computes the same results (within rounding) in the same layouts
    code = """local a = torch.Tensor(7, 5)
        for i = 1, 7 do for j = 1, 5 do a[i][j] = ((i * 37 + j * 91) % 101) / 101 - 0.5 end end
        local sq = a:narrow(1, 1, 5)
        local spd = torch.mm(sq, sq:t()):add(torch.eye(5))
        local out = {}
        local function add(...) for _, t in ipairs{...} do out[#out + 1] = t end end
        add(torch.gesv(a:narrow(2, 1, 2):narrow(1, 1, 5), sq))
        add(torch.inverse(sq)) add(torch.svd(a:t())) add(torch.symeig(spd, 'V'))
        add(torch.eig(spd, 'V')) add(torch.pstrf(spd)) add(torch.potri(torch.potrf(spd)))
        add(torch.gels(a:narrow(2, 1, 2), a)) add(torch.qr(a)) add(torch.geqrf(a))
        local strides = {}
        for i, t in ipairs(out) do strides[i] = table.concat(t:stride():totable(), ',') end
        return out, table.concat(strides, ' ')"""
    ffi_out, ffi_strides = runtime.execute(code)
    runtime.execute("""local lapack = package.loaded['torch.maths.lapack']
        lapack.system, lapack.routines = lapack.routines, function() return nil end""")
    try:
        py_out, py_strides = runtime.execute(code)
    finally:       # the runtime is the session's
        runtime.execute("""local lapack = package.loaded['torch.maths.lapack']
            lapack.routines, lapack.system = lapack.system, nil""")
    assert py_strides == ffi_strides
    for i in range(1, len(ffi_out) + 1):
        np.testing.assert_allclose(runtime.to_numpy(py_out[i]), runtime.to_numpy(ffi_out[i]), rtol=1e-9, atol=1e-9)
