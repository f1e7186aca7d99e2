"""The `th>` prompt shown at once, while prompt_toolkit loads.

Importing prompt_toolkit (with asyncio and wcwidth) and making its session
take 80-90 ms, where the rest of th's start takes 30-40.  So the prompt is
written first, and the keys typed meanwhile are held for prompt_toolkit: the
terminal is put in the mode prompt_toolkit reads keys in (no echo, no line
editing, no signals: Ctrl-C and Ctrl-D are bytes like the others), so that
they wait in the terminal's queue, unechoed, until prompt_toolkit's line
editor reads them and draws its own prompt over this one.
"""
import contextlib
import sys
import termios


def _raw(attrs):
    """attrs with prompt_toolkit's raw mode (its Vt100 input's _patch_lflag
    and _patch_iflag, one key at a time)."""
    iflag, oflag, cflag, lflag, ispeed, ospeed, cc = attrs
    iflag &= ~(termios.IXON | termios.IXOFF | termios.ICRNL | termios.INLCR | termios.IGNCR)
    lflag &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN | termios.ISIG)
    cc = list(cc)
    cc[termios.VMIN] = 1
    return [iflag, oflag, cflag, lflag, ispeed, ospeed, cc]


@contextlib.contextmanager
def shown(text):
    """While the block runs, text (the prompt) is on the terminal and the keys
    typed are held; after it, the terminal's mode is back and the cursor at
    the line's start, where prompt_toolkit draws.  Nothing is shown when
    stdout is not the terminal (`th | tee log`: prompt_toolkit draws on
    stderr)."""
    if not sys.stdout.isatty():
        yield
        return
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    termios.tcsetattr(fd, termios.TCSANOW, _raw(saved))
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)
        sys.stdout.write("\r")      # (a message, if th fails meanwhile, overwrites it)
        sys.stdout.flush()
