"""The call forms the maths reference lists under each function (the held-back
conformance cases run them): result-tensor, method and in-place forms of the
basic, BLAS, construction, operator and logical functions, with the number
arguments cast to the element type as TH did.  Expected values are worked out
from the documentation and Torch7's semantics."""


def out(th, code):
    r = th("require 'torch'\n" + code)
    assert r.returncode == 0, r.stderr
    return r.stdout.split("\n")[:-1]


def column(*vals, name="DoubleTensor", size=None):
    """The printed form of a vector of integer values (print adds a blank line)."""
    width = max(len(str(abs(v))) for v in vals) + 1
    rows = [str(v).rjust(width) for v in vals]
    return rows + ["[torch.%s of size %s]" % (name, size or len(vals)), ""]


# basic: add(tensor1, tensor2), add(tensor1, value, tensor2), mul, cmul, div, cdiv

def test_add_tensor_forms(th):
    code = """
    a = torch.Tensor({1, 2, 3})
    b = torch.Tensor({{10, 20, 30}})
    y = torch.add(a, b)          print(y)
    torch.add(y, a, b)           print(y:size(1))
    a:add(b)                     print(a)
    y = torch.Tensor()
    y:add(a, b)                  print(y)
    print(torch.add(b, a):size(1), torch.add(b, a):size(2))
    """
    assert out(th, code) == (column(11, 22, 33) + ["3\t"] + column(11, 22, 33)
                             + column(21, 42, 63) + ["1\t3\t"])


def test_add_scaled_forms(th):
    code = """
    x = torch.Tensor({1, 2})
    y = torch.Tensor({3, 4})
    z = torch.Tensor()
    print(torch.add(x, 2, y))
    z:add(x, 2, y)           print(z)
    torch.add(z, x, -1, y)   print(z)
    x:add(3, y)              print(x)
    print(torch.IntTensor({1, 2}):add(2.9, torch.IntTensor({1, 1})))
    """
    assert out(th, code) == (column(7, 10) + column(7, 10) + column(-2, -2) + column(10, 14)
                             + column(3, 4, name="IntTensor"))


def test_mul_div_forms(th):
    code = """
    x = torch.Tensor({2, 4, 6})
    z = torch.mul(x, 2)     print(z)
    torch.mul(z, x, 3)      print(z)
    x:mul(0.5)              print(x)
    z:mul(x, 10)            print(z)
    print(torch.div(x, 1))
    torch.div(z, x, -1)     print(z)
    z:div(x, 1)             print(z)
    print(torch.IntTensor({1, 2, 3}):mul(2.7))
    print(torch.IntTensor({7, -7, 9}):div(2))
    print(torch.ByteTensor({5, 5}):div(-1))
    """
    assert out(th, code) == (column(4, 8, 12) + column(6, 12, 18) + column(1, 2, 3)
                             + column(10, 20, 30) + column(1, 2, 3) + column(-1, -2, -3)
                             + column(1, 2, 3)
                             + column(2, 4, 6, name="IntTensor")      # 2.7 is cast to 2
                             + column(3, -3, 4, name="IntTensor")     # C truncation
                             + column(0, 0, name="ByteTensor"))       # -1 is 255


def test_cmul_cdiv_forms(th):
    code = """
    x = torch.Tensor({1, 2, 4})
    y = torch.Tensor({{4, 6, 8}})
    z = torch.cmul(x, y)     print(z)
    torch.cmul(z, y, x)      print(z:dim())
    z = torch.Tensor()
    z:cmul(x, x)             print(z)
    print(torch.cdiv(y, x))
    z:cdiv(y, x)             print(z:size(2))
    y:cdiv(x)                print(y)
    print(pcall(torch.cmul, x, torch.Tensor(2)))
    """
    lines = out(th, code)
    assert lines[:11] == (column(4, 12, 32) + ["2\t"] + column(1, 4, 16))
    assert lines[11:14] == [" 4  3  2", "[torch.DoubleTensor of size 1x3]", ""]
    assert lines[14:18] == ["3\t", " 4  3  2", "[torch.DoubleTensor of size 1x3]", ""]
    assert lines[18].startswith("false\t")


# BLAS: addmv, addmm, baddbmm, mv, mm and their method forms

def test_addmv_function_and_method_forms(th):
    code = """
    v = torch.Tensor({1, 1, 1})
    M = torch.Tensor({{1, 2}, {3, 4}, {5, 6}})
    y = torch.Tensor({1, 2})
    print(torch.addmv(v, M, y))              -- M y = 5 11 17
    r = torch.Tensor()
    torch.addmv(r, v, M, y)          print(r)
    print(torch.addmv(2, v, 3, M, y))
    r = torch.Tensor(3):fill(1)
    r:addmv(2, M, y)                 print(r) -- r + 2 M y
    r:fill(1)
    r:addmv(10, 2, M, y)             print(r) -- 10 r + 2 M y
    r:addmv(v, 2, M, y)              print(r) -- v + 2 M y
    print(v)
    """
    assert out(th, code) == (column(6, 12, 18) + column(6, 12, 18) + column(17, 35, 53)
                             + column(11, 23, 35) + column(20, 32, 44) + column(11, 23, 35)
                             + column(1, 1, 1))


def test_addmm_forms(th):
    code = """
    M = torch.ones(2, 2)
    a = torch.Tensor({{1, 2}, {3, 4}})
    b = torch.Tensor({{0, 1}, {1, 0}})
    print(torch.addmm(M, a, b))
    print(torch.addmm(2, M, 3, a, b))
    M:addmm(a, b)
    print(M)
    M:fill(1)
    M:addmm(10, 2, a, b)
    print(M)
    """
    assert out(th, code) == [
        " 3  2", " 5  4", "[torch.DoubleTensor of size 2x2]", "",
        "  8   5", " 14  11", "[torch.DoubleTensor of size 2x2]", "",
        " 3  2", " 5  4", "[torch.DoubleTensor of size 2x2]", "",
        " 14  12", " 18  16", "[torch.DoubleTensor of size 2x2]", ""]


def test_baddbmm_mv_mm_result_forms(th):
    code = """
    M = torch.ones(2, 1, 1)
    b1 = torch.Tensor({{{1, 2}}, {{3, 4}}})
    b2 = torch.Tensor({{{1}, {1}}, {{2}, {-1}}})
    print(torch.baddbmm(M, b1, b2):view(2))
    M:baddbmm(2, M, 3, b1, b2)
    print(M:view(2))
    local ok, r = pcall(torch.baddbmm, torch.Tensor(5), M, b1, b2)
    print(ok, r:view(2)[1], r:view(2)[2], r:dim())
    A = torch.Tensor({{1, 2}, {3, 4}})
    r = torch.Tensor(2)
    r:mv(A, torch.Tensor({1, -1}))   print(r)
    print(pcall(torch.mv, torch.Tensor(), A, torch.Tensor({1, -1})))
    R = torch.Tensor(2, 2)
    torch.mm(R, A, A:t())            print(R)
    """
    lines = out(th, code)
    assert lines[:8] == column(4, 3) + column(11, 8)    # 1 + (3, 2); 2 + 3 (3, 2)
    assert lines[8].split() == ["true", "14", "10", "3"]  # a result of another size is resized
    assert lines[9:13] == column(-1, -1)
    assert lines[13].startswith("false\t")
    assert lines[14:] == ["  5  11", " 11  25", "[torch.DoubleTensor of size 2x2]", ""]


# construction: cat, diag, eye, histc, ones, range, tril/triu

def test_cat_forms_and_errors(th):
    code = """
    a = torch.Tensor({{1, 2}, {3, 4}})
    b = torch.Tensor({{5, 6}})
    r = torch.Tensor()
    torch.cat(r, a, b, 1)                 print(r:size(1), r[3][2])
    torch.cat(r, {b, a, b}, 1)            print(r:size(1), r[4][1])
    print(torch.cat(torch.ones(2), torch.zeros(2), 2))
    print(torch.cat(torch.ones(2), torch.zeros(2), 3):size())
    print(pcall(torch.cat, a, b))          -- rows differ
    print(pcall(torch.cat, torch.Tensor({1, 2}), b, 1))
    print(torch.cat(torch.IntTensor({1, 2}), torch.IntTensor({3})))
    """
    lines = out(th, code)
    assert lines[:2] == ["3\t6\t", "4\t5\t"]
    assert lines[2:6] == [" 1  0", " 1  0", "[torch.DoubleTensor of size 2x2]", ""]
    assert lines[6:11] == [" 2", " 1", " 2", "[torch.LongStorage of size 3]", ""]
    assert lines[11].startswith("false\t") and lines[12].startswith("false\t")
    assert lines[13:] == column(1, 2, 3, name="IntTensor")


def test_diag_k_eye_histc(th):
    code = """
    x = torch.range(1, 9):resize(3, 3)
    print(torch.diag(x, 1))
    print(torch.diag(x, -2))
    print(torch.diag(torch.Tensor({1, 2}), -1))
    print((pcall(torch.diag, x, 3)))    -- beyond the matrix: an error, as in Torch7
    print(torch.eye(2, 3))
    print(torch.eye(2, 0):size(2))
    print(torch.IntTensor():eye(2))
    print(torch.histc(torch.Tensor({1, 2, 1, 3, 5, 1}), 5))
    print(torch.histc(torch.Tensor({1, 2, 1, 3, 5, 1}), 3, 0, 2))
    print(torch.histc(torch.Tensor({2, 2, 2}), 3))
    """
    assert out(th, code) == (
        column(2, 6) + column(7) +
        [" 0  0  0", " 1  0  0", " 0  2  0", "[torch.DoubleTensor of size 3x3]", ""] +
        ["false\t"] +
        [" 1  0  0", " 0  1  0", "[torch.DoubleTensor of size 2x3]", ""] +
        ["2\t"] +
        [" 1  0", " 0  1", "[torch.IntTensor of size 2x2]", ""] +
        column(3, 1, 1, 0, 1) + column(0, 3, 1) + column(0, 3, 0))


def test_ones_range_tril_forms(th):
    code = """
    x = torch.Tensor()
    x:ones(2)                         print(x)
    print(torch.ones(torch.IntTensor(), 2))
    print(torch.ones(torch.LongStorage({1, 2, 1, 1, 2})):dim())
    print(torch.range(5, 2, -1))
    print(torch.range(torch.IntTensor(), 1, 4, 2))
    print(torch.range(0, 1, 0.1):size(1), torch.range(1, 5, 10):size(1))
    print((pcall(torch.range, 1, 2, 0)))
    m = torch.range(1, 9):resize(3, 3)
    print(m:tril())
    print(torch.triu(m)[3][3], m[3][1])
    """
    assert out(th, code) == (
        column(1, 1) + column(1, 1, name="IntTensor") + ["5\t"] + column(5, 4, 3, 2)
        + column(1, 3, name="IntTensor") + ["11\t1\t"] + ["false\t"]
        + [" 1  0  0", " 4  5  0", " 7  8  9", "[torch.DoubleTensor of size 3x3]", ""]
        + ["9\t7\t"])


# operators

def test_operators_scalars_and_types(th):
    code = """
    x = torch.Tensor(2):fill(2)
    print(3 * x)
    print(2 - x)
    print(1.5 + torch.IntTensor({1, 2}))
    print(1.5 - torch.IntTensor({1, 2}))
    print(torch.IntTensor({1, 2}) * 2.5)
    print(-torch.ByteTensor({1, 2, 250}))
    print(torch.IntTensor({-7, 7}) % -3)
    print(torch.FloatTensor({1.5, 2.5}) * torch.FloatTensor({1.5, 2.5}))
    print(torch.LongTensor({{1, 2}, {3, 4}}) * torch.LongTensor({1, 1}))
    for _, f in ipairs{function() return x / x end, function() return 3 / x end,
                       function() return x + torch.Tensor(3) end,
                       function() return torch.Tensor(2, 2, 2) * x end,
                       function() return x + 'a' end} do
       print((pcall(f)))
    end
    print(x)
    """
    assert out(th, code) == (
        column(6, 6) + column(0, 0) + column(2, 3, name="IntTensor")
        + column(0, -1, name="IntTensor") + column(2, 4, name="IntTensor")
        + column(255, 254, 6, name="ByteTensor") + column(-1, -2, name="IntTensor")
        + ["8.5\t"] + column(3, 7, name="LongTensor") + ["false\t"] * 5 + column(2, 2))


# logical

def test_comparison_forms_and_results(th):
    code = """
    a = torch.Tensor({1, 2, 3, 4})
    b = torch.Tensor({4, 2, 2, 5})
    print(torch.le(a, b))
    print(a:ge(3))
    r = torch.ByteTensor()
    a.lt(r, a, b)                  print(r)
    d = torch.Tensor()
    torch.gt(d, a, b)              print(d)
    print(pcall(torch.gt, torch.ByteTensor(), a, b))
    print(torch.IntTensor({1, 2, 3}):lt(2.5))   -- 2.5 is cast to 2
    print(torch.ByteTensor({5, 255}):eq(-1))    -- -1 is 255
    print(torch.FloatTensor({0.1, 0.2}):eq(0.1))
    print(torch.ByteTensor({{1, 1}, {1, 0}}):all(), pcall(torch.ByteTensor().all, torch.ByteTensor()))
    """
    lines = out(th, code)
    assert lines[:24] == (column(1, 1, 0, 1, name="ByteTensor") + column(0, 0, 1, 1, name="ByteTensor")
                          + column(1, 0, 0, 1, name="ByteTensor") + column(0, 0, 1, 0))
    # the original's error: the arguments given, then its signatures on a line of their own
    assert lines[24] == "false\tinvalid arguments: ByteTensor DoubleTensor DoubleTensor "
    assert lines[25].startswith("expected arguments: [*ByteTensor*] ByteTensor unsigned char | ")
    assert lines[26:] == (column(1, 0, 0, name="ByteTensor") + column(0, 1, name="ByteTensor")
                          + column(1, 0, name="ByteTensor")
                          + ["false\tfalse\tbad argument #1 to '?' (empty Tensor)\t"])


def test_bulk_comparisons_cast_like_small_ones(th):
    code = """
    print(torch.IntTensor(100):fill(2):lt(2.5):sum(), torch.IntTensor(3):fill(2):lt(2.5):sum())
    print(torch.ByteTensor(100):fill(5):gt(-1):sum(), torch.ByteTensor(3):fill(5):gt(-1):sum())
    print(torch.FloatTensor(100):fill(0.1):eq(0.1):sum(), torch.FloatTensor(3):fill(0.1):eq(0.1):sum())
    """
    assert out(th, code) == ["0\t0\t", "0\t0\t", "100\t3\t"]
