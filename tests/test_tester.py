"""torch.Tester and torch.TestSuite: the original's report and exit status.

Report format (Torch7's Tester.lua): "Running N tests", then per test a line
"i/N name ....... [WAIT]" rewritten after a carriage return into [PASS],
[FAIL], [ERROR] or [SKIP] (80 columns), then "Completed A asserts in N tests
with F failures and E errors", then one section per failure between lines of
80 dashes; a failed run raises an error, so `th` exits with status 1.
"""
import os

from conftest import run_th

DASHES = "-" * 80


def status_line(i, n, name, status):
    width = len(str(n))
    init = f"{i:>{width}}/{n} {name} " + "." * (80 - 6 - 2 - (2 * width + 2) - len(name)) + " "
    # the carriage return reads as a newline through subprocess's text mode
    return f"{init}[WAIT]\n{init}[{status}]"


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
    text = r.stdout
    assert text.startswith("false\t") and "Test testA is already defined.\t\n" in text
    assert block(
        "Running 4 tests",
        status_line(1, 4, "testA", "FAIL"),
        status_line(2, 4, "testB", "PASS"),
        status_line(3, 4, "testC", "FAIL"),
        status_line(4, 4, "testD", "ERROR"),
        "Completed 6 asserts in 4 tests with 2 failures and 1 error",
        DASHES,
        "testA", "a and b should be equal",
        "Tensor EQ(==) violation: max diff=1, tolerance=0") in text
    assert "testC\nmyfunc shouldn't give an error\nERROR violation: err=" in text
    assert "attempt to concatenate global 'world'" in text
    assert "testD\n Function call failed\n" in text and "boom" in text
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
        "Completed 2 asserts in 3 tests with 0 failures and 0 errors and 1 disabled",
        "Running 1 test",
        status_line(1, 1, "test_two", "PASS"),
        "Completed 1 assert in 1 test with 0 failures and 0 errors",
        "Running 2 tests",
        status_line(1, 2, "other", "SKIP"),
        status_line(2, 2, "test_one", "PASS"),
        "Completed 1 assert in 2 tests with 0 failures and 0 errors and 1 disabled"))
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
        "Completed 1 assert in 2 tests with 1 failure and 0 errors"))
    assert "a\nfirst\nEQ failed: 1 ~= 2\n" in r.stdout
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
        "Entry a missing in second table\t",
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
    assert "with 0 failures and 0 errors" in r.stdout
