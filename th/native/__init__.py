"""The LuaJIT FFI boundary to numpy memory: allocation on the Python side (memory.py),
typed, bounds-checked pointers on the Lua side (memory.lua)."""
