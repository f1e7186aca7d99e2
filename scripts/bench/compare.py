"""Side-by-side cost of every family of operations: th against another th.

    python scripts/bench/compare.py [--runs 3] [--budget 0.02] [--filter text]
                                    [--script families.lua] [TH_A [TH_B]]

Runs the script (default families.lua beside this file, which prints
"op size microseconds" lines) --runs times under each command, alternating,
keeps the median of each figure and prints op, size, A us, B us and A/B
(below 1: A is faster), then how many cells are slower than 1x and 1.25x.
TH_A defaults to the `th` next to this interpreter, TH_B to the original
Torch7 at /opt/torch7-ref/bin/th (../shared/reference/install.sh installs it).
Start-up (`th -e ''`) is measured the same way.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = "/opt/torch7-ref/bin/th"


def own_th():
    exe = os.path.join(os.path.dirname(sys.executable), "th")
    return exe if os.path.exists(exe) else f"{sys.executable} -m th.cli"


def side_by_side(doc, runs):
    """The argument parser of a script comparing two th commands: TH_A (the
    th next to this interpreter), TH_B (the original Torch7) and --runs."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("th_a", nargs="?", default=own_th())
    p.add_argument("th_b", nargs="?", default=REFERENCE)
    p.add_argument("--runs", type=int, default=runs)
    return p


def run(th, script, budget, filter_):
    args = th.split() + [script, str(budget)] + ([filter_] if filter_ else [])
    out = subprocess.run(args, capture_output=True, text=True, cwd="/tmp").stdout
    figures = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            try:
                figures[(parts[0], int(parts[1]))] = float(parts[2])
            except ValueError:
                pass
    return figures


def startup(th):
    t = time.perf_counter()
    subprocess.run(th.split() + ["-e", ""], check=True, cwd="/tmp")
    return (time.perf_counter() - t) * 1e6


def main():
    p = side_by_side(__doc__, 3)
    p.add_argument("--budget", type=float, default=0.02, help="seconds per measurement")
    p.add_argument("--filter", default=None, help="only the operations whose name holds this text")
    p.add_argument("--script", default=os.path.join(HERE, "families.lua"))
    a = p.parse_args()
    # (the scripts run from /tmp: a path is taken from here, or beside this file)
    a.script = os.path.abspath(a.script) if os.path.exists(a.script) else os.path.join(HERE, a.script)

    runs = {"A": [], "B": []}
    for _ in range(a.runs):
        for key, th in (("A", a.th_a), ("B", a.th_b)):
            figures = run(th, a.script, a.budget, a.filter)
            figures[("startup", 0)] = statistics.median(startup(th) for _ in range(3))
            runs[key].append(figures)

    def median(key, cell):
        values = [r[cell] for r in runs[key] if cell in r]
        return statistics.median(values) if values else None

    cells = sorted(set(runs["A"][0]) & set(runs["B"][0]), key=lambda c: (c[0], c[1]))
    print(f"{'op':28s} {'size':>8s} {'A_us':>11s} {'B_us':>11s} {'A/B':>7s}")
    slower, slow125 = 0, 0
    for cell in cells:
        ta, tb = median("A", cell), median("B", cell)
        ratio = ta / tb if tb else float("inf")
        slower += ratio > 1.0
        slow125 += ratio > 1.25
        print(f"{cell[0]:28s} {cell[1]:8d} {ta:11.2f} {tb:11.2f} {ratio:7.2f}")
    print(f"{slower} of {len(cells)} cells slower than 1x, {slow125} slower than 1.25x "
          f"(medians of {a.runs} runs)")


if __name__ == "__main__":
    main()
