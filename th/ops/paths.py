"""The operating-system calls behind the `paths` library (stat, directory
listing, mkdir/rmdir, uname, the executable's directory).  Failures come back as
values (nil, "name: reason", errno), as the original C functions returned them."""
import os
import sys

from th.ops import export


def _failure(path, exc):
    return None, f"{path}: {exc.strerror}", exc.errno


@export
def paths_kind(path):
    """-> 'dir', 'file' (anything else that exists) or nil, following links."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return "dir" if (mode & 0o170000) == 0o040000 else "file"


@export
def paths_list(path):
    """-> the entries of a directory (with . and ..) joined by NULs, or nil."""
    try:
        names = os.listdir(os.fsencode(path))
    except (OSError, ValueError):
        return None
    return b"\0".join([b".", b".."] + names)


@export
def paths_mkdir(path):
    """mkdir -p, as the original did, but a path that exists is an error"""
    try:
        os.makedirs(path, 0o777)
    except OSError as exc:
        return _failure(path, exc)
    return True


@export
def paths_rmdir(path):
    try:
        os.rmdir(path)
    except OSError as exc:
        return _failure(path, exc)
    return True


@export
def paths_cwd():
    return os.getcwd()


@export
def paths_uname():
    u = os.uname()
    return u.sysname, u.nodename, u.machine


@export
def paths_execdir():
    """The directory of the running `th` command (of the Python interpreter when embedded)."""
    exe = sys.argv[0] if sys.argv and os.path.isfile(sys.argv[0]) else sys.executable
    return os.path.dirname(os.path.abspath(exe))


@export
def paths_which(name):
    """The full path of an executable program found as the shell would, or nil."""
    import shutil
    found = shutil.which(name)
    return os.path.abspath(found) if found else None
