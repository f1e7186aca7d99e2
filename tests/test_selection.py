"""index, indexCopy/Add/Fill, gather, scatter, masked*, nonzero: the Torch7
semantics (1-based indices, row-major masks) checked against numpy's
equivalents, on small tensors (LuaJIT loops) and big ones (numpy paths),
contiguous or not, and the errors that leave the tensor untouched."""
import numpy as np
import pytest
from lupa.luajit21 import LuaError

from helpers import lua_runner, raises_on_matrix

SHAPES = [(3, 4), (30, 40), (2, 3, 4), (10, 20, 5)]


@pytest.fixture
def lua(runtime):
    """lua(code, **tensors) -> what code returns (tensors as numpy copies)."""
    return lua_runner(runtime)


def along(axis, idx):
    return (slice(None),) * axis + (idx,)


@pytest.mark.parametrize("shape", SHAPES)
def test_index(lua, shape):
    rng = np.random.default_rng(1)
    a = rng.standard_normal(shape)
    for dim in range(len(shape)):
        idx = rng.integers(1, shape[dim] + 1, size=7)
        got = lua(f"return x:index({dim + 1}, i)", x=a, i=idx)
        assert np.array_equal(got, np.take(a, idx - 1, axis=dim))
        got = lua(f"local r = torch.Tensor(); r:index(x, {dim + 1}, i); return r", x=a, i=idx)
        assert np.array_equal(got, np.take(a, idx - 1, axis=dim))


@pytest.mark.parametrize("shape", SHAPES)
def test_index_of_transposed_source_and_strided_index(lua, shape):
    rng = np.random.default_rng(2)
    a = rng.standard_normal(shape)
    t = np.swapaxes(a, 0, len(shape) - 1)
    for dim in range(len(shape)):
        idx = rng.integers(1, t.shape[dim] + 1, size=(70, 2))
        got = lua(f"return x:transpose(1, {len(shape)}):index({dim + 1}, i:select(2, 2))", x=a, i=idx)
        assert np.array_equal(got, np.take(t, idx[:, 1] - 1, axis=dim))


@pytest.mark.parametrize("shape", SHAPES)
def test_gather(lua, shape):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shape)
    for dim in range(len(shape)):
        gshape = list(shape)
        gshape[dim] = 3
        idx = rng.integers(1, shape[dim] + 1, size=gshape)
        expected = np.take_along_axis(a, idx - 1, dim)
        assert np.array_equal(lua(f"return x:gather({dim + 1}, i)", x=a, i=idx), expected)
        got = lua(f"local r = torch.Tensor(i:size()); r:gather(x, {dim + 1}, i); return r", x=a, i=idx)
        assert np.array_equal(got, expected)


def unique_rows(rng, shape, dim, k):
    """An index of k distinct positions per row along dim (as scatter wants)."""
    order = np.argsort(rng.random(shape), axis=dim)
    return order[along(dim, slice(0, k))] + 1


@pytest.mark.parametrize("shape", SHAPES)
def test_scatter(lua, shape):
    rng = np.random.default_rng(4)
    a = rng.standard_normal(shape)
    for dim in range(len(shape)):
        idx = unique_rows(rng, shape, dim, 3)
        src = rng.standard_normal(idx.shape)
        expected = a.copy()
        np.put_along_axis(expected, idx - 1, src, dim)
        assert np.array_equal(lua(f"return x:scatter({dim + 1}, i, s)", x=a, i=idx, s=src), expected)
        expected = a.copy()
        np.put_along_axis(expected, idx - 1, 2.5, dim)
        assert np.array_equal(lua(f"return x:scatter({dim + 1}, i, 2.5)", x=a, i=idx), expected)


@pytest.mark.parametrize("shape", SHAPES)
def test_index_copy_add_fill(lua, shape):
    rng = np.random.default_rng(5)
    a = rng.standard_normal(shape)
    for dim in range(len(shape)):
        uidx = rng.permutation(shape[dim])[:min(3, shape[dim])] + 1
        cshape = list(shape)
        cshape[dim] = len(uidx)
        src = rng.standard_normal(cshape)
        expected = a.copy()
        expected[along(dim, uidx - 1)] = src
        got = lua(f"x:indexCopy({dim + 1}, i, s); return x", x=a, i=uidx, s=src)
        assert np.array_equal(got, expected)
        ridx = np.array([1, 1, shape[dim]])          # repeated indices accumulate
        cshape[dim] = 3
        src = rng.standard_normal(cshape)
        expected = a.copy()
        np.add.at(expected, along(dim, ridx - 1), src)
        assert np.allclose(lua(f"x:indexAdd({dim + 1}, i, s); return x", x=a, i=ridx, s=src), expected)
        expected = a.copy()
        expected[along(dim, ridx - 1)] = -3
        assert np.array_equal(lua(f"x:indexFill({dim + 1}, i, -3); return x", x=a, i=ridx), expected)


def test_index_copy_into_transposed_destination(lua):
    a = np.arange(12.0).reshape(3, 4)
    src = -np.arange(1.0, 7.0).reshape(2, 3)
    expected = a.copy()
    expected.T[[3, 0]] = src
    got = lua("local y = x:t(); y:indexCopy(1, torch.LongTensor{4, 1}, s); return x", x=a, s=src)
    assert np.array_equal(got, expected)


@pytest.mark.parametrize("shape", SHAPES)
def test_masks(lua, shape):
    rng = np.random.default_rng(6)
    a = rng.standard_normal(shape)
    m = (rng.random(shape) > 0.5).astype(np.uint8)
    flat, mflat = a.reshape(-1), m.reshape(-1) == 1
    # the mask is 1-D: only the element counts must match
    assert np.array_equal(lua("return x:maskedSelect(m)", x=a, m=m.reshape(-1)), flat[mflat])
    assert np.array_equal(lua("return x[m]", x=a, m=m), flat[mflat])
    got = lua("local r = torch.DoubleTensor(); r:maskedSelect(x, m); return r", x=a, m=m)
    assert np.array_equal(got, flat[mflat])
    expected = flat.copy()
    expected[mflat] = 7
    assert np.array_equal(lua("x:maskedFill(m, 7); return x", x=a, m=m).reshape(-1), expected)
    src = rng.standard_normal(m.sum() + 2)
    expected = flat.copy()
    expected[mflat] = src[:m.sum()]
    assert np.array_equal(lua("return x:maskedCopy(m, s)", x=a, m=m, s=src).reshape(-1), expected)
    assert np.array_equal(lua("x[m] = s; return x", x=a, m=m, s=src[:m.sum()]).reshape(-1), expected)


@pytest.mark.parametrize("n", [4, 40])
def test_masks_on_transposed_and_expanded_tensors(lua, n):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((n, n))
    m = (rng.random((n, n)) > 0.5).astype(np.uint8)
    assert np.array_equal(lua("return x:t():maskedSelect(m)", x=a, m=m), a.T[m == 1])
    assert np.array_equal(lua("return x:t():maskedSelect(m:t())", x=a, m=m), a.T[m.T == 1])
    expected = a.copy()
    expected.T[m == 1] = -1
    assert np.array_equal(lua("x:t():maskedFill(m, -1); return x", x=a, m=m), expected)
    col = rng.standard_normal((n, 1))
    got = lua(f"return x:expand({n}, {n}):maskedSelect(m)", x=col, m=m)
    assert np.array_equal(got, np.broadcast_to(col, (n, n))[m == 1])


@pytest.mark.parametrize("shape", SHAPES + [(5,), (100,)])
def test_nonzero(lua, shape):
    rng = np.random.default_rng(8)
    z = rng.standard_normal(shape) * (rng.random(shape) > 0.6)
    z.flat[-1] = np.nan                     # NaN is not zero
    assert np.array_equal(lua("return z:nonzero()", z=z), np.argwhere(z) + 1)
    assert np.array_equal(lua("return torch.nonzero(z)", z=z), np.argwhere(z) + 1)
    got = lua("local r = torch.LongTensor(); z.nonzero(r, z); return r", z=z)
    assert np.array_equal(got, np.argwhere(z) + 1)
    assert lua("return z:nonzero():type()", z=z) == "torch.LongTensor"


def test_nonzero_transposed_and_empty(lua):
    z = np.array([[0, 1.5], [2, 0], [0, 0]])
    assert np.array_equal(lua("return z:t():nonzero()", z=z), np.argwhere(z.T) + 1)
    assert lua("return torch.zeros(3):nonzero():nElement()") == 0
    assert lua("return torch.Tensor():nonzero():dim()") == 0


def test_every_type(lua):
    for name in ["Byte", "Char", "Short", "Int", "Long", "Float", "Double"]:
        code = f"""
        local x = torch.{name}Tensor({{{{1, 2, 3}}, {{4, 5, 6}}}})
        local a = x:index(2, torch.LongTensor{{3, 1}})
        local g = x:gather(1, torch.LongTensor{{{{2, 1, 2}}}})
        local m = x:maskedSelect(torch.ByteTensor({{{{0, 1, 0}}, {{1, 0, 1}}}}))
        x:indexFill(1, torch.LongTensor{{1}}, 9)
        return a:type(), a[1][1], a[2][2], g[1][3], m[3], x[1][2], x:nonzero():size(1)
        """
        assert lua(code) == (f"torch.{name}Tensor", 3, 4, 6, 6, 9, 6)


# (the messages of index, indexCopy, indexAdd and indexFill recorded from the original)
ERRORS = [
    ("x:index(1, torch.LongTensor{3})", "index out of range"),
    ("x:index(2, torch.LongTensor{0})", r"bad argument #2 to 'index' \(out of range\)"),
    ("x:index(1, torch.IntTensor{1})", "torch.LongTensor expected"),
    ("x:index(3, torch.LongTensor{1})", "Indexing dim 3 is out of bounds of tensor"),
    ("x:index(1, torch.LongTensor{{1}})", "vector"),
    ("x:gather(2, torch.LongTensor{{1, 4}, {1, 1}})", "Invalid index in gather"),
    ("x:gather(2, torch.LongTensor{{1}, {1}, {1}})",
     r"Expected tensor \[3 x 1\], src \[2 x 3\] and index \[3 x 1\] to have the same size in dimension 1"),
    ("x:scatter(2, torch.LongTensor{{1, 4}, {1, 1}}, 0)", "Invalid index in scatter"),
    ("x:scatter(2, torch.LongTensor{{1}, {2}}, torch.IntTensor{{1}, {2}})",
     "invalid arguments: DoubleTensor number LongTensor IntTensor"),
    ("x:indexCopy(1, torch.LongTensor{1}, torch.Tensor(2, 3))",
     r"bad argument #3 to 'indexCopy' \(Number of indices should be equal to source:size\(dim\)\)"),
    ("x:indexAdd(1, torch.LongTensor{1, 5}, torch.Tensor(2, 3))", r"bad argument #2 to 'indexAdd' \(out of range\)"),
    ("x:indexFill(2, torch.LongTensor{1, 9}, 0)", r"bad argument #2 to 'indexFill' \(out of range\)"),
    ("x:maskedSelect(torch.DoubleTensor(6))", "torch.ByteTensor expected"),
    ("x:maskedSelect(torch.ByteTensor(5))", "but got 6 and 5 elements respectively"),
    ("x:maskedFill(torch.ByteTensor({0, 2, 0, 0, 0, 0}), 1)", "0 and 1 values only"),
    ("x:maskedCopy(torch.ByteTensor({1, 1, 1, 0, 0, 0}), torch.Tensor{1, 2})", "Number of elements of src < number of ones"),
    ("torch.nonzero(torch.LongTensor(), x)", "invalid arguments: LongTensor DoubleTensor"),
]


@pytest.mark.parametrize("code,message", ERRORS, ids=[c for c, _ in ERRORS])
def test_errors_leave_the_tensor_intact(runtime, code, message):
    raises_on_matrix(runtime, code, message)
    assert runtime.execute("return x:totable()[1][1], x:totable()[2][3], x:nElement()") == (1, 6, 6)


BIG_ERRORS = [
    "big:indexFill(1, torch.LongTensor(80):fill(1):fill(101), 0)",
    "big:index(2, torch.LongTensor(80):fill(0))",
    "big:indexCopy(1, torch.LongTensor{1, 101}, torch.Tensor(2, 100))",
    "big:scatter(1, torch.LongTensor(2, 100):fill(101), 0)",
    "big:scatter(2, torch.LongTensor(100, 3):fill(101), big:clone())",
    "big:gather(1, torch.LongTensor(2, 100):fill(-1))",
    "big:maskedFill(torch.ByteTensor(100, 100):fill(2), 0)",
    "big:maskedCopy(torch.ByteTensor(100, 100):fill(1), torch.Tensor(9999))",
]


@pytest.mark.parametrize("code", BIG_ERRORS)
def test_big_errors_leave_the_tensor_intact(runtime, code):
    runtime.execute("big = torch.Tensor(100, 100):fill(1)")
    with pytest.raises(LuaError):
        runtime.execute(code)
    assert runtime.execute("local s = 0; big:apply(function(v) s = s + v end); return s") == 10000


def test_a_longtensor_is_no_bracket_index(th):
    # Torch7: x[idx] is nil, x[idx] = v "the class torch.DoubleTensor cannot be indexed"
    out = th("""x = torch.Tensor({{1, 2}, {3, 4}, {5, 6}})
print(x[torch.LongTensor{3, 1}])
print(pcall(function() x[torch.LongTensor{2}] = 0 end))
print(x:sum())""")
    lines = out.stdout.splitlines()
    assert lines[0] == "nil\t"
    assert lines[1].startswith("false") and lines[1].endswith(
        "the class torch.DoubleTensor cannot be indexed\t")
    assert lines[2] == "21\t"


def test_select_takes_no_negative_index_but_brackets_do(runtime):
    # Torch7's select cut the index with luaL_checklong and had no negative form; [] counted from the end
    runtime.execute("x = torch.Tensor({{1, 2, 3}, {4, 5, 6}})")
    assert runtime.execute("return x:select(1, 2.7)[3]") == 6
    assert runtime.execute("return x:select(2, 1):totable()[2]") == 4
    assert runtime.execute("return x[-1][1]") == 4
    # (a tail call: Lua knew neither the name nor self, "bad argument #3 to '?'";
    # the reason in TH's words)
    with pytest.raises(LuaError, match=r"#3 to '\?' \(out of range\)"):
        runtime.execute("return x:select(1, -1)")
    # (a vector's index is TH's argument #1)
    with pytest.raises(LuaError, match=r"#1 to 'select' \(out of range\)"):
        runtime.execute("local v = torch.Tensor({1, 2}):select(1, -1) return v")


def test_index_and_index_add_with_repeated_indices(lua):
    assert lua("return torch.IntTensor{10, 20, 30}:index(1, torch.LongTensor{3, 3})").tolist() == [30, 30]
    # indexAdd accumulates every occurrence of a repeated index
    out = lua("local x = torch.zeros(2, 2); x:indexAdd(1, torch.LongTensor{1, 1}, torch.ones(2, 2)); return x")
    assert out.tolist() == [[2, 2], [0, 0]]


def test_a_bad_mask_value_anywhere_leaves_masked_fill_undone(runtime):
    # maskedFill ORs the mask's bytes 32 at a time (maskloops.maskor): a 2 or a
    # 255 at any place of a word, or in the tail, is found before any write; hot
    code = """
    local bad = 0
    for rep = 1, 40 do
       for _, n in ipairs{5, 31, 32, 33, 64, 70} do
          for pos = 1, n do
             for _, v in ipairs{2, 255} do
                local x = torch.Tensor(n):fill(3)
                local m = torch.ByteTensor(n):fill(1)
                m[pos] = v
                local ok, err = pcall(function() x:maskedFill(m, 7) end)
                if ok or not tostring(err):find('Mask tensor can take 0 and 1 values only', 1, true)
                   or x:sum() ~= 3 * n then bad = bad + 1 end
             end
          end
       end
    end
    return bad
    """
    assert runtime.execute(code) == 0


def test_a_bad_index_anywhere_in_a_long_index_is_found(th):
    # a contiguous index of 1024 values and more has its range found by numpy's
    # SIMD minimum and maximum once numpy is loaded (simd.extremes; the first
    # two sizes run before, the last two after a comparison of 10^5 elements
    # started its import and it is done), else by a LuaJIT pass: every bad value (0, negative, one
    # past, beyond 2^32 and 2^62, the most negative) at any place gives the
    # error with nothing written; hot
    code = """
    local bad, before = 0, require('torch.internal').numpyloaded[0]
    local values = {0, -1, 101, 2^32 + 1, 2^62, -2^63, 1e15}
    for _, n in ipairs{1100, 70000, 0, 2000, 70000} do
       if n == 0 then
          local _, loaded, t = torch.gt(torch.rand(100000), 0.5), require('torch.internal').numpyloaded, torch.Timer()
          while loaded[0] == 0 and t:time().real < 60 do end
       end
       if n > 0 then
       local cols = n / 100
       for rep = 1, 12 do
          for k, v in ipairs(values) do
             local idx = torch.LongTensor(100, cols):fill(100)
             local src = torch.Tensor(100, cols):fill(2)
             local a = torch.Tensor(100, cols):fill(5)
             idx:view(-1)[1 + (rep * 7919 + k * 104729) % n] = v
             local ok, err = pcall(function() a:gather(src, 1, idx) end)
             if ok or not tostring(err):find('Invalid index in gather', 1, true) or a:sum() ~= 5 * n then bad = bad + 1 end
             local d = torch.Tensor(100, cols):fill(5)
             ok, err = pcall(function() d:scatter(1, idx, src) end)
             if ok or not tostring(err):find('Invalid index in scatter', 1, true) or d:sum() ~= 5 * n then bad = bad + 1 end
             ok, err = pcall(function() d:scatter(1, idx, 3) end)
             if ok or not tostring(err):find('Invalid index in scatter', 1, true) or d:sum() ~= 5 * n then bad = bad + 1 end
          end
          local idx = torch.LongTensor(100, cols):random(1, 100)
          local src = torch.rand(100, cols)
          local g = torch.Tensor(100, cols)
          g:gather(src, 1, idx)
          if g[1][1] ~= src[idx[1][1]][1] or g[100][cols] ~= src[idx[100][cols]][cols] then bad = bad + 1 end
       end
       end
    end
    print(bad, before, require('torch.internal').numpyloaded[0])
    """
    out = th(code)   # (a process of its own: numpy not loaded before the comparison)
    assert out.stdout.split() == ["0", "0", "1"]


def test_torch_has_the_function_forms_of_the_original_only(lua):
    # Torch7's torch table had gather, scatter, expand, view... but no torch.index,
    # torch.narrow or torch.maskedSelect (the original: "attempt to call field 'narrow'")
    names = ["index", "indexAdd", "indexCopy", "indexFill", "maskedCopy", "maskedFill",
             "maskedSelect", "narrow", "select", "sub", "t", "transpose", "unfold", "clone",
             "contiguous", "gather", "scatter", "expand", "view", "squeeze", "permute"]
    got = lua("local t = {} for _, n in ipairs{%s} do t[#t + 1] = type(torch[n]) end "
              "return table.concat(t, ' ')" % ", ".join(f"'{n}'" for n in names))
    assert got == " ".join(["nil"] * 15 + ["function"] * 6)
