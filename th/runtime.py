"""The Lua <-> Python boundary: one LuaJIT state with torch and paths loaded.

`Runtime` is also the library entry point: run Lua code from Python and
exchange tensors with numpy (`to_numpy` shares memory, `from_numpy` makes a
tensor over the array's memory when it can, a copy otherwise).
"""
import os

from th import searchpath

LUA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lua")
NATIVE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "native")
BYTECODE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bytecode.lua")


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


def export_lua_api():
    """Make LuaJIT's C API (lua_*, luaL_*) resolve the symbols of the C modules
    `require` loads from package.cpath (lfs.so, lxp.so...).  The `th` command
    does; a library user does not by default: in a process that also runs
    lupa's other Lua versions, their own lua_* calls would bind to LuaJIT's."""
    import ctypes
    ctypes.CDLL(_luajit().__file__, mode=os.RTLD_NOLOAD | os.RTLD_GLOBAL)


def _memory_functions():
    from th.native import memory
    return {
        "window": memory.window,
        "view": memory.view,
        "from_file": memory.from_file,
        "from_address": memory.from_address,
        "from_cdata": memory.from_cdata,
        "from_cdata_view": memory.from_cdata_view,
        "len": len,
    }


class Runtime:
    """A LuaJIT state with `torch` and `paths` loaded as globals, as under `th`."""

    def __init__(self):
        luajit = _luajit()
        self.lua = luajit.LuaRuntime(unpack_returned_tuples=True,
                                     register_eval=False, register_builtins=False)
        from th import ops
        boot = self.lua.eval(_BOOT)
        # numpy and each numpy-based family are imported when Lua first asks
        # for one of its functions
        light = dict(ops.load_light())
        self._handed = set(light)   # the exports Lua has (see _load_ops)
        boot(searchpath.lua_path(LUA_DIR), searchpath.lua_cpath(), LUA_DIR, BYTECODE, NATIVE_DIR,
             lambda _: (self.lua.table_from(_memory_functions()), True),
             self.lua.table_from(light), self._load_ops)
        self.globals = self.lua.globals()

    def _load_ops(self, fname):
        """The numpy-based families' exports Lua does not have yet, once
        fname's family is loaded, and whether every family is.  Each function
        goes to Lua once: lupa looks an object it has wrapped before up in its
        table of wrappers, whose slots a collection can leave to another
        object's wrapper (a weak table used with luaL_ref), and th's table of
        operations then got an ndarray where index_fill had been."""
        from th import ops
        exports, complete = ops.load_for(fname)
        new = {name: f for name, f in list(exports.items()) if name not in self._handed}
        self._handed.update(new)
        return self.lua.table_from(new), complete

    def execute(self, code):
        """Run a chunk of Lua code; returns what it returns."""
        return self.lua.execute(code)

    def eval(self, expr):
        return self.lua.eval(expr)

    def to_numpy(self, tensor):
        """The ndarray viewing a tensor's memory (no copy)."""
        view = self.lua.eval("require('torch.internal').nd")(tensor)
        if view is None:
            import numpy as np
            return np.zeros(0)
        return view

    def from_numpy(self, arr):
        """A tensor of the array's type and shape over the array's memory when
        it is aligned and of a Torch element type; otherwise over a copy."""
        import numpy as np

        from th.native import memory
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
function(path, cpath, luadir, bytecode, nativedir, memoryfns, lightops, allops)
   python = nil   -- lupa's own bridge: Torch7 scripts never had it
   package.path, package.cpath = path, cpath
   -- Lua modules from their cached bytecode (th/bytecode.lua): th's own,
   -- first on the path, and package.path's in place of LuaJIT's Lua searcher
   local cachedchunk = assert(loadfile(bytecode))()
   package.loaders[2] = function(name)
      local file, missing = package.searchpath(name, package.path)
      if not file then return missing end
      local chunk, err = cachedchunk(file)
      if not chunk then
         error(("error loading module '%s' from file '%s':\n\t%s"):format(name, file, err), 0)
      end
      return chunk
   end
   local own = luadir .. '/?.lua;' .. luadir .. '/?/init.lua'
   table.insert(package.loaders, 2, function(name)
      local file = package.searchpath(name, own)
      return file and assert(cachedchunk(file))
   end)
   -- a table of Python functions filled by load(name) when a missing one is
   -- asked for: it gives the functions loaded so far and whether that is all
   local function lazy(t, load)
      return setmetatable(t, {__index = function(self, name)
         local found, complete = load(name)
         for k, f in pairs(found) do rawset(self, k, f) end
         if complete then setmetatable(self, nil) end
         return rawget(self, name)
      end})
   end
   package.preload['th.native.memory'] = function()
      return assert(loadfile(nativedir .. '/memory.lua'))(lazy({}, memoryfns))
   end
   package.preload['th.native.ops'] = function() return lazy(lightops, allops) end
   package.preload['th.native.pool'] = function() return assert(loadfile(nativedir .. '/pool.lua'))() end
   -- room for the many specialised loops th generates (kernels.lua): with
   -- LuaJIT's default limits, a program using many operations made it flush
   -- all its compiled code again and again.  Allocation sinking off: in
   -- lupa's LuaJIT it miscompiled hot FFI code (optim's lbfgs gave run-to-run
   -- different numbers, fista then checkgrad and nn's test suite segfaulted;
   -- never with it off).  A side trace after 120 exits, not 10: th's
   -- operations are Lua, their traces long, and programs of a few hundred
   -- steps spent a third of their time compiling side traces of exits taken
   -- only in their first steps (35-60% less compiling, 3-11% less time)
   jit.opt.start('maxtrace=10000', 'maxrecord=16000', 'maxmcode=65536', 'maxside=500', 'hotexit=120', '-sink')
   -- nn's THNN module is th's (kernels over th tensors), never nn's own THNN.lua
   package.preload['nn.THNN'] = function() return require 'thnn' end
   -- th's modules load interpreted: their main chunks and the code they
   -- generate run once, and compiling their loops cost 1.5-2 ms of start-up
   jit.off()
   require 'numberformat'   -- before any module keeps string.format
   require 'torch'
   require 'paths'
   jit.on()
end
"""
