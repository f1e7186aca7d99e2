"""How long the interactive `th>` prompt takes to appear, th against another command.

    python scripts/bench/prompt_start.py [--runs 15] [--ref /opt/torch7-ref/bin/th]
                                         [--history N] [TH ...]

Starts each command with no arguments on a pseudo-terminal (the stdlib's pty,
TERM=xterm, an empty HOME, a history file of N lines), answers the terminal
queries a real terminal answers (prompt_toolkit's cursor position request),
and takes three figures: `shown`, the wall time from the start until the text
`th>` can be read; `ready`, until two letters typed right then are echoed (the
line editor reads keys: th shows its prompt before prompt_toolkit has
loaded); `cpu`, the CPU time (user + system) the process had used then,
steadier than wall time on a busy machine.  The process is then killed.  The
commands alternate, --runs times each; the median, lowest and highest of each
figure are printed in milliseconds.  TH (several: a th before and after a
change) defaults to the `th` next to this interpreter.  A figure, never a test.
"""
import argparse
import os
import pty
import select
import signal
import statistics
import sys
import tempfile
import time

PROMPT = b"th>"
KEYS = b"qz"                        # typed at the prompt; echoed as they are (one name)
CURSOR_QUERY = b"\x1b[6n"           # answered as a terminal does: row 1, column 1
CURSOR_REPLY = b"\x1b[1;1R"


def own_th():
    return os.path.join(os.path.dirname(sys.executable), "th")


class Terminal:
    """The output of a command on a pseudo-terminal, read until some text shows."""

    def __init__(self, fd, timeout):
        self.fd, self.deadline, self.seen = fd, time.perf_counter() + timeout, b""

    def wait_for(self, text, after=0):
        """Reads until text is in the output past offset `after`; returns its end offset."""
        while text not in self.seen[after:]:
            left = self.deadline - time.perf_counter()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                raise TimeoutError(f"{text!r} not shown: {self.seen[-300:]!r}")
            data = os.read(self.fd, 65536)
            if CURSOR_QUERY in data:
                os.write(self.fd, CURSOR_REPLY)
            self.seen += data
        return self.seen.index(text, after) + len(text)


def time_to_prompt(command, home, timeout=20.0):
    """(shown, ready, cpu) in seconds for one start of command (see the module's text)."""
    env = dict(os.environ, TERM="xterm", HOME=home, TREPL_HISTORY=os.path.join(home, "history"),
               COLUMNS="80", LINES="24")
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:                                   # the child: the command on the terminal
        os.chdir(home)
        os.execvpe(command[0], command, env)
    terminal = Terminal(fd, timeout)
    try:
        end = terminal.wait_for(PROMPT)
        shown = time.perf_counter() - start
        os.write(fd, KEYS)
        terminal.wait_for(KEYS, end)
        ready = time.perf_counter() - start
    finally:
        os.kill(pid, signal.SIGKILL)
        usage = os.wait4(pid, 0)[2]
        os.close(fd)
    return shown, ready, usage.ru_utime + usage.ru_stime


def summary(seconds):
    ms = sorted(s * 1e3 for s in seconds)
    return f"median {statistics.median(ms):6.1f} ms (min {ms[0]:6.1f}, max {ms[-1]:6.1f})"


def write_history(home, lines):
    with open(os.path.join(home, "history"), "w") as f:
        f.writelines(f"x = torch.rand({i}, 3):sum()  -- line {i}\n" for i in range(lines))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("th", nargs="*", default=[own_th()], help="the commands to measure (split on spaces)")
    p.add_argument("--ref", default=None, help="a reference command, e.g. /opt/torch7-ref/bin/th")
    p.add_argument("--runs", type=int, default=15)
    p.add_argument("--history", type=int, default=0, help="lines in the history file")
    a = p.parse_args()
    commands = [th.split() for th in a.th] + ([a.ref.split()] if a.ref else [])
    runs = {" ".join(c): [] for c in commands}
    with tempfile.TemporaryDirectory(prefix="prompt_start.") as home:
        write_history(home, a.history)
        for command in commands:                   # a first run of each, not counted: caches warm
            time_to_prompt(command, home)
        for _ in range(a.runs):
            for command in commands:
                runs[" ".join(command)].append(time_to_prompt(command, home))
    shown_medians = {}
    for name, figures in runs.items():
        shown, ready, cpu = zip(*figures)
        shown_medians[name] = statistics.median(shown)
        print(f"{name}\n  shown {summary(shown)}\n  ready {summary(ready)}\n  cpu   {summary(cpu)}")
    if a.ref:
        for th in a.th:
            print(f"shown, {th} / ref (medians): {shown_medians[th] / shown_medians[a.ref]:.2f}")


if __name__ == "__main__":
    main()
