"""Every element path run hot (2000 times, so LuaJIT compiles and reuses its
traces) for every pair of the seven types: the LuaJIT in lupa miscompiled a
hot store of an int64 through a float* (wrong values, then a segfault).
The Lua side is tests/fixtures/jit_hot.lua; its expected output is what the
original Torch7 printed, and the conversions are checked against numpy too."""
import os

import numpy as np

from conftest import run_th

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
A = [3, -5, 100, 127, 0, 1, 42, -1, 200, 1000, 70000, 9, 2, 11, 15]
DTYPES = {"Byte": np.uint8, "Char": np.int8, "Short": np.int16, "Int": np.int32,
          "Long": np.int64, "Float": np.float32, "Double": np.float64}


def hot_output():
    proc = run_th([os.path.join(FIXTURES, "jit_hot.lua"), "2000"], timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [line.rstrip() for line in proc.stdout.splitlines()]


def test_every_element_path_hot_matches_the_original():
    out = hot_output()
    with open(os.path.join(FIXTURES, "jit_hot.expected")) as f:
        expected = f.read().splitlines()
    assert [line for line in out if line.startswith("UNSTABLE")] == []
    assert len(out) == len(expected)
    for got, want in zip(out, expected):
        assert got == want
    # the conversions against numpy's C casts, independently of the recording
    for line in out:
        name, values = line.split("|")
        path, _, pair = name.partition(" ")
        if ">" not in pair:
            continue
        src, dst = pair.split(">")
        want = np.array(A, np.int64).astype(DTYPES[src]).astype(DTYPES[dst])
        if path == "fill":
            want = np.repeat(want[[1, 10, 9]], 5)
        assert [float(v) for v in values.split()] == want.astype(np.float64).tolist(), name


def test_long_to_float_sum_stays_right_when_hot(th):
    # the reproduction: it failed after ~70 iterations, or segfaulted
    proc = th("for i = 1, 2000 do assert(torch.LongTensor(15):fill(3):float():sum() == 45) end\nprint('ok')")
    assert proc.returncode == 0 and proc.stdout.strip() == "ok"


def test_map_into_integers_stores_c_truncation_when_hot_after_another_type(th):
    # scripts/fuzz_hot.py: once map's loop was hot and had run on another
    # element type, the original's LuaJIT converted the operands of the
    # function's last addition one by one (10842.5 stored as 10843); the
    # expected rows are the original's with each type alone and cold
    # (the counter started where the 452nd call starts)
    proc = th(r"""
local function fit(v)
   if v ~= v then return 0 elseif v < -2^31 then return -2^31 elseif v > 2^31 - 1 then return 2^31 - 1 end
   return v
end
for _, T in ipairs{'Short', 'Int', 'Byte', 'Char'} do
   local cnt = 0
   local FN = function(e, o) cnt = cnt + 1; return fit(fit(fit((e - cnt) * 0.5)) + o) end
   local x
   for it = 1, 452 do
      x = torch[T .. 'Tensor'](24):fill(10843)
      x:map(x:clone(), FN)
   end
   print(T .. ' ' .. table.concat(x:totable(), ' '))
end""")
    assert proc.returncode == 0, proc.stderr
    wide = "10852 10851 10851 10850 10850 10849 10849 10848 10848 10847 10847 10846 10846 10845 10845 " \
           "10844 10844 10843 10843 10842 10842 10841 10841 10840"
    narrow = "100 100 99 99 98 98 97 97 96 96 95 95 94 94 93 93 92 92 91 91 90 90 89 89"
    assert [line.rstrip() for line in proc.stdout.splitlines()] == ["Short " + wide, "Int " + wide, "Byte " + narrow, "Char " + narrow]
