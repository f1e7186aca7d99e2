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
