"""LuaJIT FFI access as documented: torch.data / t:data() point into the
tensor's memory at its offset, asnumber gives an intptr_t, torch.Storage(size,
pointer) wraps that memory without copying, and retain/free never release
memory still in use, whatever the order of the calls."""
import pytest


def run(th, code):
    result = th(code)
    assert result.returncode == 0, result.stderr
    return result.stdout.split("\n")


def test_writes_through_data_are_seen(runtime):
    out = runtime.execute("""
        local t = torch.Tensor({{1, 2}, {3, 4}, {5, 6}})
        local p = torch.data(t)
        for i = 0, t:nElement() - 1 do p[i] = i * 10 end
        local q = t:data()
        q[1] = -1
        return t[1][1], t[1][2], t[3][2], type(p)
    """)
    assert out == (0, -1, 50, "cdata")


def test_data_of_a_view_starts_at_its_offset(runtime):
    out = runtime.execute("""
        local t = torch.Tensor({{1, 2, 3}, {4, 5, 6}})
        local row = t:select(1, 2)
        local col = t:select(2, 3)
        return row:data()[0], row:data()[2], col:data()[0], col:data()[col:stride(1)],
               torch.data(torch.Tensor()) == nil
    """)
    assert out == (4, 6, 3, 6, True)


@pytest.mark.parametrize("name,ctype", [("Byte", "uint8_t"), ("Int", "int32_t"), ("Long", "int64_t"),
                                        ("Float", "float"), ("Double", "double")])
def test_data_pointer_type(runtime, name, ctype):
    assert runtime.execute(f"""
        local ffi = require 'ffi'
        return ffi.istype('{ctype}*', torch.{name}Tensor(3):data())
    """) is True


def test_asnumber_is_an_intptr(runtime):
    out = runtime.execute("""
        local ffi = require 'ffi'
        local t = torch.Tensor(4)
        local a = torch.data(t, true)
        return type(a), ffi.istype('intptr_t', a),
               tonumber(a) == tonumber(ffi.cast('intptr_t', t:data())),
               tonumber(torch.data(t:narrow(1, 3, 1), true)) - tonumber(a)
    """)
    assert out == ("cdata", True, True, 16)


def test_storage_over_a_pointer_shares_memory(th):
    out = run(th, """
        t = torch.Tensor(10):fill(3)
        p = tonumber(torch.data(t, true))
        s = torch.Storage(10, p)
        tt = torch.Tensor(s)
        tt[2] = 7
        t[5] = -1
        print(t[2], tt[5], s:size(), tt:nElement(), torch.typename(s))
        local f = torch.FloatTensor(4):fill(1.5)
        local fs = torch.FloatStorage(4, f:data())
        fs[4] = 2.5
        print(f[4], fs[1])
    """)
    assert out[0] == "7\t-1\t10\t10\ttorch.DoubleStorage\t"
    assert out[1] == "2.5\t1.5\t"


def test_cdata_is_a_pointer(runtime):
    assert runtime.execute("return type(torch.Tensor(3):cdata()), torch.Tensor(3):cdata() ~= nil") == ("cdata", True)


def test_retain_and_free_in_any_order_never_free_used_memory(th):
    out = run(th, """
        local t = torch.Tensor(1000):fill(2)
        local v = t:narrow(1, 10, 5)
        t:free(); t:free(); v:free()
        t:retain(); v:retain(); v:retain()
        t:storage():free(); t:storage():retain()
        collectgarbage(); collectgarbage()
        print(t:sum(), v:sum(), t:storage():size())
        local u = torch.Tensor(5):fill(1)
        local p = u:data()
        u:free()
        u = nil
        v:free()
        collectgarbage()
        print(v[1], #torch.totable(v))
    """)
    assert out[0] == "2000\t10\t1000\t"
    assert out[1] == "2\t5\t"
