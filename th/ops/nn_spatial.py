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


def _hipad(size, k, s, pad, dil, out):
    """Padding after each axis so that every one of the out windows fits
    (ceil mode lets the last window pass the end)."""
    return tuple(max(p, (o - 1) * st + dl * (kk - 1) + 1 - n - p)
                 for n, kk, st, p, dl, o in zip(size, k, s, pad, dil, out))


def _start(out, s, pad, axis, d):
    """The first input index of each window along spatial axis `axis`,
    shaped to broadcast over (*out)."""
    shape = [1] * d
    shape[axis] = out[axis]
    return (np.arange(out[axis]) * s[axis] - pad[axis]).reshape(shape)


def _argmax_windows(x, k, s, pad, dil, out):
    """(max, tap index (N, C, *out) into the flattened kernel) of each window."""
    d = len(k)
    lo = pad
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    xp = _pad(x, lo, _hipad(x.shape[2:], k, s, pad, dil, out), fill)
    win = _windows(xp, k, s, dil, out).reshape(x.shape[:2] + tuple(out) + (-1,))
    tap = win.argmax(-1)
    return np.take_along_axis(win, tap[..., None], -1)[..., 0], tap


def _index_planes(x_shape, tap, k, s, pad, dil, out):
    """The 0-based flat index inside its input plane of each window's tap."""
    d = len(k)
    taps = np.unravel_index(tap, k)
    flat = 0
    for i in range(d):
        flat = flat * x_shape[2 + i] + (_start(out, s, pad, i, d) + taps[i] * dil[i])
    return flat


# index formats: what THNN stored in the indices tensor of each pooling family
def _encode(fmt, tap, x_shape, k, s, pad, dil, out):
    if fmt == "flat":       # Spatial: 1-based index in the input plane
        return _index_planes(x_shape, tap, k, s, pad, dil, out) + 1
    if fmt == "tap":        # Temporal: 0-based offset in the window
        return tap
    taps = np.unravel_index(tap, k)     # Volumetric: t, h, w offsets as bytes
    return taps[0] + 256 * taps[1] + 65536 * taps[2]


def _decode(fmt, idx, x_shape, k, s, pad, dil, out):
    """The 0-based flat index inside its input plane that idx designates."""
    if fmt == "flat":
        return idx - 1
    if fmt == "tap":
        tap = idx
    else:
        idx = idx & 0xffffff
        tap = np.ravel_multi_index((idx & 255, (idx >> 8) & 255, idx >> 16), k, mode="clip")
    return _index_planes(x_shape, tap, k, s, pad, dil, out)


def _scatter(gin, flat, gout):
    """gin (N, C, *S) = sum of gout at the flat plane indices `flat`."""
    n, c = gin.shape[:2]
    plane = int(np.prod(gin.shape[2:]))
    where = (flat.reshape(n * c, -1) + np.arange(n * c)[:, None] * plane).ravel()
    total = np.bincount(where, gout.reshape(-1), n * c * plane)
    gin[...] = total.reshape(gin.shape)


@export
def nn_maxpool_forward(out, idx, x, geom, fmt, d):
    """out = the max of each window, idx = where it was (in format fmt)."""
    k, s, pad, dil = _geom(geom)
    x, out, idx = _batch(x, d), _batch(out, d), _batch(idx, d)
    o = out.shape[2:]
    val, tap = _argmax_windows(x, k, s, pad, dil, o)
    out[...] = val
    idx[...] = _encode(fmt, tap, x.shape, k, s, pad, dil, o)


@export
def nn_maxpool_backward(gin, gout, idx, geom, fmt, d):
    """gin = the sum of gout at the places idx designates."""
    k, s, pad, dil = _geom(geom)
    gin, gout, idx = _batch(gin, d), _batch(gout, d), _batch(idx, d)
    _scatter(gin, _decode(fmt, idx, gin.shape, k, s, pad, dil, gout.shape[2:]), gout)


def _divisors(size, k, s, pad, out, include_pad):
    """The number each window's sum is divided by, shaped (*out)."""
    d = len(k)
    div = 1
    for i in range(d):
        start = _start(out, s, pad, i, d)
        end = np.minimum(start + k[i], size[i] + pad[i])
        if include_pad:
            div = div * (end - start)
        else:
            div = div * (np.minimum(end, size[i]) - np.maximum(start, 0))
    return div


@export
def nn_avgpool_forward(out, x, geom, include_pad, d):
    k, s, pad, dil = _geom(geom)
    x, out = _batch(x, d), _batch(out, d)
    o = out.shape[2:]
    xp = _pad(x, pad, _hipad(x.shape[2:], k, s, pad, dil, o))
    win = _windows(xp, k, s, dil, o)
    out[...] = win.sum(tuple(range(2 + d, 2 + 2 * d))) / _divisors(x.shape[2:], k, s, pad, o, include_pad)


@export
def nn_avgpool_backward(gin, gout, geom, include_pad, d):
    k, s, pad, dil = _geom(geom)
    gin, gout = _batch(gin, d), _batch(gout, d)
    o = gout.shape[2:]
    size = gin.shape[2:]
    share = gout / _divisors(size, k, s, pad, o, include_pad)
    hi = _hipad(size, k, s, pad, dil, o)
    acc = np.zeros(gin.shape[:2] + tuple(n + a + b for n, a, b in zip(size, pad, hi)), gin.dtype)
    for _, where in _taps(k, s, dil, o):
        acc[where] += share
    gin[...] = acc[(Ellipsis,) + tuple(slice(p, p + n) for p, n in zip(pad, size))]
