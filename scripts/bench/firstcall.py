"""First calls in a new process: th against another th (issue 10: no first-call
penalty above 50 ms in any operation).

    python scripts/bench/firstcall.py [--runs 3] [--filter text] [TH_A [TH_B]]

Runs each case of firstcall.lua beside this file in a process of its own,
--runs times under each command, alternating, and prints the medians of its
first and second call under each (milliseconds), the ratio of the first
calls (below 1: A is faster), then the cases whose first call under A took
more than LIMIT_MS.  TH_A defaults to the `th` next to this interpreter,
TH_B to the original Torch7 (compare.py's defaults).
"""
import os
import statistics
import subprocess

from compare import side_by_side

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "firstcall.lua")
LIMIT_MS = 50.0


def first_and_again(th, name):
    """(first ms, second ms) of case name in a new process of th"""
    out = subprocess.run(th.split() + [SCRIPT, name], capture_output=True, text=True,
                         cwd="/tmp", check=True).stdout.split()
    return float(out[1]), float(out[2])


def main():
    p = side_by_side(__doc__, 3)
    p.add_argument("--filter", default="", help="only the cases whose name holds this text")
    a = p.parse_args()
    names = subprocess.run(a.th_a.split() + [SCRIPT], capture_output=True, text=True,
                           cwd="/tmp", check=True).stdout.split()
    names = [n for n in names if a.filter in n]
    print(f"{'case':18s} {'A first':>9s} {'again':>7s} {'B first':>9s} {'again':>7s} {'A/B':>6s}")
    over = []
    for name in names:
        runs = {a.th_a: [], a.th_b: []}
        for _ in range(a.runs):
            for th in runs:
                runs[th].append(first_and_again(th, name))
        (fa, sa), (fb, sb) = ([statistics.median(x[k] for x in runs[th]) for k in (0, 1)] for th in runs)
        print(f"{name:18s} {fa:9.2f} {sa:7.2f} {fb:9.2f} {sb:7.2f} {fa / fb:6.2f}")
        if fa > LIMIT_MS:
            over.append(name)
    print(f"{len(over)} of {len(names)} first calls above {LIMIT_MS:g} ms under A"
          + (": " + ", ".join(over) if over else ""))


if __name__ == "__main__":
    main()
