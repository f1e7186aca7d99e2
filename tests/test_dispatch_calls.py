"""The shared call mechanism of the maths functions (torch/maths/dispatch.lua):
small operations allocate nothing per call, operands that are the result
itself (in place, contiguous or not) give the element-wise results Torch7
gave, a method may omit a variant's first tensor wherever it stands, and a
bad call is a catchable error naming the function, leaving the data intact."""
import numpy as np
import pytest
from lupa.luajit21 import LuaError

from helpers import lua_runner

P = np.arange(1.0, 11.0)
Q = np.linspace(0.5, 5.0, 10)


@pytest.mark.parametrize("call", [
    "p:add(q)", "p:add(0, q)", "p:mul(1)", "torch.cmul(r, p, q)", "p:sum()", "torch.add(r, p, 1)",
    "p:max()", "p:min()", "r:addmv(A, p)", "M:addmm(A, B)", "M:addr(p, q)", "torch.mv(r, A, p)",
    "torch.mm(M, A, B)",
])
def test_small_operations_allocate_nothing_per_call(runtime, call):
    # before the varargs dispatch each call packed its arguments into one or
    # two tables (88-192 bytes); x:max() and x:min() made one until the
    # thirtieth session, the products a table of their sizes (56-100 bytes)
    per_call = runtime.execute(f"""
    local p, q, r = torch.rand(10), torch.rand(10), torch.rand(10)
    local A, B, M = torch.rand(10, 10), torch.rand(10, 10), torch.rand(10, 10)
    local function f() return {call} end
    for _ = 1, 1000 do f() end
    collectgarbage(); collectgarbage('stop')
    local before = collectgarbage('count')
    for _ = 1, 10000 do f() end
    local grown = collectgarbage('count') - before
    collectgarbage('restart')
    return grown * 1024 / 10000
    """)
    assert per_call < 16


def test_operand_that_is_the_result(runtime):
    lua = lua_runner(runtime)
    assert np.array_equal(lua("p:add(p) return p", p=P), 2 * P)
    assert np.array_equal(lua("torch.cmul(p, p, p) return p", p=P), P * P)
    assert np.array_equal(lua("torch.add(p, q, 2, p) return p", p=P, q=Q), Q + 2 * P)
    assert np.array_equal(lua("p:addcmul(2, p, q) return p", p=P, q=Q), P + 2 * P * Q)


def test_non_contiguous_operand_that_is_the_result(runtime):
    lua = lua_runner(runtime)
    m = np.arange(1.0, 13.0).reshape(3, 4)
    # t is a transposed (non-contiguous) view of m: the results land in m's memory
    assert np.array_equal(lua("local t = m:t() t:add(t) t:mul(3) return m", m=m), 6 * m)
    assert np.array_equal(lua("local t = m:t() torch.cmul(t, t, t:clone()) return m", m=m), m * m)
    # a contiguous result taking a transposed operand reads it in row-major order of the view
    assert np.array_equal(lua("local t = m:t() local r = torch.Tensor(4, 3) r:copy(t) r:add(t) return r", m=m),
                          2 * m.T)


def test_method_omits_the_first_tensor_after_a_number(runtime):
    lua = lua_runner(runtime)
    m, a, b = np.array([[1.0, 2], [3, 4]]), np.array([[1.0, 0], [2, 1]]), np.array([[0.0, 1], [1, 3]])
    # M:addmm(beta, alpha, a, b): the variant (beta, M, alpha, a, b) with M = self
    assert np.array_equal(lua("M:addmm(0.5, 2, a, b) return M", M=m, a=a, b=b), 0.5 * m + 2 * a @ b)
    assert np.array_equal(lua("M:addmm(2, a, b) return M", M=m, a=a, b=b), m + 2 * a @ b)
    assert np.array_equal(lua("return torch.addmm(0.5, M, 2, a, b)", M=m, a=a, b=b), 0.5 * m + 2 * a @ b)
    # the result form leaves M alone
    r = lua("local r = torch.Tensor() torch.addmm(r, M, a, b) return r", M=m, a=a, b=b)
    assert np.array_equal(r, m + a @ b)


def test_result_of_another_type_where_a_function_allows_it(runtime):
    out = runtime.execute("""
    local a, b = torch.Tensor({1, 5, 3}), torch.Tensor({2, 2, 3})
    local rb, rt = torch.ByteTensor(), torch.Tensor()
    torch.DoubleTensor.lt(rb, a, b) torch.lt(rt, a, b)
    local m = a:lt(b)
    return torch.type(rb), rb[1], rb[2], rb[3], torch.type(rt), rt[1], rt[2], torch.type(m), m[1], m[3]
    """)
    assert out == ("torch.ByteTensor", 1, 0, 0, "torch.DoubleTensor", 1, 0, "torch.ByteTensor", 1, 0)


@pytest.mark.parametrize("code, name", [
    ("p:add('x')", "add"),
    ("p:add(q, q, q, q)", "add"),
    ("torch.add(p)", "add"),
    ("torch.cmul(p, torch.FloatTensor(10))", "cmul"),
    ("p:addmm(1, 2)", "addmm"),
    ("torch.mean(torch.IntTensor(3))", "mean"),
])
def test_bad_calls_fail_naming_the_function(runtime, code, name):
    runtime.execute("p, q = torch.Tensor({1, 2, 3}), torch.Tensor({4, 5, 6})")
    with pytest.raises(LuaError, match=f"'{name}'"):
        runtime.execute(code)
    assert list(runtime.execute("return p[1], p[2], p[3], q[1]")) == [1, 2, 3, 4]


def test_integer_tensors_have_no_floating_only_method(runtime):
    assert runtime.execute("return torch.IntTensor(3).mean == nil and torch.Tensor(3).mean ~= nil")
