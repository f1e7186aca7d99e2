"""Checkpoints saved on a GPU load on th as the matching CPU tensors.  The files
are written here from the .t7 format's specification (tests/t7writer.py) with
cutorch's class names; the expected output is what the original Torch7 printed
loading the same file with the CPU class names (CudaHalfTensor's halves as
floats)."""
import os
import shutil

import numpy as np
import pytest

from conftest import run_th
from t7writer import Object, Tensor, t7bytes
from thirdparty import FIXTURES, expected

# 1.5, -2, 65504 (largest half), 2^-24 (smallest subnormal), inf, 0, -0, 1/3 rounded
HALF_BITS = [0x3E00, 0xC000, 0x7BFF, 0x0001, 0x7C00, 0x0000, 0x8000, 0x3555]
WARNING = ("warning: this file holds GPU (cutorch) tensors: th loads them as CPU tensors "
           "(torch.CudaTensor as torch.FloatTensor, torch.CudaDoubleTensor as torch.DoubleTensor...)\n")


def gpu(kind, values, dtype, **kw):
    return Tensor(f"torch.Cuda{kind}Tensor", f"torch.Cuda{kind}Storage", values, dtype, **kw)


def checkpoint():
    return {
        "model": {"modules": {1.0: {
            "weight": gpu("", np.arange(6, dtype=np.float32).reshape(2, 3) / 4, np.float32),
            "bias": gpu("", [0.5, -1.25, 3], np.float32),
            "_type": "torch.CudaTensor"}}},
        "opt": {"lr": 0.1, "name": "char-rnn"},
        "half": gpu("Half", np.array(HALF_BITS, dtype=np.uint16), np.uint16),
        "double": gpu("Double", np.arange(4).reshape(2, 2) * 1.5, np.float64),
        "byte": gpu("Byte", [0, 7, 255], np.uint8),
        "char": gpu("Char", [-3, 0, 100], np.int8),
        "short": gpu("Short", [-300, 2, 30000], np.int16),
        "int": gpu("Int", [[-1, 2], [3, 2 ** 31 - 1]], np.int32),
        "long": gpu("Long", [-(2 ** 40), 5], np.int64),
        "offset": gpu("", [7, 8], np.float32, offset=2, storage_values=[1, 2, 7, 8]),
    }


def test_gpu_checkpoint_loads_as_cpu_tensors_with_one_warning(tmp_path):
    (tmp_path / "gpu.t7").write_bytes(t7bytes(checkpoint()))
    shutil.copy(os.path.join(FIXTURES, "gpu_checkpoint.lua"), tmp_path)
    r = run_th(["gpu_checkpoint.lua", "gpu.t7"], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout == expected("gpu_checkpoint.expected")
    assert r.stderr == WARNING


@pytest.mark.parametrize("kind, cpu", [("", "Float"), ("Double", "Double"), ("Half", "Float"),
                                        ("Byte", "Byte"), ("Char", "Char"), ("Short", "Short"),
                                        ("Int", "Int"), ("Long", "Long")])
def test_each_cutorch_class_in_b32_files(tmp_path, kind, cpu):
    """b32 files (Longs of 4 bytes), one class at a time, the storage alone too."""
    dtype = {"": np.float32, "Double": np.float64, "Half": np.uint16, "Byte": np.uint8,
             "Char": np.int8, "Short": np.int16, "Int": np.int32, "Long": np.int32}[kind]
    values = [0x3C00, 0x4000, 0x4200] if kind == "Half" else [1, 2, 3]   # halves of 1, 2, 3
    t = gpu(kind, values, dtype)
    (tmp_path / "t.t7").write_bytes(t7bytes({"t": t, "n": 2.0}, longsize=4))
    r = run_th(["-e", "local c = torch.load('t.t7', 'b32')\n"
                      "print(torch.type(c.t), torch.type(c.t:storage()), c.t:double():sum(), c.n)"],
               cwd=str(tmp_path))
    assert r.stdout == f"torch.{cpu}Tensor\ttorch.{cpu}Storage\t6\t2\t\n", r.stderr
    assert r.stderr == WARNING


def test_a_corrupted_half_storage_is_a_lua_error(tmp_path):
    data = bytearray(t7bytes(gpu("Half", [0x3C00], np.uint16)))
    data[-10:-2] = (-5).to_bytes(8, "little", signed=True)      # the storage's count
    (tmp_path / "bad.t7").write_bytes(bytes(data))
    r = run_th(["-e", "print(pcall(torch.load, 'bad.t7'))"], cwd=str(tmp_path))
    assert r.returncode == 0
    assert r.stdout.startswith("false\t") and "negative size -5" in r.stdout, r.stdout + r.stderr


def test_modules_of_a_gpu_checkpoint_convert_with_float_and_double(tmp_path):
    """An nn-style module (a Torch class whose fields hold CudaTensors, its
    :type() converting every tensor field as nn.Module's did) saved on a GPU."""
    module = Object("gpumodel.Linear", {
        "weight": gpu("", [[1, 2], [3, 4]], np.float32),
        "gradWeight": gpu("", [[0, 0], [0, 0]], np.float32),
        "output": gpu("", [0.5], np.float32),
        "_type": "torch.CudaTensor"})
    (tmp_path / "model.t7").write_bytes(t7bytes({"net": module, "epoch": 3.0}))
    r = run_th(["-e", """
        gpumodel = {}
        local Linear = torch.class('gpumodel.Linear')
        function Linear:type(t)
           for k, v in pairs(self) do
              if torch.isTensor(v) then self[k] = v:type(t) end
           end
           self._type = t
           return self
        end
        function Linear:float() return self:type('torch.FloatTensor') end
        function Linear:double() return self:type('torch.DoubleTensor') end
        local c = torch.load('model.t7')
        print(torch.type(c.net), torch.type(c.net.weight), c.epoch)
        c.net:double()
        print(torch.type(c.net.weight), torch.type(c.net.gradWeight), c.net._type, c.net.weight:sum())
        c.net:float()
        print(torch.type(c.net.output), c.net.output[1])"""], cwd=str(tmp_path))
    assert r.stdout == ("gpumodel.Linear\ttorch.FloatTensor\t3\t\n"
                        "torch.DoubleTensor\ttorch.DoubleTensor\ttorch.DoubleTensor\t10\t\n"
                        "torch.FloatTensor\t0.5\t\n"), r.stderr
    assert r.stderr == WARNING
