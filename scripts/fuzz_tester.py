"""Differential fuzz of torch.Tester and torch.TestSuite against the original Torch7.

Each case builds a Tester with one or a few tests, each doing random
assertions that pass or fail (every assert method the original has: assert,
assertlt/gt/le/ge, asserteq/ne, assertalmosteq, assertTensorEq/Ne,
assertTableEq/Ne with nested tables and tensors, assertError, assertNoError,
assertErrorMsg, assertErrorPattern, assertErrorObj, eq/ne and
assertGeneralEq/Ne, with tolerances, messages or none, wrong argument types,
extra arguments), then errors or not; tests come by every form of `add`
(function and name, function alone, TestSuite, plain table, _setUp and
_tearDown) and run by every form of `run` (all, a name, patterns, a list),
with disable, earlyAbort, rethrow and summaryOnly, now and then twice; other
cases call the asserts outside any run, or misuse add, run, disable and
TestSuite.  The whole printed report is compared byte for byte (spaces,
carriage returns and colours included), and whether the run raised an error
and with what message.

Normalised, as machine-dependent: the case file's path, the path and line
numbers of Tester.lua (th's own file), addresses, the traceback's frames
below the script's main chunk (th's launcher against trepl's), and the
position of run's final "An error was found while running tests!" (the
original's points into its Tester.lua, th's at the caller).  The original
ran a suite's tests in its hash order, which th replaces by sorted names: a
case of several tests compares its status lines without their numbers and
its report's sections sorted (an earlyAbort case's tests are clones, their
names masked).

Uses fuzz_diff.py's runner (batches; a crash or hang resumes after the
case).  Differences kept on purpose (KNOWN) are counted apart.

    python scripts/fuzz_tester.py --calls 2000 --seed 1 \\
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th [--show 30]
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import arguments, differences, show_by_lines  # noqa: E402

PRELUDE = r"""
io.stdout:setvbuf('line')
local stdout, capture = io.stdout, io.tmpfile()
local SCRIPT = debug.getinfo(1, 'S').source:sub(2)
local function plain(s) return (s:gsub('%p', '%%%0')) end
-- machine-dependent text to placeholders
local function clean(s)
   s = s:gsub(plain(SCRIPT), '<script>')
   s = s:gsub('[^%s<>]*torch/(%a+)%.lua:%d+', '%1.lua:N'):gsub('0x%x+', 'ADDR'):gsub(' at /%S+%.c:%d+', '')
   repeat local n s, n = s:gsub('(in main chunk)\n\t[^\n]*', '%1') until n == 0
   return (s:gsub('[^%s]*: An error was found while running tests!', 'An error was found while running tests!'))
end
-- records(lines, i): the status records of a run from line i (a test's line
-- and what follows it up to the next test's), unnumbered -> records, next line
local function records(lines, i)
   local recs = {}
   while lines[i] and not lines[i]:find('^Completed') and not lines[i]:find('^Aborting') do
      local line = lines[i]:gsub('(\27%[0;36m *)%d+/', '%1#/')
      if lines[i]:find('^\27%[0;36m *%d+/') or #recs == 0 then
         recs[#recs + 1] = line
      else
         recs[#recs] = recs[#recs] .. '\n' .. line
      end
      i = i + 1
   end
   table.sort(recs)
   return recs, i
end
local DASHES = string.rep('-', 80)
-- orderfree(s, mask): s with each run's status records and report sections
-- sorted (the original ran tests in its hash order); the names in mask
-- replaced by <T>, and then the case's line numbers too (clones)
local function orderfree(s, mask)
   for _, name in ipairs(mask or {}) do s = s:gsub(plain(name) .. ' %.* ', '<T> '):gsub(plain(name), '<T>') end
   if mask then s = s:gsub('<script>:%d+', '<script>:L') end
   local lines, out = {}, {}
   for line in (s .. '\n'):gmatch('(.-)\n') do lines[#lines + 1] = line end
   local i = 1
   while lines[i] do
      out[#out + 1] = lines[i]
      if lines[i]:find('^Running %d+ test') then
         local recs
         recs, i = records(lines, i + 1)
         for _, r in ipairs(recs) do out[#out + 1] = r end
      elseif lines[i] == DASHES then
         -- the report's sections, up to the run's result or the next run
         local sections, cur = {}, {}
         i = i + 1
         while lines[i] and not lines[i]:find('^=> ') and not lines[i]:find('^Running %d') do
            if lines[i] == DASHES then
               sections[#sections + 1] = table.concat(cur, '\n')
               cur = {}
            else
               cur[#cur + 1] = lines[i]
            end
            i = i + 1
         end
         if #cur > 0 then sections[#sections + 1] = table.concat(cur, '\n') end
         table.sort(sections)
         for _, sec in ipairs(sections) do out[#out + 1] = sec; out[#out + 1] = DASHES end
      else
         i = i + 1
      end
   end
   return table.concat(out, '\n')
end
function show(i, f)
   local start = capture:seek('end')
   io.output(capture)
   local r = {pcall(f)}
   io.output(stdout)
   capture:seek('set', start)
   local text = capture:read('*a') or ''
   text = text .. (r[1] and '=> ok' or '=> error: ' .. tostring(r[2]))
   text = clean(text)
   if ORDERFREE then text = orderfree(text, MASK) end
   ORDERFREE, MASK = nil, nil
   text = text:gsub('\\', '\\\\'):gsub('\n', '\\n'):gsub('\t', '\\t'):gsub('\r', '\\r')
   text = text:gsub('\27', '\\e'):gsub(' ', '\\_')
   stdout:write(i, ' ', text, '\n')
end
"""

TYPES = ["Byte", "Char", "Short", "Int", "Long", "Float", "Double"]
NUMS = ["0", "1", "-1", "2.5", "1e-9", "1/0", "-1/0", "0/0", "3", "1e300", "0.1 + 0.2", "0.3", "-0", "2^53"]
OTHERS = ["'a'", "'b'", "''", "'1'", "true", "false", "nil", "{}", "{1}", "f0", "torch.Tensor{1}"]
MESSAGES = ["'msg'", "''", "'two\\nlines'", "'50%'"]
BADMESSAGES = ["5", "{}", "true"]


def pick(rng, *choices):
    return rng.choice(choices)


def opt_message(rng):
    """', message' or nothing; now and then a wrong one or an extra argument"""
    k = rng.random()
    if k < 0.45:
        return ""
    if k < 0.9:
        return ", " + rng.choice(MESSAGES)
    if k < 0.95:
        return ", " + rng.choice(BADMESSAGES)
    return ", " + rng.choice(MESSAGES) + ", " + pick(rng, "1", "'x'", "nil")


def opt_tolerance(rng):
    """tolerance and message in either order, or one, or none, or wrong ones"""
    tol = pick(rng, "0", "1e-6", "0.5", "1", "2", "-1", "1e-20")
    msg = rng.choice(MESSAGES)
    if rng.random() < 0.08:
        return rng.choice([f", {tol}, {tol}", f", {msg}, {msg}", ", {}", ", true", f", {tol}, {msg}, 3"])
    return rng.choice(["", "", f", {tol}", f", {msg}", f", {tol}, {msg}", f", {msg}, {tol}", f", {tol}, nil"])


def value(rng):
    return rng.choice(NUMS) if rng.random() < 0.6 else rng.choice(OTHERS)


def near(rng, v):
    """a number equal to v, close to it, or not"""
    return pick(rng, v, v, f"({v}) + 1e-7", f"({v}) + 0.3", f"({v}) * 2", f"({v}) - 1", rng.choice(NUMS))


def data(rng, shape):
    if not shape:
        return str(rng.randint(-3, 5))
    return "{" + ", ".join(data(rng, shape[1:]) for _ in range(shape[0])) + "}"


SHAPES = [(3,), (1, 3), (3, 1), (2, 2), (4,), (1,), (2, 3), (6,)]


def tensor(rng, T=None, shape=None):
    T = T or rng.choice(TYPES)
    k = rng.random()
    if k < 0.06:
        return f"torch.{T}Tensor()"
    if k < 0.09:   # (not 2x0: the original's eq read past the tensors, KNOWN)
        return f"torch.{T}Tensor(0)"
    shape = shape or rng.choice(SHAPES)
    return f"torch.{T}Tensor({data(rng, shape)})"


def tensor_pair(rng):
    T = rng.choice(TYPES)
    shape = rng.choice(SHAPES)
    a = tensor(rng, T, shape)
    k = rng.random()
    if k < 0.3:
        b = a
    elif k < 0.45:
        b = f"({a}):add({pick(rng, '1e-7', '0.25', '1', '-2')})"
    elif k < 0.6:
        b = tensor(rng, T, shape)
    elif k < 0.7:
        b = tensor(rng, rng.choice(TYPES), shape)
    elif k < 0.8:
        b = f"({a}):view({', '.join(map(str, reversed(shape)))})" if len(shape) > 1 else f"({a}):view(1, {shape[0]})"
    elif k < 0.9:
        b = tensor(rng, T)
    else:
        # (no integer tensor filled with NaN, INT_MIN: the original's differences overflowed;
        # no storage after a tensor: the original's index error; both KNOWN)
        b = pick(rng, "torch.Tensor{0/0}", f"({a}):fill(0/0)" if T in ("Float", "Double") else f"({a}):fill(-1)",
                 "torch.Tensor{1/0}", "nil", "{1, 2}", "5")
    if rng.random() < 0.1:
        a = pick(rng, "torch.Tensor{0/0}", "torch.Tensor{1/0}", "nil", "{1}", "torch.Tensor():resize(2):fill(1)")
    return a, b


def table_value(rng, depth):
    """a Lua table constructor: a list of values, nested tables and tensors,
    at most one string key (pairs order of several keys differs)"""
    items = []
    for _ in range(rng.randint(0, 3)):
        k = rng.random()
        if k < 0.45:
            items.append(rng.choice(NUMS[:7] + ["'s'", "true", "false"]))
        elif k < 0.65 and depth < 3:
            items.append(table_value(rng, depth + 1))
        else:
            items.append(tensor(rng, rng.choice(["Double", "Float", "Long"]), rng.choice(SHAPES[:4])))
    if rng.random() < 0.4:
        key = pick(rng, "a", "key", "x")
        items.append(f"{key} = " + (table_value(rng, depth + 1) if depth < 3 and rng.random() < 0.4 else value(rng)))
    return "{" + ", ".join(items) + "}"


def mutate(rng, src):
    """src with one element changed (a number nudged, an item removed or
    added, a type changed), or unchanged"""
    k = rng.random()
    if k < 0.3:
        return src
    nums = [m for m in re.finditer(r"(?<![\w.'])-?\d+(\.\d+)?(e-?\d+)?(?![\w.'])", src)]
    if k < 0.6 and nums:
        m = rng.choice(nums)
        return src[:m.start()] + pick(rng, "(" + m.group() + " + 1e-7)", "(" + m.group() + " + 1)", "'x'",
                                       "{" + m.group() + "}") + src[m.end():]
    if k < 0.75 and src.endswith("}") and src != "{}":
        return src[:-1] + ", 7}"
    if k < 0.85:
        return src.replace("a = ", "b = ", 1) if "a = " in src else src.replace("{", "{0, ", 1)
    return pick(rng, "{}", "{{}}", src.replace("true", "false", 1), src.replace("torch.Double", "torch.Float", 1))


ERRFUNCS = ["function() error('boom') end", "function() error('boom', 0) end", "function() error({code = 1}) end",
            "function() end", "function() return 1 end", "function() error() end",
            "function() local x = nil; return x.y end", "function() error('a.b (c)', 0) end",
            "nil", "'notafunction'", "function() error(42) end", "function() error('x', 0) end",
            "function() torch.Tensor(2):add(torch.Tensor(3)) end"]
ERRMSGS = ["'boom'", "'x'", "'a.b (c)'", "nil", "42", "'42'"]
# (none matching a digit or a short run of letters: the case file's name is random)
PATTERNS = ["'boom'", "'^boom'", "': bo.m$'", "'%('", "'('", "'xyz'", "nil", "'a%.b'", "'%d: boom'", "'size'", "{}"]
ERRCOMPS = ["function(e) return type(e) == 'table' end", "function(e) return e == 'x' end",
            "function(e) return true end", "function(e) return nil end", "nil", "function(e) error('inner') end"]
COMPARISONS = ["assertlt", "assertgt", "assertle", "assertge", "asserteq", "assertne"]


def assertion(rng):
    """one assert call on `t`"""
    k = rng.random()
    if k < 0.1:
        cond = pick(rng, "true", "false", "1 == 1", "1 == 2", "nil", "1", "0", "'x'", "{}")
        return f"t:assert({cond}{opt_message(rng)})"
    if k < 0.25:
        name = rng.choice(COMPARISONS)
        if rng.random() < 0.75:
            a = rng.choice(NUMS)
            b = near(rng, a)
        else:
            a, b = value(rng), value(rng)
        return f"t:{name}({a}, {b}{opt_message(rng)})"
    if k < 0.32:
        a = rng.choice(NUMS) if rng.random() < 0.9 else value(rng)
        return f"t:assertalmosteq({a}, {near(rng, a)}{opt_tolerance(rng)})"
    if k < 0.47:
        a, b = tensor_pair(rng)
        return f"t:{pick(rng, 'assertTensorEq', 'assertTensorEq', 'assertTensorNe')}({a}, {b}{opt_tolerance(rng)})"
    if k < 0.6:
        a = table_value(rng, 0)
        b = mutate(rng, a) if rng.random() < 0.9 else value(rng)
        if rng.random() < 0.05:
            a = value(rng)
        return f"t:{pick(rng, 'assertTableEq', 'assertTableEq', 'assertTableNe')}({a}, {b}{opt_tolerance(rng)})"
    if k < 0.75:
        name = pick(rng, "eq", "ne", "assertGeneralEq", "assertGeneralNe")
        j = rng.random()
        if j < 0.3:
            a = rng.choice(NUMS)
            b = near(rng, a)
        elif j < 0.55:
            a, b = tensor_pair(rng)
        elif j < 0.75:
            a = table_value(rng, 0)
            b = mutate(rng, a)
        elif j < 0.85:
            # (no two empty storages: the original's error in max, KNOWN)
            a = pick(rng, "torch.DoubleStorage{1, 2}", "torch.FloatStorage{1, 2}", "torch.DoubleStorage()")
            b = pick(rng, "torch.DoubleStorage{1, 2}", "torch.DoubleStorage{1, 2.5}", "torch.FloatStorage{1, 2}",
                     "torch.DoubleStorage{1}", "torch.Tensor{1, 2}", "torch.FloatStorage{1e-7 + 1, 2}")
        else:
            a, b = value(rng), value(rng)
        return f"t:{name}({a}, {b}{opt_tolerance(rng)})"
    j = rng.random()
    f = rng.choice(ERRFUNCS)
    if j < 0.25:
        return f"t:assertError({f}{opt_message(rng)})"
    if j < 0.45:
        return f"t:assertNoError({f}{opt_message(rng)})"
    if j < 0.65:
        return f"t:assertErrorMsg({f}, {rng.choice(ERRMSGS)}{opt_message(rng)})"
    if j < 0.85:
        return f"t:assertErrorPattern({f}, {rng.choice(PATTERNS)}{opt_message(rng)})"
    return f"t:assertErrorObj({f}, {rng.choice(ERRCOMPS)}{opt_message(rng)})"


ENDINGS = ["error('boom')", "error('boom', 0)", "error({code = 1})", "error()", "local x = nil; x.y = 1",
           "torch.Tensor(2):add(torch.Tensor(3))", "t:nosuchmethod()", "error(setmetatable({}, {__tostring = function() return 'obj' end}))"]


def test_body(rng):
    """a test function's body: a few assertions, their results now and then
    written, then perhaps an error"""
    lines = []
    for _ in range(rng.randint(0, 4)):
        a = assertion(rng)
        k = rng.random()
        if k < 0.15:
            a = f"io.write(tostring({a}), '\\n')"
        elif k < 0.22:   # (deeper: the report shows the last two frames)
            a = f"local function helper()\n      {a}\n   end\n   helper()"
        elif k < 0.27:
            a = f"io.write(tostring((pcall(function() {a} end))), '\\n')"
        lines.append(a)
    if rng.random() < 0.2:
        lines.append(rng.choice(ENDINGS))
    return "\n   ".join(lines)


NAMES = ["testA", "test_b", "t", "testLong" + "x" * 62, "test" + "y" * 70, "a b", "test2", "testC", "b.c%d"]


def options(rng, body, names):
    """setters before a run (rethrow: with one test, the order of several mattering)"""
    if rng.random() < 0.15:
        body.append(f"t:setSummaryOnly({pick(rng, 'true', 'false', 'nil')})")
    if rng.random() < 0.1 and len(names) == 1:
        body.append(f"t:setRethrowErrors({pick(rng, 'true', 'false')})")
    if rng.random() < 0.1 and names:
        which = rng.choice(names)
        body.append(pick(rng, f"t:disable('{which}')", f"t:disable({{'{which}'}})", "t:disable('nosuch')",
                         "t:disable(5)", "t:disable({})"))


def run_call(rng, names):
    """t:run(...) in one of its forms"""
    k = rng.random()
    if k < 0.7 or not names:
        return "t:run()"
    if k < 0.85:
        return f"t:run('{rng.choice(names)}')"
    if k < 0.92:
        return pick(rng, "t:run('test')", "t:run('^t')", "t:run('nosuch')", "t:run({})", "t:run(5)", "t:run('[')")
    return f"t:run({{'{rng.choice(names)}', '{rng.choice(names)}'}})"


def afterwards(rng):
    return rng.choice([
        "io.write(tostring(t.countasserts), ' ', #t.errors, ' ', #t.warnings, '\\n')",
        "for k, v in pairs(t.assertionPass or {}) do io.write('pass ', k, ' ', v, '\\n') end",
        "for k, v in pairs(t.assertionFail or {}) do io.write('fail ', k, ' ', v, '\\n') end",
        "for _, e in ipairs(t.errors) do io.write('E ', e, '\\n') end",
        "for _, w in ipairs(t.warnings) do io.write('W ', w, '\\n') end",
    ])


def single(rng):
    """one test (no hash order): added by name, alone, in a suite or a table"""
    body = ["local t = torch.Tester()", "local f0 = function() end"]
    name = rng.choice(NAMES)
    k = rng.random()
    tb = test_body(rng)
    if k < 0.4:
        body.append(f"t:add(function()\n   {tb}\nend, '{name}')")
    elif k < 0.5:
        name = "unknown"
        body.append(f"t:add(function()\n   {tb}\nend)")
    elif k < 0.85:
        body.append("local s = torch.TestSuite()")
        body.append(f"s['{name}'] = function()\n   {tb}\nend")
        if rng.random() < 0.2:
            body.append(pick(rng, "s._setUp = function(n) io.write('setUp ', n, '\\n') end",
                             "s._tearDown = function(n) io.write('tearDown ', n, '\\n') end",
                             "s._setUp = function(n) error('in setUp') end"))
        body.append("t:add(s)")
    else:
        body.append(f"t:add({{['{name}'] = function()\n   {tb}\nend}})")
    options(rng, body, [name])
    if rng.random() < 0.1:
        body.append("t:setEarlyAbort(true)")
    body.append(run_call(rng, [name]) if rng.random() < 0.3 else "t:run()")
    if rng.random() < 0.15:
        again = "io.write(tostring(select(2, pcall(t.run, t))), '\\n')"
        body.append(pick(rng, again, "t:setSummaryOnly(true) " + again))
    if rng.random() < 0.3:
        body.append(afterwards(rng))
    return body


def several(rng):
    """2 to 4 tests, compared order-free; earlyAbort ones are clones"""
    n = rng.randint(2, 4)
    abort = rng.random() < 0.2
    names = rng.sample([x for x in NAMES if len(x) > 3] if abort else NAMES, n)   # (masked: no short names)
    body = ["ORDERFREE = true", "local t = torch.Tester()", "local f0 = function() end"]
    if abort:
        body.append("MASK = {" + ", ".join(f"'{x}'" for x in sorted(names, key=len, reverse=True)) + "}")
        body.append("t:setEarlyAbort(true)")
        shared = test_body(rng)
    suite = rng.random() < 0.5
    if suite:
        body.append("local s = torch.TestSuite()")
    for name in names:
        tb = shared if abort else test_body(rng)
        if suite:
            body.append(f"s['{name}'] = function()\n   {tb}\nend")
        else:
            body.append(f"t:add(function()\n   {tb}\nend, '{name}')")
    if suite:
        if rng.random() < 0.2:
            body.append(pick(rng, "s._setUp = function(n) io.write('setUp\\n') end",
                             "s._tearDown = function(n) io.write('tearDown\\n') end"))
        body.append("t:add(s)")
    options(rng, body, [] if abort else names)   # (clones: nothing disabled)
    body.append(run_call(rng, names) if not abort else "t:run()")
    return body


def direct(rng):
    """asserts called outside any run: their results and what they recorded"""
    body = ["local t = torch.Tester()", "local f0 = function() end"]
    if rng.random() < 0.85:   # (the original needs the run's tables)
        body.append("t._currentTestName = 'direct'")
        body.append("t.assertionPass, t.assertionFail = {direct = 0}, {direct = 0}")
    for _ in range(rng.randint(1, 4)):
        body.append(f"io.write(tostring({assertion(rng)}), '\\n')")
    body.append("for _, e in ipairs(t.errors) do io.write('E ', e, '\\n') end")
    body.append("for _, w in ipairs(t.warnings) do io.write('W ', w, '\\n') end")
    return body


def misuse(rng):
    """add, run, disable and TestSuite given what they refuse"""
    body = ["local s = torch.TestSuite()"]
    for _ in range(rng.randint(1, 3)):   # (each its own Tester: the order of several tests matters)
        body.append("do local t = torch.Tester() %s end" % rng.choice([
            "t:add(function() end, 'x') t:add(function() end, 'x')",
            "t:add(function() end) t:add(function() end)",
            "t:add({x = function() end}, 'name')", "t:add(5)", "t:add('x')", "t:add(nil)",
            "t:add({x = {}})", "t:add({x = 5})", "t:add(s, 'x')",
            "s.x = function() end s.x = function() end", "s.x = 5", "s.x = {}", "s[1] = function() end",
            "io.write(tostring(s.x), ' ', tostring(s.nosuch), '\\n')",
            "io.write(torch.type(t:add(function() end, 'y')), '\\n')",
            "t:add(function() end, 5)", "t:add(function() end, 'z') t:run('z')",
            "t:add({_setUp = function() end}) t:add({_setUp = function() end})",
            "t:disable('q')", "t:run('q')", "t:run(true)", "t:run({'x', 5})",
            "io.write(tostring(t:run()), '\\n')", "t:setEarlyAbort() t:setRethrowErrors() t:run()",
            "t.assert(true)", "t.eq(1, 1)", "t:add(function() t.assert(false) end, 'n') t:run('n')",
            "t:add(function() end, 'a'):add(function() end, 'b') t:run('a') t:run('b')",
            "t:add(function() print('in test', 1, {2}) end, 'p') t:run('p')",
            "t:add(function() t:assert(false) end, 'r') t:setRethrowErrors(true) t:run()",
            "t:add(function() error('e') end, 'r') t:setRethrowErrors(true) t:run()",
            "t:add(function() t:assert(false) end, 'r') t:run() t:run()",
        ]))
    return body


KINDS = {"single": (single, 6), "several": (several, 3), "direct": (direct, 2), "misuse": (misuse, 1)}


def case(rng):
    names = list(KINDS)
    name = rng.choices(names, [KINDS[n][1] for n in names])[0]
    return f"--[[{name}]]\n" + "\n".join(KINDS[name][0](rng))


# Differences known and kept (README, "Where th differs from Torch7 on
# purpose"): (name, the original's line, th's line), regular expressions
# matched against a pair of a case's differing lines
KNOWN = [
    ("a wrong kind of tolerance or message: the original passed it to error() as the level",
     r"bad argument #2 to 'error' \(number expected, got", r"Unrecognized argument|Unexpected string argument"),
    ("an assert outside a run: an index error in the original",
     r"attempt to index field 'assertion(Pass|Fail)' \(a nil value\)", r""),
    ("a test raising an error neither string nor number: the original's run failed",
     r"attempt to concatenate local 'result' \(a (nil|table|boolean|userdata) value\)", r""),
    ("an error inside a tensor method the original wrote in Lua (view): its position there",
     r"(^|=> error: )Tensor\.lua:N: ", r"(^|=> error: )<script>:(\d+|L): "),
    ("eq of a tensor, or a storage, and another userdata: the original's index error",
     r"attempt to call method '(dim|size)' \(a nil value\)", r""),
    ("eq of empty storages: the original's error in max", r"calling 'max' on bad self", r""),
    ("a test named by a number: the original's run failed",
     r"attempt to index field '_currentTestName' \(a number value\)", r""),
]


def readable(s):
    return s.replace("\\_", " ").replace("\\e", "~")


def first_difference(want, have):
    w, h = want.split("\\n"), have.split("\\n")
    pairs = list(zip(w + [""] * (len(h) - len(w)), h + [""] * (len(w) - len(h))))
    return [(readable(a), readable(b)) for a, b in pairs if a != b]


def known(want, have):
    """the KNOWN difference whose patterns match a pair of differing lines"""
    for a, b in first_difference(want, have):
        for name, ref, mine in KNOWN:
            if re.search(ref, a) and re.search(mine, b):
                return name
    return None


def main():
    args = arguments(2000)
    rng = random.Random(args.seed)
    calls = [case(rng) for _ in range(args.calls)]
    show_by_lines(calls, *differences(calls, args.th, args.ref, args.batch, args.timeout, PRELUDE), args.show,
                  known, lambda want, have: first_difference(want, have)[:6])


if __name__ == "__main__":
    main()
