"""numpy helpers of th's THNN kernels (th/lua/thnn/): each one does in one
boundary crossing what a kernel would otherwise do in several tensor
operations.  Arguments are numpy views of tensor memory (results first)."""
import os

import numpy as np

from th.ops import export


@export
def nn_numcores():
    """The cores this process may run on (torch.getnumthreads' default)."""
    return len(os.sched_getaffinity(0))


def _grid_corners(grid, ih, iw):
    """The bilinear corners of each grid point (N, H, W): the input's
    coordinates of grid's [-1, 1] (x along the width, y along the height,
    -1 and 1 the centres of the edge pixels), the top-left corner and the
    weights of the right and bottom neighbours."""
    ix = (grid[..., 0] + 1) / 2 * (iw - 1)
    iy = (grid[..., 1] + 1) / 2 * (ih - 1)
    x0, y0 = np.floor(ix), np.floor(iy)
    return ix, iy, x0.astype(np.int64), y0.astype(np.int64), ix - x0, iy - y0


def _corner_taps(x0, y0, ih, iw):
    """(dy, dx, flat index into an input plane, inside mask) of the four corners."""
    for dy in (0, 1):
        for dx in (0, 1):
            x, y = x0 + dx, y0 + dy
            inside = (x >= 0) & (x < iw) & (y >= 0) & (y < ih)
            yield dy, dx, np.where(inside, y * iw + x, 0), inside


def _corner_weight(dy, dx, wx, wy):
    return (wx if dx else 1 - wx) * (wy if dy else 1 - wy)


@export
def nn_gridsampler_forward(out, x, grid):
    """out (N, C, H, W) = x (N, C, IH, IW) sampled bilinearly at grid
    (N, H, W, 2); corners outside the input count as zeros."""
    n, c, ih, iw = x.shape
    _, _, x0, y0, wx, wy = _grid_corners(grid, ih, iw)
    planes = x.reshape(n, c, ih * iw)
    acc = np.zeros(out.shape, np.float64)
    for dy, dx, flat, inside in _corner_taps(x0, y0, ih, iw):
        v = np.take_along_axis(planes, flat.reshape(n, 1, -1), 2).reshape(acc.shape)
        acc += v * (_corner_weight(dy, dx, wx, wy) * inside)[:, None]
    out[...] = acc


@export
def nn_gridsampler_backward(gin, ggrid, x, grid, gout):
    """gin (zeroed here) += each output gradient spread on its corners;
    ggrid = the derivative of the output along grid's x and y."""
    n, c, ih, iw = x.shape
    _, _, x0, y0, wx, wy = _grid_corners(grid, ih, iw)
    planes = x.reshape(n, c, ih * iw)
    acc = np.zeros(n * c * ih * iw, np.float64)
    plane_base = (np.arange(n * c) * (ih * iw)).reshape(n, c, 1)
    dgx = np.zeros(grid.shape[:3], np.float64)
    dgy = np.zeros(grid.shape[:3], np.float64)
    g = gout.reshape(n, c, -1)
    for dy, dx, flat, inside in _corner_taps(x0, y0, ih, iw):
        w = (_corner_weight(dy, dx, wx, wy) * inside).reshape(n, 1, -1)
        acc += np.bincount((flat.reshape(n, 1, -1) + plane_base).ravel(), (g * w).ravel(), acc.size)
        v = np.take_along_axis(planes, flat.reshape(n, 1, -1), 2) * inside.reshape(n, 1, -1)
        gv = (v * g).sum(1).reshape(dgx.shape)
        dgx += gv * (1 if dx else -1) * (wy if dy else 1 - wy)
        dgy += gv * (1 if dy else -1) * (wx if dx else 1 - wx)
    gin[...] = acc.reshape(gin.shape)
    ggrid[..., 0] = dgx * (iw - 1) / 2
    ggrid[..., 1] = dgy * (ih - 1) / 2
