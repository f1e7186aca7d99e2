"""Calls with wrong arguments fail where Torch7 failed, with its message: the
types given, then the signatures its generated bindings accepted (recorded
from the original: tests/fixtures/argument_errors.expected and the literal
strings below).  Messages are compared without their file:line prefix, as
the conformance cases strip it; the process and the data stay intact."""
import os

import pytest
from lupa.luajit21 import LuaError

from conftest import run_th

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def assert_prints_the_original(script):
    """The fixture script, run from the fixtures directory, prints its .expected
    file (the original's output) line for line."""
    proc = run_th([script + ".lua"], cwd=FIXTURES)
    assert proc.returncode == 0, proc.stderr[-2000:]
    with open(os.path.join(FIXTURES, script + ".expected")) as f:
        expected = f.read().splitlines()
    got = proc.stdout.splitlines()
    assert len(got) == len(expected)
    for line, want in zip(got, expected):
        assert line == want


def test_wrong_calls_give_the_original_errors_and_leave_the_data_intact():
    assert_prints_the_original("argument_errors")


def test_structural_and_indexing_methods_check_their_arguments_as_the_original():
    # every argument's type before any range ("no value" for an absent one),
    # then TH's check in TH's words
    assert_prints_the_original("argument_checks")


def test_bracket_index_errors_are_the_originals():
    assert_prints_the_original("index_errors")


def test_storage_errors_are_the_originals():
    assert_prints_the_original("storage_errors")


def test_maths_errors_are_numbered_placed_and_worded_as_the_original():
    # a method call's arguments one less than a function's, torch.f's errors
    # without position or name, TH's words for sizes that do not conform
    assert_prints_the_original("maths_errors")


def first_line(runtime, code):
    ok, msg = runtime.execute(f"return pcall(function() {code} end)")
    assert ok is False
    return msg.split("\n")[0]


def test_a_method_error_is_at_the_callers_line_torch_f_has_no_position(tmp_path):
    # as the original printed it: luaL_error in a method called from Lua, in
    # torch.f a C function called by the C dispatcher (no line to give)
    script = tmp_path / "pos.lua"
    script.write_text("""local x = torch.Tensor(3)
local function first(f) local ok, m = pcall(f) return (m:gsub('\\n.*', '')) end
print(first(function() x:max(1, 2) end))
print(first(function() torch.max(x, 1, 2) end))
print(first(function() local s = x:sum(nil) end))
print(first(function() torch.add(x, 'a') end))
print(first(function() torch.FloatTensor.cumsum(x, 1) end))
print(first(function() torch.randperm(3, 'torch.LongTensor', 1) end))
""")
    proc = run_th([script.name], cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "pos.lua:3: invalid arguments: DoubleTensor number number \t",
        "invalid arguments: DoubleTensor number number \t",
        "pos.lua:5: invalid arguments: DoubleTensor nil \t",
        "invalid arguments: DoubleTensor string \t",
        "pos.lua:7: invalid arguments: DoubleTensor number \t",
        "invalid arguments: number string number \t",
    ]


def test_a_methods_argument_error_follows_the_call_form():
    # x:narrow('a') #1 of 'narrow', x.narrow(x, 'a') #2, a call from C or a
    # tail call #2 of '?' without a position
    assert_prints_the_original("call_forms")


def test_an_uncaught_argument_error_stops_the_script_with_the_message(tmp_path):
    script = tmp_path / "bad.lua"
    script.write_text("local x = torch.Tensor(3)\n\n\nx:max(1,2)\n")
    proc = run_th([script.name], cwd=str(tmp_path))
    assert proc.returncode == 1
    assert ("bad.lua:4: invalid arguments: DoubleTensor number number \n"
            "expected arguments: DoubleTensor | [*DoubleTensor*] [*LongTensor*] DoubleTensor index\n"
            ) in proc.stderr


@pytest.mark.parametrize("code, message", [
    # the signatures per type: C element types, a Long tensor's own text
    ("torch.ByteTensor(2):add('a')",
     "expected arguments: *ByteTensor* [ByteTensor] unsigned char | "
     "*ByteTensor* [ByteTensor] [unsigned char] ByteTensor"),
    ("torch.IntTensor(2):clamp(1)", "expected arguments: *IntTensor* [IntTensor] int int"),
    ("torch.LongTensor(2):random(1, 2, 3)",
     "expected arguments: [Generator] long long | [Generator] long | [Generator] | "
     "*LongTensor* [Generator] long long | *LongTensor* [Generator] long | *LongTensor* [Generator]"),
    ("torch.FloatTensor(2):cauchy(1, 2, 3)",
     "expected arguments: [Generator] [double] [double] | *FloatTensor* [Generator] [float] [float]"),
    ("torch.sum(torch.ShortTensor(2), 'a')",
     "expected arguments: ShortTensor | [*ShortTensor*] ShortTensor index"),
    ("torch.Tensor(2):cmul(2)", "expected arguments: *DoubleTensor* [DoubleTensor] DoubleTensor"),
])
def test_the_expected_arguments_are_the_originals_for_each_type(runtime, code, message):
    ok, msg = runtime.execute(f"return pcall(function() return {code} end)")
    assert ok is False
    assert msg.split("\n")[1] == message


def test_valid_calls_keep_working(runtime):
    runtime.execute("x = torch.Tensor{3, 1, 2}; y = torch.Tensor{1, 1, 1}")
    assert runtime.execute("return x:clone():add(y):sum(), x:clone():add(2, y):sum(), x:max()") == (9, 12, 3)
    assert runtime.execute("return torch.max(x, 1)[1], select(2, x:max(1))[1], x:sort(1, true)[1]") == (3, 1, 3)
    assert runtime.execute("return torch.cat(x, y, 1):size(1), torch.cat({x, y}):size(1)") == (6, 6)
    assert runtime.execute("return x:clone():fill('2'):sum(), x:sum('1')[1], x:clone():add('1'):sum()") == (6, 6, 9)
    assert runtime.execute("return torch.Tensor(1, 3):squeeze():dim(), torch.Tensor(1, 3):squeeze(1):dim()") == (1, 1)
    assert runtime.execute("return torch.Tensor(2, 2):zero():sum(), torch.Generator and x:clone():uniform(torch.Generator(), 0, 1):size(1)") == (0, 3)
    # torch.f with a tensor type named last works in that type (no tensor argument)
    assert runtime.execute("return torch.randperm(3, 'torch.LongTensor'):size(1)") == 3
    # x:size / x:stride with anything but a number: all of them, as Torch7
    assert runtime.execute("return x:size(y)[1], x:stride('a')[1], x:size('1')") == (3, 1, 3)


def test_errors_run_hot_leave_the_process_and_data_intact(runtime):
    runtime.execute("""x = torch.Tensor{1, 2, 3}
    errors = 0
    for i = 1, 3000 do
       for _, f in ipairs{function() x:max(1, 2) end, function() x:add('a') end,
                          function() torch.cat(x, x, 1, 2) end, function() x:sum(nil) end} do
          if not pcall(f) then errors = errors + 1 end
       end
       x:add(1):add(-1)
    end""")
    assert runtime.execute("return errors, x[1], x[2], x[3], x:sum()") == (12000, 1, 2, 3, 6)


def test_python_sees_a_lua_error(runtime):
    with pytest.raises(LuaError, match="invalid arguments: DoubleTensor number number"):
        runtime.execute("torch.Tensor(3):fill(1, 2)")


@pytest.mark.parametrize("code, message", [
    # Tensor.c's checks (not generated): the original's text, less its C source position
    ("x:index(1, torch.LongTensor{1}, 3)", "bad argument #2 to '?'"),
    ("x:index(1)", "torch.DoubleTensor, number, torch.LongTensor | "
                   "torch.DoubleTensor, torch.DoubleTensor, number, torch.LongTensor expected"),
    ("x:index(x, 1, torch.LongTensor{1}, 5)", "torch.DoubleTensor, number, torch.LongTensor | "),
    ("torch.Tensor(nil)", "bad argument #1 to '?'"),
    ("torch.Tensor(nil, nil)", "bad argument #1 to '?'"),
    ("torch.Tensor(2, nil)", "bad argument #2 to '?'"),
    ("x:resize(2, nil)", "bad argument #3 to '?'"),
    ("x:set(nil)", "bad argument #2 to '?'"),
    ("x:copy('s')", "bad argument #2 to '?' (torch.*Tensor expected, got string)"),
    ("x:copy(torch.LongStorage(3))", "bad argument #2 to '?' (torch.*Tensor expected, got userdata)"),
])
def test_tensor_methods_reject_what_the_original_rejected(runtime, code, message):
    runtime.execute("x = torch.Tensor{1, 2, 3}")
    ok, msg = runtime.execute(f"return pcall(function() return {code} end)")
    assert ok is False and message in msg
    assert runtime.execute("return x:nElement(), x[1], x[3]") == (3, 1, 3)


def test_a_method_called_on_what_is_not_a_tensor_is_an_argument_error(runtime):
    # x.select(1, 2): Torch7's "bad argument #1 to 'select' (torch.DoubleTensor
    # expected, got ...)"; th's methods had failed on their first line with an
    # index error naming th's own source (x.index(1, 1, idx) until seeds30),
    # or named th's own inner function ("calling 'f' on bad self": maskedFill)
    code = """
    local x, s = torch.Tensor(2, 3), torch.DoubleStorage(3)
    local bad = {}
    for _, obj in ipairs{x, s} do
       local names = {}
       for k, v in pairs(getmetatable(obj)) do
          if type(v) == 'function' and not k:match('^__') and k ~= 'new' then names[#names + 1] = k end
       end
       for _, name in ipairs(names) do
          for _, self in ipairs{1, 'str', false, {}} do
             for _, args in ipairs{{1, 1}, {1, torch.LongTensor{1}}, {torch.ByteTensor(2, 3), 1}} do
                local ok, err = pcall(obj[name], self, unpack(args))
                err = tostring(err)
                if not ok and (err:match('attempt to') or err:match('%.lua:%d+:') or err:match('calling')) then
                   bad[#bad + 1] = name .. ': ' .. err
                end
             end
          end
       end
    end
    local ok, err = pcall(function() local r = x.select(1, 2, 1) return r end)
    return table.concat(bad, '\\n'), err
    """
    leaks, message = runtime.execute(code)
    assert leaks == ""
    assert message.endswith("bad argument #1 to 'select' (torch.*Tensor expected, got number)")


def test_a_storage_over_an_address_the_process_does_not_have_is_an_error():
    # torch.DoubleStorage(n, address) views memory owned elsewhere; at an
    # address with no memory, Torch7 crashed at the first read (SIGSEGV)
    proc = run_th(["-e", "print(pcall(torch.DoubleStorage, 3, 12345)) "
                         "local x = torch.DoubleStorage(2):fill(7) "
                         "print(torch.DoubleStorage(2, x:data())[2])"])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "false\tbad argument #2 to '?' (no memory of the process at address 12345)\t", "7\t"]
