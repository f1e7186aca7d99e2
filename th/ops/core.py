"""Filling and copying: the bulk paths of Tensor:fill and Tensor:copy."""
import numpy as np

from th.ops import export


@export
def fill(dst, value):
    dst[...] = value


@export
def copy(dst, src):
    """Element-wise copy in row-major order; the shapes may differ, the counts match."""
    if src.shape != dst.shape:
        src = src.reshape(dst.shape)
    np.copyto(dst, src, casting="unsafe")
