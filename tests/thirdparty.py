"""Where the tests of tests/test_pkg_*.py find the packages around torch: the Lua
sources of /work/shared/thirdparty (`../shared/thirdparty` from the repository,
or $TH_THIRDPARTY), put on LUA_PATH as a user's install would put them.
Penlight comes from where the machine installs it (Debian's lua-penlight:
/usr/share/lua/5.1, one of th's standard places; .ci/run installs it)."""
import os

from conftest import SHARED, run_th

THIRDPARTY = os.environ.get("TH_THIRDPARTY") or os.path.join(SHARED, "thirdparty")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "packages")


def packages_env(**extra):
    """The environment of a `th` that finds the third-party packages."""
    assert os.path.isdir(os.path.join(THIRDPARTY, "sys")), (
        f"the third-party Lua packages are not at {THIRDPARTY} (set TH_THIRDPARTY)")
    path = f"{THIRDPARTY}/?.lua;{THIRDPARTY}/?/init.lua;;"
    return dict(os.environ, LUA_PATH=path, **extra)


def run_with_packages(args, cwd, **kw):
    return run_th(args, cwd=cwd, env=packages_env(), **kw)


def expected(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return f.read()
