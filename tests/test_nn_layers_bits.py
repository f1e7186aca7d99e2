"""nn layers th runs in its own loops, bit for bit against the original
Torch7: fixtures/nn_layers_bits.lua prints digests of every element's %a
and of the NaNs' signs, and nn_layers_bits_expected.txt is what the
original printed."""
import os

import pytest

from nn_paths import assert_prints_recording


def test_layers_match_the_original_bit_for_bit():
    """Reflection and replication padding (planes shared with helper
    threads, negative pads cropping), Power (tensor pow by 1 a copy, by 2 a
    cmul), Sqrt, Square, Threshold/ReLU in place or not, LogSigmoid and
    SpatialSoftMax, forward and backward, Double and Float, contiguous and
    strided, below and above the sharing, cold and hot (2000 passes): NaN,
    infinities, signed zeros, subnormals and values at the thresholds among
    random ones, every pair of them for the element-wise layers, and
    SoftMax's gradient on every combination of NaNs of both signs (x86
    kept the NaN of one operand of two, which LuaJIT may swap)."""
    assert_prints_recording("nn_layers_bits")


def test_cases_the_nn_fuzz_found():
    """scripts/fuzz_nn.py's findings, bit for bit against the original:
    TemporalConvolution with fewer output frames than its groups of windows
    (th failed an assertion), Double and Float, batched or not; nearest
    up-sampling by a factor of 1 is THNN's error; average pooling gives +0
    for a window past the input's end (ceil mode) and for a window of -0s
    (th gave -0), in th's loops and numpy's; LookupTable's maxNorm
    renormalisation in the weight's type (th summed a FloatTensor's norms in
    double and scaled by a reciprocal: last bits) and its error on a weight
    that is not contiguous; SpatialAdaptiveAveragePooling dividing a cell's
    sum by its width, then its height (th took the height first)."""
    assert_prints_recording("nn_fuzz_found")


def test_shape_errors_are_thnns():
    """THNN's shape errors in its words (found by the nn fuzz):
    TemporalRowConvolution's checks of its features x frames view (a
    transposed input unless featFirst: th checked and named the input as
    given), the "(batch mode) tensor expected for input" of the volumetric
    convolutions and poolings and the adaptive poolings, the volumetric
    convolutions' sizes joined by 'x', VolumetricAveragePooling's "smaller
    than kernel size"."""
    assert_prints_recording("nn_shape_messages")


def test_class_nll_matches_the_original_bit_for_bit():
    """ClassNLLCriterion reading its targets in place: weights, sizeAverage,
    ignore_index (a class, -100, 0), Double and Float, cold and hot; the
    loss, total weight and gradient as the original's recording."""
    assert_prints_recording("nn_classnll")


def test_subsamplings_match_the_original_bit_for_bit():
    """SpatialSubSampling and TemporalSubSampling (found by the nn fuzz: Float
    gradients differed in their last bits): outputs and gradients summed in
    THNN's order (window after window; each sample's sums, tap by tap, in
    turn; Temporal frame by frame, one feature's windows summed in double),
    Double and Float, batched, transposed, accumulated twice and hot."""
    assert_prints_recording("nn_subsampling")


def test_convolution_map_sums_in_the_originals_order():
    """SpatialConvolutionMap's output and gradients bit for bit against the
    original (its order found by experiment: a stride-1 output row of 4 or
    more fused tap by tap, else each window's rounded sum added; gradInput
    likewise from 0; gradWeight's chains of fused or rounded multiply-adds,
    scales 1 and 0.3): full, one-to-one and random tables, kernels 1 to 5
    either way, strides 1 and 2, batched or not, Double and Float, infinite
    weights, 300 passes hot, and the Spatial{Subtractive,Divisive,
    Contrastive}Normalizations built on it (th summed the dense convolution
    the table amounts to: last bits)."""
    assert_prints_recording("nn_convmap_bits")


def test_full_convolution_map_sums_in_the_originals_order():
    """SpatialFullConvolutionMap's output and gradients bit for bit against
    the original (its order found by experiment: with a column stride of 1
    and an input of 4 or more columns, each input row spread tap by tap,
    fused, else input element by element, kernel element by element, each
    product rounded; gradInput as SpatialConvolutionMap's strided windows
    from 0; gradWeight's chains per kernel element over the input elements,
    fused or rounded, scales 1 and 0.3): full, one-to-one and random tables,
    kernels 1 to 5 either way, strides 1 to 3, Double and Float, NaN and
    infinite weights, a -0 bias, a connection twice, 300 passes hot, and the
    original's errors on a batch or a 2D input (th summed the dense
    transposed convolution: last bits)."""
    assert_prints_recording("nn_fullconvmap_bits")


def test_local_row_and_volumetric_full_convolutions_in_the_originals_order():
    """SpatialConvolutionLocal, TemporalRowConvolution and
    VolumetricFullConvolution bit for bit against the original (orders found
    by experiment: image by image, the columns then THNN's BLAS calls, one
    gemm per place or feature with the place's column and result as
    contiguous rows, the output starting at the bias; the row convolution's
    gradBias a feature's sum in order, the product by the scale rounded; the
    volumetric one's gradBias by gemv with ones): Double and Float, batched
    or not, strides, paddings, transposed inputs, noBias, a gradient after a
    forward on another input (the forward's columns), hot passes (th made
    batched numpy products: last bits)."""
    assert_prints_recording("nn_local_row_bits")


def avx512():
    return os.path.exists("/proc/cpuinfo") and " avx512f " in open("/proc/cpuinfo").read()


@pytest.mark.skipif(not avx512(), reason="OpenBLAS's SkylakeX kernels need AVX-512")
def test_local_row_convolutions_in_thnns_order_on_skylakex_kernels():
    """The same fixture under OpenBLAS's AVX-512 kernels (what it picks on
    such a machine unpinned), recorded from the original there: Local's
    forward reads each place's column and result in place, strided, as
    THNN's views did (th's contiguous copies of them gave other sums there,
    found by fuzz_nn: SpatialConvolutionLocal(4, 2, 7, 7, 2, 4, 1, 2, 0, 1)
    on Float)."""
    assert_prints_recording("nn_local_row_bits", "SkylakeX")


def test_volumetric_convolutions_in_the_originals_order():
    """VolumetricConvolution and VolumetricDilatedConvolution bit for bit
    against the original (order found by experiment: image by image, the
    columns then one gemm per image, gradWeight += scale * gradOutput's
    planes x the columns^T with the scale as gemm's alpha, each image's
    product adding to the last's; th made one product for the whole batch
    and scaled it after: last bits): Double and Float, batched or not,
    strides, paddings, dilations, a transposed input, a gradient after a
    forward on another input, hot passes."""
    assert_prints_recording("nn_volumetric_bits")
