"""Lua strings as Python bytes.

lupa decodes every Lua string that reaches Python as UTF-8 and raises on any
other byte, but Lua strings are bytes (an error message may hold a Latin-1
file name).  Lua hands over a string's address and length instead
(th/lua/trepl/bytes.lua) and `read` copies the bytes.
"""
import ctypes


def read(address, size):
    return ctypes.string_at(address, size) if size else b""


def text(address, size):
    """The string as Python text, invalid UTF-8 bytes replaced (for Jupyter)."""
    return read(address, size).decode("utf-8", "replace")


def encode(text):
    """Python text (from a terminal or argv) back to the bytes it came from."""
    return text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
