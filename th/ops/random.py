"""Bulk draws from Torch7's Mersenne Twister (TH's THRandom.c).

A generator is a byte buffer laid out as TH's `THGenerator` struct on 64-bit
Linux (so getRNGState/setRNGState exchange the original's format); Lua draws
single numbers from it through FFI, these functions draw many at once with
numpy's MT19937, whose state is the same 624 words and position.  Every
distribution consumes the stream exactly as TH does, element after element.
"""
import numpy as np

from th.ops import export, threads
from th.ops.threads import together

GENERATOR = np.dtype([
    ("seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"),
    ("state", "<u8", (624,)),
    ("normal_x", "<f8"), ("normal_y", "<f8"), ("normal_rho", "<f8"),
    ("normal_is_valid", "<i4"), ("pad", "<i4"),
])
TWO_PI = 2.0 * np.pi
SCALE = 1.0 / 4294967296.0      # a 32-bit output to [0, 1)
PARALLEL = 1 << 15              # from this many normal pairs, two threads
_bitgen = None   # numpy's MT19937, made on first use (numpy.random costs 13 ms to import)


def _record(buf):
    return buf.view(GENERATOR)


def _raw(buf, n):
    """n 32-bit outputs (as uint64) advancing the generator in buf.
    TH's `left` counts down to a regeneration: numpy's position is 625 - left."""
    global _bitgen
    if _bitgen is None:
        from numpy.random import MT19937
        _bitgen = MT19937(0)   # re-used: its state is overwritten for each draw
    g = _record(buf)
    state = g["state"][0]
    _bitgen.state = {"bit_generator": "MT19937",
                     "state": {"key": state.astype(np.uint32), "pos": 625 - int(g["left"][0])}}
    out = _bitgen.random_raw(n)
    after = _bitgen.state["state"]
    state[:] = after["key"]
    g["left"] = 625 - after["pos"]
    g["next"] = after["pos"]
    return out


def _uniform(buf, n):
    """TH's __uniform__: one 32-bit output divided by 2^32."""
    return _raw(buf, n) * SCALE


def _store(out, values):
    """Write values into the tensor view `out` with C's conversion to its type
    (integers wrap, floats round)."""
    values = values.reshape(out.shape)
    if out.dtype.kind in "iu" and values.dtype.kind == "f":
        values = np.trunc(values).astype(np.int64)
    out[...] = values.astype(out.dtype, copy=False)


@export
def random_fill(buf, out, modulus):
    """Tensor:random(): each output modulo the type's range (none when modulus is 0)."""
    r = _raw(buf, out.size)
    if modulus:
        r = r % np.uint64(modulus)
    _store(out, r)


@export
def random_range_fill(buf, out, a, b):
    """Tensor:random(a, b): (u32 % (b + 1 - a)) + a in C's unsigned long arithmetic,
    then converted to the tensor's type."""
    r = _raw(buf, out.size) % np.uint64(int(b) + 1 - int(a)) + np.uint64(int(a) % 2 ** 64)
    if out.dtype.kind == "f":
        _store(out, r.astype(out.dtype))
    else:
        _store(out, r.view(np.int64))


@export
def uniform_fill(buf, out, a, b):
    _store(out, _uniform(buf, out.size) * (b - a) + a)


def _boxmuller(raw, values, first, m, mean, stdv):
    """The normals of the uniform pairs raw (p x 2 outputs): the first of pair j
    into values[first + 2j], the second into values[first + 2j + 1] for j < m.
    -> x, y, rho of the last pair."""
    x, y = raw[:, 0] * SCALE, raw[:, 1] * SCALE
    rho = np.sqrt(-2.0 * np.log(1.0 - y))
    angle = TWO_PI * x
    v = rho * np.cos(angle)
    v *= stdv
    v += mean
    values[first:first + 2 * len(raw):2] = v
    if m > 0:
        w = rho[:m] * np.sin(angle[:m])
        w *= stdv
        w += mean
        values[first + 1:first + 1 + 2 * m:2] = w
    return x[-1], y[-1], rho[-1]


def _normal(buf, values, mean, stdv):
    """Box-Muller on pairs of uniforms into the float64 vector values, the second
    value of a pair cached in the generator (possibly across calls), the last
    pair's x, y, rho left in it as TH left them.  Big draws
    split the pairs over two threads."""
    g = _record(buf)
    n = values.size
    i = 0
    if n and g["normal_is_valid"][0]:
        values[0] = g["normal_rho"][0] * np.sin(TWO_PI * g["normal_x"][0]) * stdv + mean
        g["normal_is_valid"] = 0
        i = 1
    pairs = (n - i + 1) // 2
    if pairs == 0:
        return
    seconds = (n - i) // 2
    raw = _raw(buf, 2 * pairs).reshape(pairs, 2)
    if pairs < PARALLEL or threads.count() == 1:
        last = _boxmuller(raw, values, i, seconds, mean, stdv)
    else:
        h = pairs // 2
        _, last = together(lambda: _boxmuller(raw[:h], values, i, h, mean, stdv),
                           lambda: _boxmuller(raw[h:], values, i + 2 * h, seconds - h, mean, stdv))
    # TH keeps the last pair in the generator even when its second value was used
    g["normal_x"], g["normal_y"], g["normal_rho"] = last
    g["normal_is_valid"] = (n - i) % 2


@export
def normal_fill(buf, out, mean, stdv):
    if out.dtype == np.float64 and out.flags.c_contiguous:
        _normal(buf, out.reshape(-1), mean, stdv)     # straight into the tensor
    else:
        values = np.empty(out.size)
        _normal(buf, values, mean, stdv)
        _store(out, values)


@export
def lognormal_fill(buf, out, mean, stdv):
    values = np.empty(out.size)
    _normal(buf, values, mean, stdv)
    _store(out, np.exp(values))


@export
def exponential_fill(buf, out, lam):
    _store(out, -1.0 / lam * np.log(1.0 - _uniform(buf, out.size)))


@export
def cauchy_fill(buf, out, median, sigma):
    _store(out, median + sigma * np.tan(np.pi * (_uniform(buf, out.size) - 0.5)))


@export
def geometric_fill(buf, out, p):
    k = np.trunc(np.log(1.0 - _uniform(buf, out.size)) / np.log(p)).astype(np.int32) + 1
    _store(out, k)


@export
def bernoulli_fill(buf, out, p):
    """p a number or an array of probabilities with as many elements as out."""
    u = _uniform(buf, out.size)
    if isinstance(p, np.ndarray):
        p = p.reshape(-1).astype(np.float64)
    _store(out, (u <= p).astype(np.uint8))


@export
def multinomial(buf, out, prob, n_sample, with_replacement):
    """TH's multinomial: per row of prob (a 2-D view), a normalised cumulative
    distribution searched with one uniform per sample; without replacement the
    drawn category's mass is removed and the rest renormalised.  prob is 1-D or
    2-D; out (n_dist x
    n_sample, int64) receives 1-based categories.  Returns an error message or None."""
    if prob.ndim == 1:
        prob = prob.reshape(1, -1)
    n_dist, n_cat = prob.shape
    for i in range(n_dist):
        row = prob[i].astype(np.float64)
        if (row < 0).any():
            return "invalid multinomial distribution (encountering probability entry < 0)"
        cum = np.cumsum(row)
        total = cum[-1]
        if not total > 0:
            return "invalid multinomial distribution (sum of probabilities <= 0)"
        cum /= total
        cum[-1] = 1.0
        if with_replacement:
            out[i] = np.searchsorted(cum, _uniform(buf, n_sample), side="left") + 1
            continue
        for j in range(n_sample):
            cum[-1] = 1.0
            k = int(np.searchsorted(cum, _uniform(buf, 1)[0], side="left"))
            out[i, j] = k + 1
            diff = cum[k] - (cum[k - 1] if k > 0 else 0.0)
            cum[k:] -= diff
            cum /= 1.0 - diff
    return None
