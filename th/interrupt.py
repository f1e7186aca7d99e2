"""Ctrl-C for running Lua code, whatever it is doing.

Python runs its SIGINT handler only between Python bytecodes, which never
happens while LuaJIT runs a loop, and a count hook polling a flag needs the
JIT off.  Instead, while code runs, the signal wakes a watcher thread (through
signal.set_wakeup_fd: the C-level handler writes to a pipe from any thread),
which sets a LuaJIT hook from outside, as lua.c does from its signal handler:
`lua_sethook` is made for that.  The hook (Lua's debug.sethook function,
armed before each run and then made dormant) raises `interrupted` at the next
instruction the interpreter runs: right away in interpreted code, as soon as
a tensor operation returns, at the next exit of a JIT-compiled trace.  The
watcher also sets a flag that tensor calls poll (torch.internal.poll), which
stops a compiled loop over tensor operations, where no hook runs.  A compiled
loop that calls no tensor code and never leaves its trace cannot be reached:
pressing Ctrl-C `quit_after` times then quits th, where trepl hung.
"""
import _signal as signal   # (signal.py's enums cost 1.5 ms of th's start-up)
import _thread             # (threading's import, 0.8 ms)
import ctypes
import os
import sys

_MASKCOUNT = 8     # LUA_MASKCOUNT: with a count of 1, the hook runs at the next instruction

# stop: the hook; the chunk returns arm (installs stop through debug.sethook),
# the address of a lua_State of this global state (hooks are global in LuaJIT)
# and that of the flag polled by tensor calls
_LUA = r"""
local internal = require 'torch.internal'
local sethook, stop = debug.sethook, internal.interrupted
local thread = coroutine.create(function() end)
local address = tonumber(tostring(thread):match('0x%x+'))
-- arm keeps the thread alive: its address must stay valid
return function() sethook(stop, '', 1e9) return thread end, address, internal.stopaddress()
"""


def _lua_error():
    from lupa.luajit21 import LuaError
    return LuaError


def _lua_api():
    import lupa.luajit21 as luajit
    lib = ctypes.CDLL(luajit.__file__)   # the loaded module: same LuaJIT
    lib.lua_sethook.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    lib.lua_gethook.argtypes = [ctypes.c_void_p]
    lib.lua_gethook.restype = ctypes.c_void_p
    return lib


class _Watcher:
    """The thread's side: plain data only (no Lua object), so that the Lua
    state can still be closed (and its finalizers run) when th is done."""

    def __init__(self, lib, state, hook, flag, quit_after):
        self.lib, self.state, self.hook, self.quit_after = lib, state, hook, quit_after
        self.flag = ctypes.c_int32.from_address(flag)
        self.lock = _thread.allocate_lock()
        self.running = False
        self.presses = 0
        self.read, self.write = os.pipe()
        os.set_blocking(self.write, False)

    def start(self, running):
        with self.lock:
            self.running, self.presses = running, 0
            self.lib.lua_sethook(self.state, None, 0, 0)   # dormant until Ctrl-C
            self.flag.value = 0

    def loop(self):
        while True:
            data = os.read(self.read, 64)
            if signal.SIGINT not in data:
                continue
            with self.lock:
                if not self.running:
                    continue
                self.presses += 1
                self.lib.lua_sethook(self.state, self.hook, _MASKCOUNT, 1)
                self.flag.value = 1
                presses = self.presses
            if self.quit_after is None:
                continue
            if presses == self.quit_after - 1 > 1:
                sys.stderr.write("\nth: this loop runs in JIT-compiled code that Ctrl-C cannot "
                                 "reach; Ctrl-C once more quits th\n")
                sys.stderr.flush()
            elif presses >= self.quit_after:
                sys.stderr.write("th: interrupted\n")
                sys.stderr.flush()
                os._exit(130)


class Interrupter:
    """run(call) runs Lua code that Ctrl-C (SIGINT) interrupts with the Lua
    error `interrupted`; the Lua state and its data stay intact."""

    def __init__(self, lua, quit_after=None):
        lib = _lua_api()
        self._arm, state, flag = lua.execute(_LUA)
        self._arm()
        hook = lib.lua_gethook(state)
        self._watcher = _Watcher(lib, state, hook, int(flag), quit_after)
        self._watcher.start(False)
        _thread.start_new_thread(self._watcher.loop, ())

    def run(self, call):
        try:
            handler = signal.signal(signal.SIGINT, lambda signum, frame: None)
        except ValueError:                # signals reach the main thread only
            return call()
        self._arm()
        wakeup = signal.set_wakeup_fd(self._watcher.write, warn_on_full_buffer=False)
        self._watcher.start(True)
        try:
            return call()
        except _lua_error() as exc:
            # (the hook fired outside the chunk's own protected call: in
            # the code around it, which the REPL runs too)
            if str(exc).split("\n", 1)[0] == "interrupted":
                raise KeyboardInterrupt from None
            raise
        finally:
            self._watcher.start(False)
            signal.set_wakeup_fd(wakeup)
            signal.signal(signal.SIGINT, handler)
