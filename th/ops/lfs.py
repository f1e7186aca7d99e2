"""The system calls behind th's `lfs` module (LuaFileSystem's API, th/lua/lfs.lua).
Failures come back as values (nil, strerror, errno), as LuaFileSystem returned
them; the Lua side words the messages."""
import fcntl
import os
import stat

from th.ops import export

_KINDS = ((stat.S_ISREG, "file"), (stat.S_ISDIR, "directory"), (stat.S_ISLNK, "link"),
          (stat.S_ISSOCK, "socket"), (stat.S_ISFIFO, "named pipe"),
          (stat.S_ISCHR, "char device"), (stat.S_ISBLK, "block device"))

_LOCKS = {"r": fcntl.LOCK_SH, "w": fcntl.LOCK_EX, "u": fcntl.LOCK_UN}


def _name(path):
    """A file name as lfs.lua sent it: a leading NUL marks bytes sent one
    character each (th/lua/lfs/names.lua)."""
    if path.startswith("\0"):
        return path[1:].encode("latin-1")
    return path


def _failure(exc):
    return None, exc.strerror, exc.errno


def _kind(mode):
    for test, name in _KINDS:
        if test(mode):
            return name
    return "other"


def _permissions(mode):
    return "".join(c if mode & (0o400 >> i) else "-" for i, c in enumerate("rwxrwxrwx"))


@export
def lfs_stat(path, follow):
    """-> true, mode, ino, dev, nlink, uid, gid, rdev, access, modification,
    change, size, permissions, blocks, blksize | nil, strerror, errno"""
    try:
        st = os.stat(_name(path)) if follow else os.lstat(_name(path))
    except OSError as exc:
        return _failure(exc)
    except ValueError:               # a NUL inside the name
        return None, "Invalid argument", 22
    return (True, _kind(st.st_mode), st.st_ino, st.st_dev, st.st_nlink, st.st_uid,
            st.st_gid, st.st_rdev, int(st.st_atime), int(st.st_mtime), int(st.st_ctime),
            st.st_size, _permissions(st.st_mode), st.st_blocks, st.st_blksize)


@export
def lfs_readlink(path):
    try:
        return os.fsencode(os.readlink(_name(path)))
    except OSError as exc:
        return _failure(exc)


def _call(fn, *args):
    try:
        fn(*[_name(a) if isinstance(a, str) else a for a in args])
    except OSError as exc:
        return _failure(exc)
    except ValueError:
        return None, "Invalid argument", 22
    return True


@export
def lfs_mkdir(path):
    return _call(os.mkdir, path, 0o777)


@export
def lfs_rmdir(path):
    return _call(os.rmdir, path)


@export
def lfs_chdir(path):
    return _call(os.chdir, path)


@export
def lfs_currentdir():
    try:
        return os.getcwdb()
    except OSError as exc:
        return _failure(exc)


@export
def lfs_touch(path, atime, mtime):
    """atime nil: both times now."""
    return _call(os.utime, path, None if atime is None else (int(atime), int(mtime)))


@export
def lfs_link(old, new, symbolic):
    return _call(os.symlink if symbolic else os.link, old, new)


@export
def lfs_unlink(path):
    return _call(os.unlink, path)


@export
def lfs_listdir(path):
    """-> the entries (with . and ..) joined by NULs | nil, strerror, errno"""
    try:
        names = os.listdir(os.fsencode(_name(path)))
    except OSError as exc:
        return _failure(exc)
    except ValueError:
        return None, "Invalid argument", 22
    return b"\0".join([b".", b".."] + names)


@export
def lfs_lock(fd, mode, start, length):
    """A POSIX record lock (fcntl F_SETLK, never waiting) on bytes
    [start, start+length) of fd; mode 'r', 'w' or 'u' (unlock)."""
    flags = _LOCKS[mode] | (0 if mode == "u" else fcntl.LOCK_NB)
    return _call(fcntl.lockf, fd, flags, int(length), int(start), os.SEEK_SET)
