"""HardTanh's and Tanh's gradients and TemporalMaxPooling, which th runs in
LuaJIT loops shared with helper threads (th/lua/thnn/HardTanh.lua, Tanh.lua,
pool.lua), bit for bit against the original Torch7: each fixture prints
digests of every element's %a and of the NaNs' and zeros' signs, and its
_expected.txt is what the original printed."""
from conftest import run_th
from nn_paths import assert_prints_recording, nn_env


def test_hardtanh_gradient_matches_the_original_bit_for_bit():
    """Every pair of special values (input, gradOutput: NaN of both signs,
    infinities, signed zeros, subnormals, the bounds) under zero, infinite,
    float-rounded and subnormal bounds, in place or not (gradInput is then
    gradOutput), Double and Float, contiguous and strided, cold and after
    2000 passes; random tensors below and above the sharing; min above max
    through THNN; gradOutput of other sizes or strided; the element count
    error."""
    assert_prints_recording("nn_hardtanh_grad")


def test_tanh_gradient_matches_the_original_bit_for_bit():
    """Every pair of special values (output, gradOutput) through THNN, odd
    and even sizes (the loop takes two elements a step) below and above the
    sharing through nn.Tanh, Double and Float, contiguous and strided (a
    FloatTensor's product in double), cold and hot; which NaN of two
    meeting THNN kept, by element type and loop (1D, 2D, 3D, strided
    gradInput or gradOutput); the shape error."""
    assert_prints_recording("nn_tanh_grad")


def test_temporal_max_pooling_matches_the_original_bit_for_bit():
    """Output, indices and gradient of 2D and 3D sequences, windows of 1 to 6
    frames at strides below, equal to and above them, random data, ties,
    signed zeros, subnormals, NaN, infinities, the lowest numbers and
    windows without a max (index -1, no gradient), Double and Float,
    contiguous and strided, cold and after 2000 calls, at the benchmark's
    size (shared with helper threads)."""
    assert_prints_recording("nn_temporal_maxpool")


BAD_TAPS = r"""
require 'nn'
for _, T in ipairs{'torch.DoubleTensor', 'torch.FloatTensor'} do
   local m = nn.TemporalMaxPooling(2):type(T)
   local x = torch.randn(3, 6, 4):type(T)
   local g = m:forward(x):clone():fill(1)
   local good = m:backward(x, g):clone()
   for _, bad in ipairs{5, 9, -2, -1} do
      local saved = m.indices[2][1][1]
      m.indices[2][1][1] = bad
      local ok, err = pcall(function() return m:backward(x, g) end)
      print(T, bad, ok, ok and m.gradInput:sum() or (tostring(err):match('Found.*')))
      m.indices[2][1][1] = saved
      print(T, torch.equal(m:backward(x, g), good), good:sum())
   end
end
"""


def test_temporal_max_pooling_gradient_with_an_index_outside_the_plane_is_an_error(tmp_path):
    """An offset naming a frame past the 6x4 sequence (9 from the first
    window's first frame) or before it gives a Lua error, not a write
    outside its sequence (the original wrote there: into another sequence
    of the batch, or outside gradInput); one inside the sequence,
    out of its window (5), adds there as the original did; -1 (no max)
    adds nowhere; the module works again with the right indices.  Each
    window of ones adds one 1: the gradient sums to the 3x3x4 windows."""
    script = tmp_path / "taps.lua"
    script.write_text(BAD_TAPS)
    proc = run_th([str(script)], env=nn_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = []
    for T in ("torch.DoubleTensor", "torch.FloatTensor"):
        for bad, result in ((5, "true\t36"),
                            (9, "false\tFound an invalid max index (input planes have 24 elements)"),
                            (-2, "false\tFound an invalid max index (input planes have 24 elements)"),
                            (-1, "true\t35")):
            lines.append(f"{T}\t{bad}\t{result}\t")
            lines.append(f"{T}\ttrue\t36\t")
    assert proc.stdout.splitlines() == lines
