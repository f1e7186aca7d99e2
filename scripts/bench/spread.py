"""How much a cell's time varies from one process to the next under one th.

    python scripts/bench/spread.py [--processes 5] [--budget 0.02] [--filter text]
                                   [--script families.lua] [--ops a,b,...] [TH]

LuaJIT decides afresh in each process how to compile a loop (a short inner
loop as a trace of its own or unrolled into its caller's, a loop blacklisted
after aborted traces...), and some decisions cost a multiple of the others:
a gather of 200 x 3 took 0.7 us in some processes and 2.1 in others.  For
each operation of the script (families.lua's "family/op" names, or --ops),
runs it alone (the script's filter) in --processes new processes and prints
each cell's fastest, median and slowest time and slowest/fastest; cells
whose ratio is above FLAG are counted at the end.  TH defaults to the `th`
next to this interpreter.
"""
import argparse
import os
import re
import statistics

from compare import HERE, own_th, run

FLAG = 1.5


def operations(script):
    """the names the script reports, in its order ('family/op' literals)"""
    with open(script) as f:
        names = re.findall(r"report\('([\w/]+)'", f.read())
    return list(dict.fromkeys(names))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("th", nargs="?", default=own_th())
    p.add_argument("--processes", type=int, default=5)
    p.add_argument("--budget", type=float, default=0.02, help="seconds per measurement")
    p.add_argument("--filter", default="", help="only the operations whose name holds this text")
    p.add_argument("--script", default=os.path.join(HERE, "families.lua"))
    p.add_argument("--ops", default=None, help="comma-separated operation names (default: the script's)")
    a = p.parse_args()
    a.script = os.path.abspath(a.script) if os.path.exists(a.script) else os.path.join(HERE, a.script)
    ops = a.ops.split(",") if a.ops else operations(a.script)
    ops = [op for op in ops if a.filter in op]
    print(f"{'op':28s} {'size':>8s} {'fastest':>9s} {'median':>9s} {'slowest':>9s} {'ratio':>6s}")
    flagged = total = 0
    for op in ops:
        cells = {}
        for _ in range(a.processes):
            for key, us in run(a.th, a.script, a.budget, op).items():
                if key[0] == op:   # (the filter is a substring: its other matches are skipped)
                    cells.setdefault(key, []).append(us)
        for (name, size), times in sorted(cells.items()):
            ratio = max(times) / min(times)
            total += 1
            flagged += ratio > FLAG
            mark = "  <<" if ratio > FLAG else ""
            print(f"{name:28s} {size:8d} {min(times):9.2f} {statistics.median(times):9.2f} "
                  f"{max(times):9.2f} {ratio:6.2f}{mark}")
    print(f"{flagged} of {total} cells vary more than {FLAG}x between processes")


if __name__ == "__main__":
    main()
