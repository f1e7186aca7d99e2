"""The fast paths of th's THNN kernels against the original Torch7:
fixtures/nn_fast_paths_cases.lua (2D convolutions through LuaJIT's im2col on
non-contiguous tensors, Threshold/ReLU on large tensors with NaN, in place or
not, 2x2 max pooling with ties and NaN) and fixtures/nn_gridsampler_cases.lua
(SpatialGridSamplerBilinear through nn.THNN); the *_expected.txt files are
what the original printed.  Double agrees to the printed digits, Float to
float rounding (sums in another order)."""
import math
import os

import pytest

from conftest import run_th
from nn_paths import assert_prints_recording, nn_env

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
CASES = ["nn_fast_paths", "nn_gridsampler"]


def parse(text):
    """{name: (sizes, [numbers])} of the tab-separated lines."""
    out = {}
    for line in text.splitlines():
        fields = line.rstrip("\t").split("\t")
        if len(fields) >= 3:
            out[fields[0]] = (fields[1], [float(v) for v in " ".join(fields[2:]).split()])
    return out


def expected(case):
    with open(os.path.join(FIXTURES, case + "_expected.txt")) as f:
        return parse(f.read())


@pytest.fixture(scope="module", params=CASES)
def results(request):
    proc = run_th([os.path.join(FIXTURES, request.param + "_cases.lua")], cwd=FIXTURES, env=nn_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return request.param, parse(proc.stdout)


def same(a, b, tol):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= tol


def test_values(results):
    case, got = results
    want = expected(case)
    assert set(got) == set(want)
    for name, (sizes, values) in want.items():
        got_sizes, got_values = got[name]
        assert got_sizes == sizes, name
        assert len(got_values) == len(values), name
        rel = 3e-6 if "Float" in name else 1e-8
        # nn_fast_paths' lines start with the sum and the sum of magnitudes
        sums = 2 if case == "nn_fast_paths" else 0
        total = values[1] if sums and not math.isnan(values[1]) else 0
        scale = max([1.0] + [abs(v) for v in values[sums:] if not math.isnan(v)])
        bad = [(i, w, g) for i, (w, g) in enumerate(zip(values, got_values))
               if not same(w, g, rel * (max(1.0, total) if i < sums else scale))]
        assert not bad, f"{name}: (index, original, th) {bad[:5]}"


def test_shared_loops_match_the_original_bit_for_bit():
    """The kernels whose loops th shares with helper threads (SoftMax and
    LogSoftMax rows, Tanh, Sigmoid, ELU, HardTanh), below and above the
    sharing: the bits of every element as the original's (fixtures/
    nn_shared_loops_expected.txt, recorded from it).  SoftMax multiplies by
    the reciprocal of the sum, and HardTanh turns NaN into max_val but in
    place on a contiguous tensor of 2 or more dimensions, as THNN did."""
    assert_prints_recording("nn_shared_loops")


def test_convolution_images_match_the_original_bit_for_bit():
    """2D convolutions done image by image (columns, bias, the library's
    gemm), shared with helper threads from a size: output, gradInput and
    gradWeight bit for bit as the original's (fixtures/nn_conv_images_expected.txt,
    recorded from it), below and above the sharing, Double and Float."""
    assert_prints_recording("nn_conv_images")


BAD_BIAS = r"""
require 'nn'
for _, m in ipairs{nn.SpatialConvolutionMM(3, 16, 3, 3), nn.SpatialDilatedConvolution(3, 16, 3, 3),
                   nn.VolumetricConvolution(3, 16, 3, 3, 3), nn.SpatialFullConvolution(3, 16, 3, 3),
                   nn.SpatialConvolutionLocal(3, 16, 8, 8, 3, 3)} do
   local x = m.kT and torch.randn(2, 3, 8, 8, 8) or torch.randn(2, 3, 8, 8)
   for _, bias in ipairs{torch.randn(4), torch.randn(16, 1)} do
      m.bias = bias
      local ok, err = pcall(function() return m:forward(x) end)
      print(torch.type(m), ok, (tostring(err):match('Need [^\n]*[%]]')))
   end
end
"""


def test_a_bias_of_the_wrong_shape_is_an_error(tmp_path):
    """THNN's check of the bias (the original's messages, recorded; it adds
    the C file's line): th read past a short bias's memory or broadcast it."""
    script = tmp_path / "bias.lua"
    script.write_text(BAD_BIAS)
    proc = run_th([str(script)], env=nn_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    need = "Need bias of dimension 1 and bias.size[0] == 16 but got bias to be of shape: "
    local = "Need bias of dimension 3 and bias.size[0] == 16 but got bias to be of shape: "
    lines = [f"{m}\tfalse\t{msg}{shape}" for m, msg in
             [("nn.SpatialConvolutionMM", need), ("nn.SpatialDilatedConvolution", need),
              ("nn.VolumetricConvolution", need), ("nn.SpatialFullConvolution", need),
              ("nn.SpatialConvolutionLocal", local)]
             for shape in ("[4]", "[16 x 1]")]
    assert proc.stdout.split("\n")[:-1] == [line + "\t" for line in lines]


def test_temporal_convolution_matches_the_original_bit_for_bit():
    """TemporalConvolution through the BLAS, its products over groups of frames
    whose input windows do not overlap as THNN made them: output, gradInput,
    gradWeight and gradBias (scale 1 and 0.37) bit for bit as the original's
    (fixtures/nn_temporal_conv_expected.txt, recorded from it); before, numpy's
    products differed in the last bits."""
    assert_prints_recording("nn_temporal_conv")


def test_margin_criteria_match_the_original_bit_for_bit():
    """MultiMarginCriterion and MultiLabelMarginCriterion, Float in THNN's float
    steps (the margin, each term, the sums and the gradient's running total):
    losses and gradients bit for bit as the original's
    (fixtures/nn_multimargin_expected.txt, recorded from it)."""
    assert_prints_recording("nn_multimargin")
