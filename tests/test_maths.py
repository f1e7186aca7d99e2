"""The maths reference: call forms, types, non-contiguous inputs, the bulk
(numpy) and small (LuaJIT) paths, and errors.  Expected values follow the
Torch7 documentation and the original's semantics."""
import pytest


def lines(th, code):
    r = th(code)
    assert r.returncode == 0, r.stderr
    return [line.rstrip() for line in r.stdout.strip().split("\n")]


def values(th, expr):
    """The elements of a tensor expression, row-major, as %.4f strings."""
    out = lines(th, "local t = (%s):contiguous():view(-1)\nlocal v = {}\n"
                    "for i = 1, t:size(1) do v[i] = string.format('%%.4f', t[i]) end\n"
                    "io.write(table.concat(v, ' '), '\\n')" % expr)
    return [v.replace("-0.0000", "0.0000") for v in out[0].split(" ")]


def nums(xs):
    """Expected values formatted as values() does (the sign of zero aside)."""
    return [("%.4f" % x).replace("-0.0000", "0.0000") for x in xs]


@pytest.mark.parametrize("n", [3, 300])   # LuaJIT loops and numpy
def test_add_forms_and_paths(th, n):
    code = f"""
    local x = torch.range(1, {n})
    local y = torch.range(1, {n}):mul(2)
    local r = torch.Tensor()
    torch.add(r, x, 10, y)          -- res form
    print(r[1], r[{n}])
    local z = torch.add(x, y)       -- new
    print(z[{n}], x[{n}])
    x:add(2, y)                     -- method, in place
    print(x[1])
    r:add(x, 1)                     -- method into r
    print(r[1])
    """
    assert lines(th, code) == [f"21\t{n * 21}", f"{n * 3}\t{n}", "5", "6"]


@pytest.mark.parametrize("n", [2, 100])
def test_noncontiguous_operands(th, n):
    code = f"""
    local a = torch.range(1, {n * n}):resize({n}, {n})
    local b = a:t()                  -- transposed view
    local c = torch.cmul(a, b)
    print(c[1][2], c[2][1], a[1][2] * a[2][1])
    local d = a:clone():cmul(b)
    print(d:equal(c))
    """
    out = lines(th, code)
    assert out[0].split("\t")[:3] == [out[0].split("\t")[2]] * 3
    assert out[1] == "true"


def test_integer_types_keep_type_and_truncate(th):
    code = """
    local x = torch.IntTensor({7, -7, 9})
    print(torch.type(torch.div(x, 2)))
    local q = torch.div(x, 2)
    print(q[1], q[2], q[3])
    local big = torch.IntTensor(200):fill(-7):div(2)
    print(big[1], big:sum())
    print(torch.ByteTensor({200, 100}):sum(), torch.ByteTensor(100):fill(200):sum())
    print(torch.type(torch.LongTensor({1, 2}):add(1.9)), torch.LongTensor({1, 2}):add(1.9)[1])
    """
    assert lines(th, code) == ["torch.IntTensor", "3\t-3\t4", "-3\t-600", "300\t20000",
                               "torch.LongTensor\t2"]


def test_float_tensor_elementwise(th):
    assert values(th, "torch.sqrt(torch.FloatTensor({4, 9, 2}))") == nums([2, 3, 1.41421356])
    assert values(th, "torch.exp(torch.FloatTensor(100):fill(1))")[:2] == nums([2.718281828] * 2)


@pytest.mark.parametrize("size", [4, 200])
def test_unary_functions(th, size):
    import math
    xs = [(-1.5 + 3.0 * i / (size - 1)) for i in range(size)]
    setup = "local x = torch.linspace(-1.5, 1.5, %d)" % size
    for name, f in [("abs", abs), ("floor", math.floor), ("ceil", math.ceil),
                    ("tanh", math.tanh), ("atan", math.atan),
                    ("sigmoid", lambda v: 1 / (1 + math.exp(-v))),
                    ("round", lambda v: math.floor(abs(v) + 0.5) * (1 if v >= 0 else -1))]:
        got = values(th, "(function() %s return torch.%s(x) end)()" % (setup, name))
        assert got == nums([f(v) + 0.0 for v in xs]), name
        # method form works in place, res form writes into res
        inplace = values(th, "(function() %s x:%s() return x end)()" % (setup, name))
        assert inplace == got
        into = values(th, "(function() %s local r = torch.Tensor() torch.%s(r, x) return r end)()" % (setup, name))
        assert into == got


def test_pow_and_remainder_forms(th):
    assert values(th, "torch.pow(torch.Tensor({1, 2, 3}), 2)") == nums([1, 4, 9])
    assert values(th, "torch.pow(2, torch.Tensor({1, 2, 3}))") == nums([2, 4, 8])
    assert values(th, "torch.remainder(torch.Tensor({-3, 3}), 2)") == nums([1, 1])
    assert values(th, "torch.fmod(torch.Tensor({-3, 3}), 2)") == nums([-1, 1])
    assert values(th, "torch.IntTensor({-5, 5}) % 3") == nums([1, 2])


def test_blas(th):
    code = """
    local a = torch.range(1, 6):resize(2, 3)
    local b = torch.range(1, 6):resize(3, 2)
    print(torch.mm(a, b):equal(torch.Tensor({{22, 28}, {49, 64}})))
    local r = torch.Tensor(2, 2)
    r:mm(a, b)
    print(r[2][2])
    print(torch.mv(a, torch.Tensor({1, 1, 1}))[2])
    print(torch.addmm(torch.ones(2, 2), 2, a, b)[1][1])
    local M = torch.zeros(2, 2)
    M:addmm(0.5, 2, a, b)
    print(M[1][1])
    print(a * torch.Tensor({1, 0, 0}) == nil, torch.Tensor({1, 2}) * torch.Tensor({3, 4}))
    print(torch.mm(torch.FloatTensor(100, 100):fill(1), torch.FloatTensor(100, 100):fill(1))[1][1])
    print(torch.type(torch.mm(torch.IntTensor(2, 2):fill(2), torch.IntTensor(2, 2):fill(3))))
    """
    assert lines(th, code) == ["true", "64", "15", "45", "44", "false\t11", "100",
                               "torch.IntTensor"]


def test_reductions(th):
    code = """
    local x = torch.Tensor({{1, 5, 3}, {4, 2, 6}})
    print(x:sum(), x:max(), x:min(), x:mean(), torch.prod(x))
    local v, i = torch.max(x, 2)
    print(v[1][1], v[2][1], i[1][1], i[2][1])
    local r = torch.Tensor()
    torch.sum(r, x, 1)
    print(r[1][1], r[1][2], r[1][3], r:dim())
    print(torch.cumsum(x, 2)[2][3], torch.var(torch.Tensor({1, 2, 3, 4})), torch.std(torch.Tensor({2, 4}), true))
    local s, si = torch.sort(torch.Tensor({3, 1, 2}), true)
    print(s[1], s[3], si[1], si[3])
    local k, ki = torch.kthvalue(torch.Tensor({5, 1, 4}), 2)
    print(k[1], ki[1])
    print(torch.norm(torch.Tensor({3, 4})), torch.norm(torch.Tensor({3, -4}), 1), torch.dist(torch.zeros(2), torch.Tensor({3, 4})))
    local big = torch.range(1, 1000)
    print(big:sum(), big:max(), torch.median(big)[1])
    """
    assert lines(th, code) == ["21\t6\t1\t3.5\t720", "5\t6\t2\t3", "5\t7\t9\t2",
                               "12\t1.6666666666667\t1", "3\t1\t1\t2", "4\t3",
                               "5\t7\t5", "500500\t1000\t500"]


def test_comparisons_and_logical(th):
    code = """
    local a = torch.Tensor({1, 2, 3})
    local m = torch.gt(a, 1)
    print(torch.type(m), m:sum(), m:all(), m:any())
    local r = torch.Tensor()
    a.lt(r, a, 3)            -- the result of the operands' type
    print(torch.type(r), r[1], r[3])
    print(pcall(torch.gt, torch.ByteTensor(), a, 1))
    """
    out = lines(th, code)
    assert out[0] == "torch.ByteTensor\t2\tfalse\ttrue"
    assert out[1] == "torch.DoubleTensor\t1\t0"
    assert out[2].startswith("false")


def test_construction(th):
    code = """
    print(torch.zeros(2, 3):size(2), torch.ones(torch.LongStorage({2, 2})):sum())
    print(torch.range(5, 1, -2):size(1), torch.range(5, 1, -2)[3])
    print(torch.eye(2, 3):sum(), torch.eye(3)[2][2])
    print(torch.diag(torch.Tensor({1, 2}), 1)[1][2], torch.diag(torch.range(1, 9):resize(3, 3), -1)[2])
    print(torch.cat(torch.IntTensor({1}), torch.IntTensor({2, 3})):size(1), torch.type(torch.cat(torch.IntTensor({1}), torch.IntTensor({2}))))
    print(torch.histc(torch.Tensor({1, 2, 2, 3}), 3)[2], torch.histc(torch.Tensor({1, 2, 2, 3}), 3, 0, 10)[1])
    local x = torch.Tensor(3)
    x:zeros(4)
    print(x:size(1))
    """
    assert lines(th, code) == ["3\t4", "3\t1", "2\t1", "1\t8", "3\ttorch.IntTensor", "2\t4", "4"]


@pytest.mark.parametrize("code", [
    "torch.cmul(torch.Tensor(3), torch.Tensor(4))",
    "torch.mm(torch.Tensor(2, 3), torch.Tensor(2, 3))",
    "torch.mv(torch.Tensor(2, 3), torch.Tensor(2))",
    "torch.sum(torch.Tensor(2, 3), 3)",
    "torch.add(torch.Tensor(2), torch.FloatTensor(2))",
    "torch.Tensor(2) / torch.Tensor(2)",
    "torch.range(1, 5, -1)",
    "torch.cross(torch.Tensor(2), torch.Tensor(2))",
    "torch.mm(torch.Tensor(3, 3), torch.Tensor(2, 2), torch.Tensor(2, 2))",
    "torch.log(torch.IntTensor(2))",
])
def test_bad_input_is_a_lua_error(th, code):
    out = lines(th, "local ok, err = pcall(function() return %s end)\nprint(ok, type(err))" % code)
    assert out == ["false\tstring"]


def test_result_left_intact_on_error(th):
    code = """
    local r = torch.Tensor({1, 2})
    pcall(torch.cmul, r, torch.Tensor(3), torch.Tensor(4))
    print(r[1], r[2], r:size(1))
    """
    assert lines(th, code) == ["1\t2\t2"]


# --- TH's own selection and sorting algorithms (the order of ties) -----------

def test_nan_is_the_max_and_min_of_a_whole_tensor(th):
    # TH's maxall/minall: `if (!(value <= theMax))` takes a NaN and stops there
    assert lines(th, """
    print(torch.Tensor({1, 0/0, 3}):max(), torch.Tensor({1, 0/0, 3}):min())
    local big = torch.range(1, 100); big[50] = 0/0
    print(big:max(), big:min())
    """) == ["nan\tnan", "nan\tnan"]


def test_topk_unsorted_order_is_quickselects(th):
    # quickselect (median of three) on {5, 1, 4, 2, 3} for k = 3 leaves
    # 1, 2, 3 at indices 2, 4, 5; for the 3 largest it leaves 3, 4, 5 (5, 3, 1)
    out = lines(th, """
    local v, i = torch.topk(torch.Tensor({5, 1, 4, 2, 3}), 3)
    print(v[1], v[2], v[3], i[1], i[2], i[3])
    v, i = torch.topk(torch.Tensor({5, 1, 4, 2, 3}), 3, true)
    print(v[1], v[2], v[3], i[1], i[2], i[3])
    v, i = torch.topk(torch.Tensor({5, 1, 4, 2, 3}), 3, 1, true, true)
    print(v[1], v[2], v[3], i[1], i[2], i[3])
    """)
    assert out == ["1\t2\t3\t2\t4\t5", "3\t4\t5\t5\t3\t1", "5\t4\t3\t1\t3\t5"]


def test_median_mode_kthvalue_ties(th):
    # median of {1, 1, 2, 2}: quickselect for k = 2 ends with the element first at index 1;
    # mode: the smallest of the most frequent values, at the last of its run in sorted order
    out = lines(th, """
    local v, i = torch.median(torch.Tensor({{4, 1, 3, 2}, {1, 1, 2, 2}}), 2)
    print(v[1][1], i[1][1], v[2][1], i[2][1])
    v, i = torch.mode(torch.Tensor({2, 2, 1, 1, 3}))
    print(v[1], i[1])
    v, i = torch.kthvalue(torch.IntTensor({7, 3, 5}), 3)
    print(torch.type(v), v[1], i[1])
    """)
    assert out == ["2\t4\t1\t1", "1\t4", "torch.IntTensor\t7\t1"]


def test_sort_nan_and_stable_short_rows(th):
    # NaN compares with nothing, as in the original (it stays where the moves
    # leave it: printed by the original); short rows are sorted by insertion,
    # so ties keep their order
    out = lines(th, """
    local v, i = torch.sort(torch.Tensor({3, 0/0, 1, 2}), true)
    print(v[1], v[2], i[1], i[2], i[4])
    v, i = torch.sort(torch.Tensor({2, 1, 2, 1}))
    print(i[1], i[2], i[3], i[4])
    v, i = torch.sort(torch.Tensor({2, 1, 2, 1}), true)
    print(i[1], i[2], i[3], i[4])
    """)
    assert out == ["3\tnan\t1\t2\t3", "2\t4\t1\t3", "1\t3\t2\t4"]


def test_sort_long_rows_sorted_with_ties(th):
    out = lines(th, """
    local x = torch.Tensor(500):random(1, 5)
    local v, i = torch.sort(x)
    local ok = true
    for k = 2, 500 do ok = ok and v[k - 1] <= v[k] end
    for k = 1, 500 do ok = ok and x[i[k]] == v[k] end
    v, i = torch.sort(x, true)
    for k = 2, 500 do ok = ok and v[k - 1] >= v[k] end
    for k = 1, 500 do ok = ok and x[i[k]] == v[k] end
    print(ok)
    """)
    assert out == ["true"]


def test_dot_sums_in_the_element_type(th):
    # THBlas dot accumulates in `real`: a ByteTensor wraps, a FloatTensor rounds to float
    assert lines(th, """
    print(torch.dot(torch.ByteTensor({200}), torch.ByteTensor({2})))
    print(torch.dot(torch.FloatTensor({0.1}), torch.FloatTensor({0.1})))
    print(torch.dot(torch.Tensor({0.1}), torch.Tensor({0.1})))
    """) == ["144", "0.010000000707805", "0.01"]


@pytest.mark.parametrize("code", [
    "torch.IntTensor({5}):div(0)",
    "torch.IntTensor(100):fill(5):div(0)",
    "torch.LongTensor({5}):fmod(0)",
    "torch.IntTensor({5}):remainder(0)",
    "torch.IntTensor({5, 1}):cdiv(torch.IntTensor({1, 0}))",
    "torch.IntTensor(100):fill(1):cremainder(torch.IntTensor(100):zero())",
    "torch.IntTensor({5}):addcdiv(torch.IntTensor({1}), torch.IntTensor({0}))",
])
def test_integer_division_by_zero_is_an_error(th, code):
    # Torch7 died of SIGFPE here; th raises a catchable error and keeps the data
    out = lines(th, f"""
    local ok, e = pcall(function() return {code} end)
    print(ok, (tostring(e):gsub('^.-:%d+: ', '')))
    """)
    assert out[0].startswith("false\tbad argument #2 to '") and out[0].endswith("(integer division by zero)")


def test_float_division_by_zero_gives_inf_and_nan(th):
    assert lines(th, """
    local x = torch.Tensor({5, -5, 0}):div(0)
    print(x[1], x[2], x[3] ~= x[3])
    local r = torch.Tensor({5}):remainder(0)
    print(r[1] ~= r[1])
    """) == ["inf\t-inf\ttrue", "true"]


def test_operators_reject_non_numbers_with_an_argument_error(th):
    # (recorded from the original: its operators were C functions called by
    # luaT's metamethods, errors without a position; luaT looked for the
    # operator in the first operand's metatable when it had one, a string's)
    r = th("""x = torch.Tensor(2)
for _, f in ipairs{function() return nil * x end, function() return x + {} end,
                   function() return 'a' - x end} do
   local ok, msg = pcall(f)
   print(ok, (msg:gsub('^.-script%.lua:', 'script.lua:')))
end""")
    assert r.stdout == ("false\tbad argument #1 to '?' (number expected, got nil)\t\n"
                        "false\tbad argument #2 to '?' (number expected, got table)\t\n"
                        "false\tscript.lua:3: "
                        "both (null) and torch.DoubleTensor have no substraction operator\t\n")
