"""Where `require` looks for Lua packages: th's own modules first (they provide
the C parts of torch, paths, sys, lfs...), then the user's LUA_PATH/LUA_CPATH,
then the places a Lua 5.1/LuaJIT installation searches (the user's luarocks
tree, /usr/local, the distribution's), so packages installed there as Lua files
(nn, optim, penlight, xlua...) are found as the original `th` found them.

As in Lua, `;;` inside LUA_PATH/LUA_CPATH stands for the default list."""
import os
import sys


def _tree_paths(root):
    return [f"{root}/?.lua", f"{root}/?/init.lua"]


def default_path():
    home = os.path.expanduser("~")
    return ";".join(
        ["./?.lua", "./?/init.lua"]
        + _tree_paths(f"{home}/.luarocks/share/lua/5.1")
        + _tree_paths("/usr/local/share/lua/5.1")
        + ["/usr/local/share/luajit-2.1/?.lua"]
        + _tree_paths("/usr/share/lua/5.1"))


def _multiarch():
    """The platform triplet (x86_64-linux-gnu): CPython keeps it in
    sys.implementation; sysconfig, which also has it, costs 3-9 ms to import."""
    triplet = getattr(sys.implementation, "_multiarch", None)
    if triplet is None:
        import sysconfig
        triplet = sysconfig.get_config_var("MULTIARCH")
    return triplet


def default_cpath():
    home = os.path.expanduser("~")
    multiarch = _multiarch()
    dirs = [f"{home}/.luarocks/lib/lua/5.1", "/usr/local/lib/lua/5.1"]
    if multiarch:
        dirs.append(f"/usr/lib/{multiarch}/lua/5.1")
    dirs.append("/usr/lib/lua/5.1")
    return ";".join(["./?.so"] + [f"{d}/?.so" for d in dirs]
                    + ["/usr/local/lib/lua/5.1/loadall.so"])


def _with_user(variable, default):
    user = os.environ.get(variable)
    if user is None:
        return default
    return user.replace(";;", f";{default};").strip(";")


def lua_path(own_dir):
    """package.path: th's modules, then LUA_PATH, then the standard places."""
    return f"{own_dir}/?.lua;{own_dir}/?/init.lua;" + _with_user("LUA_PATH", default_path())


def lua_cpath():
    """package.cpath: LUA_CPATH, then the standard places.  C modules load
    because th's LuaJIT exports the Lua API to them (see runtime._luajit)."""
    return _with_user("LUA_CPATH", default_cpath())
