"""th as a Python library: run Lua, exchange tensors with numpy."""
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
