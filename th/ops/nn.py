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


@export
def nn_threshold_backward(gin, x, gout, threshold, inplace):
    """gin = gout where x > threshold, 0 elsewhere (NaN inputs too).  For large
    tensors: LuaJIT's loop branches on every element, mispredicted half the
    time on random signs."""
    off = np.greater(x, threshold)
    np.logical_not(off, out=off)
    if not inplace:
        np.copyto(gin, gout)
    np.copyto(gin, 0, where=off)
