"""nn's spatial, volumetric and temporal modules on th's THNN kernels
(th/lua/thnn/Spatial*, Volumetric*, Temporal*) against the original Torch7.

fixtures/nn_spatial_cases.lua runs forward, updateGradInput and
accGradParameters (scale 0.5) of each module on small deterministic inputs and
prints every value; fixtures/nn_spatial_expected.txt is what the original
printed (its outputs, gradients, pooling indices and shape errors).  Double
results agree to the printed 9 digits, Float ones to float rounding.
"""
import os
import re

import pytest

from conftest import run_th
from nn_paths import assert_prints_recording, nn_env

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def parse(text):
    """{name: (sizes, [values])} of the numeric lines, {name: text} of the errors."""
    values, errors = {}, {}
    for line in text.splitlines():
        name, _, rest = line.partition(" ")
        if name.endswith(".error"):
            errors[name] = rest.strip()
        elif rest:
            sizes, _, data = rest.partition(" ")
            values[name] = (sizes, [float(v) for v in data.split()])
    return values, errors


with open(os.path.join(FIXTURES, "nn_spatial_expected.txt")) as f:
    EXPECTED, EXPECTED_ERRORS = parse(f.read())


@pytest.fixture(scope="module")
def results():
    proc = run_th([os.path.join(FIXTURES, "nn_spatial_cases.lua")], cwd=FIXTURES, env=nn_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return parse(proc.stdout)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_values(results, name):
    sizes, want = EXPECTED[name]
    assert name in results[0], "no output for " + name
    got_sizes, got = results[0][name]
    assert got_sizes == sizes
    tol = 2e-6 if "Float" in name else 1e-8
    assert got == pytest.approx(want, rel=tol, abs=tol)


@pytest.mark.parametrize("name", sorted(EXPECTED_ERRORS))
def test_shape_errors(results, name):
    assert results[1][name] == EXPECTED_ERRORS[name]


BAD_INDICES = r"""
require 'nn'
for _, T in ipairs{'torch.DoubleTensor', 'torch.FloatTensor'} do
   local m = nn.SpatialMaxPooling(2, 2, 2, 2):type(T)
   local x = torch.randn(4, 3, 8, 8):type(T)
   local g = m:forward(x):clone():fill(1)
   local good = m:backward(x, g):clone()
   for _, bad in ipairs{65, -3} do
      local saved = m.indices[2][3][4][1]
      m.indices[2][3][4][1] = bad
      local ok, err = pcall(function() return m:backward(x, g) end)
      print(T, bad, ok, (tostring(err):match('Found.*')))
      m.indices[2][3][4][1] = saved
      print(T, torch.equal(m:backward(x, g), good), good:sum())
   end
end
"""


def test_max_pooling_gradient_with_an_index_outside_the_plane_is_an_error(tmp_path):
    """An indices tensor naming a place outside its 8x8 plane (a corrupted or
    foreign one) gives a Lua error, not a write past gradInput (THNN wrote
    there); the module works again with the right indices.  Each window of
    ones adds one 1: the gradient sums to the 4x3x4x4 windows."""
    script = tmp_path / "indices.lua"
    script.write_text(BAD_INDICES)
    proc = run_th([str(script)], env=nn_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = []
    for T in ("torch.DoubleTensor", "torch.FloatTensor"):
        for bad in (65, -3):
            lines.append(f"{T}\t{bad}\tfalse\tFound an invalid max index (input planes are of size 8x8)\t")
            lines.append(f"{T}\ttrue\t192\t")
    assert proc.stdout.splitlines() == lines


def test_adaptive_max_pooling_matches_the_original_bit_for_bit():
    """Output, indices and gradient of SpatialAdaptiveMaxPooling on written-out
    and general geometries, ties and special values, Double and Float
    (fixtures/nn_adaptive_max_expected.txt, recorded from the original): its
    cells' bounds in float (a 200-wide image in 50 cells: cell 29 starts at
    115), a cell without a max stored as row 1, column 0, or row 0, column 1
    when one column wide."""
    assert_prints_recording("nn_adaptive_max")


NO_MAX = r"""
require 'nn'
local m = nn.SpatialAdaptiveMaxPooling(3, 1)
local x = torch.Tensor({{{0/0, -1/0, -3.4028234663852886e38, 1}}})
print(m:forward(x):view(-1)[3], m.indices:view(-1)[1], m.indices:view(-1)[4], m.indices:view(-1)[6])
print(m:backward(x, torch.Tensor({{{1, 2, 3}}})):view(1, -1))
m.indices[2][1][1][3] = 5
print(pcall(function() return m:backward(x, torch.Tensor({{{1, 2, 3}}})) end))
"""


def test_adaptive_max_pooling_gradient_of_a_cell_without_a_max_goes_nowhere(tmp_path):
    """Cells of NaN, -inf and -FLT_MAX alone have no max: their gradient is
    dropped (the original wrote it before the cell, or before gradInput's
    memory); the last cell's goes to its max.  A column outside its cell is
    an error."""
    script = tmp_path / "nomax.lua"
    script.write_text(NO_MAX)
    proc = run_th([str(script)], env=nn_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[0] == "1\t1\t0\t2\t"
    assert lines[1:4] == [" 0  0  0  3", "[torch.DoubleTensor of size 1x4]", ""]
    assert lines[4].startswith("false\t") and "Found an invalid max index" in lines[4]


def test_max_pooling_of_general_geometries_matches_the_original_bit_for_bit():
    """Output, indices (their low 4 bytes: the original's Volumetric ones
    wrote no more) and gradient of Spatial, SpatialDilated, Volumetric and
    VolumetricDilated max pooling, padded, in ceil mode, dilated, windows of
    1 to 125 taps, small and shared with helper threads, on random data,
    ties, signed zeros, subnormals, special values and windows without a max,
    Double and Float, cold and after 2000 calls
    (fixtures/nn_maxpool_general_expected.txt, recorded from the original)."""
    assert_prints_recording("nn_maxpool_general")


BAD_PACKED_INDICES = r"""
require 'nn'
for _, T in ipairs{'torch.DoubleTensor', 'torch.FloatTensor'} do
   local m = nn.VolumetricMaxPooling(2, 2, 2):type(T)
   local x = torch.randn(2, 3, 4, 4, 4):type(T)
   local g = m:forward(x):clone():fill(1)
   local good = m:backward(x, g):clone()
   for _, bad in ipairs{3 + 256 * 3, -5, 0xFFFFFF} do
      local saved = m.indices[2][3][2][1][1]
      m.indices[2][3][2][1][1] = bad
      local ok, err = pcall(function() return m:backward(x, g) end)
      print(T, bad, ok, ok and m.gradInput:sum() or (tostring(err):match('Found.*')))
      m.indices[2][3][2][1][1] = saved
      print(T, torch.equal(m:backward(x, g), good), good:sum())
   end
end
"""


def test_volumetric_max_pooling_gradient_with_an_index_outside_the_plane_is_an_error(tmp_path):
    """Packed indices (the t, h, w offsets in the window as bytes) naming a
    place outside the 4x4x4 plane give a Lua error, not a write past
    gradInput; the offsets -1 (no max) add nowhere; the module works again
    with the right indices.  Each window of ones adds one 1: the gradient
    sums to the 2x3x2x2x2 windows."""
    script = tmp_path / "packed.lua"
    script.write_text(BAD_PACKED_INDICES)
    proc = run_th([str(script)], env=nn_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = []
    for T in ("torch.DoubleTensor", "torch.FloatTensor"):
        for bad, result in ((771, "false\tFound an invalid max index (input planes have 64 elements)"),
                            (-5, "false\tFound an invalid max index (input planes have 64 elements)"),
                            (16777215, "true\t47")):
            lines.append(f"{T}\t{bad}\t{result}\t")
            lines.append(f"{T}\ttrue\t48\t")
    assert proc.stdout.splitlines() == lines


CONVMAP_CHECKS = r"""
require 'nn'
torch.manualSeed(5)
-- a column stride that does not fit the input's width: the gradient itself
-- (the original laid gradInput's planes out as the full convolution's)
for _, c in ipairs{{5, 3, 2, 1, 9, 8}, {3, 2, 2, 2, 7, 8}, {2, 2, 3, 1, 6, 10}} do
   local m = nn.SpatialConvolutionMap(nn.tables.random(3, 2, 2), c[1], c[2], c[3], c[4])
   local err = nn.Jacobian.testJacobian(m, torch.randn(3, c[5], c[6]))
   print(err < 1e-6)
end
-- connection tables naming planes there are not: errors, not reads outside
local m = nn.SpatialConvolutionMap(nn.tables.full(2, 2), 3, 3)
local x = torch.randn(2, 6, 6)
for _, bad in ipairs{{1, 1, 0}, {1, 1, 3}, {2, 2, 5}, {3, 1, 1.5}} do
   local keep = m.connTable[bad[1]][bad[2]]
   m.connTable[bad[1]][bad[2]] = bad[3]
   print(pcall(m.forward, m, x))
   print(pcall(m.updateGradInput, m, x, torch.randn(2, 4, 4)))
   m.connTable[bad[1]][bad[2]] = keep
end
m.weight = torch.randn(3, 3, 3)
print(pcall(m.forward, m, x))
print(pcall(m.updateGradInput, m, x, torch.randn(2, 4, 4)))
-- a map large enough for the dense product (a rounded pass of more than
-- 2^18 products) checks its table too
local big = nn.SpatialConvolutionMap(nn.tables.full(2, 2), 3, 3, 2, 2)
big.connTable[1][1] = 0
print(pcall(big.forward, big, torch.randn(2, 201, 201)))
"""


def test_convolution_map_checks_its_table_and_strides(tmp_path):
    """SpatialConvolutionMap: where the column stride does not fit the
    input's width, gradInput is the true gradient (the numeric Jacobian's);
    a connection table naming a plane out of range is a Lua error (the
    original read outside its tensors; th's dense path took a plane 0 as the
    last one), and a weight that is not nConn x kH x kW THNN's error."""
    script = tmp_path / "convmap.lua"
    script.write_text(CONVMAP_CHECKS)
    proc = run_th([str(script)], env=nn_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    # (a kernel's errors are located where nn's THNN.lua called it, as the original's)
    out = [re.sub(r"\t\S*/nn/THNN\.lua:110: ", "\t", line) for line in proc.stdout.splitlines()]
    assert out[:3] == ["true\t"] * 3
    ranges = [(1, 0, 1), (1, 3, 1), (2, 2, 5), (3, 1.5, 2)]
    for i, (conn, src, dst) in enumerate(ranges):
        message = (f"false\tconnection {conn} (input plane {src} to output plane {dst}) out of range: "
                   "2 input, 2 output planes\t")
        assert out[3 + 2 * i:5 + 2 * i] == [message] * 2
    assert out[11:] == [
        "false\tbad argument #4 to 'v' (3D weight tensor expected (connTable:size(1) x kH x kW))\t",
        "false\tbad argument #5 to 'v' (3D weight tensor expected (connTable:size(1) x kH x kW))\t",
        "false\tconnection 1 (input plane 0 to output plane 1) out of range: 2 input, 2 output planes\t"]


CONVMAP_UNUSED_PLANES = r"""
require 'nn'
torch.manualSeed(3)
-- the table leaves input planes unused (the module's nInputPlane, its
-- largest input plane, is below the images' planes)
for _, t in ipairs{{{1, 1}, {2, 1}}, {{3, 1}, {1, 1}, {2, 1}}, {{1, 1}, {1, 2}}} do
   local m = nn.SpatialConvolutionMap(torch.Tensor(t), 3, 2, 1, 2)
   local x = torch.randn(3, 4, 7, 5)
   local y = m:forward(x):clone()
   local gi = m:backward(x, y:clone():fill(1)):clone()
   local worst = 0
   for b = 1, 3 do
      worst = math.max(worst, (m:forward(x[b]) - y[b]):abs():max(),
                       (m:backward(x[b], y[b]:clone():fill(1)) - gi[b]):abs():max())
   end
   print(m.nInputPlane, worst)
end
"""


def test_convolution_map_batch_of_images_with_unused_planes(tmp_path):
    """A batch whose images have planes the connection table leaves unused:
    each image's output and gradInput are its own, as for the image alone
    (the original stepped from image to image by the table's largest input
    plane, reading and writing the later images planes too early: README)."""
    script = tmp_path / "convmap_planes.lua"
    script.write_text(CONVMAP_UNUSED_PLANES)
    proc = run_th([str(script)], env=nn_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == ["2\t0\t", "3\t0\t", "1\t0\t"]
