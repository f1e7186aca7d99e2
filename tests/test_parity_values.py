"""Values and errors that must agree with the original Torch7: the expected
outputs were printed by the original `th` (tests/fixtures/*.expected or the
literal strings below)."""
import os

import pytest

from conftest import run_th

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def output(proc):
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [line.rstrip() for line in proc.stdout.splitlines()]


def lines(th, code):
    return output(th(code))


def fixture(name, env=None):
    """The output of tests/fixtures/name.lua, and what the original printed for it
    (env: run from the fixtures folder in that environment)."""
    where = {"cwd": FIXTURES, "env": env} if env else {}
    out = output(run_th([os.path.join(FIXTURES, name + ".lua")], **where))
    with open(os.path.join(FIXTURES, name + ".expected")) as f:
        return out, [line.rstrip() for line in f.read().splitlines()]


def test_size_dimension_and_index_arguments_are_c_integers():
    out, expected = fixture("parity_sizes")
    # where th does better than the original: a dimension no C int holds is an
    # error (Torch7 wrapped 2^32 + 1 around to 1), and so is a negative expand
    # size (Torch7 silently dropped that dimension and the ones after it)
    better = {"cat 2^32+1": "cat 2^32+1\terror", "expand -1": "expand -1\terror"}
    expected = [better.get(line.split("\t")[0], line) for line in expected]
    assert out == expected


def test_expand_gives_every_size_one_dimension_stride_zero(th):
    # Torch7's expand set a stride of 0 wherever the tensor had size 1, the
    # size kept or not (th kept the stride where the size stayed 1); the
    # views and copies made from them as the original's (printed by it)
    out = lines(th, r"""
local function st(t) return table.concat(t:stride():totable(), ',') end
print(st(torch.ones(1, 1):expand(1, 40)), st(torch.ones(1, 3):expand(1, 3)), st(torch.ones(1, 3):expand(2, 3)),
      st(torch.ones(3, 1):expand(3, 1)), st(torch.ones(1):expand(1)), st(torch.ones(2, 1, 3):expand(2, 1, 3)),
      st(torch.ones(2, 1, 3):expand(2, 4, 3)))
print(st(torch.ones(1, 1):expandAs(torch.ones(1, 5))), st(torch.ones(3, 1):expand(torch.LongStorage{3, 1})))
local e = torch.range(1, 3):view(1, 3):expand(1, 3)
print(e:isContiguous(), st(e:contiguous()), e:view(3):size(1), st(e:clone()), e:sum(), st(e:t()), e:t():isContiguous())
local e2 = torch.ones(1):expand(1)
print(e2:isContiguous(), st(e2:view(1, 1)))
local x = torch.randn(2, 1, 3):expand(2, 1, 3)
print(x:isContiguous(), st(x:view(6)), st(x:transpose(2, 3)), st(x:select(2, 1)))
print(st(torch.ones(1, 1):expand(1, 1):repeatTensor(2, 2)), st(torch.ones(1, 4):expand(1, 4):resize(2, 2)))""")
    assert out == ["0,0\t0,1\t0,1\t1,0\t0\t3,0,1\t3,0,1",
                   "0,0\t1,0",
                   "true\t0,1\t3\t3,1\t6\t1,0\ttrue",
                   "true\t1,1",
                   "true\t1\t3,1,0\t3,1",
                   "2,1\t2,1"]


def test_index_copy_and_add_from_a_source_of_another_shape(th):
    # indexCopy and indexAdd take a source whose slices hold the
    # destination's element count, whatever their shape, each slice in its
    # own order (as TH): th's loop walked the destination by the source's
    # sizes, wrote past its storage and crashed later (fuzz_diff seed 6005:
    # r:indexAdd(2, torch.LongTensor{1}, x) of a 1x5x2 r and a 2x1 x);
    # printed by the original
    out = lines(th, r"""
local function show(r) return table.concat(r:contiguous():view(-1):totable(), ' ') end
for _, T in ipairs{'Double', 'Float', 'Long', 'Byte'} do
  local function t(x) return x:type('torch.' .. T .. 'Tensor') end
  local r = torch[T .. 'Tensor'](1, 5, 2):fill(1)
  local src = t(torch.range(1, 4):view(2, 2)):narrow(2, 1, 1)
  r:indexAdd(2, torch.LongTensor{1}, src)
  local r2 = torch[T .. 'Tensor'](1, 5, 2):fill(1)
  r2:indexCopy(2, torch.LongTensor{4}, src)
  local r3 = torch[T .. 'Tensor'](3, 4):fill(1)
  r3:indexAdd(1, torch.LongTensor{3, 1}, t(torch.range(1, 8):view(2, 2, 2)))
  local r4 = torch[T .. 'Tensor'](3, 4):fill(1)
  r4:indexCopy(2, torch.LongTensor{2, 4}, t(torch.range(1, 6):view(3, 2):t()):t())
  local r5 = torch[T .. 'Tensor'](2, 6):fill(1)
  r5:indexAdd(2, torch.LongTensor{2, 5}, t(torch.range(1, 4):view(2, 2, 1)):select(3, 1))
  print(T, show(r), show(r2), show(r3), show(r4), show(r5))
end""")
    expected = "\t".join(["2 4 1 1 1 1 1 1 1 1", "1 1 1 1 1 1 1 3 1 1", "6 7 8 9 1 1 1 1 2 3 4 5",
                           "1 1 1 2 1 3 1 4 1 5 1 6", "1 2 1 1 3 1 1 4 1 1 5 1"])
    assert out == [T + "\t" + expected for T in ("Double", "Float", "Long", "Byte")]


def test_huge_cat_dimension_is_an_error_not_a_hang(th):
    out = lines(th, "local x = torch.ones(2, 2)\n"
                    "for _, d in ipairs{2^31, 2^30, 2^63, -2^31, 0/0} do\n"
                    "  print((pcall(torch.cat, x, x, d)))\nend")
    assert out == ["false"] * 5


def test_integer_arithmetic_wraps_and_expanded_results_accumulate():
    out, expected = fixture("parity_arith")
    assert out == expected


def test_norms_constructions_and_selection_results():
    out, expected = fixture("parity_results")
    assert out == expected


def test_a_result_that_is_the_second_operand_is_resized_before_the_counts_are_compared():
    # scripts/fuzz_errors.py seed 3007: x.cmax(x, v, x) was th's size error
    out, expected = fixture("parity_result_operand")
    assert out == expected


def test_findings_of_the_differential_fuzz():
    # scripts/fuzz_diff.py against the original: each call once differed
    out, expected = fixture("parity_fuzz")
    assert out == expected


def test_findings_of_the_views_fuzz():
    # scripts/fuzz_views.py against the original (maths on views, into given
    # results): addcmul/addcdiv into t1 or t2, gather into a longer result
    out, expected = fixture("parity_views")
    assert out == expected


def test_findings_of_the_conv_fuzz():
    # scripts/fuzz_conv.py against the original: conv2/xcorr2/conv3/xcorr3's
    # options, argument errors and results written into views; apply, map and
    # map2 through the original's FFI loop (contiguous) and C loop (views)
    out, expected = fixture("parity_conv_apply")
    assert out == expected


def test_integer_division_remainder_shifts_and_cpow_edges():
    # fmod/remainder/div by INT_MIN, INT_MAX, negatives and fractions (cast to
    # the type), in-range shifts (rshift is logical) and cpow overflow, in the
    # LuaJIT loops and the numpy paths of every integer type
    out, expected = fixture("parity_integer_edges")
    assert out == expected


def test_long_and_integer_loops_give_the_int64_results_of_the_original():
    # LongTensor div/fmod/remainder/cmax/cmin/abs, sums, cumsums, max/min
    # along a dimension, dots, integer products and IntTensor dots: values
    # small, near 2^53 and beyond (the exact fallbacks), negative, transposed,
    # results given and new, sizes around the paths' thresholds, then each
    # path hot (3000 calls)
    out, expected = fixture("parity_longloops")
    assert out == expected


def test_long_division_by_zero_is_an_error_at_every_size(th):
    # (the original died of SIGFPE)
    out = lines(th, 'for _, n in ipairs{3, 100, 5000} do\n'
                    '  local x, y = torch.LongTensor(n):fill(7), torch.LongTensor(n):fill(2)\n'
                    '  y[n] = 0\n'
                    '  for _, f in ipairs{function() return torch.cdiv(x, y) end,\n'
                    '                     function() return torch.cremainder(x, y) end,\n'
                    '                     function() return torch.cfmod(x, y) end,\n'
                    '                     function() return torch.div(x, 0) end} do\n'
                    '    local ok, e = pcall(f)\n'
                    '    print(ok, (tostring(e):gsub("^.-bad", "bad")))\n'
                    '  end\n'
                    'end')
    assert len(out) == 12
    for line in out:
        assert line.startswith("false\tbad argument #2 to '") and line.endswith("(integer division by zero)")


def test_int_min_divided_by_minus_one_wraps_instead_of_crashing(th):
    # the original died of SIGFPE here; th computes what C's wrapping gives
    out = lines(th, 'for _, T in ipairs{"Int", "Long"} do for _, n in ipairs{3, 5000} do\n'
                    '  local x = torch[T .. "Tensor"](n):fill(7); x[1] = T == "Int" and -2^31 or -2^63\n'
                    '  local m = x.new(n):fill(-1)\n'
                    '  print(x:clone():div(-1)[1] == x[1], x:clone():cdiv(m)[1] == x[1], x:clone():div(-1)[2],\n'
                    '        x:clone():fmod(-1)[1], x:clone():remainder(-1)[1], x:clone():cremainder(m)[1])\n'
                    'end end')
    assert out == ["true\ttrue\t-7\t0\t0\t0"] * 4


def test_var_and_std_as_th_computed_them():
    # from the sums of x and x^2, x^2 and the factor n / (n - 1) in the
    # element type, std the root of the variance already rounded to it
    out, expected = fixture("parity_var")
    assert out == expected


def test_numeric_strings_and_table_constructors():
    out, expected = fixture("parity_strings")
    assert out == expected


def test_findings_of_the_fuzz_with_new_seeds():
    # scripts/fuzz_diff.py seeds 777 and 31337: var/std, Long remainder,
    # cross with a dimension below 1, scatter of a number, shifts by a tensor
    out, expected = fixture("parity_fuzz_found")
    assert out == expected


def test_numbers_and_numeric_strings_stored_into_integer_tensors():
    out, expected = fixture("parity_conversions")
    assert out == expected


def test_elementwise_bits_as_the_original():
    # FloatTensor functions are C's float ones (expf, tanhf...) and float
    # arithmetic rounds each step; DoubleTensor functions are C's at every
    # size (numpy's vectorised ones round differently on AVX-512 CPUs)
    out, expected = fixture("bits_elementwise")
    assert out == expected


def test_cmax_cmin_clamp_bits_as_the_original():
    # TH's x > y ? x : y (y wins ties of signed zeros and NaN) and its clamp
    # rule, in the LuaJIT loops, numpy's loops with the fix-up pass, shared
    # with helper threads and the Python path; NaN bounds, -0 numbers; hot
    out, expected = fixture("bits_minmax")
    assert out == expected


def test_frac_bits_as_the_original():
    # x - trunc(x) through the LuaJIT loop, numpy's trunc and subtract loops
    # by blocks (in place too) and the Python path; hot
    out, expected = fixture("bits_frac")
    assert out == expected


def test_linspace_logspace_bits_as_the_original():
    out, expected = fixture("bits_linspace")
    assert out == expected


def test_fused_multiply_add_where_the_original_fused():
    # x:add(v, y) and csub: which elements had one rounding, which two, in
    # every code path (in place, into another result, strided, split in parts)
    out, expected = fixture("bits_cadd")
    assert out == expected


def test_add_in_place_by_one_as_the_original():
    # x:add(y), x:add(1, y), x:add(-1, y), x:csub(y) in place: one BLAS axpy
    # over the whole, as Torch7; the sums, x:add(x) and overlapping views of
    # one storage to the last bit, cold and hot
    out, expected = fixture("bits_cadd_inplace")
    assert out == expected


def test_add_in_place_rounds_alike_for_any_thread_count():
    # x:add(v, y) and x:csub(v, y) in place under torch.setnumthreads(1, 3,
    # 2): the original's bits are those of OpenBLAS's own threads, whatever
    # setnumthreads says (th split them in setnumthreads parts: alike only at 2)
    out, expected = fixture("bits_cadd_threads")
    assert out == expected


def test_add_in_place_splits_as_openblas_with_one_thread():
    # the same under OPENBLAS_NUM_THREADS=1: the original's axpy is then one
    # part, whose bits differ from two parts' (th takes OpenBLAS's count)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    proc = run_th([os.path.join(FIXTURES, "bits_cadd_threads.lua")], env=env, timeout=120)
    with open(os.path.join(FIXTURES, "bits_cadd_threads_openblas1.expected")) as f:
        assert output(proc) == [line.rstrip() for line in f.read().splitlines()]


def avx512():
    return os.path.exists("/proc/cpuinfo") and " avx512f " in open("/proc/cpuinfo").read()


@pytest.mark.skipif(not avx512(), reason="OpenBLAS's SkylakeX kernels need AVX-512")
def test_fused_multiply_add_as_the_original_on_skylakex_kernels():
    # the same with OpenBLAS's AVX-512 kernels (what the original picks on
    # this machine unpinned): the in-place add's tail is the BLAS kernel's,
    # which there fuses every element (recorded with OPENBLAS_CORETYPE=SkylakeX)
    env = dict(os.environ, OPENBLAS_CORETYPE="SkylakeX")
    proc = run_th([os.path.join(FIXTURES, "bits_cadd.lua")], env=env, timeout=120)
    with open(os.path.join(FIXTURES, "bits_cadd_skylakex.expected")) as f:
        assert output(proc) == [line.rstrip() for line in f.read().splitlines()]


def test_fused_add_paths_stay_exact_when_hot(th):
    # the cold results are the original's (the fixture above): once compiled,
    # every path gives the same bits
    out = lines(th, """
for _, T in ipairs{'Float', 'Double'} do
   for _, n in ipairs{7, 40, 2007} do
      torch.manualSeed(n)
      local x, y = torch[T .. 'Tensor'](n):uniform(-3, 3), torch[T .. 'Tensor'](n):uniform(-3, 3)
      local inplace, new = x:clone():add(0.3, y), torch.add(x, 0.3, y)
      local strided = x:view(n, 1):expand(n, 2):t():clone():t():add(0.3, y:view(n, 1):expand(n, 2))
      local same = true
      for _ = 1, 3000 do
         same = same and x:clone():add(0.3, y):equal(inplace) and torch.add(x, 0.3, y):equal(new)
                and x:view(n, 1):expand(n, 2):t():clone():t():add(0.3, y:view(n, 1):expand(n, 2)):equal(strided)
      end
      print(T, n, same)
   end
end""")
    assert out == ["%s\t%d\ttrue" % (t, n) for t in ("Float", "Double") for n in (7, 40, 2007)]


def test_fused_add_into_a_given_result_as_the_original():
    # r:add(x, v, y) and r:csub(x, [v,] y) into a result apart from x and y:
    # x copied into r a chunk at a time, then the BLAS axpy on the chunk
    # (sizes on both sides of the chunk and of the helper threads' threshold)
    out, expected = fixture("bits_cadd_into")
    assert out == expected


def test_fused_add_into_a_given_result_stays_exact_when_hot(th):
    out = lines(th, """
for _, T in ipairs{'Float', 'Double'} do
   for _, n in ipairs{5, 100, 8200} do
      torch.manualSeed(n)
      local x, y = torch[T .. 'Tensor'](n):uniform(-3, 3), torch[T .. 'Tensor'](n):uniform(-3, 3)
      local r = torch[T .. 'Tensor'](n)
      local add, sub = r:add(x, 0.3, y):clone(), r:csub(x, y):clone()
      local same = true
      for _ = 1, math.floor(3e5 / n) + 200 do
         same = same and r:add(x, 0.3, y):equal(add) and r:csub(x, y):equal(sub)
      end
      print(T, n, same)
   end
end""")
    assert out == ["%s\t%d\ttrue" % (t, n) for t in ("Float", "Double") for n in (5, 100, 8200)]


def test_blas_products_bits_as_the_original():
    # with the system's OpenBLAS (the library Torch7 was built on; .ci/run
    # installs it), on torch's thread count, called as Torch7 called it: every
    # size goes to BLAS, results and matrix-vector matrices are taken as
    # column-major first, addr scales by beta before the rank-one update;
    # rank-one updates from 2^17 bytes, whose bands of rows th shares with
    # its helper threads (each element its own product: the original's bits
    # whoever computes them)
    out, expected = fixture("bits_blas")
    assert out == expected


def test_blas_products_on_every_layout_as_the_original():
    # the matrices handed to BLAS as TH handed them (found by running the
    # original): a result read column-major first, operands row-major first,
    # whatever stride a dimension of size 1 carries; a matrix with no unit
    # stride (or a zero one beside it: expanded) copied first, a result
    # column-major, an operand row-major; addmv's zero increments through
    # TH's own loops; addr's result column-major first.  th read an expanded
    # operand's elements past its storage (a product of nil) and sent the
    # rest to numpy (other last bits)
    out, expected = fixture("bits_blas_layouts")
    assert out == expected


@pytest.mark.skipif(not avx512(), reason="OpenBLAS's SkylakeX kernels need AVX-512")
def test_blas_products_on_every_layout_as_the_original_on_skylakex_kernels():
    # the same under the AVX-512 kernels (what OpenBLAS picks on such a
    # machine unpinned), where a column-major and a row-major reading of the
    # same vector sum in other orders
    env = dict(os.environ, OPENBLAS_CORETYPE="SkylakeX")
    proc = run_th([os.path.join(FIXTURES, "bits_blas_layouts.lua")], env=env, timeout=120)
    with open(os.path.join(FIXTURES, "bits_blas_layouts_skylakex.expected")) as f:
        assert output(proc) == [line.rstrip() for line in f.read().splitlines()]


def test_reductions_bits_as_the_original():
    # sums in order at every size (numpy adds in pairs); along a dimension
    # but the last, a FloatTensor's sums and products round to float
    out, expected = fixture("bits_reduce")
    assert out == expected


def test_strided_reductions_norms_and_variances_bits_as_the_original():
    # var, std, norm and dist for every p, renorm, and reductions of
    # transposed, stepped and permuted tensors, whole and along each
    # dimension, at sizes on both sides of the loops' limits
    out, expected = fixture("bits_reduce2")
    assert out == expected


def test_strided_reductions_stay_exact_when_hot():
    # the small cases 2000 times: the last run's lines are the original's
    proc = run_th([os.path.join(FIXTURES, "bits_reduce2.lua"), "2000"], timeout=600)
    hot = output(proc)
    with open(os.path.join(FIXTURES, "bits_reduce2.expected")) as f:
        expected = [line.rstrip() for line in f.read().splitlines()]
    assert len(hot) > 40
    assert [line for line in hot if line not in expected] == []


def test_strided_copies_fills_maps_and_reductions_bits_as_the_original():
    # every type and type pair on transposed, permuted, narrowed and expanded
    # operands, each small case a thousand times (hot): strided.lua's loops,
    # and numpy's beyond them
    proc = run_th([os.path.join(FIXTURES, "bits_strided.lua")], timeout=600)
    out = output(proc)
    with open(os.path.join(FIXTURES, "bits_strided.expected")) as f:
        expected = [line.rstrip() for line in f.read().splitlines()]
    assert out == expected


def test_comparisons_extremes_and_sorts_of_special_values():
    # NaN, infinities and signed zeros in comparisons (th's branch-free loops
    # hand NaN to the exact ones), max/min (NaN wins, the first zero's sign)
    # and sorts (NaN compares with nothing), cold and hot
    out, expected = fixture("parity_extremes")
    assert out == expected
    hot = output(run_th([os.path.join(FIXTURES, "parity_extremes.lua"), "20"], timeout=600))
    assert hot == expected


def test_overlapping_matrix_copies_as_the_original():
    # A:copy(A:t()) and other copies between matrices sharing memory: element
    # by element in row-major order, a transposed source from 3600 elements in
    # tiles through a buffer (60x60, a ByteTensor's 120x120); cold and hot
    out, expected = fixture("parity_copy_overlap")
    assert out == expected
    hot = output(run_th([os.path.join(FIXTURES, "parity_copy_overlap.lua"), "20"], timeout=600))
    assert hot == expected


def test_scatter_and_gather_as_the_original():
    # scatter's loop writes each line in order (a repeated index: the last
    # wins); gather's at every size; cold and hot
    out, expected = fixture("parity_scatter")
    assert out == expected
    hot = output(run_th([os.path.join(FIXTURES, "parity_scatter.lua"), "20"], timeout=600))
    assert hot == expected


def test_index_loops_as_the_original():
    # gather, scatter and indexFill through th/lua/torch/indexloops.lua: every
    # type, each dimension, contiguous, transposed and strided operands, views
    # no loop takes, 64-bit values and special floats, bad indices anywhere
    # (the index is checked before the loops read it); cold and hot
    out, expected = fixture("parity_index_loops")
    assert out == expected
    hot = output(run_th([os.path.join(FIXTURES, "parity_index_loops.lua"), "20"], timeout=600))
    assert hot == expected


def test_masked_select_as_the_original():
    # the branch-free loop (every element written, the place moved on by the
    # mask) gives the selected elements in order; cold and hot
    out, expected = fixture("parity_masked_select")
    assert out == expected
    hot = output(run_th([os.path.join(FIXTURES, "parity_masked_select.lua"), "50"], timeout=600))
    assert hot == expected


def test_masked_operations_of_any_strides_as_the_original():
    # transposed, columns, permuted operands and transposed masks walked in
    # LuaJIT (maskloops.lua's grids and lists) up to 2048 elements, numpy
    # beyond; every type, NaN and -0 kept; cold and hot
    out, expected = fixture("parity_masked_walk")
    assert out == expected
    hot = output(run_th([os.path.join(FIXTURES, "parity_masked_walk.lua"), "20"], timeout=600))
    assert hot == expected


def test_masked_operations_and_nonzero_as_the_original():
    # the branch-free LuaJIT loops (th/lua/torch/maskloops.lua) on every type,
    # contiguous and strided, empty and all-true masks, and their errors; cold and hot
    out, expected = fixture("parity_masked")
    assert out == expected
    hot = output(run_th([os.path.join(FIXTURES, "parity_masked.lua"), "20"], timeout=600))
    assert hot == expected


def test_masked_operations_keep_the_bits_as_the_original():
    # the loops of contiguous operands (whole elements, no branch: maskloops.lua)
    # move every type's bits unchanged (-0, NaN payloads, Longs beyond 2^53),
    # whatever the place of the mask's last 1; cold and hot
    out, expected = fixture("parity_masked_bits")
    assert out == expected
    hot = output(run_th([os.path.join(FIXTURES, "parity_masked_bits.lua"), "30"], timeout=600))
    assert hot == expected


def test_float_random_fill_parameters_are_floats():
    out, expected = fixture("bits_random")
    assert out == expected


def test_big_and_strided_random_fills_bits_as_the_original():
    # drawn through C's log, cos... whatever the CPU's vector units
    out, expected = fixture("bits_random_big")
    assert out == expected


def test_normal_fills_share_their_pairs_with_the_next_draw_as_the_original():
    # Box-Muller pairs drawn a block at a time: an odd fill's last sine is
    # the next draw's, across blocks, types and strides, cold and hot
    out, expected = fixture("bits_normal_pairs")
    assert out == expected


@pytest.mark.parametrize("tname", ["Double", "Float"])
def test_training_run_prints_the_original_losses(tname):
    # products, fused adds, float functions, nn's kernels and sums all as
    # Torch7 rounded them: 200 steps of SGD print the same losses
    from nn_paths import nn_env
    proc = run_th([os.path.join(FIXTURES, "bits_training.lua"), tname], env=nn_env(), timeout=300)
    with open(os.path.join(FIXTURES, "bits_training_%s.expected" % tname)) as f:
        assert output(proc) == [line.rstrip() for line in f.read().splitlines()]


@pytest.mark.parametrize("tname", ["Double", "Float"])
def test_convnet_training_run_prints_the_original_losses(tname):
    # convolutions' products image by image through Torch7's BLAS, their
    # bias gradients summed per image in the element type: a LeNet's SGD
    # steps, batched and single-image, print the same losses
    from nn_paths import nn_env
    proc = run_th([os.path.join(FIXTURES, "bits_lenet.lua"), tname], env=nn_env(), timeout=300)
    with open(os.path.join(FIXTURES, "bits_lenet_%s.expected" % tname)) as f:
        assert output(proc) == [line.rstrip() for line in f.read().splitlines()]


@pytest.mark.parametrize("tname", ["Double", "Float"])
def test_batchnorm_bits_as_the_original(tname):
    # THNN's steps: sums in double, a FloatTensor's mean, squares, invstd and
    # output steps in float, the unbiased running variance from the sum
    from nn_paths import nn_env
    proc = run_th([os.path.join(FIXTURES, "bits_nn_batchnorm.lua"), tname], env=nn_env(), timeout=300)
    with open(os.path.join(FIXTURES, "bits_nn_batchnorm_%s.expected" % tname)) as f:
        assert output(proc) == [line.rstrip() for line in f.read().splitlines()]


@pytest.mark.parametrize("tname", ["Double", "Float"])
def test_nn_fast_paths_edges_bits_as_the_original(tname):
    # the generated im2col/col2im of every geometry, dilated convolutions'
    # bias gradients by gemv, branch-free pooling and ReLU gradients handing
    # NaNs, infinities and signed zeros to comparisons, all run hot
    from nn_paths import nn_env
    proc = run_th([os.path.join(FIXTURES, "bits_nn_edges.lua"), tname], env=nn_env(), timeout=300)
    with open(os.path.join(FIXTURES, "bits_nn_edges_%s.expected" % tname)) as f:
        assert output(proc) == [line.rstrip() for line in f.read().splitlines()]


def test_nn_float_kernels_bits_as_the_original():
    from nn_paths import nn_env
    proc = run_th([os.path.join(FIXTURES, "bits_nn_float.lua")], env=nn_env(), timeout=300)
    with open(os.path.join(FIXTURES, "bits_nn_float.expected")) as f:
        assert output(proc) == [line.rstrip() for line in f.read().splitlines()]


def test_convolution_bits_as_the_original():
    # conv2/xcorr2/conv3/xcorr3 sum in the original's order: fused multiply-adds
    # in input order for valid planes 4 wide or more, rounded per-plane sums
    # for narrower ones, fused input-rows-up/columns-down for full planes 4
    # wide or more, rounded steps otherwise and for volumes; Float in float
    out, expected = fixture("bits_conv")
    assert out == expected


@pytest.mark.parametrize("coretype", ["Haswell", "SkylakeX"])
def test_conv_with_many_outputs_by_gemms_bits_as_the_original(coretype):
    # output o summing plane i by kernel [o][i] for 4 outputs or more goes to
    # BLAS gemms where they add up as the original did (checked once per
    # type: Haswell's dgemm does, its sgemm does not, SkylakeX's both):
    # padded outputs, chains longer than a gemm sums in order, infinities
    # and NaN, hot
    if coretype == "SkylakeX" and not avx512():
        pytest.skip("OpenBLAS's SkylakeX kernels need AVX-512")
    env = dict(os.environ, OPENBLAS_CORETYPE=coretype)
    proc = run_th([os.path.join(FIXTURES, "bits_conv_many.lua")], env=env, timeout=120)
    with open(os.path.join(FIXTURES, "bits_conv_many.expected")) as f:
        assert output(proc) == [line.rstrip() for line in f.read().splitlines()]


def test_conv_of_one_image_by_one_kernel_bits_as_the_original_hot():
    # th's own path for 2-D by 2-D: input views, given results, zero weights
    out, expected = fixture("bits_conv_single")
    assert out == expected


def test_long_sorts_as_the_original():
    # distinct values take numpy's sort, lines with ties or NaN TH's quicksort
    out, expected = fixture("parity_sort_long")
    assert out == expected


@pytest.mark.parametrize("case", [None, "x", "m", "d", "z", "nz", "rows"])
def test_long_sorts_by_either_way_as_the_original(case):
    # numpy's sort and selection and TH's quicksort and quickselect are timed
    # on the calls they take and the faster takes the next ones: a case run
    # alone has numpy's first (distinct values, ties and NaN sorted again,
    # signed zeros, many rows)
    proc = run_th([os.path.join(FIXTURES, "parity_sort_paced.lua")] + ([case] if case else []), timeout=120)
    with open(os.path.join(FIXTURES, "parity_sort_paced.expected")) as f:
        expected = [line.rstrip() for line in f.read().splitlines()]
    assert output(proc) == [line for line in expected if case is None or line.split("\t")[1] == case]


def test_selections_of_lines_longer_than_the_kept_scratch_as_the_original():
    # (th keeps such scratch arrays by length until the next collection: the
    # same lengths again with other values)
    out, expected = fixture("parity_select_long_lines")
    assert out == expected


def test_selections_of_many_lines_at_once_as_the_original():
    # (numpy's sort or selection for all the lines from 8192 / 32768
    # elements, TH's algorithm when a line has ties or NaN)
    out, expected = fixture("parity_select_many_lines")
    assert out == expected


def test_selection_along_many_short_lines_as_the_original():
    # sort/topk/kthvalue/median/mode of lines of 1 to 64 elements, every type,
    # ties, NaN, -0 and 0, infinities, both directions: TH's order of equal
    # values (the rank sort of short lines, the whole tensor's passes); cold and hot
    out, expected = fixture("parity_sort_short")
    assert out == expected
    hot = output(run_th([os.path.join(FIXTURES, "parity_sort_short.lua"), "15"], timeout=600))
    assert hot == expected


def test_long_elements_into_every_type_as_the_original():
    # (contiguous ones read as two 32-bit halves; a float beyond 2^53 rounded
    # once, from 64 bits, where th had rounded small ones twice)
    out, expected = fixture("parity_from_long")
    assert out == expected


def test_masked_fill_of_tensors_no_stride_walks_as_the_original():
    # (strided.lua's element map up to 2048 elements, numpy's beyond)
    out, expected = fixture("parity_masked_fill_strided")
    assert out == expected


def test_histc_of_matrices_and_3d_tensors_as_the_original():
    out, expected = fixture("parity_histc_nd")
    assert out == expected


def test_sorts_of_lines_shared_with_helper_threads_as_the_original():
    # lines from 2^17 elements: TH's loop down to parts the threads sort apart
    # (no NaN), numpy's try skipped where ties are likely; ties' indices
    out, expected = fixture("parity_sort_shared")
    assert out == expected


def test_reduction_paths_of_every_type_and_layout_as_the_original():
    # sums, products, cumsum/cumprod, max/min, var/std and sorts along each
    # dimension and whole, contiguous, transposed, stepped and expanded, with
    # NaN and signed zeros, every case hot; before numpy is loaded and after
    # (rows into the result through numpy's loops); exact integer sums
    out = output(run_th([os.path.join(FIXTURES, "parity_reduce_paths.lua")], timeout=600))
    with open(os.path.join(FIXTURES, "parity_reduce_paths.expected")) as f:
        assert out == [line.rstrip() for line in f.read().splitlines()]


def test_comparisons_as_the_original():
    # LuaJIT's loops at first, numpy's comparison loops once numpy is loaded
    out, expected = fixture("parity_compare")
    assert out == expected


def test_index_add_as_the_original():
    # along dimension 1 by BLAS axpys of 1 (repeated indices add up in order)
    out, expected = fixture("parity_indexadd")
    assert out == expected


def test_clamp_as_the_original():
    # two LuaJIT passes up to 1024 elements (with lo > hi, one), numpy beyond
    out, expected = fixture("parity_clamp")
    assert out == expected


def test_shared_element_loops_as_the_original():
    # C-function loops (fmod, pow, exp...) and the remainder past the sizes
    # from which they are shared with helper threads
    out, expected = fixture("parity_split")
    assert out == expected


def test_random_streams_drawn_in_blocks_as_the_original():
    # the Mersenne Twister's words a block at a time: every type, mixed sizes
    # across regenerations, strided tensors, thousands of small calls, the state
    out, expected = fixture("parity_random_blocks")
    assert out == expected


def test_strided_random_fills_as_the_original():
    # drawn into a contiguous tensor, then copied: every type, ranges beyond
    # 2^32 and wrapping ones
    out, expected = fixture("parity_random_strided")
    assert out == expected


def test_index_along_columns_as_the_original():
    # the loops of index(2, idx): every type, strided sources and results, hot
    out, expected = fixture("parity_index_columns")
    assert out == expected


def test_index_copy_add_along_every_dimension_as_the_original():
    # index, indexCopy, indexAdd of 2-D to 4-D tensors, every type, permuted, hot
    out, expected = fixture("parity_index_nd")
    assert out == expected


def test_multinomial_draws_as_the_original():
    # LuaJIT's search of the cumulative distribution: Float and Double,
    # matrices, strided, with and without replacement, hot
    out, expected = fixture("parity_multinomial")
    assert out == expected


def test_bernoulli_with_probabilities_as_the_original():
    out, expected = fixture("parity_bernoulli_probs")
    assert out == expected


def test_sort_and_selections_along_any_dimension_as_the_original():
    # lines read and written where they are: every type, ties, NaN, transposed, hot
    out, expected = fixture("parity_lines_strided")
    assert out == expected


def test_int_products_wrap_as_the_original():
    out, expected = fixture("parity_int_products")
    assert out == expected


def test_long_max_and_min_as_the_original():
    out, expected = fixture("parity_long_extremes")
    assert out == expected


def test_conversions_into_long_as_the_original():
    out, expected = fixture("parity_to_long")
    assert out == expected


def test_integer_division_remainder_fmod_as_the_original():
    out, expected = fixture("parity_int_division")
    assert out == expected
    out, expected = fixture("parity_int_division_big")
    assert out == expected


def test_round_trunc_frac_as_c():
    # round's branchless loop (halves away from zero, -0, 2^52, NaN) and frac's
    # loop and numpy path, hot and strided
    out, expected = fixture("parity_round_frac")
    assert out == expected


def test_ger_in_bands_as_the_original():
    # OpenBLAS's ger in bands of rows, results zeroed at any strides (+0 for
    # a -0 product), addr's scalings
    out, expected = fixture("parity_ger_bands")
    assert out == expected


def test_lapack_bits_layouts_and_errors_as_the_original():
    # LAPACK of the system's OpenBLAS, called through the FFI as Torch7 called
    # it (workspace sizes queried, the same routines): every function, Float and
    # Double, 1x1 to 40x40, Hilbert matrices, the results' strides and failures
    out, expected = fixture("parity_lapack")
    assert out == expected


def test_findings_of_the_linalg_fuzz():
    # scripts/fuzz_linalg.py against the original: the one-matrix functions'
    # terse messages, all named '?' and without a position; options checked
    # as the original's bindings did ("invalid arguments", a string by its
    # first letter); an input given as a result read before it is resized or
    # relaid (svd(a, s, v, a), gesv into a 1-D b, qr(a, r, a)); gels into b;
    # the layouts of svd's u and eig's v
    out, expected = fixture("parity_linalg_fuzz")
    assert out == expected


def test_small_construction_and_extraction_ops():
    # cat, tril/triu, range, histc, equal, dot, renorm, diag, cross, randperm
    # and linspace through their LuaJIT loops: every type, strided operands,
    # results given, hot loops (a cross into one of its operands reads what
    # it wrote, as TH did; a FloatTensor's contiguous dot is one BLAS sdot)
    out, expected = fixture("parity_small_ops")
    assert out == expected


def test_storages_shared_kept_and_serialized_as_in_torch7():
    # a tensor holds its storage's data; the storage object users see is made
    # on demand: it must still be one object per memory, and keep it alive
    out, expected = fixture("parity_storage_sharing")
    assert out == expected


def test_bit_operations_of_every_integer_type_layout_and_path():
    # bitand/bitor/bitxor, their c* forms, shifts by numbers within the width
    # and by tensors (counts modulo 32, 64 for Long), values over each
    # type's range (Long's beyond 2^53 and its extremes), contiguous,
    # transposed and strided, at sizes across the LuaJIT, SIMD, strided and
    # numpy paths, then hot
    out, expected = fixture("parity_bitops")
    assert out == expected


def test_integer_products_wrap_in_the_element_type():
    # mm/mv/ger/bmm/addmm/addmv/addr/baddbmm/addbmm of every integer type:
    # sums and factors that wrap around, Long's beyond 2^53 (numpy's int64),
    # transposed and strided operands and results, then hot
    out, expected = fixture("parity_intproducts")
    assert out == expected


def test_special_values_through_every_path():
    # NaN, infinities, -0 and subnormals at 36 to 210,000 elements (LuaJIT
    # loops, numpy, helper threads): torch.sign of a large tensor once gave NaN
    # for NaN and -0 for -0 (numpy's sign), where TH gave 0
    out, expected = fixture("parity_special_values")
    assert out == expected


def test_api_fuzz_findings():
    # scripts/fuzz_api.py's findings in CmdLine, paths, the utilities,
    # storages, tensor metadata and Timer (tests/fixtures/api_fuzz_found.lua)
    out, expected = fixture("api_fuzz_found")
    assert out == expected


def test_findings_of_the_construct_fuzz():
    # scripts/fuzz_construct.py against the original: range, linspace, eye,
    # tril/triu, diag and cat's checks numbered and worded as TH's; NaN bounds
    # and steps of range; cat of empty tensors alone into a given result;
    # view's -1 checked before the storage, negative sizes; split and chunk
    # failing as Torch7's Lua did
    out, expected = fixture("parity_construct")
    assert out == expected


def test_random_fuzz_findings():
    # scripts/fuzz_random.py's findings in the seeds, states and
    # distributions: argument errors and their wording, numeric strings,
    # parameters of empty and Float tensors, bernoulli's and multinomial's
    # edges, random's bounds as C longs (tests/fixtures/random_fuzz_found.lua)
    out, expected = fixture("random_fuzz_found")
    assert out == expected


def test_findings_of_the_operators_fuzz():
    # scripts/fuzz_operators.py against the original: the operators' and
    # metamethods' errors without a position where the original raised them
    # from C (x + m, x[0], m[3] = 5), their messages (x - l, 2 / x, x / {}),
    # integer + - * of a numeric string read as the element stores read it
    # ('1e2' is 1), comparisons of objects of different classes (Lua's own
    # error), the left operand's metatable deciding (OpsPlain + OpsFull),
    # NaN indices out of range, x[i] = tensor on a vector, the value checked
    # before the index, x[LongStorage] of an empty tensor, a FloatTensor's
    # remainder (its quotient rounded to a float) and Timer's tostring
    # (tests/fixtures/operators_fuzz_found.lua)
    out, expected = fixture("operators_fuzz_found")
    assert out == expected


def test_exact_fuzz_findings():
    # scripts/fuzz_exact.py (every bit) against the original: a FloatTensor's
    # remainder divides in float (the quotient rounded to a float) and takes
    # the rest in double; the dot of views is TH's BLAS dot of each stretch
    # both hold evenly spaced, added in a double (a FloatTensor's not rounded
    # to float; th had summed transposed, narrowed, strided and expanded ones
    # its own way); a scale or weight of -0 keeps its sign on numpy's paths
    # (addcmul, addcdiv, add with a scale, lerp: lupa passed it as 0)
    out, expected = fixture("parity_exact")
    assert out == expected


@pytest.mark.skipif(not avx512(), reason="OpenBLAS's SkylakeX kernels need AVX-512")
def test_exact_fuzz_findings_on_skylakex_kernels():
    # the same with OpenBLAS's AVX-512 kernels, what the original (and the
    # fuzzer, unpinned) picks on this machine (recorded with
    # OPENBLAS_CORETYPE=SkylakeX): the dots' sections are these kernels' sdot/ddot
    env = dict(os.environ, OPENBLAS_CORETYPE="SkylakeX")
    proc = run_th([os.path.join(FIXTURES, "parity_exact.lua")], env=env, timeout=120)
    with open(os.path.join(FIXTURES, "parity_exact_skylakex.expected")) as f:
        assert output(proc) == [line.rstrip() for line in f.read().splitlines()]


def test_hot_fuzz_findings():
    # scripts/fuzz_hot.py (call sites run thousands of times) against the
    # original: LongTensor comparisons of up to 64 elements compare the 64-bit
    # values (th compared doubles: 2^63 - 1 == 2^63), maskedFill and
    # indexFill return their value argument as given, a fraction or a numeric
    # string (th returned it converted), and a small LongTensor copied into a
    # narrower integer tensor of another layout wraps its 64-bit values as C
    # (th wrapped the nearest double) (tests/fixtures/hot_fuzz_found.lua)
    out, expected = fixture("hot_fuzz_found")
    assert out == expected


def test_seeds30_fuzz_findings():
    # every fuzzer on seeds 5101-5200 against the original: maskedSelect
    # tells its forms apart by the count of arguments, a trailing nil counted
    # (x:maskedSelect(mask, nil) is res:maskedSelect(src, mask)); a
    # Generator's read and write check their arguments; permute counts its
    # dimensions as #{...} (a trailing nil is none); set(nil) in the
    # original's words; "not enough memory" has no position in a torch.f
    # form (torch.reshape, zeros, rand...); an index of more or fewer
    # dimensions than 1 in TH's words ("Index is supposed to be a vector");
    # a LongStorage followed by a size is none of view's forms
    # (tests/fixtures/seeds30_found.lua)
    out, expected = fixture("seeds30_found")
    assert out == expected


def test_gather_and_scatter_remainders():
    # the elements after the loops' steps of four (counts 1 to 9 in every
    # level), gather, scatter and scatter of a value along every dimension
    # of four types, hot (tests/fixtures/index_remainders.lua)
    out, expected = fixture("index_remainders")
    assert out == expected


def test_copies_of_rows_with_unit_stride_hot():
    # matrices whose rows have unit stride, in separate storages, go a
    # memcpy a row: the same elements as the original's copy, overlapping
    # and expanded destinations included (tests/fixtures/copy_rows.lua)
    out, expected = fixture("copy_rows")
    assert out == expected


def test_branchless_element_functions_hot():
    # clamp, cmax, cmin, trunc, round, frac and sign take no branch on the
    # data: NaN, signed zeros, equal values, halves, infinities, 2^52 and
    # subnormals as TH's tests gave them, in place, into a result and on a
    # strided view, hot (tests/fixtures/branchless_hot.lua)
    out, expected = fixture("branchless_hot")
    assert out == expected


def test_seeds32_fuzz_findings():
    # the fuzzers on seeds 7001-7020 against the original: a FloatTensor's
    # dist takes its sum to the power 1/2 by powf (not sqrt rounded);
    # res:maskedSelect(src, mask) with res the very src or mask compares them
    # once res is resized to the mask's sum; scatter into an expanded
    # destination writes in TH's order, the last write staying; an index
    # that is one line of the destination's memory is read in place, each
    # value in its turn (th wrote past the tensor); indexCopy and indexAdd
    # check dim and the count against the source first, then the first
    # slice's selections (tests/fixtures/seeds32_found.lua)
    out, expected = fixture("seeds32_found")
    assert out == expected


def test_seeds33_fuzz_findings():
    # the fuzzers on seeds 7701-7760 against the original: a DiskFile's
    # readString('*l') over a line holding a NUL reads in THDiskFile's chunks
    # (the room left in a 1024-byte buffer grown only once full); a File's
    # argument errors are numbered as a C method's (f:seek(0): #1 of 'seek',
    # "calling 'writeInt' on bad self"), its constructors' as called by
    # luaT's __call (#2 of '?', no position), arguments checked before the
    # file and read as luaL_checkstring/checklong/tointeger read them
    # (tests/fixtures/seeds33_found.lua)
    out, expected = fixture("seeds33_found")
    assert out == expected


def test_seeds33_nn_findings():
    # nn's THNN kernels probed beside the fuzzers on seeds 7701-7760:
    # ClassNLLCriterion reads one input's target as its first element (th
    # refused a target of two, and took a 1x1 one), checks a batch's count in
    # THNN's assertion; SpatialClassNLLCriterion's checks in THNN's order and
    # words (its gradient had raised numpy's IndexError); the margin criteria,
    # SoftMax, SparseLinear and fractional max pooling in THNN's words;
    # LogSoftMax's gradient of another shape refused (th took it), BCE's
    # weights counted, the gradients' counts, pooling's padding, unpooling's
    # shapes, FeatureLPPooling and GatedLinear in THNN's words; LookupTable's
    # gradient read as the first rows of its memory; a kernel given a tensor
    # of the other real type refused as the original's FFI call refused it;
    # pooling's kernel, stride and dilation (0 refused), a temporal step of 0,
    # in THNN's words
    # (tests/fixtures/seeds33_nn_found.lua)
    from nn_paths import assert_prints_recording
    assert_prints_recording("seeds33_nn_found")


def test_seeds36c_findings():
    # probes by hand of the APIs around the tensors (tests/fixtures/
    # seeds36c_found.lua). PipeFile: position on a pipe in TH's words
    # ("unable to obtain disk file offset"), no hasError when quiet; the
    # shell commands th starts keep SIGPIPE's default (a pipeline cut short,
    # `yes | head`, said "Broken pipe" under th). Files and Storages: a file
    # name ends at a 0 byte; a Storage of a directory is TH's failed mmap.
    # Serialization: deserialize of a number reads its text, of '' or what is
    # no string fails in CharStorage's and CharTensor's words,
    # deserializeFromStorage takes what torch.CharTensor takes (a CharTensor
    # read along its first dimension). paths: backslashes come out of
    # dirname, basename and concat as '/', concat's component before a '/'
    # losing one; files(nil) is dir's argument error. Files of the wrong mode
    # or closed: readBool/writeBool/readObject/writeObject fail as their first
    # self:readInt()/writeInt() did in Torch7's Lua, a Tensor's, Storage's or
    # Generator's write/read at their own self ("calling 'write' on bad
    # self"). Utilities: isatty numbers the last argument one past them;
    # packageLuaPath puts the name for '?' as it is, and gives torch's
    # parent directory for none; include's concatenation errors. CmdLine:
    # text's assert, help, string, log and parse of odd arguments in the
    # original's words (th's were its own, or Lua's at a line of th's file).
    # Timer: no factory and unwritable, a userdata in Torch7 (th wrote it).
    out, expected = fixture("seeds36c_found")
    assert out == expected


def test_seeds38_fuzz_findings():
    # probes by hand beside the fuzzers on seeds 8701-8760 (which found no
    # difference that is not a known one): renorm of a NaN norm refused, as
    # TH's value > 0 (th computed); a File's writeInt/Short/Byte/Char/Long of
    # a number beyond the type as the binding's C cast (INT_MIN's low bits;
    # th wrapped modulo 2^32); a random state set with other bytes where the
    # cached normal pair is (negative NaNs of large payload: th failed with
    # "attempt to perform arithmetic on field 'normal_x'"); a Storage mapped
    # privately on a file holding such NaNs reads them as NaN (th: nil, and
    # its maths failed), the file untouched; apply/map/map2's C-loop errors
    # with no position in a tail call or from C; torch.pointer of a cdata the
    # pointer it holds (an array's or struct's first 8 bytes), refused past
    # 2^53 as luaT_pushpointer did; print of a table whose first key is false
    # prints {} as trepl did; trepl's globals in scripts (setprintlevel,
    # print_old/print_new, import, noColors, who, monitor_G, repl, _RESULTS,
    # _LAST, _preloaded_) and string.gfind; comparisons into an expanded
    # LongTensor that is their operand in TH's element order (fuzz_views
    # 8729) (tests/fixtures/seeds38_found.lua)
    out, expected = fixture("seeds38_found")
    assert out == expected


def test_seeds37_fuzz_findings():
    # probes by hand beside the fuzzers on seeds 8501-8560 (which found no
    # difference that is not a known one): a LongTensor holding values beyond
    # 2^53 sorted, topk'd, kthvalue'd, median'd and mode'd exactly (th sorted
    # its lines as doubles and stored them back: 2^60 + k gave 2^60), and its
    # clamps of up to 64 elements; HalfTensor's abs/add/max/mean/reshape and
    # subtraction, which the original's start-up gave it (its torch/test.lua);
    # "invalid arguments" naming a class with its package (foo.Bar, not Bar)
    # and a function, thread or cdata '???' in the random functions;
    # Storage:string reading its last argument; torch.Timer a userdata (th: a
    # table); setnumthreads' argument error named; match's gain as a numeric
    # string (tests/fixtures/seeds37_found.lua)
    out, expected = fixture("seeds37_found")
    assert out == expected


def test_seeds36_fuzz_findings():
    # probes by hand beside the fuzzers on seeds 8301-8360 (which found no
    # difference that is not a known one): x:cmax()/x:cmin() with no argument
    # are cmax(r, r, x) of a new empty r, as cwrap's defaults made them (TH's
    # size error, or the empty r; th: "invalid arguments"); torch.f of
    # numeric strings computes (torch.abs('2'), torch.pow('2', '3'); th:
    # "invalid arguments: number"); ger's and mv's result of the wrong
    # dimensions in TH's addr's and addmv's words; view(result, src, sizes)
    # into a result of another type is set's error (th pointed a FloatTensor
    # at a DoubleStorage), of the wrong sizes sets the result first (Torch7's
    # Lua view); cat into a result that is one of its inputs skips the inputs
    # empty after the resize and fails with TH's narrow's #3/#4; expand and
    # repeatTensor of a numeric string first fail; sum/prod/mean(x, x, d) leave
    # TH's 0s or 1s; __index__/__newindex__ called by name give false for a
    # key that is no index (tests/fixtures/seeds36_found.lua)
    out, expected = fixture("seeds36_found")
    assert out == expected


def test_seeds35_fuzz_findings():
    # the fuzzers on seeds 8101-8160 against the original, and probes beside
    # them: torch.typename names an object after its metatable's entry in
    # luaT's registry (a table whose metatable merely holds __typename, or
    # copies a class's, is a table: th took the field and failed inside
    # serialization on the copy); torch.metatype registers a metatable and
    # a cdata type (th had none); an unwritable upvalue named by its name in
    # writeObject's path (th: upvalues.1.value), th's own functions
    # unwritable at their own place as the original's C functions were
    # (io.write, tostring, torch.add...; th wrote their internals or failed
    # deep inside), trepl's print written and read back as a working print
    # (the original's was Lua); a HalfTensor default's torch.f the
    # dispatcher's "internal error" (th: a gsub error inside), torch.f of
    # numbers the default type's (an integer type's refusal, Int's and
    # Long's abs of the number cast as C did, Float's lerp in float; th
    # computed in double), LAPACK of an integer tensor "does not implement";
    # toc, factory, setmetatable, cdata, data and torch.view checking their
    # arguments as Torch7; cpow into an expanded integer result beyond the
    # type's range stored as C's cast (th's numpy path raised a Python
    # overflow: fuzz_views seed 8112) (tests/fixtures/seeds35_found.lua)
    out, expected = fixture("seeds35_found")
    assert out == expected


def test_seeds35_nn_findings():
    # the THNN kernels' arguments as the original's FFI converted them into
    # THNN's C types (th/lua/thnn/argtypes.lua, recorded from it): a double
    # or int given nil, a string (a numeric one too), a table or a tensor
    # the FFI's "cannot convert" error at THNN.lua:110, a boolean 1 or 0, a
    # number into an int truncated, one no int holds (NaN too) the smallest
    # int; a tensor pointer given a number, a string, a table, a boolean or
    # another type's tensor the FFI's error (th computed, or failed inside
    # its kernels) (tests/fixtures/seeds35_nn_found.lua)
    from nn_paths import assert_prints_recording
    assert_prints_recording("seeds35_nn_found")


def test_seeds34_fuzz_findings():
    # the fuzzers on seeds 7901-7960 against the original, and probes of
    # error messages beside them: qr's q sized m x k before it is made the
    # column-major m x n (a 1x2 q for a 2x1 a came back of strides 1,1, the
    # original's 1,2); renorm's non-positive norm in TH's words; luaT's
    # torch.class/newmetatable: the module checked before the parent and
    # before the class is made, each part of its name walked ('torch.',
    # 'a..b'), newmetatable's arguments checked first (a number read as a
    # name), its errors at the caller's line; 'no value' for an argument not
    # given (getmetatable, getconstructortable, getenv, setenv), typename and
    # version of nothing refused, setheaptracking's message as luaT's; a
    # File's typed reads and writes given a second argument or a nil refused
    # in the bindings' words (th used the first and ignored the rest); unfold
    # of an empty tensor in TH's words, before the other checks; HalfTensor
    # without maths as Torch7's: torch.f of one is the default type's f, which
    # refuses it (th raised its own internal errors or computed), a table of
    # them no tensor array of the default type, its maths methods absent
    # (th's maskedFill and indexFill returned 1); its indexing as Torch7's
    # (a number into a part of it is a fill it had not, before the index is
    # checked; masks refused in its words), hot too; its cdata() (th had
    # none: an internal error), elements of THHalf; torch.updateerrorhandlers
    # and updatethreadlocals there (th had neither); match's inner-size check
    # numbered as TH's (#3); bhistc with no bins fails as the original did,
    # at its size check (th refused the count of bins); torch.save/load's
    # mode and referenced errors in Torch7's words; a storage view's offset
    # and size read as numbers before their ranges; a storage on a file as
    # TH's mmap made it (shared: a missing file made, a shorter one
    # lengthened; not shared: the file must hold the size asked; nothing to
    # map TH's allocation error; bytes past the last whole element left
    # out); torch.data of nothing is nothing; a field written into a
    # Generator or a File is luaT's "cannot be indexed"; a storage copy to or
    # from a HalfStorage wants the same size
    # (tests/fixtures/seeds34_found.lua)
    out, expected = fixture("seeds34_found")
    assert out == expected


def test_seeds33b_fuzz_findings():
    # probing next to the fuzzers' seeds 7801-7810 (programs, conv, tester,
    # repl, nn): paths.getregistryvalue exists, and off Windows fails at its
    # caller's line (tests/fixtures/seeds33b_found.lua)
    out, expected = fixture("seeds33b_found")
    assert out == expected


def test_assignments_into_views():
    # x[i] = v, x[{...}] = v writing a row, a slice or a block of every type,
    # strided or not, from numbers, numeric strings and tensors, hot, with
    # errors between them (th writes them through field tables it borrows and
    # gives back: an error must leave the next assignment right)
    # (tests/fixtures/index_assign.lua).  Where th does better: a copy
    # between overlapping views of one storage reads the source as it was
    # (a memmove); the original's vector loops gave results that depend on
    # their block width (README, "differs on purpose")
    out, expected = fixture("index_assign")
    better = {"overlapping rows": "overlapping rows\tok\ttorch.DoubleTensor 3x4 1 2 3 4 1 2 3 4 5 6 7 8",
              "overlapping in place view":
              "overlapping in place view\tok\ttorch.DoubleTensor 10 1 1 2 3 4 5 6 7 8 9"}
    expected = [better.get(line.split("\t")[0], line) for line in expected]
    assert out == expected


def test_seeds34_nn_findings():
    # nn probed beside the fuzzers on seeds 8001-8060: Sigmoid's gradient of
    # an empty tensor (th's strided branch recursed until the stack
    # overflowed); a kernel's error located at nn's THNN.lua:110 as the
    # original's (th said thnn.bind:4), and debug.traceback (in nn
    # Container's messages) showing th's frames as the C function 'v';
    # convolutions checking the output's size before the input's planes,
    # with the weight's planes in THNN's message, VolumetricConvolution's
    # plane mismatch as addmm's; 3-D convolutions of one output element per
    # image taking each image's columns as THNN's contiguous K x 1 (fuzz_nn
    # 8008, under SkylakeX), the dilated one's forward gemm row-major;
    # SpatialClassNLLCriterion's loss summed in order in the element type
    # (numpy's pairwise sum: a Float loss's last bits), its gradient left
    # zero for a total weight of 0 or less; one input's ClassNLL loss -x * w
    # (-0 for a weight of 0); GatedLinearUnit's Float gradient with 1 - s
    # exact (th rounded it to a float); SparseLinear's output, weight
    # gradient and update by BLAS axpy as THNN's (fused under SkylakeX), its
    # legacy kernel's bias gradient row by row; LookupTable's gradient with
    # scaleGradByFreq by axpy of the scale divided by the count;
    # FeatureLPPooling's view inputs through contiguous copies, its gradient
    # term's quotient in the element type, rounded before it is added;
    # empty inputs of ClassNLL, the margin criteria and SparseLinear's
    # legacy kernels refused in THNN's words (th failed inside size());
    # SpatialConvolutionMap's input dimensions in its words; FeatureLPPooling
    # without batch_mode the FFI's "cannot convert 'nil' to 'bool'" (th
    # computed), and every kernel's C bool argument (inplace, train,
    # sizeAverage, ceil_mode, count_include_pad, scaleGradByFreq) as the FFI
    # converted it: nil an error, a number true unless 0 (th read nil as
    # false and 0 as true), at THNN.lua:110 (tests/fixtures/seeds34_nn_found.lua)
    from nn_paths import assert_prints_recording
    assert_prints_recording("seeds34_nn_found")


@pytest.mark.skipif(not avx512(), reason="OpenBLAS's SkylakeX kernels need AVX-512")
def test_seeds34_nn_findings_on_skylakex_kernels():
    # the same under OpenBLAS's AVX-512 kernels, recorded from the original
    # there: the 3-D convolutions' bits of fuzz_nn seed 8008
    from nn_paths import assert_prints_recording
    assert_prints_recording("seeds34_nn_found", "SkylakeX")


def test_seeds34b_fuzz_findings():
    # probing next to the fuzzers' seeds 8001-8060 (torch alone): a view's
    # size of 0 ends its sizes, as in torch.Tensor(6, 0), so x:view(6, 0) is
    # x:view(6) (th refused it; nn.Reshape(0) failed)
    # (tests/fixtures/seeds34b_found.lua)
    out, expected = fixture("seeds34b_found")
    assert out == expected


def test_seeds35b_fuzz_findings():
    # real nn/nngraph/optim code run next to the fuzzers' seeds 8201-8260:
    # debug.getinfo shows a class's __call (Foo(...)) as the C function
    # luaT's was, and the constructor it runs unnamed, so nngraph's labels
    # of the nodes gModule makes, and its error about unused inputs, read
    # "[[C]]:-1_" (th showed its class.lua); a torch.class's __index__ and
    # __newindex__ are asked first, as luaT's __index and __newindex did
    # (th ignored them); the Lua function a class's __call, __index__ or
    # __tostring__ runs is unnamed in tracebacks, as called from C;
    # TemporalSubSampling sums a window in double when its frames are
    # adjacent in memory, as TH's sum did (fuzz_nn 8226: a transposed input);
    # PReLU's weight gradient takes a Float scale rounded to float
    # (tests/fixtures/seeds35b_found.lua, run with nn and nngraph found)
    from nn_paths import nn_env
    out, expected = fixture("seeds35b_found", nn_env())
    assert out == expected


def test_seeds36b_fuzz_findings():
    # real nn code run next to the fuzzers' seeds 8401-8460 (hand-written
    # criteria with weights): ClassNLLCriterion checks in THNN's order and
    # words, weights of another count than the classes refused (th read past
    # them, or failed on the batch's size), a batch's empty target TH's size
    # error, updateGradInput's return at a total weight of 0 before its
    # checks; SpatialClassNLLCriterion checks the weights' count too;
    # MultiMarginCriterion's and MultiLabelMarginCriterion's targets
    # checked by shape, not count; TemporalConvolution given a weight or
    # bias of other shapes runs THNN's loop, failing in its copy's and
    # addmm's words (th failed in numpy's), the memory checked first;
    # PReLU's slopes its weight's first nOutputPlane elements.
    # A torch.class's __tostring__ (hand-written classes printing their
    # fields), __call__ and operators reaching a failing builtin or tensor
    # method by a tail call: no position, unnamed, as called from luaT's C
    # functions (th said "class.lua:126: bad argument #3 to 'f'"), and the
    # traceback of an error in __tostring__ taken where it was raised
    # (tests/fixtures/seeds36b_found.lua, run with nn found)
    from nn_paths import nn_env
    out, expected = fixture("seeds36b_found", nn_env())
    assert out == expected


def test_seeds37c_hand_probe_findings():
    # real nn/nngraph/optim code probed by hand: SpatialDepthWiseConvolution
    # resizes a 2D weight in place to nOut x nIn x kH x kW (4D after a
    # forward; a transposed or narrowed one read in its memory's order, a row
    # shorter than a kernel left 1D and refused), leaves gradWeight and
    # gradBias laid out plane by plane (getParameters' flat gradient in that
    # order: training with it came out otherwise), keeps its columns in
    # finput and fgradInput, sums its weight gradient through Torch7's BLAS
    # (the last bits), and a weight of another kernel fails in addmm's words;
    # torch.isTypeOf's failures in the original's torch/init.lua (a malformed
    # pattern, a spec without a metatable) have its words and no position
    # (tests/fixtures/seeds37c_found.lua, run with nn found)
    from nn_paths import nn_env
    out, expected = fixture("seeds37c_found", nn_env())
    assert out == expected


def test_seeds36b_prelu_small_gradweight_is_an_error():
    # PReLU's accGradParameters wrote the planes' sums from gradWeight's first
    # element on, past the end of a smaller gradWeight (set by hand): th
    # crashed (SIGSEGV) where the original wrote past its memory; an error now
    from nn_paths import nn_env
    code = ("require 'nn' local m = nn.PReLU(3) m.gradWeight = torch.zeros(2) "
            "print(pcall(m.accGradParameters, m, torch.linspace(-1, 1, 12):view(4, 3), torch.ones(4, 3)))")
    proc = run_th(["-e", code], env=nn_env())
    (line,) = output(proc)
    assert line.startswith("false\t") and line.endswith(": gradWeight should have room for 3 elements, but got [2]")


def test_seeds36b_small_channel_tensors_are_errors():
    # BatchNormalization's weight, bias, running statistics and gradients of
    # fewer elements than the channels: THNN's get1d failed ("out of range",
    # in an OpenMP loop that now and then aborted the original); th read and
    # wrote past them, and crashed at exit.  SpatialConvolutionMM's gradBias
    # of one element for 3 planes: THNN's check, where th wrote past it
    from nn_paths import nn_env
    code = r"""
require 'nn'
for _, f in ipairs({'weight', 'bias', 'running_var', 'gradWeight', 'gradBias'}) do
   local m = nn.BatchNormalization(3)
   m[f] = torch.ones(1)
   local x = torch.linspace(-1, 1, 12):view(4, 3)
   local ok, e = pcall(function()
      m:forward(x)
      m:backward(x, torch.ones(4, 3))
   end)
   print(f, ok, (tostring(e):gsub('^[^\n]-:%d+: ', '')))
end
local m = nn.SpatialConvolutionMM(2, 3, 2, 2)
m.gradBias = torch.ones(1)
local x = torch.linspace(-1, 1, 32):view(2, 4, 4)
m:forward(x)
print(pcall(m.backward, m, x, torch.ones(3, 3, 3)))
"""
    proc = run_th(["-e", code], env=nn_env())
    lines = output(proc)
    assert lines[:5] == [f"{f}\tfalse\tbad argument #2 to 'v' (out of range)"
                         for f in ("weight", "bias", "running_var", "gradWeight", "gradBias")]
    assert lines[5].startswith("false\t") and lines[5].endswith(
        "Need bias of dimension 1 and bias.size[0] == 3 but got bias to be of shape: [1]")


def test_seeds37b_fuzz_findings():
    # Real Torch7 code run next to the fuzzers' seeds 8601-8660, now as the
    # original: LookupTable's rows of the first stride's width, THNN's checks
    # in its order, renorm's sorted indices; TemporalRowConvolution's weight
    # and bias checks and baddbmm's words; SparseLinear's size checks of
    # every parameter (th wrote past a smaller gradWeight and crashed), a
    # bias of any strides, the legacy gradient read as rows of memory;
    # IndexLinear's max-normalisation mode (an error in th), its weight decay
    # in the updates, each key's update in turn, THNN's contiguity errors;
    # SpatialFullConvolution's 2-D weight through THNN's checks; tracebacks:
    # torch.class's constructor frame (torch/init.lua:91) and torch.f's two C
    # frames (tests/fixtures/seeds37b_found.lua, run with nn found)
    from nn_paths import nn_env
    out, expected = fixture("seeds37b_found", nn_env())
    assert out == expected


# the start of the nn probes that print, for each case, its name, whether it
# ran, and its error without the position
NN_ERRORS = r"""require 'nn'
local function e(name, f)
   local ok, m = pcall(f)
   print(name, ok, (tostring(m):gsub('^[^\n]-:%d+: ', '')))
end
"""


def test_seeds37b_reads_past_are_errors():
    # Where the original read or wrote past a parameter or gradient set by
    # hand (garbage values, a heap corruption, a crash), th's clear errors:
    # LookupTable's gradOutput of fewer rows; SparseLinear's batch index past
    # gradOutput's rows and the legacy updates' feature 0; IndexLinear's keys
    # past the weight, a weight of neither outputs nor outputs + 4 columns, a
    # gradOutput or gradBias too small; TemporalRowConvolution's gradOutput of
    # another batch (an uncaught TH error ended the original);
    # SpatialFullConvolution's weight of another kernel (th failed inside its
    # own loops) and a dilated convolution's (th took its planes from its
    # count); BatchNormalization's 3 x 1 weight and running statistics
    # (THNN's get1d failed in an OpenMP loop, which now and then ended the
    # original)
    from nn_paths import nn_env
    code = NN_ERRORS + r"""
e('lookup', function()
   local m = nn.LookupTable(5, 3)
   m:accGradParameters(torch.LongTensor({1, 3, 5}), torch.ones(2, 3))
end)
local x1 = torch.Tensor({{1, 0.5}, {3, -1}, {4, 2}})
e('sparse batch', function()
   local m = nn.SparseLinear(4, 2)
   m:forward({x1, x1})
   m:accGradParameters({x1, x1}, torch.ones(1, 2))
end)
e('sparse gradWeight', function()
   local m = nn.SparseLinear(4, 2)
   m.gradWeight = torch.zeros(2, 3)
   m:forward(x1)
   m:accGradParameters(x1, torch.ones(2))
end)
local xl = torch.Tensor({{{1, 0.5}, {3, -1}}, {{4, 2}, {2, 1}}})
for _, zero in ipairs({false, true}) do
   e('sparse legacy feature 0', function()
      local m = nn.SparseLinear(4, 2)
      m:forward(xl)
      m:zeroGradParameters()
      m:accGradParameters(xl, torch.ones(2, 2))
      m.lastInput[1][1][1] = 0
      if zero then m:zeroGradParameters() else m:updateParameters(0.1) end
   end)
end
local ib = {{torch.LongTensor({1, 3}), torch.LongTensor({4})}, {torch.Tensor({0.5, 2}), torch.Tensor({-1})}}
e('index key', function()
   local m = nn.IndexLinear(3, 2)
   m:forward(ib)
end)
e('index columns', function()
   local m = nn.IndexLinear(4, 2)
   m.weight = torch.ones(4, 3)
   m:forward(ib)
end)
e('index gradOutput', function()
   local m = nn.IndexLinear(4, 2)
   m:forward(ib)
   m:accGradParameters(ib, torch.ones(3))
end)
e('index gradBias', function()
   local m = nn.IndexLinear(4, 2)
   m:forward(ib)
   m.gradBias = torch.zeros(1)
   m:accGradParameters(ib, torch.ones(2, 2))
end)
e('rowconv batch', function()
   local m = nn.TemporalRowConvolution(3, 2, 1)
   local x = torch.ones(2, 5, 3)
   m:forward(x)
   m:backward(x, torch.ones(1, 4, 3))
end)
e('fullconv kernel', function()
   local m = nn.SpatialFullConvolution(2, 3, 3, 3)
   m.weight = torch.ones(2, 3, 3, 2)
   m:forward(torch.ones(2, 4, 4))
end)
e('dilated kernel', function()
   local m = nn.SpatialDilatedConvolution(2, 3, 3, 3)
   m.weight = torch.ones(3, 2, 3, 2)
   m:forward(torch.ones(2, 5, 5))
end)
for _, f in ipairs({'weight', 'bias', 'running_mean', 'running_var'}) do
   e('batchnorm ' .. f, function()
      local m = nn.BatchNormalization(3)
      m[f] = torch.ones(3, 1)
      m:forward(torch.ones(4, 3))
   end)
end
"""
    proc = run_th(["-e", code], env=nn_env())
    got = output(proc)
    assert got == [
        "lookup\tfalse\tgradOutput has 6 elements, fewer than the 9 of 3 rows",
        "sparse batch\tfalse\tSparseLinear: batch index 2 out of the 1 rows of gradOutput",
        "sparse gradWeight\tfalse\tbad argument #4 to 'v' (gradWeight size wrong)",
        "sparse legacy feature 0\tfalse\tindex out of bound. updateParameters: 0 not between 1 and 4",
        "sparse legacy feature 0\tfalse\tindex out of bound. zeroGradParameters: 0 not between 1 and 4",
        "index key\tfalse\tIndexLinear: a key is out of range (rows 1..3)",
        "index columns\tfalse\tIndexLinear: a weight of 3 columns for 2 outputs (2, or 6 with the "
        "normalisation columns, expected)",
        "index gradOutput\tfalse\tIndexLinear: gradOutput has 3 elements, fewer than the 4 read",
        "index gradBias\tfalse\tIndexLinear: gradBias has 1 elements, fewer than the 2 read",
        "rowconv batch\tfalse\tNeed gradOutput of dimension 3 and gradOutput.size[0] == 2 but got "
        "gradOutput to be of shape: [1 x 3 x 4]",
        "fullconv kernel\tfalse\tSpatialFullConvolution: a weight of nInputPlane x nOutputPlane x 3 x 3 "
        "(the kernel) expected, but got: [2 x 3 x 3 x 2]",
        "dilated kernel\tfalse\ta weight of 3 x 2 x 3 x 3 (the kernel) expected, but got: [3 x 2 x 3 x 2]",
    ] + [f"batchnorm {f}\tfalse\tbad argument #1 to 'v' (tensor must have one dimension)"
         for f in ("weight", "bias", "running_mean", "running_var")]


def test_seeds38b_fuzz_findings():
    # Real Torch7 code run next to the fuzzers' seeds 8801-8860, as the
    # original: containers (Concat, ConcatTable, ParallelTable, MapTable,
    # Parallel, DepthConcat, Bottle), criteria with weights, sizeAverage
    # false and ignoreIndex, type() of whole models, clearState, sharedClone
    # and clone('weight'), training and evaluate (Dropout, SpatialDropout,
    # BatchNormalization's running statistics), accGradParameters with a
    # scale, the errors of wrong sizes; and tracebacks: a kernel's argument
    # the FFI could not convert (a Float module given a DoubleTensor) is the
    # error of the C function nn calls as 'v' (th named its own converter,
    # 'cptr'), and the middle of a stack of more than 22 levels is left out
    # where the original's LuaJIT left it out (th's deeper stack had been
    # cut elsewhere, or where the original's was not: an error two
    # containers deep); gradients of another shape than the output's:
    # BatchNormalization's shape check, the convolutions' and poolings'
    # checks of planes and places but not the batch, LeakyReLU's, PReLU's
    # and LogSigmoid's gradInput shapes, FeatureLPPooling's four-size check
    # (tests/fixtures/seeds38b_found.lua, run with nn found)
    from nn_paths import nn_env
    out, expected = fixture("seeds38b_found", nn_env())
    assert out == expected


def test_seeds38b_where_the_original_was_wrong():
    # MultiMarginCriterion with fewer weights than classes read a target's
    # weight past them (a garbage weight, usually a denormal, in the loss and
    # the gradient): th's error.  SpatialDepthWiseConvolution with as many
    # output as input planes: the original's accGradParameters laid its
    # gradients out plane by plane anew at each call, transposing what the
    # last call left (gradBias's values transposed, one of gradWeight's
    # kernels overwritten by another), so that the same backward pass gave
    # other gradients every second step; th's are the same at every step, and
    # a second call adds as the first did.  A convolution's or pooling's
    # gradient of fewer batch rows than the input: THNN's loops read past it
    # (the original ended: "Invalid argument 3: out of range"), th's error;
    # SpatialSubSampling's gradient of fewer elements than the output, which
    # THNN, checking none, read past: th's error
    from nn_paths import nn_env
    code = NN_ERRORS + r"""
local x = torch.range(1, 8):view(2, 4):div(8)
for _, pass in ipairs({'forward', 'backward'}) do
   e('multimargin ' .. pass, function()
      local c = nn.MultiMarginCriterion(1, torch.Tensor({1, 2, 3}))
      return c[pass](c, x, torch.LongTensor({1, 4}))
   end)
end
e('multimargin within the weights', function()
   return nn.MultiMarginCriterion(1, torch.Tensor({1, 2, 3})):forward(x, torch.LongTensor({1, 3}))
end)
local m = nn.SpatialDepthWiseConvolution(2, 2, 2, 2)
local input = torch.range(1, 18):view(1, 2, 3, 3):div(18)
local gradOutput = torch.range(1, 16):view(1, 4, 2, 2):div(16)
local steps = {}
for step = 1, 3 do
   m:zeroGradParameters()
   m:forward(input)
   m:backward(input, gradOutput)
   steps[step] = {m.gradWeight:clone(), m.gradBias:clone()}
end
print('depthwise steps', steps[1][1]:equal(steps[2][1]) and steps[2][1]:equal(steps[3][1]),
      steps[1][2]:equal(steps[2][2]) and steps[2][2]:equal(steps[3][2]))
m:accGradParameters(input, gradOutput)
print('depthwise twice', m.gradWeight:equal(steps[1][1] * 2), m.gradBias:equal(steps[1][2] * 2))
e('subsampling', function()
   local m = nn.SpatialSubSampling(2, 1, 1)
   local x = torch.ones(1, 2, 2, 3)
   m:forward(x)
   return m:backward(x, torch.ones(1, 2, 1, 1))
end)
for _, m in ipairs({nn.SpatialConvolution(2, 2, 1, 1), nn.SpatialMaxPooling(1, 1)}) do
   e(torch.type(m) .. ' batch', function()
      local x = torch.ones(2, 2, 2, 3)
      m:forward(x)
      return m:backward(x, torch.ones(1, 2, 2, 3))
   end)
end
"""
    got = output(run_th(["-e", code], env=nn_env()))
    assert got == [
        "multimargin forward\tfalse\tweights has 3 elements: no weight for class 4",
        "multimargin backward\tfalse\tweights has 3 elements: no weight for class 4",
        "multimargin within the weights\ttrue\t1.5",
        "depthwise steps\ttrue\ttrue",
        "depthwise twice\ttrue\ttrue",
        "subsampling\tfalse\tgradOutput has 2 elements, fewer than the 12 of the output [1 x 2 x 2 x 3]",
    ] + [f"nn.{m} batch\tfalse\tNeed gradOutput of dimension 4 and gradOutput.size[0] == 2 but got "
         "gradOutput to be of shape: [1 x 2 x 2 x 3]" for m in ("SpatialConvolution", "SpatialMaxPooling")]
