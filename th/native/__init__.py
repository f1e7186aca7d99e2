"""The LuaJIT FFI boundary to numpy memory: allocation and typed pointers on the
Lua side (memory.lua), ndarrays over that memory on the Python side (memory.py)."""
