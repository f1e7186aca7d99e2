"""th: a Torch7-compatible runtime for Python hosts.

    >>> import th
    >>> rt = th.Runtime()
    >>> t = rt.execute("return torch.range(1, 6):resize(2, 3)")
    >>> rt.to_numpy(t).tolist()
    [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]

`Runtime` embeds LuaJIT with `torch` and `paths` loaded, as the `th` command
does; `to_numpy` shares the tensor's memory, `from_numpy` makes a tensor.
"""
from th.runtime import Runtime, LuaJITUnavailable

__all__ = ["Runtime", "LuaJITUnavailable"]
__version__ = "0.1.0"
