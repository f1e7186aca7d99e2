"""tostring of tensors and storages, byte for byte as Torch7 printed them.
The expected strings are Torch7's outputs (conformance recordings and the
documented format rules of the conformance README)."""
import pytest


def show(runtime, expr):
    return runtime.execute(f"return tostring({expr})")


@pytest.mark.parametrize("expr, expected", [
    ("torch.Tensor({1, 2, 3})", " 1\n 2\n 3\n[torch.DoubleTensor of size 3]\n"),
    ("torch.Tensor({0.5, 1.25, -3.125})", " 0.5000\n 1.2500\n-3.1250\n[torch.DoubleTensor of size 3]\n"),
    ("torch.Tensor({12345.678, 1.5})", " 12345.6780\n     1.5000\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({1e100, 1.5})", " 1.0000e+100\n  1.5000e+00\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({1e10, 1})", " 1.0000e+10\n 1.0000e+00\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({123456789})", " 123456789\n[torch.DoubleTensor of size 1]\n"),
    ("torch.Tensor({0.099})", "0.01 *\n 9.9000\n[torch.DoubleTensor of size 1]\n"),
    ("torch.Tensor({-0.5, -0.25})", "-0.5000\n-0.2500\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({1, math.huge, -math.huge})",
     " 1.0000e+00\n        inf\n       -inf\n[torch.DoubleTensor of size 3]\n"),
    ("torch.Tensor({1, 0/0})", "1.000000\n" + "{nan}\n" + "[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor()", "[torch.DoubleTensor with no dimension]\n"),
    ("torch.IntTensor()", "[torch.IntTensor with no dimension]\n"),
    ("torch.CharTensor({{-1, 2}, {3, -4}})", "-1  2\n 3 -4\n[torch.CharTensor of size 2x2]\n"),
    ("torch.LongTensor({{100, 2}, {3, 4}})", " 100    2\n   3    4\n[torch.LongTensor of size 2x2]\n"),
    ("torch.FloatTensor({1/3, 2/3})", " 0.3333\n 0.6667\n[torch.FloatTensor of size 2]\n"),
    ("torch.Tensor({{100000.5, 200000.25}, {300000, 400000}})",
     "100000 *\n  1.0000  2.0000\n  3.0000  4.0000\n[torch.DoubleTensor of size 2x2]\n"),
    ("torch.Tensor({{1e-8, 1}, {2, 3e6}})",
     " 1.0000e-08  1.0000e+00\n 2.0000e+00  3.0000e+06\n[torch.DoubleTensor of size 2x2]\n"),
    ("torch.DoubleStorage({123456.5, 200000})", "100000 *\n 1.2346\n 2.0000\n[torch.DoubleStorage of size 2]\n"),
    ("torch.LongStorage({})", "[torch.LongStorage of size 0]\n"),
    ("torch.ByteStorage({1, 200})", "   1\n 200\n[torch.ByteStorage of size 2]\n"),
    ("torch.CharStorage({-1, 2})", "-1\n 2\n[torch.CharStorage of size 2]\n"),
    ("torch.FloatStorage({0.5, 1.25})", " 0.5000\n 1.2500\n[torch.FloatStorage of size 2]\n"),
    ("torch.DoubleStorage({math.huge, 1})", "        inf\n 1.0000e+00\n[torch.DoubleStorage of size 2]\n"),
    ("torch.Tensor({-1, 20, 300})", "  -1\n  20\n 300\n[torch.DoubleTensor of size 3]\n"),
    ("torch.Tensor({0.001, 0.002})", "0.001 *\n 1.0000\n 2.0000\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({1e-5, 1})", " 1.0000e-05\n 1.0000e+00\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({math.huge, -math.huge})", "        inf\n       -inf\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({{1e10, 1}, {2, 3}})",
     " 1.0000e+10  1.0000e+00\n 2.0000e+00  3.0000e+00\n[torch.DoubleTensor of size 2x2]\n"),
    # every value is converted to double first: bytes and chars print as numbers
    ("torch.ByteTensor({0, 200, 255})", "   0\n 200\n 255\n[torch.ByteTensor of size 3]\n"),
    ("torch.CharTensor({-128, 5, 127})", "-128\n   5\n 127\n[torch.CharTensor of size 3]\n"),
    # integers of more than 9 digits switch to e-format
    ("torch.LongTensor({2^31, -2^33, 5})",
     " 2.1475e+09\n-8.5899e+09\n 5.0000e+00\n[torch.LongTensor of size 3]\n"),
    ("torch.Tensor({0, 0})", " 0\n 0\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({0, 0.5})", " 0.0000\n 0.5000\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({-10, 3})", "-10\n  3\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({1e-5, 2e-5})", "1e-05 *\n 1.0000\n 2.0000\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({123456.5})", "100000 *\n 1.2346\n[torch.DoubleTensor of size 1]\n"),
    ("torch.Tensor({-math.huge, 1.5})", "        -inf\n  1.5000e+00\n[torch.DoubleTensor of size 2]\n"),
    ("torch.Tensor({{1, 0/0}, {3, 4.5}})", "1.000000 {nan}\n3.000000 4.500000\n[torch.DoubleTensor of size 2x2]\n"),
    ("torch.FloatTensor({{1e-3, 2e-3}})", "0.001 *\n  1.0000  2.0000\n[torch.FloatTensor of size 1x2]\n"),
    ("torch.LongTensor({{-3, 1000000}})", "      -3  1000000\n[torch.LongTensor of size 1x2]\n"),
])
def test_formats(runtime, expr, expected):
    if "{nan}" in expected:
        nan = runtime.execute("return string.format('%f', 0/0)")
        expected = expected.replace("{nan}", nan)
    assert show(runtime, expr) == expected


def test_3d_slices_and_shared_format(runtime):
    expected = ("(1,.,.) = \n  1.0000  2.0000\n\n(2,.,.) = \n  3.0000  4.5000\n"
                "[torch.DoubleTensor of size 2x1x2]\n")
    assert show(runtime, "torch.Tensor({{{1, 2}}, {{3, 4.5}}})") == expected


def test_3d_scale_line_inside_slices(runtime):
    expected = ("(1,.,.) = \n 100000 *\n   1.0000  2.0000\n\n(2,.,.) = \n 100000 *\n   3.0000  4.0000\n"
                "[torch.DoubleTensor of size 2x1x2]\n")
    assert show(runtime, "torch.Tensor({{{100000.5, 200000}}, {{300000, 400000}}})") == expected


def test_4d_first_index_varies_fastest(runtime):
    code = """local x = torch.Tensor(2, 2, 1, 1)
              local s = x:storage()
              for i = 1, 4 do s[i] = i end
              return tostring(x)"""
    expected = ("(1,1,.,.) = \n  1\n\n(2,1,.,.) = \n  3\n\n(1,2,.,.) = \n  2\n\n(2,2,.,.) = \n  4\n"
                "[torch.DoubleTensor of size 2x2x1x1]\n")
    assert runtime.execute(code) == expected


def test_wide_matrix_column_blocks(runtime):
    code = """local x = torch.Tensor(2, 30)
              local s = x:storage()
              for i = 1, 60 do s[i] = i end
              return tostring(x)"""
    out = runtime.execute(code)
    lines = out.split("\n")
    # %3.0f elements (2 digits + 1): floor(80 / 4) = 20 columns per block
    assert lines[0] == "Columns 1 to 20"
    assert lines[1] == " ".join("%3d" % i for i in range(1, 21))
    assert lines[3] == ""
    assert lines[4] == "Columns 21 to 30"
    assert all(len(line) <= 80 for line in lines)
    assert lines[-2] == "[torch.DoubleTensor of size 2x30]"


def test_non_contiguous_prints_its_own_elements(runtime):
    code = """local x = torch.Tensor({{1, 2}, {3, 4}})
              return tostring(x:t())"""
    assert runtime.execute(code) == " 1  3\n 2  4\n[torch.DoubleTensor of size 2x2]\n"


def test_wide_byte_matrix_and_e_format_column_blocks(runtime):
    # width 3+1 -> 16 columns a line; e-format width 11 -> 6 columns a line
    got = show(runtime, "torch.ByteTensor(1, 17):fill(255)")
    assert got == ("Columns 1 to 16\n" + " ".join([" 255"] * 16) + "\n\nColumns 17 to 17\n 255\n"
                   "[torch.ByteTensor of size 1x17]\n")
    got = show(runtime, "torch.Tensor({{1e-6, 2, 3, 4, 5, 6, 7}})")
    assert got.splitlines()[0] == "Columns 1 to 6"
    assert got.splitlines()[3] == "Columns 7 to 7"


def test_long_vectors_and_nan_rows_format_every_element(runtime):
    got = show(runtime, "torch.range(1, 130)")
    assert got == "".join("%4d\n" % i for i in range(1, 131)) + "[torch.DoubleTensor of size 130]\n"
    nan = runtime.execute("return string.format('%f', 0/0)")
    # a NaN makes the format %f, with no column blocks however wide the row
    runtime.execute("nanrow = torch.Tensor(1, 70):fill(0.5); nanrow[{1, 70}] = 0/0")
    got = show(runtime, "nanrow")
    assert got == " ".join(["0.500000"] * 69 + [nan]) + "\n[torch.DoubleTensor of size 1x70]\n"
