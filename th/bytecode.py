"""A cache of th's own Lua modules compiled to LuaJIT bytecode.

Parsing the Lua sources that `torch` loads takes most of the Lua side of
start-up (about 15 ms); loading their bytecode, a tenth of that.  A module's
bytecode is kept in a file of the user's cache directory named after the
source's path, headed by the source's modification time and size: a source
that changes is parsed again and its file rewritten.  The bytecode keeps its
debug information, so errors and tracebacks name the same files and lines.
Anything that fails (no home, a read-only cache, a truncated file) falls back
to the source.
"""
import os

from th import luabytes


def directory(jitversion):
    """The cache of one LuaJIT version (its bytecode is not portable across versions)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "th", "bytecode", jitversion.replace(" ", "-"))


class Cache:
    def __init__(self, root):
        self.root = root

    def _file(self, source):
        return os.path.join(self.root, source.strip(os.sep).replace(os.sep, "%"))

    def load(self, source):
        """(bytecode or None when the cache lacks source's current form, the
        stamp to store that form under); (None, None) if source cannot be read."""
        try:
            st = os.stat(source)
        except OSError:
            return None, None
        stamp = "%d %d\n" % (st.st_mtime_ns, st.st_size)
        try:
            with open(self._file(source), "rb") as f:
                data = f.read()
        except OSError:
            return None, stamp
        head = stamp.encode()
        return (data[len(head):] if data.startswith(head) else None), stamp

    def store(self, source, stamp, address, size):
        """Write the bytecode (size bytes at address) of source as of stamp,
        whole or not at all (concurrent `th` processes may write it too)."""
        target = self._file(source)
        tmp = "%s.%d" % (target, os.getpid())
        try:
            os.makedirs(self.root, exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(stamp.encode() + luabytes.read(address, size))
            os.replace(tmp, target)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
