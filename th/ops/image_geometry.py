"""Geometric transforms of the image package (what libimage did in C), vectorised.

Images are C x H x W or H x W views of tensor memory; results are written into
the destination view.  Coordinates are 0-based pixel centres.  Interpolation
is done in float32 for a FloatTensor (as image's C did), else in float64; an
integer (ByteTensor) result is rounded to nearest and saturated to 0..255.

scale:  bilinear works one dimension at a time (width, then height), keeping
        the intermediate image in the tensor's own type: enlarging interpolates
        linearly between the first and last pixels (corners aligned), shrinking
        averages the source over each destination pixel's footprint (box filter).
        bicubic is Catmull-Rom with corners aligned, the pixel beyond an edge
        extrapolated linearly (2 p0 - p1).  simple takes the pixel floor(i * src/dst).
"""
import math

import numpy as np

from th.ops import export


def _store(dst, values):
    """dst[...] = values, rounded and saturated for integer tensors."""
    if dst.dtype.kind in "iu":
        info = np.iinfo(dst.dtype)
        values = np.clip(np.floor(values + 0.5), info.min, info.max)
    dst[...] = values


def _along(x, weights, axis):
    """Applies a resampling (a sparse dst x src weight matrix) along axis of x (float):
    one gather and one multiply-add per tap, with no transposed copies of x."""
    counts = np.diff(weights.indptr)
    rows = np.repeat(np.arange(weights.shape[0]), counts)
    tap = np.arange(weights.nnz) - weights.indptr[rows]
    cols = np.zeros((weights.shape[0], max(counts.max(), 1)), np.int64)
    vals = np.zeros(cols.shape, x.dtype)
    cols[rows, tap] = weights.indices
    vals[rows, tap] = weights.data
    shape = [1] * x.ndim
    shape[axis] = -1
    out = None
    for k in range(cols.shape[1]):
        term = np.take(x, cols[:, k], axis=axis)
        term *= vals[:, k].reshape(shape)
        if out is None:
            out = term
        else:
            out += term
    return out


def _matrix(rows, cols, vals, n_dst, n_src):
    """The sparse weight matrix of (row, col, weight) triplets (repeated entries add up)."""
    from scipy import sparse
    m = sparse.csr_matrix((vals.ravel(), (rows.ravel(), cols.ravel())), shape=(n_dst, n_src))
    m.sum_duplicates()
    m.eliminate_zeros()
    return m


def _linear_weights(n_src, n_dst):
    rows = np.arange(n_dst)
    if n_dst == n_src:
        return _matrix(rows, rows, np.ones(n_dst), n_dst, n_src)
    if n_dst > n_src:           # enlarge: linear, corners aligned
        pos = np.arange(n_dst) * ((n_src - 1) / (n_dst - 1)) if n_src > 1 else np.zeros(n_dst)
        lo = np.minimum(np.floor(pos).astype(np.int64), max(n_src - 2, 0))
        t = pos - lo
        hi = np.minimum(lo + 1, n_src - 1)
        return _matrix(np.stack([rows, rows]), np.stack([lo, hi]), np.stack([1 - t, t]),
                       n_dst, n_src)
    # shrink: the mean over each destination pixel's footprint [o * s, (o + 1) * s)
    scale = n_src / n_dst
    starts = rows * scale
    first = np.floor(starts).astype(np.int64)
    cols = first[:, None] + np.arange(int(math.ceil(scale)) + 1)[None, :]
    overlap = (np.minimum(starts[:, None] + scale, cols + 1) - np.maximum(starts[:, None], cols))
    vals = np.where(cols < n_src, np.clip(overlap, 0, None), 0) / scale
    return _matrix(np.broadcast_to(rows[:, None], cols.shape), np.minimum(cols, n_src - 1), vals,
                   n_dst, n_src)


def _cubic_taps(t):
    """Catmull-Rom weights of the pixels at -1, 0, 1, 2 around a position t in [0, 1]."""
    t2, t3 = t * t, t * t * t
    return ((-t3 + 2 * t2 - t) / 2, (3 * t3 - 5 * t2 + 2) / 2,
            (-3 * t3 + 4 * t2 + t) / 2, (t3 - t2) / 2)


def _cubic_weights(n_src, n_dst):
    """Catmull-Rom, corners aligned; a pixel beyond an edge is 2 * edge - its neighbour."""
    rows = np.arange(n_dst)
    pos = rows * ((n_src - 1) / (n_dst - 1)) if n_dst > 1 else np.zeros(n_dst)
    lo = np.minimum(np.floor(pos).astype(np.int64), max(n_src - 2, 0))
    t = pos - lo
    triplets = []
    for k, weight in zip((-1, 0, 1, 2), _cubic_taps(t)):
        j = lo + k
        if n_src == 1:
            triplets.append((rows, np.zeros_like(j), weight))
            continue
        below, above = j < 0, j >= n_src
        inside = ~(below | above)
        triplets.append((rows, np.where(inside, j, 0), np.where(inside, weight, 0)))
        edge = np.where(below, 0, n_src - 1)
        nxt = np.where(below, 1, n_src - 2)
        outside = below | above
        triplets.append((rows, edge, np.where(outside, 2 * weight, 0)))
        triplets.append((rows, nxt, np.where(outside, -weight, 0)))
    rows, cols, vals = (np.concatenate(parts) for parts in zip(*triplets))
    return _matrix(rows, cols, vals, n_dst, n_src)


def _work_type(src):
    """Resampling computes in single precision for a FloatTensor (as image's C did), else double."""
    return np.float32 if src.dtype == np.float32 else np.float64


def _check_sizes(src, dst):
    if src.ndim != dst.ndim or src.ndim not in (2, 3):
        raise ValueError("image.scale: src and dst must both be 2D (HxW) or 3D (CxHxW) tensors")
    if src.ndim == 3 and src.shape[0] != dst.shape[0]:
        raise ValueError("image.scale: src and dst must have the same number of channels")
    if 0 in src.shape or 0 in dst.shape:
        raise ValueError("image.scale: empty image")


@export
def img_scale_bilinear(dst, src):
    _check_sizes(src, dst)
    h, w = dst.shape[-2:]
    tmp = _along(src.astype(_work_type(src)), _linear_weights(src.shape[-1], w), src.ndim - 1)
    if dst.dtype.kind in "iu":      # the intermediate image is of the tensor's type
        tmp = np.clip(np.floor(tmp + 0.5), 0, np.iinfo(dst.dtype).max)
    _store(dst, _along(tmp, _linear_weights(src.shape[-2], h), src.ndim - 2))


@export
def img_scale_bicubic(dst, src):
    _check_sizes(src, dst)
    h, w = dst.shape[-2:]
    tmp = _along(src.astype(_work_type(src)), _cubic_weights(src.shape[-1], w), src.ndim - 1)
    _store(dst, _along(tmp, _cubic_weights(src.shape[-2], h), src.ndim - 2))


@export
def img_scale_simple(dst, src):
    _check_sizes(src, dst)
    h, w = dst.shape[-2:]
    sh, sw = src.shape[-2:]
    # in single precision, as image's C computed the source index
    ys = np.minimum((np.arange(h, dtype=np.float32) * np.float32(sh / h)).astype(np.int64), sh - 1)
    xs = np.minimum((np.arange(w, dtype=np.float32) * np.float32(sw / w)).astype(np.int64), sw - 1)
    dst[...] = np.take(np.take(src, ys, axis=-2), xs, axis=-1)


@export
def img_crop(src, dst, x, y):
    """dst = the region of src of dst's size from (x, y)."""
    if src.ndim != dst.ndim or src.ndim not in (2, 3):
        raise ValueError("image.crop: src and dst must both be 2D or 3D")
    h, w = dst.shape[-2:]
    x, y = int(x), int(y)
    if x < 0 or y < 0 or x + w > src.shape[-1] or y + h > src.shape[-2]:
        raise ValueError("image.crop: crop region (%d, %d)-(%d, %d) out of the %dx%d image"
                         % (x, y, x + w, y + h, src.shape[-1], src.shape[-2]))
    dst[...] = src[..., y:y + h, x:x + w]


@export
def img_translate(src, dst, x, y):
    """dst (zeroed) = src moved by x pixels right and y pixels down."""
    x, y = int(x), int(y)
    h, w = src.shape[-2:]
    if abs(x) >= w or abs(y) >= h:
        return
    dst[..., max(y, 0):h + min(y, 0), max(x, 0):w + min(x, 0)] = \
        src[..., max(-y, 0):h - max(y, 0), max(-x, 0):w - max(x, 0)]


def _rotation_sources(h, w, theta):
    """Source coordinates (ys, xs) of each destination pixel for a rotation about the centre."""
    yc, xc = (h - 1) / 2.0, (w - 1) / 2.0
    c, s = math.cos(theta), math.sin(theta)
    j = np.arange(h, dtype=np.float64)[:, None] - yc
    i = np.arange(w, dtype=np.float64)[None, :] - xc
    return c * j + s * i + yc, c * i - s * j + xc


def _c_round(v):
    """C's round(): halves away from zero."""
    return np.copysign(np.floor(np.abs(v) + 0.5), v)


@export
def img_rotate(src, dst, theta, bilinear):
    if src.shape != dst.shape or src.ndim not in (2, 3):
        raise ValueError("image.rotate: src and dst must be 2D or 3D and of the same size")
    h, w = src.shape[-2:]
    ys, xs = _rotation_sources(h, w, theta)
    if bilinear:
        inside = (xs >= 0) & (xs <= w - 1) & (ys >= 0) & (ys <= h - 1)
        values = _sample_bilinear(src.astype(_work_type(src)), ys, xs)
    else:
        ys, xs = _c_round(ys), _c_round(xs)
        inside = (xs >= 0) & (xs <= w - 1) & (ys >= 0) & (ys <= h - 1)
        values = src[..., np.clip(ys, 0, h - 1).astype(np.int64), np.clip(xs, 0, w - 1).astype(np.int64)]
    _store(dst, np.where(inside, values, 0))


def _gather(planes, yy, xx, w):
    """planes (C x H*W) at integer coordinates (already inside the image) -> C x shape."""
    return planes[:, (yy * w + xx).ravel()].reshape((planes.shape[0],) + yy.shape)


def _sample_bilinear(img, ys, xs):
    """img (... x H x W, float) at fractional coordinates, clamped to the image."""
    h, w = img.shape[-2:]
    ys = np.clip(ys, 0, h - 1)
    xs = np.clip(xs, 0, w - 1)
    y0 = np.minimum(np.floor(ys).astype(np.int64), max(h - 2, 0))
    x0 = np.minimum(np.floor(xs).astype(np.int64), max(w - 2, 0))
    ty, tx = (ys - y0).astype(img.dtype), (xs - x0).astype(img.dtype)
    y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
    planes = img.reshape(-1, h * w)
    top = _gather(planes, y0, x0, w) * (1 - tx) + _gather(planes, y0, x1, w) * tx
    bottom = _gather(planes, y1, x0, w) * (1 - tx) + _gather(planes, y1, x1, w) * tx
    return (top * (1 - ty) + bottom * ty).reshape(img.shape[:-2] + ys.shape)


def _polar_sources(h, w, oh, ow, full, log):
    """Source coordinates of a polar image: angle down the rows, radius along the columns."""
    yc, xc = (h - 1) / 2.0, (w - 1) / 2.0
    rmax = math.hypot(h / 2.0, w / 2.0) if full else min(h, w) / 2.0
    angle = np.arange(oh, dtype=np.float64)[:, None] * (2 * math.pi / oh)
    frac = np.arange(ow, dtype=np.float64)[None, :] / ow
    radius = np.exp(frac * math.log(rmax)) if log else frac * rmax
    return yc + radius * np.sin(angle), xc + radius * np.cos(angle)


@export
def img_polar(src, dst, full, log, bilinear):
    if src.ndim != dst.ndim or src.ndim not in (2, 3):
        raise ValueError("image.polar: src and dst must both be 2D or 3D")
    h, w = src.shape[-2:]
    oh, ow = dst.shape[-2:]
    ys, xs = _polar_sources(h, w, oh, ow, full, log)
    if bilinear:
        inside = (xs >= 0) & (xs <= w - 1) & (ys >= 0) & (ys <= h - 1)
        values = _sample_bilinear(src.astype(_work_type(src)), ys, xs)
    else:
        ys, xs = np.floor(ys + 0.5), np.floor(xs + 0.5)
        inside = (xs >= 0) & (xs <= w - 1) & (ys >= 0) & (ys <= h - 1)
        values = src[..., np.clip(ys, 0, h - 1).astype(np.int64), np.clip(xs, 0, w - 1).astype(np.int64)]
    _store(dst, np.where(inside, values, 0))


# --- warp: sampling at the flow field's coordinates ---

def _lanczos(d, a=3):
    d = np.abs(d)
    out = np.sinc(d) * np.sinc(d / a)
    return np.where(d < a, out, 0.0)


def _taps(mode):
    """Offsets of the source pixels each sample reads, by mode (1 bilinear, 2 bicubic, 3 lanczos)."""
    return {1: (0, 1), 2: (-1, 0, 1, 2), 3: (-2, -1, 0, 1, 2, 3)}[mode]


def _tap_weights(mode, t):
    if mode == 1:
        return [1 - t, t]
    if mode == 2:
        return list(_cubic_taps(t))
    weights = [_lanczos(t - k) for k in _taps(3)]
    total = sum(weights)
    return [wk / total for wk in weights]


@export
def img_warp(dst, src, field, mode, offset, pad, pad_value):
    """dst[c, y, x] = src[c] sampled at (field[0, y, x], field[1, y, x]) (+ (y, x) when
    offset).  Samples off the image repeat the edge (clamp) or read pad_value (pad)."""
    if src.ndim != 3 or dst.ndim != 3 or field.ndim != 3 or field.shape[0] != 2:
        raise ValueError("image.warp: expected a KxHxW src and a 2xHxW field")
    h, w = src.shape[-2:]
    ys = field[0].astype(np.float64)
    xs = field[1].astype(np.float64)
    if offset:
        ys = ys + np.arange(field.shape[1])[:, None]
        xs = xs + np.arange(field.shape[2])[None, :]
    img = src.astype(_work_type(src))
    if mode == 1 and not pad:
        _store(dst, _sample_bilinear(img, ys, xs))
        return
    if mode == 0:
        yi, xi = np.floor(ys + 0.5).astype(np.int64), np.floor(xs + 0.5).astype(np.int64)
        values = img[:, np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)]
        if pad:
            off = (yi < 0) | (yi > h - 1) | (xi < 0) | (xi > w - 1)
            values = np.where(off, pad_value, values)
        _store(dst, values)
        return
    y0, x0 = np.floor(ys).astype(np.int64), np.floor(xs).astype(np.int64)
    wy = [wk.astype(img.dtype) for wk in _tap_weights(mode, ys - y0)]
    wx = [wk.astype(img.dtype) for wk in _tap_weights(mode, xs - x0)]
    values = np.zeros(dst.shape, img.dtype)
    planes = img.reshape(img.shape[0], -1)
    for ky, wyk in zip(_taps(mode), wy):
        yy = y0 + ky
        yc = np.clip(yy, 0, h - 1)
        for kx, wxk in zip(_taps(mode), wx):
            xx = x0 + kx
            sample = _gather(planes, yc, np.clip(xx, 0, w - 1), w)
            if pad:
                off = (yy < 0) | (yy > h - 1) | (xx < 0) | (xx > w - 1)
                sample = np.where(off, pad_value, sample)
            values += wyk * wxk * sample
    _store(dst, values)


# --- flips ---

@export
def img_flip(dst, src, dim):
    """dst = src reversed along dimension dim (0-based); dst may be src."""
    index = [slice(None)] * src.ndim
    index[dim] = slice(None, None, -1)
    dst[...] = src[tuple(index)]     # numpy copies first when the two overlap
