"""The numpy side of nn's spatial, volumetric and temporal kernels (THNN's
Spatial*, Volumetric*, Temporal* families, see th/lua/thnn/).

Every function takes arrays with a batch axis and d = 1, 2 or 3 spatial axes
(the Lua side adds the batch axis as a view), checked and resized by Lua.
Convolutions are im2col + one batched GEMM: the windows of the padded input
are a strided view (N, C, *out, *kernel), copied once into the column buffer
(nn's finput) in the layout (N, C * prod(kernel), prod(out)); the gradients
with respect to inputs go back through col2im, one vectorised add per kernel
tap.  Pooling works on the same window views.
"""
import itertools

import numpy as np
from numpy.lib.stride_tricks import as_strided

from th.ops import export


def _geom(g):
    """The Lua list {k..., s..., pad..., dil...} of d-dimensional windows as
    four tuples."""
    v = [int(x) for x in g.values()]
    d = len(v) // 4
    return tuple(tuple(v[i * d:(i + 1) * d]) for i in range(4))


def _batch(a, d):
    """a with a batch axis: a view (N, C, *spatial)."""
    return a[None] if a is not None and a.ndim == d + 1 else a


def _pad(x, lo, hi, value=0):
    """x (N, C, *S) padded by lo before and hi after each spatial axis."""
    if not any(lo) and not any(hi):
        return x
    shape = x.shape[:2] + tuple(s + a + b for s, a, b in zip(x.shape[2:], lo, hi))
    xp = np.full(shape, value, x.dtype)
    xp[(Ellipsis,) + tuple(slice(a, a + s) for a, s in zip(lo, x.shape[2:]))] = x
    return xp


def _windows(xp, k, s, dil, out):
    """The view (N, C, *out, *k) of xp's windows: out[i] starts at i * s."""
    st = xp.strides
    return as_strided(xp, xp.shape[:2] + tuple(out) + tuple(k),
                      st[:2] + tuple(a * b for a, b in zip(st[2:], s))
                      + tuple(a * b for a, b in zip(st[2:], dil)), writeable=False)


def _taps(k, s, dil, out):
    """(kernel index, slices of the padded input it meets) for each tap."""
    for t in itertools.product(*(range(n) for n in k)):
        yield t, (Ellipsis,) + tuple(slice(i * dl, i * dl + st * (o - 1) + 1, st)
                                     for i, dl, st, o in zip(t, dil, s, out))


def _im2col(cols, x, k, s, pad, dil, out):
    """cols (N, C*prod(k), prod(out)) = the windows of x; cols may be None."""
    n, c = x.shape[:2]
    d = len(k)
    win = _windows(_pad(x, pad, pad), k, s, dil, out)
    win = win.transpose((0, 1) + tuple(range(2 + d, 2 + 2 * d)) + tuple(range(2, 2 + d)))
    shape = (n, c * int(np.prod(k)), int(np.prod(out)))
    if cols is None or not cols.flags.c_contiguous or cols.size != np.prod(shape):
        return np.ascontiguousarray(win).reshape(shape)
    cols.reshape(win.shape)[...] = win
    return cols.reshape(shape)


def _col2im(res, cols, k, s, pad, dil, out):
    """res (N, C, *S) = the sum of the columns (N, C*prod(k), prod(out)) back
    at the input places they came from."""
    n, c = res.shape[:2]
    size = res.shape[2:]
    cols = cols.reshape((n, c) + tuple(k) + tuple(out))
    acc = np.zeros((n, c) + tuple(a + 2 * p for a, p in zip(size, pad)), res.dtype)
    for t, where in _taps(k, s, dil, out):
        acc[where] += cols[(slice(None), slice(None)) + t]
    res[...] = acc[(Ellipsis,) + tuple(slice(p, p + a) for p, a in zip(pad, size))]


def _flat(a, n, rows):
    """a seen as (n, rows, -1) (a view when it can be)."""
    return a.reshape(n, rows, -1)


@export
def nn_conv_forward(out, x, w, b, cols, geom):
    """out = w (O, C*prod(k)) applied to the windows of x, + b."""
    k, s, pad, dil = _geom(geom)
    d = len(k)
    x, out = _batch(x, d), _batch(out, d)
    n, o = out.shape[:2]
    cols = _im2col(cols, x, k, s, pad, dil, out.shape[2:])
    res = np.matmul(w.reshape(o, -1), cols)
    if b is not None:
        res += b.reshape(1, o, 1)
    out[...] = res.reshape(out.shape)


@export
def nn_conv_backward(gin, gout, w, geom):
    """gin = the transposed convolution of gout by w."""
    k, s, pad, dil = _geom(geom)
    d = len(k)
    gin, gout = _batch(gin, d), _batch(gout, d)
    n, o = gout.shape[:2]
    cols = np.matmul(w.reshape(o, -1).T, _flat(gout, n, o))
    _col2im(gin, cols, k, s, pad, dil, gout.shape[2:])


@export
def nn_conv_accgrad(gw, gb, x, gout, cols, geom, scale):
    """gw += scale * gout . windows(x)^T, gb += scale * sum(gout); cols are the
    forward's columns when they still fit."""
    k, s, pad, dil = _geom(geom)
    d = len(k)
    x, gout = _batch(x, d), _batch(gout, d)
    n, o = gout.shape[:2]
    g = _flat(gout, n, o)
    if gw is not None:
        rows = x.shape[1] * int(np.prod(k))
        if cols is None or cols.size != n * rows * g.shape[2]:
            cols = _im2col(None, x, k, s, pad, dil, gout.shape[2:])
        cols = cols.reshape(n, rows, -1)
        gw.reshape(o, rows)[...] += scale * np.tensordot(g, cols, ([0, 2], [0, 2]))
    if gb is not None:
        gb += scale * g.sum((0, 2))


@export
def nn_fullconv_forward(out, x, w, b, geom):
    """The transposed convolution: out = col2im(w^T (C*prod(k), I) . x) + b,
    w being (I, C, *k)."""
    k, s, pad, dil = _geom(geom)
    d = len(k)
    x, out = _batch(x, d), _batch(out, d)
    n, i = x.shape[:2]
    cols = np.matmul(w.reshape(i, -1).T, _flat(x, n, i))
    _col2im(out, cols, k, s, pad, dil, x.shape[2:])
    if b is not None:
        out += b.reshape((1, -1) + (1,) * d)


@export
def nn_fullconv_backward(gin, gout, w, geom):
    """gin = w (I, C*prod(k)) applied to the windows of gout."""
    k, s, pad, dil = _geom(geom)
    d = len(k)
    gin, gout = _batch(gin, d), _batch(gout, d)
    n, i = gin.shape[:2]
    cols = _im2col(None, gout, k, s, pad, dil, gin.shape[2:])
    gin[...] = np.matmul(w.reshape(i, -1), cols).reshape(gin.shape)


@export
def nn_fullconv_accgrad(gw, gb, x, gout, geom, scale):
    k, s, pad, dil = _geom(geom)
    d = len(k)
    x, gout = _batch(x, d), _batch(gout, d)
    n, i = x.shape[:2]
    if gw is not None:
        cols = _im2col(None, gout, k, s, pad, dil, x.shape[2:])
        gw.reshape(i, -1)[...] += scale * np.tensordot(_flat(x, n, i), cols, ([0, 2], [0, 2]))
    if gb is not None:
        gb += scale * gout.sum((0,) + tuple(range(2, 2 + d)))
