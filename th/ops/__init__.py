"""The numpy side of tensor operations.

Every function here receives numpy views of tensor memory (made by
th.native.memory.view) and numbers, and works in place or returns new arrays.
Each family of operations is one module; `export` collects them into the one
table the Lua side sees as `require 'th.native.ops'`.
"""
import importlib

EXPORTS = {}

FAMILIES = ["core"]


def export(fn):
    """Make fn callable from Lua under its own name."""
    EXPORTS[fn.__name__] = fn
    return fn


def load_all():
    for family in FAMILIES:
        importlib.import_module(f"th.ops.{family}")
    return EXPORTS
