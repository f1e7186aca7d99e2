"""Shared fixtures: run Lua through the real `th` command, or in-process."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# /work/shared beside the repository, or $TH_SHARED (a worktree at /work/wt/NAME)
SHARED = os.environ.get("TH_SHARED") or os.path.join(os.path.dirname(ROOT), "shared")


def pin_blas_kernels():
    """OpenBLAS rounds by the kernels it picks for the CPU (AVX-512 ones differ from
    AVX2 ones in the last bits). The fixtures' bits were recorded from the original
    on its Haswell (AVX2) kernels, so th runs on those too wherever the CPU has them."""
    if os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as f:
            if " avx2 " in f.read():
                os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")


pin_blas_kernels()


def th_command():
    """The `th` next to the running interpreter (the venv's), else `python -m th.cli`."""
    exe = os.path.join(os.path.dirname(sys.executable), "th")
    if os.path.exists(exe):
        return [exe]
    return [sys.executable, "-m", "th.cli"]


def run_th(args, cwd=None, stdin=None, timeout=60, env=None):
    """Run `th args...` -> CompletedProcess with text stdout/stderr."""
    return subprocess.run(th_command() + list(args), cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=timeout, env=env)


def uncoloured(text):
    """text without ANSI colour codes (torch.Tester colours its report, as Torch7's did)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def normalise(text):
    """As the conformance driver compares: no trailing spaces, no trailing blank lines."""
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines)


@pytest.fixture
def th(tmp_path):
    """th(code, *args) -> CompletedProcess: runs code as a script file in tmp_path."""
    def run(code, *args, **kw):
        script = tmp_path / "script.lua"
        script.write_text(code)
        return run_th([str(script), *args], cwd=str(tmp_path), **kw)
    return run


@pytest.fixture(scope="session")
def runtime():
    from th.runtime import Runtime
    return Runtime()
