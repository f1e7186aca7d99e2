"""th as a Python library: run Lua, exchange tensors with numpy."""
import subprocess
import sys

import numpy as np

import th


def test_runtime_runs_lua():
    rt = th.Runtime()
    assert rt.execute("return torch.Tensor(2, 3):nElement()") == 6
    assert rt.globals.torch is not None


def test_to_numpy_shares_memory(runtime):
    t = runtime.execute("local x = torch.Tensor(2, 3) for i = 1, 6 do x:storage()[i] = i end return x")
    a = runtime.to_numpy(t)
    assert a.shape == (2, 3) and a.dtype == np.float64
    assert a.tolist() == [[1, 2, 3], [4, 5, 6]]
    a[1, 2] = 60
    assert runtime.eval("function(x) return x[{2, 3}] end")(t) == 60


def test_to_numpy_of_a_view(runtime):
    t = runtime.execute("local x = torch.IntTensor(3, 4) for i = 1, 12 do x:storage()[i] = i end return x:t()")
    a = runtime.to_numpy(t)
    assert a.dtype == np.int32 and a.shape == (4, 3)
    assert a[:, 0].tolist() == [1, 2, 3, 4]


def test_from_numpy_shares_when_possible(runtime):
    arr = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = runtime.from_numpy(arr)
    get = runtime.eval("function(x) return x:type(), x:size(1), x:size(2), x[{2, 3}] end")
    assert get(t) == ("torch.FloatTensor", 2, 3, 5)
    runtime.eval("function(x) x:fill(7) end")(t)
    assert arr[0, 0] == 7


def test_from_numpy_converts_other_types(runtime):
    t = runtime.from_numpy(np.array([True, False]))
    assert runtime.eval("function(x) return x:type(), x[1], x[2] end")(t) == ("torch.ByteTensor", 1, 0)
    t = runtime.from_numpy(np.arange(6, dtype=np.int64).reshape(2, 3).T)
    assert runtime.eval("function(x) return x:type(), x[{1, 2}] end")(t) == ("torch.LongTensor", 3)


# run in a fresh process: where the families are imported already, Lua gets
# them all at its start and none is handed later
_HANDED_ONCE = r'''
import th
from th import ops


class Spy:
    """a LuaRuntime whose table_from records the names of the dicts it is given"""
    def __init__(self, lua, names):
        self._lua, self._names = lua, names

    def table_from(self, *args, **kwargs):
        for arg in args:
            if isinstance(arg, dict):
                self._names.extend(arg)
        return self._lua.table_from(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._lua, name)


rt = th.Runtime()
names = []
rt.lua = Spy(rt.lua, names)
got = rt.execute("""
    local ops = require 'th.native.ops'
    local function fill()   -- (selection: a LongTensor's view)
        local x = torch.LongTensor(7, 6, 4):fill(1):transpose(3, 2):transpose(2, 1):sub(2, 3, 1, 6, 1, 6)
        x:maskedFill(torch.ByteTensor(2, 6, 6):fill(1), 3)
    end
    fill()
    local _ = torch.rand(200000):sort()                                         -- sorting
    torch.DoubleTensor(63, 65):t():copy(torch.CharTensor(4095):fill(1))         -- copies
    fill()
    return ops""")
print(len(names), len(set(names)), all(got[n] is ops.EXPORTS[n] for n in ("masked_fill", "copy")))
'''


def test_each_numpy_family_function_reaches_lua_once():
    """lupa finds an object it wrapped before in its weak table of wrappers,
    whose slots a collection can leave to another object's wrapper (luaL_ref
    on a weak table): handed the families' functions again at each new
    family, th's table of operations once got an ndarray for index_fill
    (scripts/fuzz_views.py, seed 17).  Each function now reaches Lua once, and
    each entry of the table is the family's own function."""
    out = subprocess.run([sys.executable, "-c", _HANDED_ONCE], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    handed, distinct, own = out.stdout.split()
    assert int(handed) > 20 and handed == distinct and own == "True"
