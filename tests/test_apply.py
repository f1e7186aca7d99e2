"""apply, map, map2 over contiguous, transposed, narrowed and expanded
(stride-0) tensors of every type; split and chunk; repeatTensor against
numpy's tile (Torch7's documented semantics)."""
import numpy as np
import pytest
from lupa.luajit21 import LuaError

from helpers import lua_runner, raises_on_matrix


@pytest.fixture
def lua(runtime):
    """lua(code, **tensors) -> what code returns (tensors as numpy copies)."""
    return lua_runner(runtime)


# views of a 6x8 tensor x, as Lua expressions, and their numpy equivalents
VIEWS = [
    ("x", lambda a: a),
    ("x:t()", lambda a: a.T),
    ("x:narrow(2, 2, 5)", lambda a: a[:, 1:6]),
    ("x:sub(2, 5, 3, 6)", lambda a: a[1:5, 2:6]),
    ("x:select(2, 3)", lambda a: a[:, 2]),
    ("x:view(2, 3, 8):transpose(1, 3)", lambda a: a.reshape(2, 3, 8).transpose(2, 1, 0)),
    ("x:unfold(2, 3, 2)", lambda a: np.stack([a[:, i:i + 3] for i in (0, 2, 4)], axis=1)),
]


@pytest.mark.parametrize("view,ref", VIEWS, ids=[v for v, _ in VIEWS])
def test_apply_visits_in_row_major_order(lua, view, ref):
    a = np.zeros((6, 8))
    got = lua(f"local i = 0; local v = {view}; v:apply(function() i = i + 1; return i end); return x", x=a)
    expected = np.zeros((6, 8))
    r = ref(expected)
    if np.shares_memory(r, expected) and view != "x:unfold(2, 3, 2)":
        r[...] = np.arange(1, r.size + 1).reshape(r.shape)
        assert np.array_equal(got, expected)
    seen = lua(f"local s = {{}}; ({view}):apply(function(v) s[#s + 1] = v end); return table.concat(s, ',')",
               x=np.arange(48.0).reshape(6, 8))
    assert seen == ",".join("%d" % v for v in ref(np.arange(48.0).reshape(6, 8)).reshape(-1))


def test_apply_on_expanded_tensor_writes_each_element(lua):
    # the documentation's example: the 10x2 view of a 10x1 tensor, filled with a counter
    got = lua("local y = x:expand(10, 2); local i = 0; y:apply(function() i = i + 1; return i end); return x",
              x=np.zeros((10, 1)))
    assert np.array_equal(got.reshape(-1), np.arange(2, 21, 2))


@pytest.mark.parametrize("name", ["Byte", "Char", "Short", "Int", "Long", "Float", "Double"])
def test_apply_every_type(lua, name):
    got = lua(f"return torch.{name}Tensor({{1, 2, 3}}):apply(function(v) return v * 2 + 0.75 end)")
    assert got.tolist() == ([2.75, 4.75, 6.75] if name in ("Float", "Double") else [2, 4, 6])


def test_apply_nil_keeps_and_result_is_self(lua):
    assert lua("local y = x:apply(function() end); return y == x and x:sum() or -1", x=np.arange(5.0)) == 10


@pytest.mark.parametrize("view,ref", VIEWS[:6], ids=[v for v, _ in VIEWS[:6]])
def test_map_and_map2_pair_elements_in_row_major_order(lua, view, ref):
    a = np.arange(48.0).reshape(6, 8)
    r = ref(a)
    other = np.arange(r.size, dtype=np.float64) * 10
    got = lua(f"local v = {view}; v:map(o, function(p, q) return p + q end); return v", x=a, o=other)
    assert np.array_equal(got, r + other.reshape(r.shape))
    # the other operand transposed (non-contiguous, another shape)
    o2 = np.arange(float(r.size)).reshape(2, -1)
    got = lua(f"local v = {view}; v:map(o:t(), function(p, q) return q end); return v", x=a, o=o2)
    assert np.array_equal(got.reshape(-1), o2.T.reshape(-1))
    got = lua(f"local v = {view}; v:map2(o:t(), p, function(a, b, c) return a * 100 + b + c end); return v",
              x=a, o=o2, p=other)
    assert np.array_equal(got.reshape(-1), r.reshape(-1) * 100 + o2.T.reshape(-1) + other)


def test_map_documentation_example(lua):
    got = lua("local x, y = torch.Tensor(3, 3), torch.Tensor(9); local i = 0 "
              "x:apply(function() i = i + 1; return i end); i = 0 "
              "y:apply(function() i = i + 1; return i end) "
              "return x:map(y, function(a, b) return a * b end)")
    assert np.array_equal(got, (np.arange(1.0, 10) ** 2).reshape(3, 3))


def test_map_of_expanded_source(lua):
    got = lua("return torch.Tensor(3, 2):zero():map(x:expand(3, 2), function(_, v) return v end)",
              x=np.array([[1.5], [2.5], [3.5]]))
    assert got.tolist() == [[1.5, 1.5], [2.5, 2.5], [3.5, 3.5]]


def test_apply_stores_numeric_strings_of_views_only(lua):
    # Torch7's C loop (a tensor that is not contiguous) tested the result with
    # lua_isnumber, which accepts "5"; its FFI loop (contiguous) stored it
    # through the FFI, which refuses strings (as recorded from the original)
    got = lua("return x:t():apply(function(v) return tostring(v * 2) end)", x=np.arange(6.0).reshape(2, 3))
    assert got.tolist() == [[0, 6], [2, 8], [4, 10]]
    with pytest.raises(LuaError, match="cannot convert 'string' to 'double'"):
        lua("return x:apply(function(v) return tostring(v * 2) end)", x=np.arange(3.0))


APPLY_ERRORS = [
    # (the messages of the original's two loops: FFI for contiguous tensors, C for others)
    ("x:apply(function() return 'a' end)", "cannot convert 'string' to 'double'"),
    ("x:apply(function() return {} end)", "cannot convert 'table' to 'double'"),
    ("x:t():apply(function() return 'a' end)", "number or nil"),
    ("x:t():apply(function() return {} end)", "number or nil"),
    ("x:t():apply(function() return false end)", "number or nil"),
    ("x:apply(function() error('boom') end)", "boom"),
    ("x:apply(3)", "attempt to call local 'func' \\(a number value\\)"),
    ("x:t():apply(3)", "bad argument #1 to 'apply' \\(function expected, got number\\)"),
    ("x:map(torch.Tensor(5), function(a, b) return a end)", "size mismatch"),
    ("x:t():map(torch.Tensor(5), function(a, b) return a end)",
     "inconsistent tensor size, expected tensor \\[3 x 2\\] and src \\[5\\] to have the same number of elements, "
     "but got 6 and 5 elements respectively"),
    ("x:map2(x, torch.Tensor(7), function(a, b, c) return a end)", "size mismatch"),
    ("x:map(3, function() end)", "bad argument #1 to 'map' \\(tensor expected\\)"),
    # Torch7's map and map2 take tensors of self's type only (both named 'map')
    ("x:map(torch.IntTensor(2, 3), function(a, b) return a end)", "torch.DoubleTensor expected, got torch.IntTensor"),
    ("x:map2(x, torch.FloatTensor(2, 3), function(a, b, c) return a end)", "#2 to 'map'"),
]


@pytest.mark.parametrize("code,message", APPLY_ERRORS, ids=[c for c, _ in APPLY_ERRORS])
def test_apply_errors(runtime, code, message):
    raises_on_matrix(runtime, code, message)


def test_split_and_chunk_share_storage(lua):
    assert lua("local p = torch.split(x, 3); p[2]:fill(0); return #p, p[4]:nElement()",
               x=np.arange(10.0)) == (4, 1)
    got = lua("local p = x:split(3); p[2]:fill(0); return x", x=np.arange(10.0))
    assert got.tolist() == [0, 1, 2, 0, 0, 0, 6, 7, 8, 9]
    sizes = lua("local p = x:split(2, 3); return p[1]:size(3), p[2]:size(3), p[3]:size(3), #p",
                x=np.zeros((3, 4, 5)))
    assert sizes == (2, 2, 1, 3)
    sizes = lua("local p = x:chunk(2, 3); return p[1]:size(3), p[2]:size(3), #p", x=np.zeros((3, 4, 5)))
    assert sizes == (3, 2, 2)


def test_split_and_chunk_reuse_the_result_table(lua):
    code = ("local r = {'a', 'b', 'c', 'd', 'e', x = 1}; local s = torch.split(r, x, 2, 1) "
            "local n = 0; for _ in pairs(r) do n = n + 1 end; return s == r, n, r[2]:size(1)")
    assert lua(code, x=np.zeros((3, 2))) == (True, 2, 1)
    code = "local r = {}; torch.chunk(r, x, 2, 2); return #r, r[1]:size(2), r[2]:size(2)"
    assert lua(code, x=np.zeros((2, 5))) == (2, 3, 2)


@pytest.mark.parametrize("shape,reps", [((5,), (3, 2)), ((5,), (3, 2, 1)), ((2, 3), (2, 2)),
                                        ((2, 3), (1, 3, 1)), ((4, 5, 6), (2, 1, 3))])
def test_repeat_tensor(lua, shape, reps):
    a = np.arange(float(np.prod(shape))).reshape(shape)
    args = ", ".join(map(str, reps))
    expected = np.tile(a, reps)
    assert np.array_equal(lua(f"return x:repeatTensor({args})", x=a), expected)
    assert np.array_equal(lua(f"return torch.repeatTensor(x, torch.LongStorage{{{args}}})", x=a), expected)
    got = lua(f"local r = torch.Tensor(); r:repeatTensor(x, {args}); return r", x=a)
    assert np.array_equal(got, expected)
    if len(shape) >= 2:
        t = np.swapaxes(a, 0, 1)
        got = lua(f"return x:transpose(1, 2):repeatTensor({args})", x=a)
        assert np.array_equal(got, np.tile(t, reps))


def test_repeat_tensor_of_expanded_and_errors(lua):
    got = lua("return x:expand(2, 3):repeatTensor(2, 1)", x=np.array([[1.0], [2.0]]))
    assert got.tolist() == [[1, 1, 1], [2, 2, 2], [1, 1, 1], [2, 2, 2]]
    with pytest.raises(LuaError, match="Number of dimensions of repeat dims can not be smaller"):
        lua("return x:repeatTensor(2)", x=np.zeros((2, 2)))


def test_repeat_tensor_into_a_result_of_another_type_converts(th):
    # Torch7: torch.FloatTensor():repeatTensor(torch.LongTensor{1, 2}, 2) is the FloatTensor 1 2 1 2
    out = th("local r = torch.FloatTensor():repeatTensor(torch.LongTensor{1, 2}, 2)\n"
             "print(torch.type(r), r[1], r[2], r[3], r[4])")
    assert out.stdout == "torch.FloatTensor\t1\t2\t1\t2\t\n"


def test_apply_bad_return_message(th):
    # (the original's: its FFI loop for a contiguous tensor, its C loop for a view)
    out = th("""local ok, m = pcall(function() torch.Tensor(2):apply(function() return 'a' end) end)
print(ok, (tostring(m):gsub('^.-:%d+: ', '')))
ok, m = pcall(function() torch.Tensor(2, 2):t():apply(function() return 'a' end) end)
print(ok, (tostring(m):gsub('^.-:%d+: ', '')))""")
    assert out.stdout == ("false\tcannot convert 'string' to 'double'\t\n"
                          "false\tgiven function should return a number or nil\t\n")


def test_chunk_takes_ceil_of_size_over_count(lua):
    # Torch7's chunk splits by math.ceil(size / n): 6 elements in 4 chunks give 3 chunks of 2
    assert lua("return #torch.range(1, 6):chunk(4)") == 3
    assert lua("local p = torch.chunk(torch.range(1, 5), 3); return #p, p[3]:nElement(), p[3][1]") == (3, 1, 5)


def test_apply_on_byte_tensor_wraps_as_a_c_cast(lua):
    # (unsigned char) of -1 is 255, as ByteTensor:fill(-1)
    out = lua("local y = torch.ByteTensor{1, 2, 3}; y:apply(function(v) return v - 2 end); return y")
    assert out.tolist() == [255, 0, 1]
