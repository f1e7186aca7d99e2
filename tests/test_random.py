"""Random numbers: Torch7's Mersenne Twister stream, bit for bit.

Expected numbers come from the original's documentation and from the
conformance corpus (the original th's output for the same seeds)."""
import numpy as np
import pytest


def reference_mt(seed):
    """The reference mt19937ar: init_genrand(seed), then genrand_int32 outputs."""
    mt = [seed & 0xffffffff]
    for j in range(1, 624):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + j) & 0xffffffff)
    while True:
        for k in range(624):
            y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff)
            mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908b0df if y & 1 else 0)
        for k in range(624):
            y = mt[k]
            y ^= y >> 11
            y ^= (y << 7) & 0x9d2c5680
            y ^= (y << 15) & 0xefc60000
            y ^= y >> 18
            yield y


def draws(seed, n):
    gen = reference_mt(seed)
    return np.array([next(gen) for _ in range(n)], dtype=np.float64)


def run(runtime, code):
    return runtime.execute(code)


def arr(runtime, code):
    return np.array(runtime.to_numpy(runtime.execute(code)))


def test_first_outputs_of_init_genrand(runtime):
    # MT19937 reference: init_genrand(0) then genrand_int32
    assert run(runtime, "torch.manualSeed(0) return torch.random(), torch.random()") == (2357136044, 2546248239)


def test_uniform_after_manual_seed_doc(runtime):
    values = run(runtime, "torch.manualSeed(123) return torch.uniform(), torch.uniform(), torch.uniform()")
    assert values == pytest.approx((0.69646918727085, 0.71295532141812, 0.28613933874294), abs=1e-14)


def test_initial_seed_and_generators_are_independent(runtime):
    assert run(runtime, """
        torch.manualSeed(42)
        local g = torch.Generator()
        torch.manualSeed(g, 7)
        local a = torch.random(g)
        return torch.initialSeed(), torch.initialSeed(g), torch.type(g), a, torch.random()""") == (
        42, 7, "torch.Generator", draws(7, 1)[0], draws(42, 1)[0])


def test_integer_ranges_and_normal_numbers(runtime):
    assert run(runtime, """torch.manualSeed(3) local t = {}
        for i = 1, 10 do t[i] = torch.random(1, 6) end
        for i = 1, 10 do t[10 + i] = torch.random(10) end
        return table.concat(t, ' ')""") == "5 3 2 4 5 1 1 6 2 2 5 2 6 10 7 10 6 5 1 5"
    values = run(runtime, """torch.manualSeed(4)
        return torch.uniform(-1, 1), torch.uniform(10, 20), torch.normal(), torch.normal(5, 2), torch.normal(-3, 0.5)""")
    assert values == pytest.approx((0.93405967671424, 19.006214546971, -0.58884605705782,
                                    4.6398622217002, -2.030757276474), abs=1e-12)


def test_rng_state_round_trip_is_torch_sized(runtime):
    values = run(runtime, """torch.manualSeed(123) torch.uniform()
        local s = torch.getRNGState()
        local a = torch.uniform() torch.rand(1000) torch.normal()
        torch.setRNGState(s)
        return s:nElement(), torch.type(s), a, torch.uniform()""")
    assert values[0] == 5048 and values[1] == "torch.ByteTensor"
    assert values[2] == values[3] == pytest.approx(0.71295532141812, abs=1e-14)


def test_bulk_and_small_paths_draw_the_same_stream(runtime):
    # contiguous tensors are filled a block of words at a time: the numbers of one by one
    bulk = arr(runtime, "torch.manualSeed(5) return torch.rand(1001)")
    single = arr(runtime, """torch.manualSeed(5) local t = torch.Tensor(1001)
        for i = 1, 1001 do t[i] = torch.uniform() end return t""")
    assert np.array_equal(bulk, single)



def test_raw_stream_across_regenerations(runtime):
    # 2000 draws cross three regenerations of the 624-word state, in both paths
    expected = draws(99, 2000)
    bulk = arr(runtime, "torch.manualSeed(99) return torch.DoubleTensor(2000):random()")
    assert np.array_equal(bulk, expected)
    single = arr(runtime, """torch.manualSeed(99) local t = torch.DoubleTensor(2000)
        for i = 1, 2000 do t[i] = torch.random() end return t""")
    assert np.array_equal(single, expected)


def test_state_whose_left_and_next_disagree_draws_within_its_words(runtime):
    # setRNGState accepts left and next separately (as TH did); draws from such
    # a state, hot, in blocks and one by one, stay in range and never read past
    # the state's words
    got = runtime.execute("""
        local ffi = require 'ffi'
        local s = torch.getRNGState()
        local p = ffi.cast('int32_t *', s:data())
        p[2], p[4] = 624, 600          -- left 624, next 600
        local ok = true
        for k = 1, 300 do
           torch.setRNGState(s)
           local t = torch.Tensor(k * 7):uniform()
           local i = torch.IntTensor(k):random(1, 10)
           local u = torch.uniform()
           ok = ok and t:min() >= 0 and t:max() < 1 and i:min() >= 1 and i:max() <= 10 and u >= 0 and u < 1
        end
        return ok""")
    assert got is True


def box_muller(u, n):
    """TH's normal: pairs (x, y) -> rho cos(2 pi x), then the cached rho sin(2 pi x)."""
    out = []
    for i in range(0, len(u) - 1, 2):
        x, y = u[i], u[i + 1]
        rho = np.sqrt(-2.0 * np.log(1.0 - y))
        out += [rho * np.cos(2 * np.pi * x), rho * np.sin(2 * np.pi * x)]
    return np.array(out[:n])


@pytest.mark.parametrize("sizes", [(1, 6), (7, 64), (65, 300), (301, 3)])
def test_normal_pairs_and_cache_across_calls(runtime, sizes):
    a, b = sizes
    got = arr(runtime, f"""torch.manualSeed(21)
        local x, y = torch.randn({a}), torch.randn({b})
        return torch.cat and torch.cat(x, y) or x""")
    u = draws(21, 2 * (a + b) + 2) / 2 ** 32
    expected = box_muller(u, a + b)
    if got.size == a + b:
        np.testing.assert_allclose(got, expected, rtol=1e-13, atol=1e-13)
    else:
        np.testing.assert_allclose(got, expected[:a], rtol=1e-13, atol=1e-13)
    second = arr(runtime, f"torch.manualSeed(21) torch.randn({a}) return torch.randn({b})")
    np.testing.assert_allclose(second, expected[a:], rtol=1e-13, atol=1e-13)


def test_tensor_fills_conformance(runtime):
    # values of conformance case random/011 and random/023
    got = arr(runtime, "torch.manualSeed(7) return torch.Tensor(6):random(1, 10)")
    assert got.tolist() == [6, 3, 2, 7, 4, 8]
    got = arr(runtime, "torch.manualSeed(7) torch.Tensor(6):random(1, 10) torch.Tensor(4):random(100) return torch.Tensor(8):bernoulli(0.3)")
    assert got.tolist() == [0, 1, 0, 1, 1, 0, 1, 1]
    assert arr(runtime, "torch.manualSeed(16) return torch.IntTensor(5):random(1, 100)").tolist() == [82, 19, 66, 14, 38]
    got = arr(runtime, "torch.manualSeed(16) torch.IntTensor(5):random(1, 100) torch.LongTensor(3):random(50) return torch.ByteTensor(5):random()")
    assert got.dtype == np.uint8 and got.tolist() == [159, 4, 41, 224, 144]


def test_other_distributions_conformance(runtime):
    got = run(runtime, """torch.manualSeed(8)
        local e, c, l, g = torch.Tensor(3):exponential(2), torch.Tensor(3):cauchy(0, 2),
                           torch.Tensor(3):logNormal(0, 1), torch.Tensor(5):geometric(0.5)
        return e, c, l, g""")
    e, c, l, g = (np.array(runtime.to_numpy(t)) for t in got)
    np.testing.assert_allclose(e, [1.0335, 0.0056, 1.7295], atol=5e-5)
    np.testing.assert_allclose(c, [-2.1373, 4.5898, -0.8100], atol=5e-5)
    np.testing.assert_allclose(l, [0.1642, 0.7013, 1.1202], atol=5e-5)
    assert g.tolist() == [1, 2, 1, 3, 1]


@pytest.mark.parametrize("method", ["uniform(2, 3)", "normal(1, 2)", "exponential(3)", "cauchy(1, 2)",
                                    "logNormal(0, 1)", "geometric(0.3)", "bernoulli(0.4)", "random(5, 9)"])
def test_bulk_fill_equals_small_fills(runtime, method):
    # one tensor of 200 versus the same stream in chunks of 8 (LuaJIT path), on a
    # non-contiguous view: filled in row-major order of the view
    big = arr(runtime, f"torch.manualSeed(31) local t = torch.Tensor(10, 20) t:t():{method} return t")
    small = arr(runtime, f"""torch.manualSeed(31) local t = torch.Tensor(20, 10)
        for i = 1, 25 do t:view(200):narrow(1, (i - 1) * 8 + 1, 8):{method} end return t""")
    np.testing.assert_allclose(big.T, small, rtol=1e-12)


def test_float_and_generator_forms(runtime):
    got = arr(runtime, "torch.manualSeed(16) torch.IntTensor(5):random(1, 100) torch.LongTensor(3):random(50) torch.ByteTensor(5):random() return torch.FloatTensor(3):uniform()")
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, [0.6538, 0.1637, 0.8658], atol=5e-5)
    a = arr(runtime, "local g = torch.Generator() torch.manualSeed(g, 3) return torch.rand(g, 2, 3)")
    b = arr(runtime, "local g = torch.Generator() torch.manualSeed(g, 3) local r = torch.Tensor() torch.rand(r, g, 6) return r")
    assert a.shape == (2, 3) and np.array_equal(a.reshape(-1), b)
    np.testing.assert_array_equal(a.reshape(-1), draws(3, 6) / 2 ** 32)


def test_randperm_conformance_and_forms(runtime):
    assert arr(runtime, "torch.manualSeed(9) return torch.randperm(10)").tolist() == [1, 6, 9, 8, 7, 3, 10, 2, 5, 4]
    got = arr(runtime, "torch.manualSeed(9) torch.randperm(10) local r = torch.IntTensor() torch.randperm(r, 5) return r")
    assert got.dtype == np.int32 and got.tolist() == [2, 4, 1, 5, 3]
    big = arr(runtime, "torch.manualSeed(1) return torch.randperm(5000)")
    assert sorted(big.tolist()) == list(range(1, 5001))


def test_multinomial_conformance(runtime):
    got = run(runtime, """torch.manualSeed(10)
        local p = torch.Tensor({0.1, 0.2, 0.3, 0.4})
        return torch.multinomial(p, 8, true), torch.multinomial(p, 4),
               torch.multinomial(torch.Tensor({{1, 0, 0}, {0, 1, 1}}), 2, true)""")
    a, b, c = (np.array(runtime.to_numpy(t)) for t in got)
    assert a.dtype == np.int64 and a.tolist() == [4, 2, 1, 3, 4, 3, 4, 4]
    assert b.tolist() == [3, 4, 1, 2]
    assert c.tolist() == [[1, 1], [3, 2]]
    counts = arr(runtime, "torch.manualSeed(11) return torch.multinomial(torch.Tensor{1, 1, 0.5, 0}, 10000, true)")
    assert [(counts == i).sum() for i in range(1, 5)] == [4007, 3951, 2042, 0]
    res = arr(runtime, """torch.manualSeed(20) local p = torch.FloatTensor({0.5, 0.25, 0.25})
        local res = torch.LongTensor() p.multinomial(res, p, 6, true) return res""")
    assert res.tolist() == [2, 3, 3, 3, 3, 3]


@pytest.mark.parametrize("code", [
    "torch.normal(0, -1)", "torch.Tensor(3):normal(0, 0)", "torch.geometric(1.5)", "torch.bernoulli(2)",
    "torch.random(5, 1)", "torch.random(0)", "torch.randperm(0)",
    "torch.multinomial(torch.Tensor{1, -1}, 1)", "torch.multinomial(torch.Tensor{0, 0}, 1)",
    "torch.multinomial(torch.Tensor{1, 1}, 3)", "torch.multinomial(torch.LongTensor(), torch.Tensor{1, 1}, 1)",
    "torch.IntTensor(3):uniform()", "torch.setRNGState(torch.ByteTensor(10))", "torch.rand(torch.IntTensor(), 3)",
])
def test_bad_input_is_a_lua_error(runtime, code):
    ok, msg = run(runtime, f"return pcall(function() return {code} end)")
    assert ok is False and isinstance(msg, str) and "Traceback" not in msg


def test_error_leaves_result_untouched(runtime):
    ok, same = run(runtime, """local res = torch.LongTensor({7, 7})
        local ok = pcall(function() return torch.DoubleTensor.multinomial(res, torch.Tensor{1, -1}, 1) end)
        return ok, res:size(1) >= 1""")
    assert ok is False and same


def test_rng_state_functions_return_their_tensor(runtime):
    # random.lua's cwrap: getRNGState/setRNGState return the ByteTensor they
    # were given (getRNGState fills it); setRNGState's documented result is state
    same_get, same_set, equal = run(runtime, """torch.manualSeed(5)
        local s = torch.ByteTensor()
        local got = torch.getRNGState(s)
        return got == s, torch.setRNGState(s) == s, s:equal(torch.getRNGState())""")
    assert same_get is True and same_set is True and equal is True
    first, again = run(runtime, """local g = torch.Generator() torch.manualSeed(g, 123)
        local s = torch.getRNGState(g, torch.ByteTensor())
        local a = torch.uniform(g) torch.setRNGState(g, s) return a, torch.uniform(g)""")
    assert first == again == pytest.approx(0.69646918727085)


def test_rand_randn_randperm_methods(runtime):
    # TensorMath.lua wraps rand/randn/randperm with method={default='nil'}: x:rand(m, n)
    # resizes x and fills it from the same stream as torch.rand
    a = arr(runtime, "torch.manualSeed(18) return torch.Tensor():rand(5, 5)")
    np.testing.assert_allclose(a[0], [0.6504, 0.0760, 0.5055, 0.4326, 0.8786], atol=5e-5)
    b = arr(runtime, "torch.manualSeed(19) return torch.Tensor(9):randn(3, 3)")
    np.testing.assert_allclose(b[0], [0.8680, 0.6103, 0.0729], atol=5e-5)
    p = arr(runtime, "torch.manualSeed(9) return torch.IntTensor():randperm(10)")
    assert p.dtype == np.int32 and p.tolist() == [1, 6, 9, 8, 7, 3, 10, 2, 5, 4]


def test_random_bounds_are_c_longs(runtime):
    # TensorMath.lua wraps random's bounds as 'long' (luaL_checklong): fractions are
    # cut toward zero and numeric strings accepted, so results stay integers
    d = draws(3, 4)
    got = run(runtime, "torch.manualSeed(3) return {torch.random(6.7), torch.random(1.5, 3.9), torch.random('4'), torch.random(-2.5, 2.5)}")
    assert list(got.values()) == [d[0] % 6 + 1, d[1] % 3 + 1, d[2] % 4 + 1, d[3] % 5 - 2]
    t = arr(runtime, "torch.manualSeed(3) return torch.Tensor(3):random(6.7)")
    assert t.tolist() == (d[:3] % 6 + 1).tolist()
    ok, msg = run(runtime, "return pcall(torch.random, 0.5)")
    assert ok is False and "upper bound must be strictly positive" in msg


@pytest.mark.parametrize("code, message", [
    # (tail calls inside pcall: the original's '?', as it printed them)
    ("torch.normal(0, 0)", "bad argument #2 to '?' (standard deviation must be strictly positive)"),
    ("torch.Tensor(3):logNormal(1, -1)", "bad argument #2 to '?' (standard deviation must be strictly positive)"),
    ("torch.geometric(1)", "bad argument #1 to '?' (must be > 0 and < 1)"),
    ("torch.Tensor(2):bernoulli(1.5)", "bad argument #1 to '?' (must be >= 0 and <= 1)"),
])
def test_distribution_checks_read_as_thrandom(runtime, code, message):
    # THRandom.c's THArgCheck(stdv > 0, 2, ...), THArgCheck(p > 0 && p < 1, 1, ...),
    # reported by torch's arg-error handler through luaL_argerror
    ok, msg = run(runtime, f"return pcall(function() return {code} end)")
    assert ok is False and msg.endswith(message)
