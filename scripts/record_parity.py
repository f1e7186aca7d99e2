"""Record the original Torch7's output for the differential cases of tests/parity.

    python scripts/record_parity.py [--th /opt/torch7-ref/bin/th] [NAME.lua ...]

Each tests/parity/NAME.lua is run by the original `th` (in that folder, so that
error messages name the file as th's will) and its standard output is written
to NAME.expected.  The tests compare th's output with these files, so they run
without the original installed; re-record only from the original, never from th.
"""
import argparse
import pathlib
import subprocess

CASES = pathlib.Path(__file__).resolve().parent.parent / "tests" / "parity"


def record(th, case):
    out = subprocess.run([th, case.name], cwd=CASES, capture_output=True, text=True, timeout=120)
    case.with_suffix(".expected").write_text(out.stdout)
    return out.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--th", default="/opt/torch7-ref/bin/th")
    parser.add_argument("cases", nargs="*")
    args = parser.parse_args()
    cases = [CASES / c for c in args.cases] or sorted(CASES.glob("*.lua"))
    for case in cases:
        print(case.name, "exit", record(args.th, case))


if __name__ == "__main__":
    main()
