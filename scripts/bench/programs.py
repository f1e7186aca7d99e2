"""Whole programs, start to end, under th and the original Torch7.

    python scripts/bench/programs.py [--runs 5] [TH_A [TH_B]]

Runs each scripts/bench/programs/*.lua (short Torch7 programs: a training
loop with nn and optim, a convnet with Adam, a recurrent net of module
clones with rmsprop, data prepared in Lua loops then a model saved, loaded
and scored, tensor code) --runs times under
each command, alternating, from a directory where both find nn, optim,
moses, xlua and sys (links into the third-party tree, $TH_THIRDPARTY or
../shared/thirdparty: the original's own LUA_PATH reads ./?/init.lua), checks
that both printed the same, and prints the median wall time of each and the
ratio A/B: start-up, `require`, the JIT's warm-up and the work itself, as a
user waits for them.  With --jit, each program runs under jitcost.lua instead
and the table gives, per command, the median of the main thread's CPU time,
of the part of it LuaJIT spent recording and compiling traces, and of the
IR instructions compiled.
"""
import glob
import os
import statistics
import subprocess
import tempfile
import time

from compare import HERE, side_by_side

THIRDPARTY = os.environ.get("TH_THIRDPARTY") or os.path.join(HERE, "..", "..", "..", "shared", "thirdparty")


def link_libraries(where):
    """./name/init.lua and ./name.lua in where: the third-party libraries"""
    for name in ("nn", "optim", "xlua", "sys"):
        os.symlink(os.path.join(THIRDPARTY, name), os.path.join(where, name))
    os.symlink(os.path.join(THIRDPARTY, "moses", "moses.lua"), os.path.join(where, "moses.lua"))


def run(th, program, cwd):
    """(seconds, what it printed)"""
    t = time.perf_counter()
    proc = subprocess.run(th.split() + [program], capture_output=True, text=True, cwd=cwd)
    return time.perf_counter() - t, proc.stdout + proc.stderr


def main():
    p = side_by_side(__doc__, 5)
    p.add_argument("--jit", action="store_true", help="LuaJIT's compiling costs instead of wall times")
    a = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="th-programs-") as cwd:
        link_libraries(cwd)
        (compare_jit if a.jit else compare)(a.th_a, a.th_b, a.runs, cwd)


def compare(th_a, th_b, runs, cwd):
    print(f"{'program':<16} {'A ms':>9} {'B ms':>9} {'A/B':>6}")
    for program in sorted(glob.glob(os.path.join(HERE, "programs", "*.lua"))):
        times, outputs = {th_a: [], th_b: []}, {}
        for _ in range(runs):
            for th in (th_a, th_b):
                seconds, printed = run(th, program, cwd)
                times[th].append(seconds)
                outputs[th] = printed
        ta, tb = statistics.median(times[th_a]), statistics.median(times[th_b])
        same = "" if outputs[th_a] == outputs[th_b] else "  (printed otherwise)"
        print(f"{os.path.basename(program)[:-4]:<16} {ta * 1e3:9.1f} {tb * 1e3:9.1f} {ta / tb:6.2f}{same}")


def jitcost(th, program, cwd):
    """(cpu ms, compiling ms, IR instructions) of one run under jitcost.lua"""
    proc = subprocess.run(th.split() + [os.path.join(HERE, "jitcost.lua"), program],
                          capture_output=True, text=True, cwd=cwd)
    line = [x for x in proc.stderr.splitlines() if x.startswith("JIT ")][-1]
    _, _, _, instructions, compiling, cpu = line.split()
    return float(cpu), float(compiling), int(instructions)


def compare_jit(th_a, th_b, runs, cwd):
    print(f"{'program':<16} {'A cpu':>7} {'compile':>8} {'IR':>7}   {'B cpu':>7} {'compile':>8} {'IR':>7}  (ms)")
    for program in sorted(glob.glob(os.path.join(HERE, "programs", "*.lua"))):
        figures = {th_a: [], th_b: []}
        for _ in range(runs):
            for th in (th_a, th_b):
                figures[th].append(jitcost(th, program, cwd))
        cells = []
        for th in (th_a, th_b):
            cpu, compiling, ir = (statistics.median(f[i] for f in figures[th]) for i in range(3))
            cells.append(f"{cpu:7.0f} {compiling:8.1f} {ir:7.0f}")
        print(f"{os.path.basename(program)[:-4]:<16} " + "   ".join(cells))


if __name__ == "__main__":
    main()
