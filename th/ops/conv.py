"""2-D and 3-D convolution and cross-correlation of integer tensors (TH's
THTensorConv.c forms; Float and Double ones: th/lua/torch/convplanes.lua).

Everything reduces to adding the 'valid' 2-D cross-correlation of one plane
with one kernel into an output plane: a full operation is a valid one on the
zero-padded input, a convolution is a cross-correlation with the flipped
kernel, 3-D sums 2-D planes over the kernel's depth.  As in TH, the output
accumulates one kernel tap at a time (out += k[a, b] * the shifted input),
which keeps integer data exact.  A tap is one vector update over
a cache-sized block of output rows seen flat with the input's row length:
output (i, j) sits at i * width + j, and the columns past the valid ones
collect wrapped-around sums that are dropped.
"""
import numpy as np

from th.ops import export

# Elements of the block of output rows being accumulated: it stays in cache.
BLOCK = 10000


def _add(x, y, a):
    """y += a * x in place, in the element type: wraps around as C integers do."""
    y += x * a


def _taps(x, k, width):
    """(flat offset, weight) of each kernel element, row by row; zero weights
    add nothing to integers."""
    keep = k != 0
    return [(a * width + b, k[a, b]) for a, b in zip(*np.nonzero(keep))]


def _xcorr(out, x, k, first):
    """out (oh, ow, any strides) = [out +] the valid cross-correlation of the
    contiguous plane x with k; `first` overwrites instead of adding."""
    oh, ow = out.shape
    width = x.shape[1]
    flat = x.reshape(-1)
    taps = _taps(x, k, width)
    rows = max(1, min(oh, (BLOCK + k.shape[1] - 1) // width))
    buf = np.zeros(rows * width, out.dtype)
    for r0 in range(0, oh, rows):
        r1 = min(oh, r0 + rows)
        n = (r1 - r0) * width - (k.shape[1] - 1)    # up to the last valid output
        acc = buf[:n]
        block = buf[:(r1 - r0) * width].reshape(r1 - r0, width)[:, :ow]
        block[...] = 0 if first else out[r0:r1]
        base = r0 * width
        for off, v in taps:
            _add(flat[base + off:base + off + n], acc, v)
        out[r0:r1] = block


def _volume(out, x, k, first):
    """Output slice d sums slice d + c of the input by kernel slice c, over c."""
    for d in range(out.shape[0]):
        for c in range(k.shape[0]):
            _xcorr(out[d], x[d + c], k[c], first and c == 0)


def _apply(out, x, k, full, flip, base):
    """'mul': one input with one kernel; 'cmul': slice i with kernel i;
    'mv': output o sums input slice i with kernel [o][i]."""
    f = _xcorr if base == 2 else _volume
    # a copy: out may share the kernel's memory
    k = np.array(k[(Ellipsis,) + (slice(None, None, -1),) * base] if flip else k)
    if full:
        lead = [(0, 0)] * (x.ndim - base)
        x = np.pad(x, lead + [(s - 1, s - 1) for s in k.shape[-base:]])
    elif np.may_share_memory(out, x):
        x = x.copy()        # out is written while x is still being read
    x = np.ascontiguousarray(x)
    if x.ndim == base:
        f(out, x, k, True)
    elif k.ndim == x.ndim:
        for i in range(x.shape[0]):
            f(out[i], x[i], k[i], True)
    else:
        for o in range(k.shape[0]):
            for i in range(x.shape[0]):
                f(out[o], x[i], k[o, i], i == 0)


@export
def conv2(out, x, k, full, flip):
    _apply(out, x, k, full, flip, 2)


@export
def conv3(out, x, k, full, flip):
    _apply(out, x, k, full, flip, 3)
