"""The helper threads of th's large element loops (th/native/pool.lua).

Each helper is a LuaJIT state of its own, made through the C API that
lupa's LuaJIT library exports, running th/native/worker.lua; its thread
starts on a callback of that state.  (Making the state from inside LuaJIT,
through its FFI, crashed: nested in a running state's FFI call, the new
state's first call never returned.)  One set per process, made at the
first large operation and shared by every Lua runtime of the process, one
at a time (pool.lua's owner lock).  Only ctypes here: no numpy import.
"""
import ctypes
import os
import _thread   # (threading's import is 0.8 ms, at a first large operation)

HERE = os.path.dirname(os.path.abspath(__file__))
_lock = _thread.allocate_lock()
_started = None     # (job address, helpers running), once made
MAX_HELPERS = 16    # the semaphores of pool.lua's th_pool


def _lua():
    import lupa.luajit21 as luajit
    lib = ctypes.CDLL(luajit.__file__)
    lib.luaL_newstate.restype = ctypes.c_void_p
    lib.luaL_openlibs.argtypes = lib.lua_pushnil.argtypes = (ctypes.c_void_p,)
    lib.luaL_loadfile.argtypes = (ctypes.c_void_p, ctypes.c_char_p)
    lib.lua_pushstring.argtypes = (ctypes.c_void_p, ctypes.c_char_p)
    lib.lua_pushnumber.argtypes = (ctypes.c_void_p, ctypes.c_double)
    lib.lua_pcall.argtypes = (ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int)
    lib.lua_tonumber.argtypes = (ctypes.c_void_p, ctypes.c_int)
    lib.lua_tonumber.restype = ctypes.c_double
    lib.lua_tolstring.argtypes = (ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
    lib.lua_tolstring.restype = ctypes.c_char_p
    return lib


def _helper(lua, libc, address, index):
    """Make helper `index`'s state and thread -> the job's address."""
    state = ctypes.c_void_p(lua.luaL_newstate())
    if not state:
        raise MemoryError("no memory for a helper thread's Lua state")
    lua.luaL_openlibs(state)
    if lua.luaL_loadfile(state, os.path.join(HERE, "worker.lua").encode()) != 0:
        raise RuntimeError(lua.lua_tolstring(state, -1, None).decode())
    lua.lua_pushstring(state, os.path.join(HERE, "pool.lua").encode())
    if address:
        lua.lua_pushnumber(state, float(address))
    else:
        lua.lua_pushnil(state)
    lua.lua_pushnumber(state, float(index))
    if lua.lua_pcall(state, 3, 2, 0) != 0:
        raise RuntimeError(lua.lua_tolstring(state, -1, None).decode())
    address, entry = int(lua.lua_tonumber(state, -2)), int(lua.lua_tonumber(state, -1))
    thread = ctypes.c_ulong()
    if libc.pthread_create(ctypes.byref(thread), None, ctypes.c_void_p(entry), None) != 0:
        raise OSError("pthread_create failed")
    libc.pthread_detach(thread)
    return address


def start(count):
    """The shared job and its helpers, made once: -> (job address, helpers
    running); (0, 0) when helper threads cannot be made here."""
    global _started
    with _lock:
        if _started is None:
            address, running = 0, 0
            try:
                lua, libc = _lua(), ctypes.CDLL(None)
                libc.pthread_create.argtypes = (ctypes.c_void_p, ctypes.c_void_p,
                                                ctypes.c_void_p, ctypes.c_void_p)
                libc.pthread_detach.argtypes = (ctypes.c_ulong,)
                for index in range(min(count, MAX_HELPERS)):
                    address = _helper(lua, libc, address, index)
                    running += 1
            except (OSError, RuntimeError, AttributeError, MemoryError):
                if not running:
                    address = 0
            _started = (address, running)
        return _started
