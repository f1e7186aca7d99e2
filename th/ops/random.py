"""Bulk draws from Torch7's Mersenne Twister (TH's THRandom.c).

A generator is a byte buffer laid out as TH's `THGenerator` struct on 64-bit
Linux (so getRNGState/setRNGState exchange the original's format); Lua draws
numbers and tensors from it through FFI, these functions the draws of
bernoulli with a tensor of probabilities and of multinomial at once with
numpy's MT19937, whose state is the same 624 words and position.  Every
distribution consumes the stream exactly as TH does, element after element.
"""
import numpy as np

from th.ops import export

GENERATOR = np.dtype([
    ("seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"),
    ("state", "<u8", (624,)),
    ("normal_x", "<f8"), ("normal_y", "<f8"), ("normal_rho", "<f8"),
    ("normal_is_valid", "<i4"), ("pad", "<i4"),
])
SCALE = 1.0 / 4294967296.0      # a 32-bit output to [0, 1)
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
def bernoulli_fill(buf, out, p):
    """p an array of probabilities with as many elements as out."""
    u = _uniform(buf, out.size)
    _store(out, (u <= p.reshape(-1).astype(np.float64)).astype(np.uint8))


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
