"""The prompt's history file, in the format trepl (GNU readline) wrote: one
line per entry, oldest first, so that ~/.luahistory moves both ways between
th and the original.  A new file is private (mode 0600, as readline makes
it); a file that cannot be read or written is skipped silently, as trepl did.
"""
import os

from prompt_toolkit.history import History


def history_file():
    return os.environ.get("TREPL_HISTORY") or os.path.join(os.path.expanduser("~"), ".luahistory")


class ReadlineHistory(History):
    def __init__(self, filename):
        self.filename = filename
        super().__init__()

    def load_history_strings(self):
        try:
            with open(self.filename, "rb") as f:
                lines = f.read().splitlines()
        except OSError:
            return []
        # readline's optional timestamp lines start with '#' and a digit
        entries = [line.decode("utf-8", "replace") for line in lines
                   if line and not (line[:1] == b"#" and line[1:2].isdigit())]
        return reversed(entries)       # newest first

    def store_string(self, string):
        data = b"".join(line.encode("utf-8", "surrogateescape") + b"\n"
                        for line in string.split("\n"))
        try:
            fd = os.open(self.filename, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError:
            return
        try:
            os.write(fd, data)
        except OSError:
            pass
        finally:
            os.close(fd)
