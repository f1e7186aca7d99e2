"""nn models move between th and the original Torch7 as .t7 files.

fixtures/make_nn_model.lua builds a small convnet (SpatialConvolution,
SpatialBatchNormalization, ReLU, SpatialMaxPooling, View, Linear,
BatchNormalization, Tanh, LogSoftMax) in evaluation mode and saves it with
its input and output.  nn_model_torch7.t7 was saved by the original; th loads
it and must give the original's output.  nn_model_th.t7 was saved by th; the
original loaded it and printed the output recorded in ORIGINAL_ON_TH_FILE (by
hand with /opt/torch7-ref/bin/th), which th must also give from that file.
"""
import os

import numpy as np

from conftest import run_th
from nn_paths import nn_env

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")

# the original Torch7's forward pass of the model th saved (nn_model_th.t7)
ORIGINAL_ON_TH_FILE = [
    [-1.6989495960555376, -1.4319922960741516, -1.857120844366436, -1.8213003639643561, -1.3457084893143254],
    [-1.671710297011054, -1.4566386322419578, -1.8362203156845829, -1.7738743960130923, -1.3864414599023773],
    [-1.7119482602030938, -1.5294607025801095, -1.7380845867534045, -1.7112502635968752, -1.4010545948446316],
    [-1.7215167868482242, -1.4988712101258488, -1.7427772836400877, -1.7270043363232379, -1.4066065263251426],
]

FORWARD = """
require 'nn'
local saved = torch.load(arg[1])
local out = saved.model:forward(saved.input)
for i = 1, out:size(1) do
   local row = {}
   for j = 1, out:size(2) do row[j] = string.format('%.17g', out[i][j]) end
   print(table.concat(row, ' '))
end
print(string.format('%.17g', (out - saved.output):abs():max()))
"""


def forward(tmp_path, path):
    script = tmp_path / "forward.lua"
    script.write_text(FORWARD)
    proc = run_th([str(script), path], env=nn_env(), cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    rows = [[float(v) for v in line.split()] for line in proc.stdout.splitlines()]
    return np.array(rows[:-1]), rows[-1][0]


def test_model_saved_by_the_original_gives_its_output(tmp_path):
    out, diff = forward(tmp_path, os.path.join(FIXTURES, "nn_model_torch7.t7"))
    assert out.shape == (4, 5)
    assert diff < 1e-12


def test_model_saved_by_th_gives_what_the_original_read_from_it(tmp_path):
    out, diff = forward(tmp_path, os.path.join(FIXTURES, "nn_model_th.t7"))
    np.testing.assert_allclose(out, ORIGINAL_ON_TH_FILE, rtol=1e-12)
    assert diff < 1e-12


def test_th_saves_the_model_the_original_read(tmp_path):
    """Building and saving the model again in th gives a file with the same
    content as the one the original read (the order of table entries varies)."""
    path = str(tmp_path / "model.t7")
    proc = run_th([os.path.join(FIXTURES, "make_nn_model.lua"), path], env=nn_env(),
                  cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    out, diff = forward(tmp_path, path)
    np.testing.assert_allclose(out, ORIGINAL_ON_TH_FILE, rtol=1e-12)
    assert diff < 1e-12
