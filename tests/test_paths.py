"""The paths library: the seeds' directory functions and what scripts use daily."""
import os


def lines(r):
    assert r.returncode == 0, r.stderr
    return r.stdout.split("\n")[:-1]


def test_path_names(th):
    out = lines(th("""
print(paths.basename('/a/b/c.lua'), paths.basename('/a/b/c.lua', 'lua'), paths.basename('/a/b/'))
print(paths.dirname('/a/b/c.txt'), paths.dirname('c.txt'), paths.dirname('/'))
print(paths.extname('x.tar.gz'), paths.extname('a.b/c'))
print(paths.concat('/usr', 'local', '../lib'), paths.concat('/a', '/b', 'c'))"""))
    assert out == ["c.lua\tc\tb\t", "/a/b\t.\t/\t", "gz\tb/c\t", "/usr/lib\t/b/c\t"]   # the original's extname: all after the last dot


def test_directory_functions(th, tmp_path):
    out = lines(th("""
print(paths.mkdir('d'), paths.dirp('d'))
print(paths.mkdir('d'))
paths.mkdir('d/sub')
io.open('d/f.txt', 'w'):close()
io.open('d/g.lua', 'w'):close()
local all = paths.dir('d') table.sort(all) print(table.concat(all, ' '))
local t = {} for f in paths.files('d', 'txt') do t[#t+1] = f end print(table.concat(t, ' '))
t = {} for f in paths.files('d', function(f) return f:match('^g') end) do t[#t+1] = f end print(table.concat(t, ' '))
t = {} for f in paths.iterdirs('d') do t[#t+1] = f end print(table.concat(t, ' '))
t = {} for f in paths.iterfiles('d') do t[#t+1] = f end table.sort(t) print(table.concat(t, ' '))
print(paths.dir('missing'))
print(paths.rmdir('d'))
print(paths.rmall('d'))
print(paths.rmall('d', 'yes'), paths.dirp('d'))"""))
    assert out[0] == "true\ttrue\t"
    assert out[1] == "nil\td: File exists\t17\t"
    assert out[2:7] == [". .. f.txt g.lua sub\t", "f.txt\t", "g.lua\t", "sub\t", "f.txt g.lua\t"]
    assert out[7] == "nil\t"
    assert out[8] == "nil\td: Directory not empty\t39\t"
    assert out[9] == "nil\tmissing second argument ('yes')\t"
    assert out[10] == "true\tfalse\t"


def test_bad_arguments_are_lua_errors(th):
    out = lines(th("""
print(pcall(paths.concat, {}))
print(pcall(paths.dirp, nil))
print(pcall(paths.files, '.', 42))"""))
    # (called by pcall, a C function: no name, as luaL_argerror had none)
    assert out[0] == "false\tbad argument #1 to '?' (string expected, got table)\t"
    assert out[1] == "false\tbad argument #1 to '?' (string expected, got nil)\t"
    assert out[2].startswith("false\t")
    assert out[2].endswith("Expecting optional arg 2 to be function or string. Got : number\t")


def test_system_queries(th, tmp_path):
    out = lines(th("""
print(paths.cwd() == paths.concat('.'), paths.home == os.getenv('HOME'))
print(paths.dirp(paths.execdir()), paths.filep(paths.findprogram('nosuchprogram_xyz', 'sh')))
print(paths.thisfile() == paths.concat('script.lua'), paths.thisfile('x.lua') == paths.concat('x.lua'))
print(select('#', paths.uname()), paths.uname() == io.popen('uname -s'):read('*l'))
print(select(3, paths.uname()) == io.popen('uname -m'):read('*l'), paths.findprogram('nosuchprogram_xyz'))"""))
    # the original: uname gives system, host and processor; findprogram one nil
    assert out == ["true\ttrue\t", "true\ttrue\t", "true\ttrue\t", "3\ttrue\t", "true\tnil\t"]


def test_dofile_is_relative_to_the_calling_file(th, tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "helper.lua").write_text("return 'helper ran'")
    (tmp_path / "lib" / "main.lua").write_text("local r = paths.dofile('helper.lua') return r")
    out = lines(th("print(dofile(paths.concat('lib/main.lua')))"))
    assert out == ["helper ran\t"]


def test_tmpname_files_are_removed_at_exit(th, tmp_path):
    for ending in ("", "os.exit(0)", "error('boom')"):
        th("local f = io.open('names.txt', 'w') f:write(paths.tmpname()) f:close() " + ending)
        name = (tmp_path / "names.txt").read_text()
        assert name and not os.path.exists(name)
