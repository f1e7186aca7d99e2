"""torch.HalfTensor / HalfStorage (numpy float16): the original's behaviour
(tests/parity/half.*), and element conversions equal to numpy's float16 (from
float, as TH converted) on every path, run hot so that LuaJIT compiles them."""
import numpy as np
import pytest

from helpers import lua_runner
from parity_cases import cases, check


@pytest.mark.parametrize("case", cases("half"))
def test_half_against_torch7(case):
    check(case)


def values():
    rng = np.random.default_rng(7)
    v = np.concatenate([rng.normal(0, 1, 1500), rng.normal(0, 3e4, 500), rng.normal(0, 1e-5, 500),
                        [0.0, -0.0, 65504, 65519.99, 65520, 1e5, -1e5, 2049, 2051, 2 ** -24, 2 ** -25,
                         3 * 2 ** -26, np.inf, -np.inf]])
    return v


def test_element_writes_and_reads_round_as_numpy(runtime):
    lua = lua_runner(runtime)
    v = values()
    with np.errstate(over="ignore"):    # (beyond 65504: inf, as TH's halves)
        expected = v.astype(np.float32).astype(np.float16).astype(np.float64)
    got = lua("""local h = torch.HalfStorage(v:size(1))
        for i = 1, v:size(1) do h[i] = v[i] end
        local out = torch.Tensor(v:size(1))
        for i = 1, v:size(1) do out[i] = h[i] end
        return out""", v=v)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("n", [5, 64, 65, 5000])
def test_copies_both_ways_small_and_bulk(runtime, n):
    lua = lua_runner(runtime)
    v = values()[:n]
    got = lua("""local out
        for k = 1, 300 do out = v:half():double() end
        return out""", v=v)
    np.testing.assert_array_equal(got, v.astype(np.float16).astype(np.float64))


def test_nan_and_bad_use_are_lua_errors(runtime):
    lua = lua_runner(runtime)
    assert lua("local h = torch.HalfTensor(1) h[1] = 0/0 return h[1] ~= h[1]") is True
    ok, msg = lua("return pcall(function() return torch.HalfTensor(2)[3] end)")
    assert ok is False and "Traceback" not in msg
