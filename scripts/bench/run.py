"""Run the Lua benchmarks through `th` and compare with the original Torch7.

    python scripts/bench/run.py [--runs N] [script.lua ...]

Each scripts/bench/*.lua prints `BENCH <name> <seconds per operation>` lines
(medians over repeats, see bench.lua); this runner runs every script --runs
times, keeps the median of each figure, adds `th -e ''` start-up, and prints
each with the time the original Torch7 took on this kind of machine (2 cores)
and the ratio torch7 / th (above 1: th is faster).
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# seconds per operation measured with the original Torch7 (figures from the issues)
TORCH7 = {
    "startup": 0.12,                     # the target for `th -e ''`, not a Torch7 figure
    "scalar_read": 95e-9,
    "storage_write": 95e-9,
    "narrow_select_size": 0.95e-6,
    "mm_1000": 29e-3,
    "add_1e7_alloc": 15e-3,
    "add_1e7_inplace": 2.7e-3,
    "sum_max_mean_1e7": 16e-3,
    "sort_1e6": 84e-3,
    "conv2_1000x1000_by_10x10_V+F": 49e-3,
    "randn_1e6": 24e-3,
    "add_small_10": 0.26e-6,
    "apply_contiguous_1e6": 0.5e-3,
}


def th_command():
    exe = os.path.join(os.path.dirname(sys.executable), "th")
    return [exe] if os.path.exists(exe) else [sys.executable, "-m", "th.cli"]


def run_script(path):
    out = subprocess.run(th_command() + [path], capture_output=True, text=True, check=True).stdout
    figures = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "BENCH":
            figures[parts[1]] = float(parts[2])
    return figures


def startup():
    t = time.perf_counter()
    subprocess.run(th_command() + ["-e", ""], check=True)
    return time.perf_counter() - t


def fmt(seconds):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:8.2f} {unit}"
    return f"{seconds / 1e-9:8.2f} ns"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("scripts", nargs="*")
    args = parser.parse_args()
    scripts = args.scripts or sorted(p for p in glob.glob(os.path.join(HERE, "*.lua"))
                                     if os.path.basename(p) != "bench.lua")
    samples = {"startup": [startup() for _ in range(max(args.runs, 5))]}
    for script in scripts:
        for _ in range(args.runs):
            for name, value in run_script(script).items():
                samples.setdefault(name, []).append(value)
    print(f"{'benchmark':24} {'th':>11} {'torch7':>11} {'torch7/th':>9}")
    for name, values in samples.items():
        th = statistics.median(values)
        ref = TORCH7.get(name)
        ratio = f"{ref / th:9.2f}" if ref else " " * 9
        print(f"{name:24} {fmt(th):>11} {fmt(ref) if ref else '':>11} {ratio}")


if __name__ == "__main__":
    main()
