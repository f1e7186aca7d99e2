"""Instructions per call of small operations, th against the original, counted
by valgrind's callgrind: a measure a busy machine does not move (timings of
sub-microsecond calls moved 2-3x from run to run on a shared machine).

    python scripts/bench/instructions.py [--n 30000] [--nogc] [--filter text]
                                         [--context] [TH_A [TH_B]]

Runs instructions.lua (beside this file) under callgrind with a dump of the
counts at every call of C's clock(): each operation's n calls lie between two
os.clock() calls (n spans a dozen collection cycles: with 5,000 calls a
count moved by half with where the cycles fell).  Prints op, instructions
per call under A and B, and A/B.
With --context every family of families.lua runs first (at 100 and 10^4
elements, a fixed number of calls each): the counts of a long process, where
an operation's trace may stop at a function another operation made the root
of a trace of its own (copy of 100 bytes into doubles: 1,951 alone, 6,158
after them, before th's dispatchers became vararg).
With --nogc the collector is stopped: the operation's own instructions,
without the collection its garbage costs (the difference between the two
tables is that cost).  Instructions are not time (cache misses, the
collector's memory traffic), but they tell where extra work is, whatever
else the machine runs.  Needs valgrind; each command takes a few minutes.
Count a regular install (pip install ., not -e): under an editable one the
same operations counted 20-40% more (a new 10x10 7,664 against 5,702, a bare
newproxy 855 against 507), and glibc's memmove is valgrind's own, a byte at
a time (a copy of 10^4 doubles read 300,000).
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from compare import HERE, REFERENCE, own_th


def counts(th, n, nogc, filter_, context):
    """{op: instructions per call} of instructions.lua under th"""
    script = os.path.join(HERE, "instructions.lua")
    with tempfile.TemporaryDirectory() as where:
        args = ["valgrind", "--tool=callgrind", "--trace-children=yes", "--dump-before=clock",
                f"--callgrind-out-file={where}/cg.%p"] + th.split() + [script, str(n)]
        args += ["nogc" if nogc else "gc", filter_ or "", "context" if context else ""]
        done = subprocess.run(args, capture_output=True, text=True, cwd="/tmp")
        names = [line.strip() for line in done.stderr.splitlines()
                 if line.strip() and not line.startswith("==")]
        # the dumps of the process that ran the script (th's launcher, if
        # any, made none), in order; the last 2 per operation are its clocks
        dumps = {}
        for path in glob.glob(os.path.join(where, "cg.*")):
            m = re.fullmatch(r"cg\.(\d+)\.(\d+)", os.path.basename(path))
            if m:
                dumps.setdefault(m.group(1), []).append((int(m.group(2)), path))
        if not dumps or not names:
            sys.exit(f"no counts from {th}: {done.stderr[-2000:]}")
        ours = sorted(max(dumps.values(), key=len))[-2 * len(names):]
        result = {}
        for i, name in enumerate(names):
            result[name] = total(ours[2 * i + 1][1]) / n   # (the dump at the loop's end)
        return result


def total(path):
    """the instructions a callgrind dump counted"""
    with open(path) as f:
        for line in f:
            if line.startswith(("totals:", "summary:")):
                return int(line.split()[1])
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("th_a", nargs="?", default=own_th())
    p.add_argument("th_b", nargs="?", default=REFERENCE)
    p.add_argument("--n", type=int, default=30000, help="calls of each operation counted")
    p.add_argument("--nogc", action="store_true", help="the collector stopped")
    p.add_argument("--filter", default=None, help="only the operations whose name holds this text")
    p.add_argument("--context", action="store_true", help="count after a pass of every family")
    a = p.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("instructions.py needs valgrind (apt-get install valgrind)")
    ca = counts(a.th_a, a.n, a.nogc, a.filter, a.context)
    cb = counts(a.th_b, a.n, a.nogc, a.filter, a.context)
    print(f"{'op':22s} {'A_instr':>9s} {'B_instr':>9s} {'A/B':>6s}")
    above = 0
    for name in ca:
        if name in cb:
            ratio = ca[name] / cb[name] if cb[name] else float("inf")
            above += ratio > 1
            print(f"{name:22s} {ca[name]:9.0f} {cb[name]:9.0f} {ratio:6.2f}")
    print(f"{above} of {len(ca)} operations above 1x ({'collector stopped' if a.nogc else 'collector on'}"
          f"{', after every family' if a.context else ''})")


if __name__ == "__main__":
    main()
