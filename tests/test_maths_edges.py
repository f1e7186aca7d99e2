"""Edge values and call forms of the maths families beyond the listed conformance
cases, whose results follow from TH's C code (THTensorMath.c, TensorMath.lua,
TensorOperator.c)."""
import math

import pytest
from lupa.luajit21 import LuaError


def values(runtime, code):
    """Runs code returning a tensor -> its elements as a flat Python list."""
    t = runtime.execute(code)
    return list(runtime.to_numpy(t).ravel())


def test_cumsum_default_dimension_is_the_first(runtime):
    # TensorMath.lua: {name="index", default=1}
    assert values(runtime, "return torch.cumsum(torch.Tensor({{1, 2, 3}, {4, 5, 6}}))") == [1, 2, 3, 5, 7, 9]


def test_cumsum_of_a_transposed_view(runtime):
    code = "return torch.cumsum(torch.Tensor({{1, 2, 3}, {4, 5, 6}}):t(), 1)"
    assert values(runtime, code) == [1, 4, 3, 9, 6, 15]


def test_max_along_a_dimension_propagates_nan_with_its_index(runtime):
    v, i = runtime.execute("local v, i = torch.max(torch.Tensor({{1, 0/0, 3}}), 2) return v[1][1], i[1][1]")
    assert math.isnan(v) and i == 2


def test_mode_on_a_tie_keeps_the_smaller_value(runtime):
    # TH walks the sorted slice and replaces the mode only on a strictly larger count
    assert runtime.execute("return torch.mode(torch.Tensor({{3, 3, 1, 2, 2}}))[1][1]") == 2


def test_byte_prod_wraps_along_a_dimension_but_not_whole(runtime):
    assert runtime.execute("return torch.ByteTensor({20, 30}):prod()") == 600
    assert runtime.execute("return torch.ByteTensor({{20, 30}}):prod(2)[1][1]") == 600 % 256


def test_var_std_flags_and_single_element(runtime):
    assert runtime.execute("return torch.Tensor({{3, 1, 2}, {9, 7, 8}}):var(1, true)[1][1]") == 9
    assert runtime.execute("return torch.Tensor({1, 2, 3}):var()") == 1
    assert math.isnan(runtime.execute("return torch.std(torch.Tensor({5}))"))


def test_mean_is_offered_for_floating_types_only(runtime):
    assert runtime.execute("return torch.IntTensor({1, 2}).mean") is None
    assert runtime.execute("return torch.FloatTensor({1, 2}):mean()") == 1.5


def test_sign_of_nan_and_byte_sign(runtime):
    assert values(runtime, "return torch.sign(torch.Tensor({-3, 0/0, 0, 2}))") == [-1, 0, 0, 1]
    assert values(runtime, "return torch.ByteTensor({0, 7}):sign()") == [0, 1]


@pytest.mark.parametrize("tname", ["Byte", "Char", "Int", "Long", "Float", "Double"])
def test_sign_of_large_tensors_new_and_in_place(runtime, tname):
    """The numpy path (10^5 elements and more): x > 0 and 1 or x < 0 and -1 or
    0, NaN and -0 giving 0 (numpy's sign gives NaN and -0)."""
    pattern = {"Byte": [0, 5, 200], "Float": [-3, 0, 5, -0.0, "0/0"], "Double": [-3, 0, 5, -0.0, "0/0"]}
    pattern = pattern.get(tname, [-3, 0, 5, -1])
    code = f"""local pattern = {{{", ".join(map(str, pattern))}}}
               local x = torch.{tname}Tensor(300000)
               for i = 1, x:nElement() do x[i] = pattern[(i - 1) % #pattern + 1] end
               local new = torch.sign(x)
               x:sign()
               return torch.cat(new:double(), x:double())"""
    signs = [0 if v in (0, -0.0, "0/0") else (1 if v > 0 else -1) for v in pattern]
    want = [signs[i % len(pattern)] for i in range(300000)] * 2
    got = values(runtime, code)
    assert got == want and not any(math.copysign(1, v) < 0 for v, w in zip(got, want) if w == 0)


def test_integer_mul_by_a_fraction_casts_the_number_first(runtime):
    assert values(runtime, "return torch.IntTensor({3, 5}):mul(0.5)") == [0, 0]


def test_linspace_of_one_point_needs_equal_ends(runtime):
    assert values(runtime, "return torch.linspace(1, 1, 1)") == [1]
    with pytest.raises(LuaError, match="invalid number of points"):
        runtime.execute("return torch.linspace(0, 1, 1)")


def test_histc_widens_a_constant_range_by_one_each_side(runtime):
    h = values(runtime, "return torch.histc(torch.Tensor({2, 2}))")
    assert len(h) == 100 and h[50] == 2 and sum(h) == 2


def test_histc_with_explicit_bounds(runtime):
    assert values(runtime, "return torch.histc(torch.Tensor({1, 2, 1}), 5, 0, 4)") == [0, 2, 1, 0, 0]


def test_histc_of_data_holding_an_infinity_counts_undefined_bins_first(runtime):
    # (Torch7 crashed; th's rule, in README: inf / inf is the first bin, a
    # value equal to a finite top the last)
    for code in ("torch.Tensor({1, 2, 1/0, 3, 4, 5})", "torch.Tensor({{1, 2, 1/0}, {3, 4, 5}})",
                 "torch.Tensor({{1, 2, -1/0}, {3, 4, 5}}):t()"):
        assert values(runtime, f"return torch.histc({code}, 4)") == [6, 0, 0, 0]
    assert values(runtime, "return torch.histc(torch.Tensor({1, 2, 1/0}), 2, 0, 1/0)") == [3, 0]


def test_cumsum_and_cumprod_of_an_empty_tensor_are_an_error(runtime):
    # (the original: "bad argument #1 to 'cumsum' (dimension 1 out of range at ...THTensorMath.c")
    for name in ("cumsum", "cumprod"):
        with pytest.raises(LuaError, match=rf"#1 to '{name}' \(dimension 1 out of range\)"):
            runtime.execute(f"local r = torch.Tensor():{name}() return r")


def test_range_size_truncates_the_step_count(runtime):
    assert values(runtime, "return torch.range(0, 1, 0.3)") == pytest.approx([0, 0.3, 0.6, 0.9])


def test_trace_of_a_wide_matrix_and_norm_zero(runtime):
    assert runtime.execute("return torch.trace(torch.Tensor({{1, 2, 3}, {4, 5, 6}}))") == 6
    assert runtime.execute("return torch.norm(torch.Tensor({{1, 0}, {3, 4}}), 0)") == 3


def test_renorm_scales_rows_over_maxnorm(runtime):
    r = values(runtime, "return torch.renorm(torch.Tensor({{1, 2}, {3, 4}}), 2, 1, 3)")
    assert r == pytest.approx([1, 2, 1.8, 2.4], rel=1e-6)


def test_multiplying_1d_by_2d_is_torch7s_operator_error(runtime):
    ok, msg = runtime.execute(
        "return pcall(function() return torch.Tensor({1, 1}) * torch.Tensor({{1, 2}, {3, 4}}) end)")
    assert ok is False and msg.endswith("multiplication between 1D and 2D tensors not yet supported")


def test_addmv_method_with_one_scalar_scales_the_product(runtime):
    # doc: r:addmv(s, y, z) does r = r + s * y * z
    code = "return torch.Tensor({1, 1}):addmv(0, torch.Tensor({{1, 2}, {3, 4}}), torch.Tensor({1, 1}))"
    assert values(runtime, code) == [1, 1]


def test_empty_all_and_any_are_an_error(runtime):
    # (the original: "calling 'all' on bad self (empty Tensor at ...THTensorMath.c")
    for name in ("all", "any"):
        with pytest.raises(LuaError, match=rf"calling '{name}' on bad self \(empty Tensor\)"):
            runtime.execute(f"local r = torch.ByteTensor():{name}() return r")


def test_cat_into_one_of_its_parts_is_an_error_not_a_write_beyond_it(runtime):
    # Torch7 corrupted its heap here; th resizes the result first (the part
    # with it) and the next part no longer fits: TH's narrow's error for its
    # first index (#3), as Torch7 gave it where it did not crash (cat(x, x, x))
    code = """
    local t, b = torch.range(1, 12):resize(3, 4), torch.ones(3, 4)
    local ok, err = pcall(torch.cat, t, {t, b}, 1)
    return ok, tostring(err):match("bad argument #3 to '%?' %(out of range%)") ~= nil, t:size(1), t:sum()
    """
    ok, matched, rows, total = runtime.execute(code)
    assert (ok, matched, rows) == (False, True, 6)
    assert total == 78


def test_shift_by_a_number_outside_the_width_gives_zero_on_every_path(runtime):
    # C leaves it undefined (Torch7 gave 0 in its vectorised loop's elements
    # and the shifted value in the others); th gives 0 everywhere (README;
    # bitops.lua leaves such counts to numpy's path): every integer type,
    # sizes and views that take the LuaJIT, SIMD and strided paths in range,
    # new and given results, repeated
    code = """
    local bad = {}
    for _, T in ipairs{'Byte', 'Char', 'Short', 'Int', 'Long'} do
       local width = torch[T .. 'Tensor']():elementSize() * 8
       local counts = {width, width + 1, 63, 64, 100}
       if T ~= 'Byte' then counts[#counts + 1] = -1; counts[#counts + 1] = -width end
       for _, n in ipairs{7, 100, 5000} do
          local x = torch[T .. 'Tensor'](n, 2):random(1, 100)
          for _, view in ipairs{x, x:select(2, 1)} do
             local r = view:clone()
             for i = 1, 300 do
                for _, c in ipairs(counts) do
                   if c < width and c >= 0 then goto next end
                   for _, f in ipairs{'lshift', 'rshift'} do
                      r:fill(1)
                      r[f](r, view, c)
                      if r:ne(0):sum() ~= 0 then bad[#bad + 1] = T .. f .. c end
                      if i == 1 and torch[f](view, c):ne(0):sum() ~= 0 then bad[#bad + 1] = T .. f .. c .. 'new' end
                   end
                   ::next::
                end
             end
          end
       end
    end
    return #bad == 0 and 'ok' or table.concat(bad, ' ')
    """
    assert runtime.execute(code) == "ok"


def test_long_shifts_carry_bits_between_the_halves(runtime):
    # a LongTensor's elements are shifted as two 32-bit halves in LuaJIT:
    # bits cross from one to the other, rshift is logical (values from the
    # original: tests/fixtures/parity_bitops covers them at scale)
    code = """
    local x = torch.LongTensor{1, -1, 2^40 + 3, -2^62, 2^31 + 5}
    local out = {}
    for _, c in ipairs{1, 31, 32, 33, 63} do
       for _, t in ipairs{torch.lshift(x, c), torch.rshift(x, c),
                          torch.clshift(x, torch.LongTensor(5):fill(c + 64)),
                          torch.crshift(x, torch.LongTensor(5):fill(c - 64))} do
          for i = 1, 5 do out[#out + 1] = tostring(t:data()[i - 1]) end
       end
    end
    return table.concat(out, ' ')
    """
    got = runtime.execute(code).split()
    mask = (1 << 64) - 1
    xs = [1, -1, 2**40 + 3, -2**62, 2**31 + 5]

    def signed(v):
        v &= mask
        return v - (1 << 64) if v >> 63 else v

    want = []
    for c in (1, 31, 32, 33, 63):
        for shifted in ([x << c for x in xs], [(x & mask) >> c for x in xs]) * 2:
            want += [f"{signed(v)}LL" for v in shifted]
    assert got == want
