"""torch.CmdLine as the seeds' CmdLine section documents it and Torch7 behaved."""
import os
import re

SETUP = """
cmd = torch.CmdLine()
cmd:text()
cmd:text('Training a simple network')
cmd:text()
cmd:text('Options')
cmd:option('-seed',123,'initial random seed')
cmd:option('-booloption',false,'boolean option')
cmd:option('-stroption','mystring','string option')
cmd:text()
"""

HELP = """Usage: {script} [options]

Training a simple network

Options
  -seed       initial random seed [123]
  -booloption boolean option [false]
  -stroption  string option [mystring]

"""


def test_parse_script_arguments(th):
    r = th(SETUP + "p = cmd:parse(arg) print(p.seed, p.booloption, p.stroption)",
           "-seed", "456", "-booloption", "-stroption", "x y")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "456\ttrue\tx y\t\n"


def test_boolean_option_flips_its_default(th):
    r = th("cmd = torch.CmdLine() cmd:option('-on', true, 'x') print(cmd:parse({'-on'}).on)")
    assert r.stdout == "false\t\n"


def test_help_exits_zero_with_script_name(th, tmp_path):
    for flag in ("-h", "--help", "-help"):
        r = th(SETUP + "cmd:parse(arg) print('not reached')", flag)
        assert r.returncode == 0
        assert r.stdout == HELP.format(script=str(tmp_path / "script.lua"))


def test_unknown_option_is_an_error(th, tmp_path):
    r = th(SETUP + "cmd:parse(arg) print('not reached')", "-nosuch")
    assert r.returncode == 1
    assert r.stderr == "invalid argument: -nosuch"   # the original's bytes
    assert "not reached" not in r.stdout
    assert "Usage:" in r.stdout   # the original printed the help on stdout


def test_missing_value_and_bad_number(th):
    r = th(SETUP + "cmd:parse(arg)", "-seed")
    assert r.returncode == 1 and r.stderr == "missing argument for option -seed"   # the original's bytes
    r = th(SETUP + "cmd:parse(arg)", "-seed", "abc")
    assert r.returncode == 1 and "invalid type for option -seed (should be number)" in r.stderr


def test_positional_arguments(th):
    code = """cmd = torch.CmdLine()
cmd:argument('-input', 'input file')
cmd:option('-n', 1, 'count')
p = cmd:parse(arg)
print(p.input, p.n)
print(cmd:string('run', p, {}))
cmd:help()"""
    r = th(code, "data.t7", "-n", "3")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:3] == ["data.t7\t3\t", "n\t3\t1\t", "run,input=data.t7,n=3\t"]
    assert "Usage: [options] <input>" in r.stdout
    assert "  <input> input file" in r.stdout
    r = th(code)
    assert r.returncode == 1 and "not enough arguments" in r.stderr


def test_option_declaration_errors(th):
    r = th("""cmd = torch.CmdLine()
print(pcall(cmd.option, cmd, '-x'))
print(pcall(cmd.option, cmd, '-x', 1, 'help', 'string'))""")
    assert r.stdout == ("false\toption -x has no default value\t\n"
                        "false\toption -x has wrong default type value\t\n")


def test_docs_sample_script_and_log(th, tmp_path):
    sample = SETUP + """params = cmd:parse(arg)
params.rundir = cmd:string('experiment', params, {dir=true})
paths.mkdir(params.rundir)
cmd:log(params.rundir .. '/log', params)
print('after', 1)
"""
    r = th(sample)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("[program started on ")
    assert "[command line arguments]\t\n" in r.stdout and "[----------------------]" in r.stdout
    assert "seed\t123\t\n" in r.stdout and "after\t1\t\n" in r.stdout
    log = (tmp_path / "experiment" / "log").read_text()
    # (each word followed by a space, as the original wrote its log)
    assert re.match(r"\[program started on .+\] \n\[command line arguments\] \n", log)
    assert "seed 123 \n" in log and "rundir experiment \n" in log and log.endswith("after 1 \n")

    r = th(sample, "-seed", "456", "-stroption", "mycustomstring")
    assert r.returncode == 0, r.stderr
    assert os.path.isfile(tmp_path / "experiment,seed=456,stroption=mycustomstring" / "log")


def test_addtime_prefixes_log_lines_only(th, tmp_path):
    r = th("""cmd = torch.CmdLine()
cmd:log('log.txt')
cmd:addTime('your project name', '%F %T')
print('Your log message')""")
    assert "Your log message\t\n" in r.stdout and "project name" not in r.stdout
    last = (tmp_path / "log.txt").read_text().splitlines()[-1]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\[your project name\]:  Your log message ", last)


def test_silent_and_file_handle(th, tmp_path):
    r = th("""cmd = torch.CmdLine()
local f = io.open('handle.log', 'w')
cmd:silent()
cmd:log(f, {a = 1})
print('quiet', torch.Tensor(2):fill(3))
f:close()""")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    log = (tmp_path / "handle.log").read_text()
    assert "a 1 \n" in log and "quiet" in log and "[torch.DoubleTensor of size 2]" in log


def test_string_with_positional_arguments(th):
    # arguments come first, in declaration order; the original CmdLine.lua then
    # always adds the separator before the (possibly empty) list of options
    r = th("""cmd = torch.CmdLine()
cmd:option('-n', 5, 'a number')
cmd:argument('-input', 'input file')
cmd:argument('-out', 'output')
local p = cmd:parse({'b.txt', 'c.txt'})
print(p.input, p.out, p.n)
print(cmd:string('exp', p, {}))
p = cmd:parse({'-n', '7', 'b.txt', 'c.txt'})
local oldprint = print
print = function() end
local s = cmd:string('exp', p, {})
print = oldprint
print(s)""")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "b.txt\tc.txt\t5\t\nexp,input=b.txt,out=c.txt,\t\nexp,input=b.txt,out=c.txt,n=7\t\n"


def test_boolean_flag_given_twice_stays_toggled(th):
    # a boolean option takes no value: each occurrence sets it to `not default`
    r = th("""cmd = torch.CmdLine()
cmd:option('-f', false, 'flag')
cmd:option('-t', true, 'true flag')
local p = cmd:parse({'-f', '-f', '-t'})
print(p.f, p.t)""")
    assert r.stdout == "true\tfalse\t\n"


def test_number_option_rejects_text(th):
    # parse errors: a blank line, the help on stdout, the message on stderr, exit 1
    r = th("""cmd = torch.CmdLine()
cmd:option('-n', 5, 'a number')
print('before')
cmd:parse({'-n', 'abc'})
print('not reached')""")
    assert r.returncode == 1
    assert r.stdout.replace("\t", "") == "before\n\n\nUsage: [options]\n  -n a number [5]\n"
    assert "invalid type for option -n (should be number)" in r.stderr


def test_help_with_an_argument_table_writes_its_name(th):
    # help(arg) writes arg[0] before [options]; the original concatenated it
    # unconditionally, so parse{'-h'} on a table without [0] fails after "Usage: "
    r = th("cmd = torch.CmdLine() cmd:option('-n', 1, 'count') cmd:help({[0] = 'prog.lua'})")
    assert r.stdout == "Usage: prog.lua [options]\n  -n count [1]\n"
    r = th("cmd = torch.CmdLine() cmd:option('-n', 1, 'count') cmd:parse({'-h'}) print('not reached')")
    assert r.returncode == 1 and r.stdout == "Usage: "
