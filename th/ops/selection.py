"""Bulk paths of the selection family (th/lua/torch/selection.lua): index,
indexCopy/Add/Fill, gather, scatter, masked* and nonzero on big tensors.

Indices arrive 1-based, as the tensors hold them, and are already checked by
the Lua side; every function writes into the destination view in place.
"""
import numpy as np

from th.ops import export


def _scalar(value, dtype):
    """value converted as a C cast to the element type would (no overflow error)."""
    with np.errstate(invalid="ignore", over="ignore"):
        return np.asarray(value).astype(dtype, casting="unsafe")


def _along(axis, idx):
    """The index tuple selecting positions idx (0-based) along axis."""
    return (slice(None),) * axis + (idx,)


@export
def value_range(a):
    """(min, max) of a non-empty array, as Python numbers."""
    return a.min().item(), a.max().item()


@export
def index_select(dst, src, idx, axis):
    if dst.flags.c_contiguous:
        # straight into the result: mode="clip" spares numpy's buffered copy (idx is checked)
        np.take(src, idx - 1, axis=axis, out=dst, mode="clip")
    else:
        dst[...] = np.take(src, idx - 1, axis=axis)


@export
def index_copy(dst, idx, src, axis):
    dst[_along(axis, idx - 1)] = src


@export
def index_add(dst, idx, src, axis):
    """Repeated indices accumulate, as the sequential loop of Torch does."""
    np.add.at(dst, _along(axis, idx - 1), src)


@export
def index_fill(dst, idx, value, axis):
    dst[_along(axis, idx - 1)] = _scalar(value, dst.dtype)


@export
def gather(dst, src, idx, axis):
    dst[...] = np.take_along_axis(src, idx - 1, axis=axis)


def _put_in_th_order(dst, idx, values, axis):
    """dst[..idx..] = values, written in TH's order: along axis for each place
    of the other axes in turn, which a destination whose places repeat (an
    expanded tensor) shows (the last write stays).  With axis moved last and
    the index in C order, numpy's assignment goes in that order."""
    idx = np.ascontiguousarray(np.moveaxis(idx - 1, axis, -1))
    if np.ndim(values):
        values = np.ascontiguousarray(np.moveaxis(values, axis, -1))
    np.put_along_axis(np.moveaxis(dst, axis, -1), idx, values, axis=-1)


@export
def scatter(dst, idx, src, axis):
    """src may be longer than idx along axis: only its first elements are written."""
    _put_in_th_order(dst, idx, src[_along(axis, slice(0, idx.shape[axis]))], axis)


@export
def scatter_fill(dst, idx, value, axis):
    _put_in_th_order(dst, idx, _scalar(value, dst.dtype), axis)


@export
def mask_count(mask):
    """(number of ones, largest value) of a ByteTensor mask."""
    return int(np.count_nonzero(mask)), int(mask.max())


def _bools(mask, shape):
    """The mask (checked to hold only 0 and 1) seen as booleans, no copy made."""
    return mask.view(np.bool_).reshape(shape)


@export
def masked_select(dst, src, mask):
    dst[...] = src.reshape(-1)[_bools(mask, -1)]


@export
def masked_copy(dst, mask, src, count):
    dst[_bools(mask, dst.shape)] = src.reshape(-1)[:int(count)]


@export
def masked_fill(dst, mask, value):
    np.copyto(dst, _scalar(value, dst.dtype), where=_bools(mask, dst.shape))


@export
def count_nonzero(src):
    return int(np.count_nonzero(src))


@export
def nonzero(dst, src):
    """The 1-based subscripts of the non-zero elements, in row-major order."""
    for k, sub in enumerate(np.nonzero(src)):
        np.add(sub, 1, out=dst[:, k])
