"""torch.Tester and torch.TestSuite: the original's report and exit status.

Report format (the original's output): "Running N tests", then per test a line
"i/N name ....... [WAIT]" rewritten after a carriage return into [PASS],
[FAIL], [ERROR] or [SKIP] (80 columns), then "Completed A asserts in N tests
with F failures and E errors", then one section per failure between lines of
80 dashes, each with the last two lines of its traceback; a failed run raises
an error, so `th` exits with status 1.  The original coloured it with ANSI
codes whether or not the output was a terminal.  (The original ran a suite's
tests in its hash order, which no other LuaJIT reproduces: th runs them
sorted by name.)
"""
import os
import re

from conftest import run_th

DASHES = "-" * 80
COLOURS = {"WAIT": "0;36", "PASS": "0;32", "FAIL": "0;31", "ERROR": "0;35", "SKIP": "0;33"}


def paint(colour, text):
    return f"\x1b[{colour}m{text}\x1b[0m"


def status_line(i, n, name, status):
    width = len(str(n))
    init = (paint("0;36", f"{i:>{width}}/{n} ") + f"{name} "
            + "." * (80 - 6 - 2 - (2 * width + 2) - len(name)) + " ")
    # the carriage return reads as a newline through subprocess's text mode
    return f"{init}[{paint(COLOURS['WAIT'], 'WAIT')}]\n{init}[{paint(COLOURS[status], status)}]"


def summary(asserts, tests, failures, errors, disabled=""):
    line = (f"Completed {asserts} in {tests} with "
            + paint("0;31" if failures[0] != "0" else "0;32", failures) + " and "
            + paint("0;35" if errors[0] != "0" else "0;32", errors))
    return line + (" and " + paint("0;33", disabled) if disabled else "")


def block(*lines):
    return "\n".join(lines) + "\n"


SUITE = """
local mytest = torch.TestSuite()
local tester = torch.Tester()
function mytest.testA()
   tester:eq(torch.Tensor{1, 2, 3}, torch.Tensor{1, 2, 4}, "a and b should be equal")
end
function mytest.testB()
   tester:eq({2, torch.Tensor{1, 2, 2}}, {2, torch.Tensor{1, 2, 2.001}}, 0.01, "approximately")
   tester:assertlt(1, 2)
   tester:assertTableEq({1, {2}}, {1, {2}})
   tester:assertErrorPattern(function() error('bad thing') end, 'bad')
end
function mytest.testC()
   local function myfunc() return "hello " .. world end
   tester:assertNoError(myfunc, "myfunc shouldn't give an error")
end
function mytest.testD() error('boom') end
print(pcall(function() mytest.testA = function() end end))
tester:add(mytest)
tester:run()
"""


def test_report_and_exit_status(th):
    r = th(SUITE)
    assert r.returncode == 1
    assert "An error was found while running tests!" in r.stderr
    text = re.sub(r"[^\s<>:=]*/script\.lua", "script.lua", r.stdout)
    assert text.startswith("false\t") and "Test testA is already defined.\t\n" in text
    assert block(
        "Running 4 tests",
        status_line(1, 4, "testA", "FAIL"),
        status_line(2, 4, "testB", "PASS"),
        status_line(3, 4, "testC", "FAIL"),
        status_line(4, 4, "testD", "ERROR"),
        summary("6 asserts", "4 tests", "2 failures", "1 error"),
        DASHES,
        "testA", "a and b should be equal",
        "TensorEQ(==) violation: max diff=1, tolerance=0",
        "stack traceback:",
        "\tscript.lua:5: in function <script.lua:4>",
        DASHES) in text
    assert ("testC\nmyfunc shouldn't give an error\nERROR violation: err=script.lua:14: "
            "attempt to concatenate global 'world' (a nil value)\nstack traceback:\n"
            "\tscript.lua:15: in function <script.lua:13>\n" + DASHES) in text
    assert "testD\n Function call failed\n" in text and "boom" in text
    # (a test's error traced down to the script's main chunk, as an
    # uncaught error: th's runner frames below it had shown)
    assert "\tscript.lua:20: in main chunk\n\n" + DASHES in text
    assert text.rstrip("\n").endswith(DASHES)


def test_passing_run_patterns_disable_and_summary(th):
    r = th("""
local t = torch.Tester()
t:add(function() t:assert(true) end, 'test_one')
t:add(function() t:assertalmosteq(1, 1 + 1e-9, 1e-6) end, 'test_two')
t:add(function() t:assert(false) end, 'other')
t:disable('other')
t:run()
t:run('two')
t:setSummaryOnly(true)
t:run({'one', 'other'})
print(pcall(t.add, t, function() end, 'test_one'))
print(pcall(t.run, t, 'nothing'))
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(block(
        "Running 3 tests",
        status_line(1, 3, "other", "SKIP"),
        status_line(2, 3, "test_one", "PASS"),
        status_line(3, 3, "test_two", "PASS"),
        summary("2 asserts", "3 tests", "0 failures", "0 errors", "1 disabled"),
        "Running 1 test",
        status_line(1, 1, "test_two", "PASS"),
        summary("1 assert", "1 test", "0 failures", "0 errors"),
        "Running 2 tests",
        status_line(1, 2, "other", "SKIP"),
        status_line(2, 2, "test_one", "PASS"),
        summary("1 assert", "2 tests", "0 failures", "0 errors", "1 disabled")))
    lines = r.stdout.split("\n")
    assert "Test with name test_one already exists!" in lines[-3]
    assert "Couldn't find test 'nothing'" in lines[-2]


def test_early_abort_and_rethrow(th):
    r = th("""
local t = torch.Tester()
t:add(function() t:asserteq(1, 2, 'first') end, 'a')
t:add(function() t:assert(true) end, 'b')
t:setEarlyAbort(true)
print(pcall(t.run, t))
local u = torch.Tester()
u:setRethrowErrors(true)
u:add(function() u:assertgt(1, 2) end, 'x')
local ok, err = pcall(u.run, u)
print(ok, err)
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(block(
        "Running 2 tests",
        status_line(1, 2, "a", "FAIL"),
        "Aborting on first error, not all tests have been executed",
        summary("1 assert", "2 tests", "1 failure", "0 errors")))
    assert ("a\nfirst\nEQ failed: 1 ~= 2\nstack traceback:\n\tscript.lua:3: in function <script.lua:3>\n"
            in re.sub(r"[^\s<>:=]*/script\.lua", "script.lua", r.stdout))
    assert "false\t" in r.stdout and "GT failed: 1 <= 2" in r.stdout


def test_asserts_messages(th):
    r = th("""
local t = torch.Tester()
t._currentTestName = 'direct'
local function show() print(t.errors[#t.errors]:match('^direct\\n(.-)\\n')) end
t:assertTensorNe(torch.Tensor{1}, torch.Tensor{1}); show()
t:assertTableNe({1}, {1}); show()
t:ne(1, 1); show()
t:eq({a = 1}, {a = 2}); show()
t:eq({a = 1}, {}); show()
t:eq(torch.IntTensor{1}, torch.Tensor{1}); show()
t:assertErrorMsg(function() error('x', 0) end, 'y'); show()
t:assertError(function() end); show()
t:assertErrorObj(function() error({code = 3}) end, function(e) return e.code == 3 end)
print(t.assertionPass.direct, t.assertionFail.direct)
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:9] == [
        "TensorNE(==) violation: max diff=0, tolerance=0\t",
        "The tables are equal\t",
        "NE failed: 1 == 1\t",
        "At table location a: EQ failed: 1 ~= 2\t",
        "Entry a missing in second table (is 1 in first)\t",
        "The tensors have different types\t",
        "ERROR violation: err=x\t",
        "ERROR violation: err=nil\t",
        "1\t8\t",
    ]


def test_lua_suite_written_with_tester(tmp_path):
    """th's own Lua-level File tests, written with torch.Tester, pass under th."""
    suite = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "file_suite.lua")
    r = run_th([suite], cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "with " + paint("0;32", "0 failures") + " and " + paint("0;32", "0 errors") in r.stdout


def test_findings_of_the_tester_fuzz():
    """scripts/fuzz_tester.py's findings, printed by the original
    (tests/fixtures/tester_fuzz_found.lua): failures and errors reported
    before warnings, t.warnings holding the sections; a test's error traced
    with th's frames as C functions; a second tolerance an error at the
    level it names; trailing nil arguments passing; a missing entry naming
    the value present; assertne's warning after any userdata; a storage
    against a tensor; FloatTensors' differences rounded to floats; add's and
    TestSuite's errors raised inside them; asserts outside a run recording
    no traceback"""
    fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
    r = run_th([os.path.join(fixtures, "tester_fuzz_found.lua")])
    assert r.returncode == 0, r.stderr
    with open(os.path.join(fixtures, "tester_fuzz_found.expected"), encoding="utf-8") as f:
        expected = [line.rstrip() for line in f.read().splitlines()]
    assert [line.rstrip() for line in r.stdout.splitlines()] == expected
