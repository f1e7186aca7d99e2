"""Torch utility functions: torch.class and friends (the seeds' "Torch utility
functions"), and trepl's print."""


def lua(runtime, code):
    return runtime.execute(code)


def test_class_inheritance_doc_example(th):
    code = """
do
  local Foo = torch.class('Foo')
  function Foo:__init() self.contents = 'this is some text' end
  function Foo:print() print(self.contents) end
  function Foo:bip() print('bip') end
end
foo = Foo()
foo:print()
do
  local Bar, parent = torch.class('torch.Bar', 'Foo')
  function Bar:__init(stuff) parent.__init(self); self.stuff = stuff end
  function Bar:boing() print('boing!') end
  function Bar:print() print(self.contents); print(self.stuff) end
end
bar = torch.Bar('ha ha!')
bar:print()
bar:boing()
bar:bip()
print(torch.typename(foo), torch.typename(bar))
print(torch.isTypeOf(bar, 'Foo'), torch.isTypeOf(bar, torch.Bar), torch.isTypeOf(foo, 'torch.Bar'))
"""
    r = th(code)
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("this is some text\t\nthis is some text\t\nha ha!\t\nboing!\t\nbip\t\n"
                        "Foo\ttorch.Bar\t\ntrue\ttrue\tfalse\t\n")


def test_class_in_module_table(runtime):
    code = """local M = {}
              local C = torch.class('Widget2', M)
              function C:__init(v) self.v = v end
              function C:get() return self.v end
              return M.Widget2(5):get(), rawget(_G, 'Widget2') == nil"""
    assert lua(runtime, code) == (5, True)


def test_class_bad_arguments(runtime):
    _, msg = lua(runtime, "return pcall(function() return torch.class(42) end)")
    assert msg.endswith("<class name> [<parent class name>] [<module table>] expected")


def test_redefining_a_class_works(runtime):
    code = """local A = torch.class('Redef')
              function A:__init() self.x = 1 end
              local a = Redef()
              local B = torch.class('Redef')
              function B:__init() self.x = 2 end
              return a.x, Redef().x, rawequal(A, B)"""
    assert lua(runtime, code) == (1, 2, True)


def test_type_and_typename(runtime):
    code = """return torch.type(torch.Tensor()), torch.type({}), torch.type(7), torch.type(nil),
                     torch.type(torch.LongStorage()), select('#', torch.typename({})), select('#', torch.typename(7))"""
    assert lua(runtime, code) == ("torch.DoubleTensor", "table", "number", "nil", "torch.LongStorage", 0, 0)


def test_getmetatable(runtime):
    code = """local mt = torch.getmetatable('torch.CharStorage')
              return mt.__typename, select('#', torch.getmetatable('torch.NoSuchThing')),
                     getmetatable(torch.Tensor()) == torch.getmetatable('torch.DoubleTensor')"""
    assert lua(runtime, code) == ("torch.CharStorage", 0, True)


def test_factory_makes_uninitialised_objects(runtime):
    code = """local K = torch.class('Kitten2')
              function K:__init() self.initialized = true end
              local k = torch.factory('Kitten2')()
              local t = torch.factory('torch.DoubleTensor')()
              return torch.type(k), k.initialized, torch.type(t), t:dim(), torch.factory('no.such.class')"""
    assert lua(runtime, code) == ("Kitten2", None, "torch.DoubleTensor", 0, None)


def test_isequal_and_pointer(runtime):
    code = """local a = torch.Tensor(4)
              local c = a:narrow(1, 1, 2)
              local t = {}
              return torch.isequal(t, t), torch.isequal(t, {}), torch.pointer(a) == torch.pointer(a),
                     torch.pointer(a) == torch.pointer(c), torch.pointer(a:storage()) == torch.pointer(c:storage()),
                     type(torch.pointer(a))"""
    assert lua(runtime, code) == (True, False, True, False, True, "number")


def test_setmetatable_and_constructor_table(runtime):
    code = """local P = torch.class('Pt3')
              function P:norm2() return self.x * self.x end
              local p = {x = 3}
              local r = torch.setmetatable(p, 'Pt3')   -- (the name, as the original returned)
              return p:norm2(), torch.getconstructortable('Pt3') == Pt3, torch.version(p), r"""
    assert lua(runtime, code) == (9, True, 1, 'Pt3')


def test_getenv_setenv(runtime):
    code = """local f = function() return 1 end
              local env = {}
              torch.setenv(f, env)
              return torch.getenv(f) == env"""
    assert lua(runtime, code) is True


def test_totable(runtime):
    code = """local t = torch.Tensor({{1, 2}, {3, 4}}):t():totable()
              local ok, msg = pcall(torch.totable, {1, 2})
              return t[1][2], t[2][1], ok, msg"""
    a, b, ok, msg = lua(runtime, code)
    assert (a, b, ok) == (3, 2, False) and msg.endswith("obj must be a Storage or a Tensor")


def test_is_tensor_is_storage(runtime):
    code = """local x = torch.Tensor(3, 4)
              return torch.isTensor(x), torch.isTensor(x[1]), torch.isTensor(x[1][2]),
                     torch.isTensor(torch.Storage(2)), torch.isStorage(torch.Storage(2)), torch.isStorage(x)"""
    assert lua(runtime, code) == (True, True, False, False, True, False)


def test_trepl_print(th):
    r = th("""print({})
print({1, 'a', {b = {}}})
print({torch.Tensor(2, 3), torch.IntStorage(4), torch.Tensor()})
print('before', torch.Tensor({1}), 'after')
print(nil, 5, true)
print()
local P = torch.class('Pretty')
function P:__tostring() return 'Pretty!' end
print(Pretty())
local t = {}
t.self = t
print(t)
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout == (
        '{}\n'
        '{\n  1 : 1\n  2 : "a"\n  3 : \n    {\n      b : {...}\n    }\n}\n'
        '{\n  1 : DoubleTensor - size: 2x3\n  2 : IntStorage - size: 4\n  3 : DoubleTensor - empty\n}\n'
        'before\t 1\n[torch.DoubleTensor of size 1]\n\nafter\t\n'
        'nil\t5\ttrue\t\n'
        'Pretty!\n'
        '{\n  self : {...}\n}\n')


def test_class_parent_errors_use_luaT_messages(runtime):
    code = """
    local function msg(f) local ok, m = pcall(f); return (tostring(m):gsub('^.-:%d+: ', '')) end
    torch.class('ProbeBase')
    torch.class('ProbeChild', 'ProbeBase')
    return msg(function() torch.class('ProbeOrphan', 'NoSuchParent') end),
           msg(function() torch.class('ProbeChild', 'ProbeBase') end)"""
    a, b = lua(runtime, code)
    assert a == "bad argument #2 (invalid parent class name NoSuchParent)"
    assert b == "class ProbeChild has been already assigned a parent class\n"


def test_class_that_is_its_own_parent_is_refused(runtime):
    # Torch7 crashed on torch.class('X', 'X'); th refuses the parent (every
    # lookup in such a class would loop)
    code = """
    local ok, m = pcall(torch.class, 'ProbeSelfParent', 'ProbeSelfParent')
    return ok, (tostring(m):gsub('^.-:%d+: ', ''))"""
    assert lua(runtime, code) == (False, "bad argument #2 (invalid parent class name ProbeSelfParent)")


def test_class_of_a_missing_inner_module(runtime):
    # the module's name is its parts up to the one missing (Torch7's message
    # held bytes from beyond that name's end now and then: 'torch.s34q\xf4')
    code = """
    local ok, m = pcall(torch.class, 'torch.ProbeMissing.Inner')
    return ok, (tostring(m):gsub('^.-:%d+: ', ''))"""
    assert lua(runtime, code) == (False, "while creating metatable torch.ProbeMissing.Inner: "
                                         "bad argument #1 (torch.ProbeMissing is an invalid module name)")


def test_pointer_of_strings_numbers_and_errors(runtime):
    code = """
    local ok1 = pcall(torch.pointer, nil)
    local ok2 = pcall(torch.pointer, true)
    local ok3 = pcall(torch.pointer, io.stdout)
    return torch.pointer('abc') == torch.pointer('ab' .. 'c'), torch.pointer('abc') == torch.pointer('abd'),
           type(torch.pointer(12)), ok1, ok2, ok3"""
    assert lua(runtime, code) == (True, False, "number", False, False, False)


def test_setdefaulttensortype_messages_and_effects(runtime):
    code = """
    local function msg(...) local ok, m = pcall(torch.setdefaulttensortype, ...); return (tostring(m):gsub('^.-:%d+: ', '')) end
    torch.setdefaulttensortype('torch.IntTensor')
    local a, b, c, d = torch.type(torch.Tensor()), torch.type(torch.Storage()), torch.getdefaulttensortype(), torch.type(torch.zeros(2))
    torch.setdefaulttensortype('torch.DoubleTensor')
    return a, b, c, d, msg('torch.Foo'), msg(3), torch.type(torch.Tensor())"""
    assert lua(runtime, code) == ("torch.IntTensor", "torch.IntStorage", "torch.IntTensor", "torch.IntTensor",
                                  "<torch.Foo> is not a string describing a torch object", "string expected",
                                  "torch.DoubleTensor")


def test_setenv_on_a_tensor_keeps_it_working(th):
    out = th("""local t = torch.Tensor(3):fill(2)
local env = {}
torch.setenv(t, env)
collectgarbage(); collectgarbage()
print(torch.getenv(t) == env, t:sum())""")
    assert out.stdout == "true\t6\t\n"


def test_class_instances_print_their_class_name_and_lack_operators(th):
    # (the messages as the original printed them: luaT names both operands)
    out = th("""local P = torch.class('PointT')
function P:__init(x) self.x = x end
print(PointT(1))
print(tostring(PointT(2)))
local function msg(f) local ok, m = pcall(f); print(ok, (tostring(m):gsub('^.-:%d+: ', ''))) end
msg(function() return PointT(1) + 1 end)
msg(function() return PointT(1) - 1 end)
msg(function() return PointT(1) < PointT(2) end)
msg(function() return PointT(1)() end)
function P:__add__(o) return 'sum' end
function P:__call__(a) return a + 1 end
print(PointT(1) + 2, PointT(1)(41))""")
    assert out.stdout.splitlines() == [
        "PointT", "PointT\t",
        "false\tboth PointT and (null) have no addition operator\t",
        "false\tboth PointT and (null) have no substraction operator\t",
        "false\tboth PointT and PointT have no less-than operator\t",
        "false\tPointT has no call operator\t",
        "sum\t42\t",
    ]


def test_trepl_print_scalars_and_mixed_tables(th):
    out = th("""print(nil)
print(1, nil)
print(1e15, 0.1, 2^53, 1/0, -1/0, 100)
print({true, false, 'a\\nb', {}, torch.ByteTensor(2, 0), torch.FloatStorage(3)})
print(setmetatable({}, {__tostring = function() return 'T!' end}), 1)""")
    assert out.stdout == ("nil\t\n1\tnil\t\n1e+15\t0.1\t9.007199254741e+15\tinf\t-inf\t100\t\n"
                          '{\n  1 : true\n  2 : false\n  3 : "a\nb"\n  4 : {...}\n'
                          "  5 : ByteTensor - size: 2\n  6 : FloatStorage - size: 3\n}\nT!\n1\t\n")


def test_version_returns_nothing_without_a_metatable(runtime):
    code = """return select('#', torch.version({})), torch.version(torch.Tensor()),
                     select('#', torch.version(setmetatable({}, {})))"""
    assert runtime.execute(code) == (0, 1, 1)


def test_tic_toc_getnumcores_isatty_packageluapath(th):
    # as the original printed this script with its output piped
    proc = th("""local t = torch.tic()
print(type(t), t > 1e9)
print(type(torch.toc(t)), torch.toc(t) >= 0, torch.toc(t) < 1)
print(torch.getnumcores() == tonumber(io.popen('nproc'):read('*l')))
print(torch.isatty(io.stdout), torch.isatty(io.stdin))
print(torch.packageLuaPath('torch'):match('[^/]*$'), torch.packageLuaPath('nosuchpkg'))
print(pcall(torch.toc, 'a'))""", stdin="")
    assert proc.stdout.splitlines() == [
        "number\ttrue\t", "number\ttrue\ttrue\t", "true\t", "false\tfalse\t", "torch\t",
        "false\tbad argument #1 to '?' (number expected, got string)\t"]


def test_include_runs_a_file_beside_the_script(th, tmp_path):
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "part.lua").write_text("print('included', select('#', ...))")
    proc = th("include('parts/part.lua')")
    assert proc.stdout == "included\t0\t\n"
