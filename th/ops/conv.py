"""2-D and 3-D convolution and cross-correlation (TH's THTensorConv.c forms).

Everything reduces to a 'valid' 2-D cross-correlation of one plane with one
kernel: a full operation is a valid one on the zero-padded input, a
convolution is a cross-correlation with the flipped kernel, 3-D sums 2-D
planes over the kernel's depth.  The valid cross-correlation runs as matrix
products: a block of B output columns is the input's rows times a banded
(Toeplitz) matrix of one kernel row, which BLAS does far faster than a sum of
shifted slices.
"""
import numpy as np
from numpy.lib.stride_tricks import as_strided

from th.ops import export

BLOCK = 32     # output columns per banded product


def _direct(x, k, oh, ow):
    """The sum of shifted slices (of a stack of planes): exact IEEE semantics for
    inf/nan inputs."""
    out = np.zeros(x.shape[:-2] + (oh, ow), np.result_type(x, k))
    for a in range(k.shape[0]):
        for b in range(k.shape[1]):
            out += k[a, b] * x[..., a:a + oh, b:b + ow]
    return out


def _banded(x, k, oh, ow):
    """x: a stack of planes (p, h, w), each cross-correlated with the 2-D kernel k."""
    kh, kw = k.shape
    width = min(BLOCK, ow)
    # band[a][j + b, j] = k[a, b]
    band = np.zeros((kh, width + kw - 1, width), np.result_type(x, k))
    j = np.arange(width)
    for b in range(kw):
        band[:, j + b, j] = k[:, b][:, None]
    p = x.shape[0]
    out = np.empty((p, oh, ow), band.dtype)
    plane, row, col = x.strides
    for c in range(0, ow, width):
        w = min(width, ow - c)
        # the kh row-shifted slabs side by side: (p * oh, kh * (w + kw - 1)) by one product
        slabs = as_strided(x[:, :, c:], shape=(p, oh, kh, w + kw - 1), strides=(plane, row, row, col))
        out[:, :, c:c + w] = (slabs.reshape(p * oh, -1)
                              @ band[:, :w + kw - 1, :w].reshape(-1, w)).reshape(p, oh, w)
    return out


def _valid(x, k):
    """Valid cross-correlation of a plane, or of each plane of a stack, with k."""
    oh, ow = x.shape[-2] - k.shape[0] + 1, x.shape[-1] - k.shape[1] + 1
    if x.dtype.kind == "f" and not np.isfinite(x).all():
        return _direct(x, k, oh, ow)
    stack = np.ascontiguousarray(x.reshape((-1,) + x.shape[-2:]))
    return _banded(stack, k, oh, ow).reshape(x.shape[:-2] + (oh, ow))


def _plane(x, k, full, flip):
    if flip:
        k = k[::-1, ::-1]
    if full:
        kh, kw = k.shape
        x = np.pad(x, ((kh - 1, kh - 1), (kw - 1, kw - 1)))
    return _valid(x, k)


def _volume(x, k, full, flip):
    """3-D: output slice d sums slice d + c of the input by kernel slice c, over c;
    each kernel slice handles all output slices in one stacked product."""
    if flip:
        k = k[::-1, ::-1, ::-1]
    if full:
        x = np.pad(x, [(s - 1, s - 1) for s in k.shape])
    kd = k.shape[0]
    depth = x.shape[0] - kd + 1
    out = _valid(x[0:depth], k[0])
    for c in range(1, kd):
        out += _valid(x[c:c + depth], k[c])
    return out


def _apply(out, x, k, full, flip, base):
    """'mul': one input with one kernel; 'cmul': slice i with kernel i;
    'mv': output o sums input slice i with kernel [o][i]."""
    f = _plane if base == 2 else _volume
    if x.ndim == base:
        out[...] = f(x, k, full, flip)
    elif k.ndim == x.ndim:
        for i in range(x.shape[0]):
            out[i] = f(x[i], k[i], full, flip)
    else:
        for o in range(k.shape[0]):
            out[o] = sum(f(x[i], k[o, i], full, flip) for i in range(x.shape[0]))


@export
def conv2(out, x, k, full, flip):
    _apply(out, x, k, full, flip, 2)


@export
def conv3(out, x, k, full, flip):
    _apply(out, x, k, full, flip, 3)
