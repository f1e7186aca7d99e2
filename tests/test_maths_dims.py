"""Dimension-wise, element-wise and matrix-wide maths beyond the listed
conformance cases: number forms of the C maths functions, the tensor types
each function exists for, the sign of zero, and TH's argument checks.
Expected values follow the Torch7 documentation and TH's definitions."""
import math

import pytest


def lines(th, code):
    r = th(code)
    assert r.returncode == 0, r.stderr
    return [line.rstrip() for line in r.stdout.rstrip("\n").split("\n")]


@pytest.mark.parametrize("expr, expected", [
    ("torch.log(2)", math.log(2)),
    ("torch.exp(1)", math.exp(1)),
    ("torch.sqrt(16)", 4),
    ("torch.abs(-3.5)", 3.5),
    ("torch.round(-2.5)", -3),
    ("torch.trunc(-2.75)", -2),
    ("torch.frac(-2.75)", -0.75),
    ("torch.rsqrt(4)", 0.5),
    ("torch.sigmoid(0)", 0.5),
    ("torch.pow(2, 10)", 1024),
    ("torch.atan2(1, 1)", math.pi / 4),
])
def test_number_forms_return_numbers(th, expr, expected):
    out = lines(th, "local v = %s\nprint(type(v), string.format('%%.10f', v))" % expr)
    assert out == ["number\t%.10f" % expected]


def test_number_forms_round_through_float_with_float_default(th):
    out = lines(th, "torch.setdefaulttensortype('torch.FloatTensor')\nprint(torch.sqrt(2))")
    assert out == ["1.4142135381699"]


def test_tensor_forms_unchanged_by_number_forms(th):
    out = lines(th, "r = torch.Tensor()\ntorch.pow(r, torch.Tensor{1, 2}, 2)\nprint(r[2], torch.pow(2, torch.Tensor{3})[1])\n"
                    "print(pcall(torch.sign, 2))")
    assert out[0] == "4\t8"
    assert out[1].startswith("false")


def test_abs_types(th):
    out = lines(th, "for _, t in ipairs{'Byte', 'Char', 'Short', 'Int', 'Long', 'Float', 'Double'} do\n"
                    "  local x = torch[t .. 'Tensor']({3})\n"
                    "  print(t, (pcall(torch.abs, x)), x.abs ~= nil)\nend")
    assert out == ["Byte\tfalse\tfalse", "Char\tfalse\tfalse", "Short\tfalse\tfalse", "Int\ttrue\ttrue",
                   "Long\ttrue\ttrue", "Float\ttrue\ttrue", "Double\ttrue\ttrue"]


@pytest.mark.parametrize("n", [4, 400])
def test_ceil_and_trunc_give_negative_zero(th, n):
    # as C's ceil and trunc: the original printed -inf, -inf, -1 here
    out = lines(th, "x = torch.Tensor(%d):fill(-0.5)\nprint(1 / torch.ceil(x)[1], 1 / torch.trunc(x)[1],"
                    " torch.floor(x)[1])" % n)
    assert out == ["-inf\t-inf\t-1"]


def test_sign_doc(th):
    out = lines(th, "print(torch.sign(torch.Tensor({-2.5, 0, 3})))")
    assert out == ["-1", " 0", " 1", "[torch.DoubleTensor of size 3]"]


def test_renorm_needs_two_dimensions(th):
    out = lines(th, "local ok, e = pcall(torch.renorm, torch.Tensor{3, 4}, 2, 1, 5)\n"
                    "print(ok, (e:gsub('^.-:%d+: ', '')))")
    assert out == ["false\tbad argument #1 to '?' (need at least 2 dimensions, got 1 dimensions)"]


def test_renorm_rows_and_columns(th):
    # rows (3, 4) and (6, 8) have 2-norms 5 and 10: only the second exceeds 5
    out = lines(th, "x = torch.Tensor({{3, 4}, {6, 8}})\nprint(torch.renorm(x, 2, 1, 5))")
    assert out[:2] == [" 3.0000  4.0000", " 3.0000  4.0000"]


def test_norm_forms(th):
    out = lines(th, "x = torch.Tensor({{3, 4}, {6, 8}})\nprint(torch.norm(x, 1), torch.norm(x, 0))\n"
                    "print(torch.norm(x, 2, 2))")
    assert out[0] == "21\t4"
    assert out[1:4] == ["  5", " 10", "[torch.DoubleTensor of size 2x1]"]


def test_cumsum_doc_forms(th):
    out = lines(th, "A = torch.LongTensor{{1, 4, 7}, {2, 5, 8}, {3, 6, 9}}\n"
                    "print(torch.cumsum(A))\nprint(torch.cumsum(A, 2))")
    assert out == ["  1   4   7", "  3   9  15", "  6  15  24", "[torch.LongTensor of size 3x3]", "",
                   "  1   5  12", "  2   7  15", "  3   9  18", "[torch.LongTensor of size 3x3]"]


def test_mode_and_kthvalue(th):
    out = lines(th, "y, i = torch.mode(torch.Tensor{{1, 2, 2}, {3, 3, 1}, {1, 1, 2}})\n"
                    "print(y:view(-1)[1], y:view(-1)[2], y:view(-1)[3], i:view(-1)[1], i:view(-1)[2])\n"
                    "y, i = torch.kthvalue(torch.Tensor{5, 1, 4, 2, 3}, 2)\nprint(y[1], i[1])\n"
                    "print(pcall(torch.kthvalue, torch.Tensor{1, 2}, 3))")
    assert out[0] == "2\t3\t1\t3\t2"
    assert out[1] == "2\t4"
    assert out[2].startswith("false")


def test_median_even_count_takes_lower_middle(th):
    out = lines(th, "y, i = torch.median(torch.Tensor{4, 1, 3, 2})\nprint(y[1], i[1])")
    assert out == ["2\t4"]


def test_var_std(th):
    out = lines(th, "x = torch.Tensor({{1, 2, 3}, {4, 5, 7}})\n"
                    "print(string.format('%.6f %.6f', torch.var(x), torch.std(x, true)))\n"
                    "print(torch.var(x, 1))")
    assert out[0] == "%.6f %.6f" % (28 / 6, math.sqrt(35 / 9))
    assert out[1:3] == [" 4.5000  4.5000  8.0000", "[torch.DoubleTensor of size 1x3]"]
