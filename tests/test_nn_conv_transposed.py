"""Transposed and dilated 2D convolutions run image by image as THNN ran
them (th/lua/thnn/conv.lua), and the batch products under nn.MM, checked
bit for bit against the original's recordings."""
from nn_paths import assert_prints_recording


def test_transposed_and_dilated_convolutions_match_the_original_bit_for_bit():
    """SpatialFullConvolution (and SpatialFullDilatedConvolution's kernel)
    forward, gradInput, gradWeight and gradBias, and a dilated convolution's
    backward on another input than its forward's, Double and Float, below and
    above the sharing with helper threads, strided, padded, adjusted, on a
    non-contiguous input, with NaN and inf: every element's bits as the
    original's (fixtures/nn_conv_transposed_expected.txt, recorded from it),
    then THNN's geometry and shape errors and the buffers it left."""
    assert_prints_recording("nn_conv_transposed")


def test_batch_products_match_the_original_bit_for_bit():
    """bmm, baddbmm and addbmm (nn.MM's products), one gemm per matrix at
    pointers moved along the batch: contiguous, transposed and mixed operands
    and results, Double and Float, run hot, bit for bit as the original's
    (fixtures/bmm_layouts_expected.txt, recorded from it)."""
    assert_prints_recording("bmm_layouts")


def test_windows_past_the_input_end_as_the_original():
    """Convolutions (MM, plain, dilated, volumetric, dilated volumetric)
    whose output size THNN took by C's division, so that the last window
    reaches past the input's end (padded, where the original's taps read
    zeros): sizes, outputs and gradients bit for bit as the original's
    (fixtures/nn_conv_cdiv_expected.txt), the volumetric bias gradients
    summed as THNN's, and the error for an output below one place."""
    assert_prints_recording("nn_conv_cdiv")
