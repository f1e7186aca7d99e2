"""numpy's SIMD loops called from LuaJIT (th/lua/torch/maths/simd.lua) give
the original's bits: add, csub, mul, div with a number or a tensor, every
element type, contiguous, strided, transposed, aliased and expanded, at the
sizes around th's thresholds, hot (tests/fixtures/bits_simd.lua; its expected
output was printed by the original Torch7).  Also: numpy is imported for
them only when an operation is large enough, and fill writes every element."""
import os

from conftest import run_th

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def output(proc):
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [line.rstrip() for line in proc.stdout.splitlines()]


def fixture(name):
    """The output of tests/fixtures/name.lua, and what the original printed for it."""
    out = output(run_th([os.path.join(FIXTURES, name + ".lua")], timeout=300))
    with open(os.path.join(FIXTURES, name + ".expected")) as f:
        return out, [line.rstrip() for line in f.read().splitlines()]


def test_arithmetic_bits_as_the_original_on_every_path():
    out, expected = fixture("bits_simd")
    assert len(out) == len(expected)
    for got, want in zip(out, expected):
        assert got == want


def test_exact_unary_functions_bits_as_the_original():
    # floor/ceil/trunc/sqrt through numpy's loops beyond 128 elements; abs and
    # neg keep a NaN's sign bit, as TH did, on every path
    out, expected = fixture("bits_unary_simd")
    assert out == expected


def test_abs_and_neg_keep_a_nan_anywhere_in_a_large_tensor(th):
    # numpy's loops from 128 elements: neg as x * -1, abs once no NaN is
    # found; a NaN of either sign, first, in the middle or last, keeps its
    # bits (README), the other elements are |x| and -x
    proc = th("""
local ffi = require 'ffi'
local internal = require 'torch.internal'
internal.numpyready()
local t = torch.Timer()
while internal.numpyloaded[0] == 0 and t:time().real < 60 do end
for _, T in ipairs{'Double', 'Float'} do
   local ct = T == 'Double' and 'uint64_t *' or 'uint32_t *'
   local hi = T == 'Double' and 0x7ff8000000000001ULL or 0x7fc00001
   local lo = T == 'Double' and 0xfff8000000000002ULL or 0xffc00002
   for _, n in ipairs{129, 5000, 100000} do
      for _, at in ipairs{1, math.floor(n / 2), n} do
         local x = torch[T .. 'Tensor'](n):uniform(-5, 5)
         local p = ffi.cast(ct, x:data())
         p[at - 1] = at % 2 == 0 and hi or lo
         for _, f in ipairs{'abs', 'neg'} do
            local r = torch[f](x)
            local q = ffi.cast(ct, r:data())
            local ok = q[at - 1] == p[at - 1]
            for i = 1, n do
               if i ~= at and r[i] ~= (f == 'abs' and math.abs(x[i]) or -x[i]) then ok = false end
            end
            print(T, n, at, f, ok)
         end
      end
   end
end
""")
    lines = output(proc)
    assert len(lines) == 36
    assert all(line.split()[-1] == "true" for line in lines), lines


def test_max_and_min_of_long_rows_as_the_original():
    # numpy's reduction and comparison loops and memchr from 48 elements a row
    out, expected = fixture("rowbest")
    assert out == expected


def test_sorts_of_lines_as_the_original():
    # numpy's argsort through the FFI for lines of distinct values from 100
    # elements, TH's quicksort for lines with ties, NaN or signed zeros
    out, expected = fixture("sort_lines")
    assert out == expected


def test_copies_of_floats_into_integers_as_the_original():
    # each element stored as it is when numpy's reductions find them all in
    # C's int range, a range check an element otherwise
    out, expected = fixture("copy_to_integers")
    assert out == expected


def test_fill_values_as_the_original():
    out, expected = fixture("fill_values")
    assert out == expected


def numpy_wanted(th, code):
    """Whether running code started numpy's import (in the background: the
    operation that wanted it ran a LuaJIT loop meanwhile)."""
    proc = th(code + "\nprint(require('torch.internal').numpyloaded[1] ~= 0)")
    return output(proc)[-1]


def test_numpy_is_imported_only_for_large_operations(th):
    # within the LuaJIT loops' limits (8192 doubles with a tensor operand,
    # 32768 with a number, 4096 floats) they run without numpy; an add into
    # the tensor itself is the BLAS axpy at every size
    assert numpy_wanted(th, "local x = torch.rand(8192); for _ = 1, 100 do x:cmul(x):mul(0.5) end") \
        == "false"
    assert numpy_wanted(th, "local x = torch.rand(8193); x:cmul(x)") == "true"
    assert numpy_wanted(th, "local x = torch.FloatTensor(4097):zero(); x:add(1)") == "true"
    assert numpy_wanted(th, "local x = torch.rand(100000); x:add(x); x:add(0.5, x); x:csub(x)") == "false"


def test_simd_loops_run_once_numpy_is_there(th):
    # after an import, 1000-element operations take numpy's loops: the same
    # values (a cmul beyond the LuaJIT loops' limit starts numpy's import;
    # range does not)
    code = """
    local x = torch.rand(8193); x:cmul(x)
    local flag, t = require('torch.internal').numpyloaded, torch.Timer()
    while flag[0] == 0 and t:time().real < 60 do end
    local simd = require 'torch.maths.simd'
    local map, used = simd.map, 0
    simd.map = function(...)
       local done = map(...)
       if done then used = used + 1 end
       return done
    end
    local a = torch.range(1, 1000)
    a:cmul(a):mul(3):add(-1):div(2)
    print(used, a[1], a[1000], a:sum())
    local i = torch.IntTensor(1000):fill(2 ^ 30):mul(4)
    print(i[1], i[1000])
    """
    assert output(th(code)) == ["4\t1\t1499999.5\t500749750", "0\t0"]


def test_fill_writes_every_element_at_every_size(th):
    code = """
    for _, T in ipairs{'Byte', 'Short', 'Float', 'Double'} do
       for _, n in ipairs{1, 255, 256, 257, 4095, 4096, 4097, 32769, 100003, 1000001} do
          local x = torch[T .. 'Tensor'](n + 2):fill(7)
          x:narrow(1, 2, n):fill(3)
          local ok = x[1] == 7 and x[n + 2] == 7 and x:narrow(1, 2, n):eq(3):sum() == n
          if not ok then print(T, n, 'wrong') end
       end
    end
    print('done')
    """
    assert output(th(code)) == ["done"]
