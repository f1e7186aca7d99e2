"""Print the conformance cases th fails now, in the format of
tests/conformance_known_failures.txt (used to shrink that list after a fix:
review the diff, the list must never grow)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from concurrent.futures import ThreadPoolExecutor  # noqa: E402

from test_conformance import CASES, run_case  # noqa: E402


def main():
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = dict(zip(CASES, pool.map(run_case, CASES)))
    failing = [case for case, (expected, actual) in results.items() if expected != actual]
    print("# Conformance cases th does not pass yet (see test_conformance.py): this list only shrinks.")
    for case in failing:
        print(case)
    print(f"{len(CASES) - len(failing)} passed, {len(failing)} failed", file=sys.stderr)


if __name__ == "__main__":
    main()
