"""The numpy side of nn's spatial, volumetric and temporal kernels (THNN's
Spatial*, Volumetric*, Temporal* families, see th/lua/thnn/).

Every function takes arrays with a batch axis and d = 1, 2 or 3 spatial axes
(the Lua side adds the batch axis as a view), checked and resized by Lua.
Convolutions are im2col + one GEMM for the whole batch: the windows of the
padded input are a strided view (N, C, *out, *kernel), copied once into a
column matrix (C * prod(kernel), N * prod(out)) kept in nn's finput buffer
(THNN kept (N, C*prod(kernel), prod(out)) there: the same number of
elements); gradients with respect to inputs go back through col2im, one
vectorised add per kernel tap.  Pooling works on the same window views.
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
    win = _windows(_padded(x, k, s, pad, dil, out), k, s, dil, out)
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
    acc = _accumulator((n, c), size, k, s, pad, dil, out, res.dtype)
    for t, where in _taps(k, s, dil, out):
        acc[where] += cols[(slice(None), slice(None)) + t]
    res[...] = acc[(Ellipsis,) + tuple(slice(p, p + a) for p, a in zip(pad, size))]


def _fits(buf, shape, dtype):
    """buf (a tensor's buffer, possibly None) can hold an array of shape."""
    return (buf is not None and buf.dtype == dtype and buf.flags.c_contiguous
            and buf.size == int(np.prod(shape)))


def _columns(buf, x, k, s, pad, dil, out):
    """The windows of x (N, C, *S) as columns (C*prod(k), N*prod(out)): one
    GEMM then covers the whole batch.  Written into buf when it fits."""
    n, c = x.shape[:2]
    d = len(k)
    win = _windows(_padded(x, k, s, pad, dil, out), k, s, dil, out)   # (N, C, *out, *k)
    win = win.transpose((1,) + tuple(range(2 + d, 2 + 2 * d)) + (0,) + tuple(range(2, 2 + d)))
    shape = (c * int(np.prod(k)), n * int(np.prod(out)))
    if not _fits(buf, shape, x.dtype):
        return np.ascontiguousarray(win).reshape(shape)
    buf.reshape(win.shape)[...] = win
    return buf.reshape(shape)


def _uncolumns(res, cols, k, s, pad, dil, out):
    """res (N, C, *S) = the columns (C*prod(k), N*prod(out)) summed back at the
    input places they were taken from (one add per kernel tap)."""
    n, c = res.shape[:2]
    size = res.shape[2:]
    cols = cols.reshape((c,) + tuple(k) + (n,) + tuple(out))
    acc = _accumulator((c, n), size, k, s, pad, dil, out, res.dtype)
    for t, where in _taps(k, s, dil, out):
        acc[where] += cols[(slice(None),) + t]
    res[...] = acc[(Ellipsis,) + tuple(slice(p, p + a) for p, a in zip(pad, size))].swapaxes(0, 1)


def _planes_first(a):
    """a (N, C, *S) as the matrix (C, N*prod(S))."""
    return a.swapaxes(0, 1).reshape(a.shape[1], -1)


def _gemm(a, b, buf):
    """a . b, into buf when it fits."""
    shape = (a.shape[0], b.shape[1])
    if _fits(buf, shape, a.dtype):
        return np.dot(a, b, out=buf.reshape(shape))
    return np.dot(a, b)


def _store(out, res, b):
    """out (N, O, *S) = res (O, N*prod(S)) + b."""
    res = res.reshape((out.shape[1], out.shape[0]) + out.shape[2:]).swapaxes(0, 1)
    if b is None:
        out[...] = res
    else:
        np.add(res, b.reshape((1, -1) + (1,) * (out.ndim - 2)), out=out)


@export
def nn_conv_forward(out, x, w, b, cols, geom):
    """out = w (O, C*prod(k)) . columns(x) + b; cols is the columns buffer."""
    k, s, pad, dil = _geom(geom)
    d = len(k)
    x, out = _batch(x, d), _batch(out, d)
    c = _columns(cols, x, k, s, pad, dil, out.shape[2:])
    _store(out, np.dot(w.reshape(out.shape[1], -1), c), b)


@export
def nn_conv_backward(gin, gout, w, gcols, geom):
    """gin = the columns w^T . gout summed back into the input's shape."""
    k, s, pad, dil = _geom(geom)
    d = len(k)
    gin, gout = _batch(gin, d), _batch(gout, d)
    o = gout.shape[1]
    cols = _gemm(w.reshape(o, -1).T, _planes_first(gout), gcols)
    _uncolumns(gin, cols, k, s, pad, dil, gout.shape[2:])


@export
def nn_conv_accgrad(gw, gb, x, gout, cols, geom, scale):
    """gw += scale * gout . columns(x)^T, gb += scale * sum(gout); cols are
    the forward's columns when they still fit."""
    k, s, pad, dil = _geom(geom)
    d = len(k)
    x, gout = _batch(x, d), _batch(gout, d)
    o = gout.shape[1]
    g = _planes_first(gout)
    if gw is not None:
        shape = (x.shape[1] * int(np.prod(k)), g.shape[1])
        if _fits(cols, shape, x.dtype):
            c = cols.reshape(shape)
        else:
            c = _columns(None, x, k, s, pad, dil, gout.shape[2:])
        # (c . g^T)^T: OpenBLAS took ten times longer over g . c^T
        gw.reshape(o, -1)[...] += scale * np.dot(c, g.T).T
    if gb is not None:
        for per in gout.reshape(gout.shape[0], o, -1):   # THNN's sums: sample by sample, in order
            gb += scale * np.add.accumulate(per, axis=1)[:, -1]


@export
def nn_fullconv_forward(out, x, w, b, geom):
    """The transposed convolution: out = the columns w^T (C*prod(k), I) . x
    summed back into the output's shape, + b; w is (I, C, *k)."""
    k, s, pad, dil = _geom(geom)
    d = len(k)
    x, out = _batch(x, d), _batch(out, d)
    i = x.shape[1]
    _uncolumns(out, np.dot(w.reshape(i, -1).T, _planes_first(x)), k, s, pad, dil, x.shape[2:])
    if b is not None:
        out += b.reshape((1, -1) + (1,) * d)


@export
def nn_fullconv_backward(gin, gout, w, geom):
    """gin = w (I, C*prod(k)) . columns(gout)."""
    k, s, pad, dil = _geom(geom)
    d = len(k)
    gin, gout = _batch(gin, d), _batch(gout, d)
    i = gin.shape[1]
    _store(gin, np.dot(w.reshape(i, -1), _columns(None, gout, k, s, pad, dil, gin.shape[2:])), None)


@export
def nn_fullconv_accgrad(gw, gb, x, gout, geom, scale):
    k, s, pad, dil = _geom(geom)
    d = len(k)
    x, gout = _batch(x, d), _batch(gout, d)
    i = x.shape[1]
    if gw is not None:
        cols = _columns(None, gout, k, s, pad, dil, x.shape[2:])
        gw.reshape(i, -1)[...] += scale * np.dot(cols, _planes_first(x).T).T
    if gb is not None:
        gb += scale * gout.sum((0,) + tuple(range(2, 2 + d)))


def _hipad(size, k, s, pad, dil, out):
    """Padding after each axis so that every one of the out windows fits
    (ceil mode lets the last window pass the end)."""
    return tuple(max(p, (o - 1) * st + dl * (kk - 1) + 1 - n - p)
                 for n, kk, st, p, dl, o in zip(size, k, s, pad, dil, out))


def _padded(x, k, s, pad, dil, out):
    """x padded for its out windows (a convolution's last window may reach
    past the input's end: THNN's sizes are C divisions, its taps there zeros)."""
    return _pad(x, pad, _hipad(x.shape[2:], k, s, pad, dil, out))


def _accumulator(lead, size, k, s, pad, dil, out, dtype):
    """zeros shaped lead + the padded input's spatial sizes (as _padded's)."""
    hi = _hipad(size, k, s, pad, dil, out)
    return np.zeros(tuple(lead) + tuple(a + p + h for a, p, h in zip(size, pad, hi)), dtype)


def _start(out, s, pad, axis, d):
    """The first input index of each window along spatial axis `axis`,
    shaped to broadcast over (*out)."""
    shape = [1] * d
    shape[axis] = out[axis]
    return (np.arange(out[axis]) * s[axis] - pad[axis]).reshape(shape)


def _argmax_windows(x, k, s, pad, dil, out):
    """(max, tap index into the flattened kernel) of each window (N, C, *out),
    one vectorised pass per kernel tap: a later tap wins when greater (the
    original's rule: the first of equal maxima stays, a NaN never wins; a
    window of NaN and -inf alone has tap -1, no place)."""
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    xp = _pad(x, pad, _hipad(x.shape[2:], k, s, pad, dil, out), fill)
    best = np.full(x.shape[:2] + tuple(out), fill, x.dtype)
    tap = np.full(best.shape, -1 if x.dtype.kind == "f" else 0, np.int64)
    better = np.empty(best.shape, bool)
    for i, (_, where) in enumerate(_taps(k, s, dil, out)):
        v = xp[where]
        np.greater(v, best, out=better)
        np.copyto(best, v, where=better)
        np.copyto(tap, i, where=better)
    return best, tap


def _index_planes(x_shape, taps, s, pad, dil, out):
    """The 0-based flat index inside its input plane of the window taps
    (a tuple of per-axis tap offsets, shaped (N, C, *out))."""
    d = len(s)
    flat = 0
    for i in range(d):
        flat = flat * x_shape[2 + i] + (_start(out, s, pad, i, d) + taps[i] * dil[i])
    return flat


# index formats: what THNN stored in the indices tensor of each pooling
# family, and for a window with no place (tap -1): -1, 0, or -1's three low
# bytes (each family's -1 start value as it stored it)
NOPLACE = 0xFFFFFF


def _encode(fmt, tap, x_shape, k, s, pad, dil, out):
    if fmt == "tap":        # Temporal: 0-based offset in the window
        return tap
    per_tap = np.unravel_index(np.arange(int(np.prod(k))), k)
    if fmt == "flat":       # Spatial: 1-based index in the input plane
        d = len(k)
        offsets, base, outside = 0, 0, False
        for i in range(d):
            offsets = offsets * x_shape[2 + i] + per_tap[i] * dil[i]
            start = _start(out, s, pad, i, d)
            base = base * x_shape[2 + i] + start
            outside = outside | (start >= x_shape[2 + i])
        # a window wholly past the input (ceil mode without padding): index 0
        return np.where(outside | (tap < 0), 0, offsets[tap] + (base + 1))
    codes = per_tap[0] + 256 * per_tap[1] + 65536 * per_tap[2]     # Volumetric: t, h, w offsets as bytes
    return np.where(tap < 0, NOPLACE, codes[tap])


def _decode(fmt, idx, x_shape, s, pad, dil, out):
    """The 0-based flat index inside its input plane that idx designates."""
    if fmt == "flat":
        return idx - 1
    if fmt == "tap":
        taps, none = (idx,), idx == -1
    else:
        taps, none = (idx & 255, (idx >> 8) & 255, (idx >> 16) & 255), idx == NOPLACE
    return np.where(none, -1, _index_planes(x_shape, taps, s, pad, dil, out))


def _scatter(gin, flat, gout):
    """gin (N, C, *S) = sum of gout at the flat plane indices `flat` (-1: none),
    added one by one in order in gin's element type, as THNN's loops did
    (bincount adds in double: a float32 place three windows share rounded
    otherwise)."""
    n, c = gin.shape[:2]
    plane = int(np.prod(gin.shape[2:]))
    flat = flat.reshape(n * c, -1)
    if ((flat < -1) | (flat >= plane)).any():
        raise ValueError("Found an invalid max index (input planes have %d elements)" % plane)
    where = (flat + np.arange(n * c)[:, None] * plane).ravel()
    weights = gout.reshape(-1)
    keep = flat.ravel() >= 0
    if not keep.all():
        where, weights = where[keep], weights[keep]
    if gin.dtype == np.float64:
        total = np.bincount(where, weights, n * c * plane)
    else:
        total = np.zeros(n * c * plane, gin.dtype)
        np.add.at(total, where, weights)
    gin[...] = total.reshape(gin.shape)


@export
def nn_maxpool_forward(out, idx, x, geom, fmt, d):
    """out = the max of each window, idx = where it was (in format fmt)."""
    k, s, pad, dil = _geom(geom)
    x, out, idx = _batch(x, d), _batch(out, d), _batch(idx, d)
    o = out.shape[2:]
    val, tap = _argmax_windows(x, k, s, pad, dil, o)
    if val.dtype.kind == "f":       # THNN's start value, left where a window is empty
        val[val == -np.inf] = np.finfo(val.dtype).min
    out[...] = val
    idx[...] = _encode(fmt, tap, x.shape, k, s, pad, dil, o)


@export
def nn_maxpool_backward(gin, gout, idx, geom, fmt, d):
    """gin = the sum of gout at the places idx designates."""
    k, s, pad, dil = _geom(geom)
    gin, gout, idx = _batch(gin, d), _batch(gout, d), _batch(idx, d)
    _scatter(gin, _decode(fmt, idx, gin.shape, s, pad, dil, gout.shape[2:]), gout)


def _tapsum(xp, k, s, dil, out):
    """The sum of each window (N, C, *out), one add per kernel tap (a strided
    sum over the window axes is several times slower)."""
    taps = _taps(k, s, dil, out)
    _, where = next(taps)
    acc = xp[where].copy()
    for _, where in taps:
        acc += xp[where]
    return acc


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
    # THNN's sums start from +0 (a window of -0s gives +0), and a window past
    # the input's end (ceil mode), whose divisor is negative here, gives +0
    sums = _tapsum(xp, k, s, dil, o)
    sums += 0.0
    out[...] = sums / np.abs(_divisors(x.shape[2:], k, s, pad, o, include_pad))


@export
def nn_avgpool_backward(gin, gout, geom, include_pad, d):
    k, s, pad, dil = _geom(geom)
    gin, gout = _batch(gin, d), _batch(gout, d)
    o = gout.shape[2:]
    size = gin.shape[2:]
    # each window's share in the element type, added to its places window
    # after window in row-major order, as THNN did: the taps backwards give
    # every place its windows in that order (the last tap of a window meets
    # the places of the windows after it at earlier taps)
    share = (gout / _divisors(size, k, s, pad, o, include_pad)).astype(gin.dtype)
    hi = _hipad(size, k, s, pad, dil, o)
    acc = np.zeros(gin.shape[:2] + tuple(n + a + b for n, a, b in zip(size, pad, hi)), gin.dtype)
    for _, where in reversed(list(_taps(k, s, dil, o))):
        acc[where] += share
    gin[...] = acc[(Ellipsis,) + tuple(slice(p, p + n) for p, n in zip(pad, size))]


def _check_flat(flat, size):
    bad = (flat < 0) | (flat >= size)
    if bad.any():
        raise ValueError("Found an invalid max index %d (output volumes are of size %d)"
                         % (flat[bad].flat[0] + 1, size))


@export
def nn_maxunpool_forward(out, x, idx, geom, fmt, d):
    """out = zeros with each input element put back where idx says."""
    k, s, pad, dil = _geom(geom)
    out, x, idx = _batch(out, d), _batch(x, d), _batch(idx, d)
    n, c = out.shape[:2]
    plane = int(np.prod(out.shape[2:]))
    flat = _decode(fmt, idx, out.shape, s, pad, dil, x.shape[2:]).reshape(n * c, -1)
    _check_flat(flat, plane)
    res = np.zeros((n * c, plane), out.dtype)
    np.put_along_axis(res, flat, x.reshape(n * c, -1), 1)
    out[...] = res.reshape(out.shape)


@export
def nn_maxunpool_backward(gin, gout, idx, geom, fmt, d):
    k, s, pad, dil = _geom(geom)
    gin, gout, idx = _batch(gin, d), _batch(gout, d), _batch(idx, d)
    n, c = gout.shape[:2]
    flat = _decode(fmt, idx, gout.shape, s, pad, dil, gin.shape[2:]).reshape(n * c, -1)
    _check_flat(flat, int(np.prod(gout.shape[2:])))
    gin[...] = np.take_along_axis(gout.reshape(n * c, -1), flat, 1).reshape(gin.shape)


# SpatialSubSampling / TemporalSubSampling: a weight and a bias per plane
# times the sum of each window
def _winsum(x, k, s, out):
    return _tapsum(x, k, s, (1,) * len(k), out)


def _perplane(v, d):
    return v.reshape((1, -1) + (1,) * d)


@export
def nn_subsampling_forward(out, x, w, b, geom, d, wide=False):
    """wide: the windows summed in double (THNN's TemporalSubSampling on
    one feature, a contiguous column), then rounded to the element type."""
    k, s, pad, dil = _geom(geom)
    out, x = _batch(out, d), _batch(x, d)
    sums = _winsum(x.astype(np.float64) if wide else x, k, s, out.shape[2:]).astype(x.dtype, copy=False)
    res = sums * _perplane(w, d)
    if b is not None:
        res += _perplane(b, d)
    out[...] = res


@export
def nn_subsampling_backward(gin, gout, w, geom, d):
    k, s, pad, dil = _geom(geom)
    gin, gout = _batch(gin, d), _batch(gout, d)
    share = gout * _perplane(w, d)
    acc = np.zeros(gin.shape, gin.dtype)
    # window after window in row-major order, as THNN added them (the taps
    # backwards, as in nn_avgpool_backward)
    for _, where in reversed(list(_taps(k, s, dil, gout.shape[2:]))):
        acc[where] += share
    gin[...] = acc


def _inorder(v):
    """v (N, C, ...) summed over its last axes one element after another in
    row-major order, in its own type (N, C): THNN's order, to its last bit
    (np.sum pairs its terms; a cumulative sum does not)."""
    flat = v.reshape(v.shape[:2] + (-1,))
    return np.cumsum(flat, axis=2)[:, :, -1] if flat.shape[2] else np.zeros(v.shape[:2], v.dtype)


@export
def nn_subsampling_accgrad(gw, gb, x, gout, geom, d, scale):
    """Each sample's sums (of gradOutput times each window's inputs, tap by
    tap; of gradOutput) added to the gradients in turn, as THNN did."""
    k, s, pad, dil = _geom(geom)
    x, gout = _batch(x, d), _batch(gout, d)
    if gw is not None:
        taps = gout[(Ellipsis,) + (None,) * d] * _windows(x, k, s, (1,) * d, gout.shape[2:])
        for part in _inorder(taps):
            gw += gw.dtype.type(scale) * part
    if gb is not None:
        for part in _inorder(gout):
            gb += gb.dtype.type(scale) * part


# TemporalConvolution: frames x features, the window of kw frames seen flat
def _frames(x, kw, dw, nout):
    """(N, nout, kw * F): the windows of x (N, T, F) as rows."""
    x = np.ascontiguousarray(x)
    st = x.strides
    return as_strided(x, (x.shape[0], nout, kw * x.shape[2]), (st[0], dw * st[1], st[2]), writeable=False)


@export
def nn_temporal_conv_forward(out, x, w, b, kw, dw):
    out, x = _batch(out, 1), _batch(x, 1)
    res = np.matmul(_frames(x, kw, dw, out.shape[1]), w.T)
    if b is not None:
        res += b
    out[...] = res


@export
def nn_temporal_conv_backward(gin, gout, w, kw, dw):
    gin, gout = _batch(gin, 1), _batch(gout, 1)
    cols = np.matmul(gout, w)
    f = gin.shape[2]
    nout = gout.shape[1]
    acc = np.zeros(gin.shape, gin.dtype)
    for t in range(kw):
        acc[:, t:t + dw * (nout - 1) + 1:dw] += cols[:, :, t * f:(t + 1) * f]
    gin[...] = acc


@export
def nn_temporal_conv_accgrad(gw, gb, x, gout, kw, dw, scale):
    x, gout = _batch(x, 1), _batch(gout, 1)
    g = gout.reshape(-1, gout.shape[2])
    if gw is not None:
        cols = _frames(x, kw, dw, gout.shape[1]).reshape(g.shape[0], -1)
        gw += scale * np.matmul(g.T, cols)
    if gb is not None:
        gb += scale * g.sum(0)


# nearest and (bi/tri)linear upsampling of the last d axes
@export
def nn_upnearest_forward(out, x, factor, d):
    res = x
    for axis in range(x.ndim - d, x.ndim):
        res = np.repeat(res, factor, axis)
    out[...] = res


@export
def nn_upnearest_backward(gin, gout, factor, d):
    """gin = the sum of each factor^d block of gout, added one by one with
    the first of its axes varying fastest, as recorded from the original."""
    acc = np.zeros(gin.shape, gin.dtype)
    for offsets in itertools.product(range(factor), repeat=d):
        acc += gout[(Ellipsis,) + tuple(slice(o, None, factor) for o in reversed(offsets))]
    gin[...] = acc


def _linear(nout, nin, dtype):
    """The (nout, nin) matrix of linear interpolation with the corners
    aligned: source = i * (nin - 1) / (nout - 1), worked out in single
    precision whatever the tensor type, as THNN did."""
    ratio = np.float32((nin - 1) / (nout - 1) if nout > 1 else 0.0)
    src = np.arange(nout, dtype=np.float32) * ratio
    lo = np.minimum(src.astype(np.int64), nin - 1)
    hi = np.minimum(lo + 1, nin - 1)
    lam = (src - lo.astype(np.float32)).astype(dtype)
    m = np.zeros((nout, nin), dtype)
    rows = np.arange(nout)
    np.add.at(m, (rows, lo), 1 - lam)
    np.add.at(m, (rows, hi), lam)
    return m


def _along(res, mats, transpose):
    """res with each of its last axes multiplied by its matrix."""
    lead = res.ndim - len(mats)
    for i, m in enumerate(mats):
        res = np.moveaxis(np.tensordot(m.T if transpose else m, res, (1, lead + i)), 0, lead + i)
    return res


@export
def nn_uplinear_forward(out, x, d):
    mats = [_linear(o, n, x.dtype) for o, n in zip(out.shape[-d:], x.shape[-d:])]
    out[...] = _along(x, mats, False)


@export
def nn_uplinear_backward(gin, gout, d):
    mats = [_linear(o, n, gout.dtype) for o, n in zip(gout.shape[-d:], gin.shape[-d:])]
    gin[...] = _along(gout, mats, True)


# connection-table convolutions (SpatialConvolutionMap, SpatialFullConvolutionMap):
# the weight (nConn, kH, kW) spread into the dense weight of the plain convolution
def _dense(w, conn, rows, cols, first_is_out):
    """The dense (rows, cols, kH, kW) weight: conn[k] = (input plane, output
    plane), 1-based; kernel k goes to [out, in] (or [in, out])."""
    src = conn[:, 0].astype(np.int64) - 1
    dst = conn[:, 1].astype(np.int64) - 1
    dense = np.zeros((rows, cols) + w.shape[1:], w.dtype)
    np.add.at(dense, (dst, src) if first_is_out else (src, dst), w)
    return dense


def _sparse(dense, conn, first_is_out):
    """The (nConn, kH, kW) kernels of a dense weight gradient."""
    src = conn[:, 0].astype(np.int64) - 1
    dst = conn[:, 1].astype(np.int64) - 1
    return dense[dst, src] if first_is_out else dense[src, dst]


@export
def nn_convmap_forward(out, x, w, b, conn, nin, nout, geom, full):
    nin = x.shape[-3]       # at least the planes the table names
    dense = _dense(w, conn, nin if full else nout, nout if full else nin, not full)
    (nn_fullconv_forward if full else _conv_forward)(out, x, dense, b, geom)


def _conv_forward(out, x, w, b, geom):
    nn_conv_forward(out, x, w, b, None, geom)


@export
def nn_convmap_backward(gin, gout, w, conn, nin, nout, geom, full):
    nin = gin.shape[-3]
    dense = _dense(w, conn, nin if full else nout, nout if full else nin, not full)
    if full:
        nn_fullconv_backward(gin, gout, dense, geom)
    else:
        nn_conv_backward(gin, gout, dense, None, geom)


@export
def nn_convmap_accgrad(gw, gb, x, gout, conn, nin, nout, geom, full, scale):
    nin = x.shape[-3]
    dense = np.zeros(((nin, nout) if full else (nout, nin)) + gw.shape[1:], gw.dtype)
    if full:
        nn_fullconv_accgrad(dense, gb, x, gout, geom, scale)
    else:
        nn_conv_accgrad(dense, gb, x, gout, None, geom, scale)
    gw += _sparse(dense, conn, not full)


# The columns of SpatialConvolutionLocal, TemporalRowConvolution and the 3D
# transposed convolutions, whose products are made in Lua as THNN made them
# (thnn/SpatialConvolutionLocal.lua, TemporalRowConvolution.lua, conv.lua)
@export
def nn_columns(cols, x, geom, *out):
    """cols ((N,) C*prod(k), prod(out)), contiguous = the columns of x ((N,) C, *S)."""
    k, s, pad, dil = _geom(geom)
    x = np.ascontiguousarray(x)   # (a transposed input's windows gathered faster from a copy)
    if not np.shares_memory(_im2col(cols, _batch(x, len(k)), k, s, pad, dil, out), cols):
        raise ValueError("the columns buffer does not fit")


@export
def nn_conv_columns(cols, x, geom, *out):
    """cols (C*prod(k), N*prod(out)), contiguous = the columns of x ((N,) C, *S),
    as the forward keeps them."""
    k, s, pad, dil = _geom(geom)
    if not np.shares_memory(_columns(cols, _batch(x, len(k)), k, s, pad, dil, out), cols):
        raise ValueError("the columns buffer does not fit")


@export
def nn_conv_fold(gin, cols, geom, *out):
    """gin ((N,) C, *S) = the columns (C*prod(k), N*prod(out)) added up at their places."""
    k, s, pad, dil = _geom(geom)
    _uncolumns(_batch(gin, len(k)), cols, k, s, pad, dil, out)


@export
def nn_columns_fold(gin, cols, geom, *out):
    """gin ((N,) C, *S) = the columns ((N,) C*prod(k), prod(out)) added up at their places."""
    k, s, pad, dil = _geom(geom)
    gin = _batch(gin, len(k))
    _col2im(gin, cols.reshape(gin.shape[0], -1, int(np.prod(out))), k, s, pad, dil, out)


# SpatialDepthWiseConvolution: input plane j by kernel [i][j] gives output
# plane j * nOut + i (weight nOut x nIn*kH*kW, bias nOut x nIn)
def _depthcols(x, k, s, pad, dil, out):
    n, c = x.shape[:2]
    return _im2col(None, x, k, s, pad, dil, out).reshape(n, c, -1, int(np.prod(out)))   # (N, C, K, P)


def _depthkernels(w, c, k):
    return w.reshape(-1, c, int(np.prod(k))).transpose(1, 0, 2)                # (C, O, K)


@export
def nn_depthwise_forward(out, x, w, b, geom):
    k, s, pad, dil = _geom(geom)
    x, out = _batch(x, 2), _batch(out, 2)
    n, c = x.shape[:2]
    res = np.matmul(_depthkernels(w, c, k), _depthcols(x, k, s, pad, dil, out.shape[2:]))   # (N, C, O, P)
    if b is not None:
        res += b.reshape(-1, c).T.reshape(1, c, -1, 1)
    out[...] = res.reshape(out.shape)


@export
def nn_depthwise_backward(gin, gout, w, geom, gcols=None):
    """gcols: where THNN kept the gradient's columns (fgradInput), or None."""
    k, s, pad, dil = _geom(geom)
    gin, gout = _batch(gin, 2), _batch(gout, 2)
    n, c = gin.shape[:2]
    g = gout.reshape(n, c, -1, int(np.prod(gout.shape[2:])))                   # (N, C, O, P)
    cols = np.matmul(_depthkernels(w, c, k).transpose(0, 2, 1), g)             # (N, C, K, P)
    if gcols is not None:
        gcols[...] = cols.reshape(gcols.shape)
    _col2im(gin, cols, k, s, pad, dil, gout.shape[2:])


@export
def nn_depthwise_columns(cols, x, geom, oh, ow):
    """cols (N, C, K, P) = each input plane's columns (kernel taps x places)."""
    k, s, pad, dil = _geom(geom)
    cols[...] = _depthcols(_batch(x, 2), k, s, pad, dil, (int(oh), int(ow))).reshape(cols.shape)


@export
def nn_depthwise_accgrad(gw, gb, x, gout, geom, scale, cols=None):
    """cols: the forward's columns (finput), or None: made from x."""
    k, s, pad, dil = _geom(geom)
    x, gout = _batch(x, 2), _batch(gout, 2)
    n, c = x.shape[:2]
    g = gout.reshape(n, c, -1, int(np.prod(gout.shape[2:])))                   # (N, C, O, P)
    if gw is not None:
        if cols is None:
            cols = _depthcols(x, k, s, pad, dil, gout.shape[2:])               # (N, C, K, P)
        else:
            cols = cols.reshape(n, c, -1, int(np.prod(gout.shape[2:])))
        gw += scale * np.einsum('ncop,nckp->ock', g, cols).reshape(gw.shape)
    if gb is not None:
        gb += scale * g.sum((0, 3)).T.reshape(gb.shape)


# unfolded_copy / unfolded_acc: im2col and its adjoint on one image
@export
def nn_unfolded_copy(cols, x, geom):
    k, s, pad, dil = _geom(geom)
    out = tuple(int(v) for v in _outshape(x.shape[1:], k, s, pad, dil))
    cols[...] = _im2col(None, x[None], k, s, pad, dil, out).reshape(cols.shape)


@export
def nn_unfolded_acc(cols, x, geom):
    k, s, pad, dil = _geom(geom)
    out = tuple(int(v) for v in _outshape(x.shape[1:], k, s, pad, dil))
    acc = np.empty((1,) + x.shape, x.dtype)
    _col2im(acc, cols.reshape(1, -1, int(np.prod(out))), k, s, pad, dil, out)
    x += acc[0]


def _outshape(size, k, s, pad, dil):
    return [(n + 2 * p - dl * (kk - 1) - 1) // st + 1 for n, kk, st, p, dl in zip(size, k, s, pad, dil)]


# fractional max pooling: per plane, window starts drawn from a sample u in
# [0, 1): start_i = floor((i + u) * alpha) - floor(u * alpha), alpha =
# (in - pool) / (out - 1), the last window ending at the input's end
def _fractional_starts(u, nin, nout, pool):
    """(N, C, nout) window starts for samples u (N, C)."""
    if nout == 1:
        return np.full(u.shape + (1,), nin - pool, np.int64)
    alpha = (nin - pool) / (nout - 1)
    i = np.arange(nout - 1)
    starts = (np.floor((i + u[..., None]) * alpha) - np.floor(u[..., None] * alpha)).astype(np.int64)
    return np.concatenate([starts, np.full(u.shape + (1,), nin - pool, np.int64)], -1)


def _fractional_index(x, samples, out, pool):
    """The flat index in its plane of every element of every window,
    (N, C, *out, prod(pool)), samples (N, C, d) ordered width first."""
    n, c = x.shape[:2]
    d = len(out)
    size = x.shape[2:]
    flat = np.zeros((n, c) + tuple(out) + tuple(pool), np.int64)
    for i in range(d):
        starts = _fractional_starts(samples[:, :, d - 1 - i], size[i], out[i], pool[i])
        pos = starts[..., None] + np.arange(pool[i])                        # (N, C, out_i, pool_i)
        shape = [n, c] + [1] * (2 * d)
        shape[2 + i], shape[2 + d + i] = out[i], pool[i]
        flat = flat * size[i] + pos.reshape(shape)
    return flat.reshape((n, c) + tuple(out) + (-1,))


@export
def nn_fractional_forward(out, idx, x, samples, pool):
    pool = tuple(int(v) for v in pool.values())
    d = len(pool)
    x, out, idx = _batch(x, d), _batch(out, d), _batch(idx, d)
    samples = samples[None] if samples.ndim == 2 else samples
    flat = _fractional_index(x, samples, out.shape[2:], pool)
    n, c = x.shape[:2]
    vals = np.take_along_axis(x.reshape(n, c, -1), flat.reshape(n, c, -1), 2).reshape(flat.shape)
    tap = vals.argmax(-1)[..., None]
    out[...] = np.take_along_axis(vals, tap, -1)[..., 0]
    idx[...] = np.take_along_axis(flat, tap, -1)[..., 0] + 1


@export
def nn_fractional_backward(gin, gout, idx, d):
    gin, gout, idx = _batch(gin, d), _batch(gout, d), _batch(idx, d)
    _scatter(gin, idx - 1, gout)


# TemporalRowConvolution's gradInput: THNN's gemm made each product alone
# (a sum of one), rounded, and its fold added them up tap by tap
@export
def nn_rowconv_backward(gin, gout, w, kw, dw, pad):
    """gin, gout as (N, F, T) views."""
    gin, gout = _batch(gin, 1), _batch(gout, 1)
    wk = w.reshape(w.shape[0], kw)
    size = gin.shape[2]
    acc = _accumulator(gin.shape[:2], (size,), (kw,), (dw,), (pad,), (1,), gout.shape[2:], gin.dtype)
    for (t,), where in _taps((kw,), (dw,), (1,), gout.shape[2:]):
        acc[where] += gout * wk[:, t][None, :, None]
    gin[...] = acc[:, :, pad:pad + size]


# SpatialClassNLLCriterion: -weight[t] * input[n, t, h, w] over every place
@export
def nn_spatial_nll_forward(out, total, x, target, weights, size_average):
    x = _batch(x, 2)
    t = (target.reshape(x.shape[0], 1, -1) - 1).astype(np.int64)
    if (t < 0).any() or (t >= x.shape[1]).any():
        raise ValueError("target out of range")
    picked = np.take_along_axis(x.reshape(x.shape[0], x.shape[1], -1), t, 1)
    w = weights[t] if weights is not None else np.ones(t.shape, x.dtype)
    tw = w.sum()
    loss = -(picked * w).sum()
    if size_average and tw != 0:
        loss = loss / tw
    out.reshape(-1)[0] = loss
    total.reshape(-1)[0] = tw


@export
def nn_spatial_nll_backward(gin, x, target, weights, size_average, total):
    gin = _batch(gin, 2)
    n, c = gin.shape[:2]
    t = (target.reshape(n, 1, -1) - 1).astype(np.int64)
    w = weights[t] if weights is not None else np.ones(t.shape, gin.dtype)
    tw = float(total.reshape(-1)[0])
    g = -w / tw if size_average and tw != 0 else -w
    res = np.zeros((n, c, t.shape[2]), gin.dtype)
    np.put_along_axis(res, t, g, 1)
    gin[...] = res.reshape(gin.shape)
