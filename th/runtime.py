"""The Lua <-> Python boundary: one LuaJIT state with torch and paths loaded.

`Runtime` is also the library entry point: run Lua code from Python and
exchange tensors with numpy (`to_numpy` shares memory, `from_numpy` makes a
tensor over the array's memory when it can, a copy otherwise).
"""
import os
import warnings

import numpy as np

from th.native import memory

LUA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lua")
NATIVE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "native")


class LuaJITUnavailable(ImportError):
    pass


def _luajit():
    try:
        import lupa.luajit21 as luajit
    except ImportError as exc:  # pragma: no cover - depends on the lupa build
        raise LuaJITUnavailable(
            "th needs LuaJIT 2.1 through lupa (module lupa.luajit21), which this "
            "lupa installation lacks: pip install 'lupa>=2.0' on a platform with "
            "LuaJIT wheels (" + str(exc) + ")") from exc
    return luajit


def _memory_functions():
    return {
        "alloc": memory.alloc,
        "window": memory.window,
        "view": memory.view,
        "from_file": memory.from_file,
        "from_address": memory.from_address,
        "from_cdata": memory.from_cdata,
        "len": len,
    }


class Runtime:
    """A LuaJIT state with `torch` and `paths` loaded as globals, as under `th`."""

    def __init__(self):
        luajit = _luajit()
        np.seterr(all="ignore")  # Torch7 computes with IEEE semantics, silently
        warnings.filterwarnings("ignore", category=RuntimeWarning)
        self.lua = luajit.LuaRuntime(unpack_returned_tuples=True,
                                     register_eval=False, register_builtins=False)
        from th import ops
        boot = self.lua.eval(_BOOT)
        boot(LUA_DIR, NATIVE_DIR, self.lua.table_from(_memory_functions()),
             self.lua.table_from(ops.load_all()))
        self.globals = self.lua.globals()

    def execute(self, code):
        """Run a chunk of Lua code; returns what it returns."""
        return self.lua.execute(code)

    def eval(self, expr):
        return self.lua.eval(expr)

    def to_numpy(self, tensor):
        """The ndarray viewing a tensor's memory (no copy)."""
        view = self.lua.eval("require('torch.internal').nd")(tensor)
        if view is None:
            return np.zeros(0)
        return view

    def from_numpy(self, arr):
        """A tensor of the array's type and shape over the array's memory when
        it is aligned and of a Torch element type; otherwise over a copy."""
        arr = np.asarray(arr)
        if arr.dtype == np.bool_:
            arr = arr.astype(np.uint8)
        if arr.dtype not in memory.TYPENAMES:
            arr = arr.astype(np.float64)
        if not arr.flags.c_contiguous or not arr.flags.aligned:
            arr = np.ascontiguousarray(arr)
        tname = memory.TYPENAMES[arr.dtype]
        flat = arr.reshape(-1)
        make = self.lua.eval("require('torch.internal').fromnumpy")
        return make(tname, flat, memory.address(flat), flat.size, *arr.shape)


_BOOT = r"""
function(luadir, nativedir, memoryfns, opfns)
   python = nil   -- lupa's own bridge: Torch7 scripts never had it
   package.path = luadir .. '/?.lua;' .. luadir .. '/?/init.lua;' .. package.path
   package.preload['th.native.memory'] = function()
      return assert(loadfile(nativedir .. '/memory.lua'))(memoryfns)
   end
   package.preload['th.native.ops'] = function() return opfns end
   -- nn's THNN module is th's (kernels over th tensors), never nn's own THNN.lua
   package.preload['nn.THNN'] = function() return require 'thnn' end
   require 'torch'
   require 'paths'
end
"""
