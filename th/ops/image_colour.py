"""Colour spaces and pixel-wise helpers of the image package (libimage's C), vectorised.

All colour values are in [0, 1] (hue too, as a fraction of the circle).  A
ByteTensor image holds 0..255: it is converted to float32 [0, 1], converted
exactly as a FloatTensor image is, and brought back rounded (halves away from
zero) and saturated, so that f(byte image) equals the rounded f(float image).
Lab is CIE L*a*b* of sRGB (D65 white), with L in 0..100.
"""
import numpy as np

from th.ops import export


def _as_float(x):
    if x.dtype.kind in "iu":
        return (x.astype(np.float64) * (1.0 / 255)).astype(np.float32)
    return x


def _store(dst, values, was_int):
    if was_int:
        v = np.asarray(values, np.float32) * np.float32(255)
        v = np.copysign(np.floor(np.abs(v) + np.float32(0.5)), v)
        dst[...] = np.clip(v, 0, 255)
    else:
        dst[...] = values


def _convert(fn, src, dst):
    was_int = src.dtype.kind in "iu"
    x = _as_float(src)
    out = fn(x[0], x[1], x[2])
    _store(dst, np.stack([np.asarray(o, x.dtype) for o in out]), was_int)


def _hue(r, g, b, mx, d):
    """Hue in [0, 1) from the largest channel and the spread d (0 where d is 0)."""
    safe = np.where(d == 0, 1, d)
    h = np.where(mx == r, (g - b) / safe + np.where(g < b, 6, 0),
                 np.where(mx == g, (b - r) / safe + 2, (r - g) / safe + 4))
    return np.where(d == 0, 0, h / 6)


def _rgb2hsv(r, g, b):
    mx = np.maximum(np.maximum(r, g), b)
    mn = np.minimum(np.minimum(r, g), b)
    d = mx - mn
    s = np.where(mx == 0, 0, d / np.where(mx == 0, 1, mx))
    return _hue(r, g, b, mx, d), s, mx


def _hsv2rgb(h, s, v):
    h6 = (h % 1.0) * 6
    i = np.floor(h6)
    f = h6 - i
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    i = i.astype(np.int64) % 6
    r = np.choose(i, [v, q, p, p, t, v])
    g = np.choose(i, [t, v, v, q, p, p])
    b = np.choose(i, [p, p, t, v, v, q])
    return r, g, b


def _rgb2hsl(r, g, b):
    mx = np.maximum(np.maximum(r, g), b)
    mn = np.minimum(np.minimum(r, g), b)
    d = mx - mn
    light = (mx + mn) / 2
    denom = np.where(light > 0.5, 2 - mx - mn, mx + mn)
    s = np.where(d == 0, 0, d / np.where(denom == 0, 1, denom))
    return _hue(r, g, b, mx, d), s, light


def _hsl2rgb(h, s, light):
    q = np.where(light < 0.5, light * (1 + s), light + s - light * s)
    p = 2 * light - q

    def channel(t):
        t = t % 1.0
        return np.where(t < 1 / 6, p + (q - p) * 6 * t,
                        np.where(t < 1 / 2, q,
                                 np.where(t < 2 / 3, p + (q - p) * (2 / 3 - t) * 6, p)))
    grey = s == 0
    return (np.where(grey, light, channel(h + 1 / 3)), np.where(grey, light, channel(h)),
            np.where(grey, light, channel(h - 1 / 3)))


# sRGB (linear) -> XYZ, D65
_M = np.array([[0.412453, 0.357580, 0.180423],
               [0.212671, 0.715160, 0.072169],
               [0.019334, 0.119193, 0.950227]])
_WHITE = _M.sum(axis=1)
_EPS = (6 / 29) ** 3


def _rgb2lab(r, g, b):
    rgb = np.stack([r, g, b]).astype(np.float64)
    lin = np.where(rgb > 0.04045, ((rgb + 0.055) / 1.055) ** 2.4, rgb / 12.92)
    xyz = np.tensordot(_M, lin, axes=(1, 0)) / _WHITE[:, None, None]
    f = np.where(xyz > _EPS, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def _lab2rgb(L, a, b):
    fy = (L.astype(np.float64) + 16) / 116
    f = np.stack([fy + a / 500, fy, fy - b / 200])
    xyz = np.where(f > 6 / 29, f ** 3, 3 * (6 / 29) ** 2 * (f - 4 / 29)) * _WHITE[:, None, None]
    lin = np.tensordot(np.linalg.inv(_M), xyz, axes=(1, 0))
    rgb = np.where(lin > 0.0031308, 1.055 * np.abs(lin) ** (1 / 2.4) - 0.055, 12.92 * lin)
    return rgb[0], rgb[1], rgb[2]


def _lab_only_floats(src):
    if src.dtype.kind in "iu":
        raise TypeError("Lab conversions need a FloatTensor or DoubleTensor image "
                        "(a ByteTensor cannot hold L*a*b* values)")


@export
def img_rgb2hsv(src, dst):
    _convert(_rgb2hsv, src, dst)


@export
def img_hsv2rgb(src, dst):
    _convert(_hsv2rgb, src, dst)


@export
def img_rgb2hsl(src, dst):
    _convert(_rgb2hsl, src, dst)


@export
def img_hsl2rgb(src, dst):
    _convert(_hsl2rgb, src, dst)


@export
def img_rgb2lab(src, dst):
    _lab_only_floats(src)
    _convert(_rgb2lab, src, dst)


@export
def img_lab2rgb(src, dst):
    _lab_only_floats(src)
    _convert(_lab2rgb, src, dst)


@export
def img_rgb2y(src, dst):
    """dst (H x W) = 0.299 R + 0.587 G + 0.114 B."""
    was_int = src.dtype.kind in "iu"
    x = _as_float(src)
    y = x[0] * x.dtype.type(0.299) + x[1] * x.dtype.type(0.587) + x[2] * x.dtype.type(0.114)
    _store(dst, y, was_int)


@export
def img_saturate(x):
    """Clamps a float image to [0, 1] in place (a byte image is left as it is)."""
    if x.dtype.kind == "f":
        np.clip(x, 0, 1, out=x)


@export
def img_gaussian(dst, amplitude, normalize, sigma_h, sigma_v, mean_h, mean_v):
    """dst (H x W) = amplitude * exp(-((j - cx) / (sigma_h W))^2 / 2 - ((i - cy) / (sigma_v H))^2 / 2)
    over 1-based i, j, with cx = mean_h W + 0.5 and cy = mean_v H + 0.5; divided by
    its sum when normalize."""
    h, w = dst.shape
    cx, cy = mean_h * w + 0.5, mean_v * h + 0.5
    gx = ((np.arange(1, w + 1) - cx) / (sigma_h * w)) ** 2 / 2
    gy = ((np.arange(1, h + 1) - cy) / (sigma_v * h)) ** 2 / 2
    g = amplitude * np.exp(-(gy[:, None] + gx[None, :]))
    if normalize:
        g = g / g.sum()
    if dst.dtype.kind in "iu":
        g = g.astype(np.float32)
        g = np.clip(np.copysign(np.floor(np.abs(g) + np.float32(0.5)), g), 0, 255)
    dst[...] = g


@export
def img_colorize(dst, src, colormap):
    """dst (3 x H x W) = the colour image of an index image: dst[c, y, x] =
    colormap[src[y, x], c] (src holds 0-based indices)."""
    idx = src.astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= colormap.shape[0]):
        raise ValueError("image.colorize: index out of the colour map (%d colours)" % colormap.shape[0])
    dst[...] = np.moveaxis(colormap[idx], -1, 0)
