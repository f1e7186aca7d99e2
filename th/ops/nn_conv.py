"""The matrix products of nn's 2D convolutions when no CBLAS library is
there (th/lua/thnn/conv.lua calls the system OpenBLAS otherwise, as THNN
did): columns that LuaJIT built (th/lua/thnn/im2col.lua) in THNN's layout,
(N, C*kH*kW, oH*oW) for a batch, one image's (C*kH*kW, oH*oW) otherwise.
BLAS on one thread (th/ops/threads.py says why)."""
import numpy as np

from th.ops import export, threads


def _per_image(a, rows, cols):
    """a (contiguous) as the stack (N, rows, cols)."""
    return a.reshape(-1, rows, cols)


@export
def nn_cols_forward(out, w, cols):
    """out (N, O, P) += w (O, K) . cols (N, K, P) (out holds the biases)."""
    threads.single_threaded_blas()
    o, p = w.shape[0], cols.shape[-1]
    w = w.reshape(o, -1)
    res = _per_image(out, o, p)
    res += np.matmul(w, _per_image(cols, w.shape[1], p))


@export
def nn_cols_backward(gcols, w, gout):
    """gcols (N, K, P) = w^T (K, O) . gout (N, O, P)."""
    threads.single_threaded_blas()
    o, p = w.shape[0], gcols.shape[-1]
    w = w.reshape(o, -1)
    np.matmul(w.T, _per_image(gout, o, p), out=_per_image(gcols, w.shape[1], p))


@export
def nn_cols_accgrad(gw, cols, gout, scale):
    """gw (O, K) += scale * gout (O, P) . cols^T (P, K), image by image."""
    threads.single_threaded_blas()
    o, p = gw.shape[0], cols.shape[-1]
    g = _per_image(gout, o, p)
    gw2 = gw.reshape(o, -1)
    c = _per_image(cols, gw2.shape[1], p)
    for n in range(g.shape[0]):
        gw2 += scale * np.dot(g[n], c[n].T)
