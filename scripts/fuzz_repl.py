"""Differential fuzz of the interactive prompt: sessions fed to `th` and to
the original trepl through piped stdin, whole transcripts compared.

Each case is a session of 5-20 lines drawn from the seed: expressions
(numbers of every magnitude, -0, nan, inf, integers past 2^53, strings with
escapes, newlines and binary bytes, booleans, nil, several values, function
values, tables nested, cyclic, mixed, empty, long, with __tostring, torch
classes, tensors and storages of the seven types, torch.Timer, nn modules),
statements (globals, `local` then its use on a later line, functions over
several lines, chunks left incomplete and continued, runtime errors with
their tracebacks, `return`, `= expr`, print with several values, io.write,
`$ cmd`, who(), `?`, os.exit at the end or not), now and then after a script
run with `-i`.  A syntax error is only ever a case's last line: the original
reads every later line into the broken chunk.

Both commands run in a scratch folder with stdout and stderr on one pipe
(the order they were written in).  The original's transcript is brought to
th's form where th differs on purpose (README, "Where th differs from Torch7
on purpose"): its banner, the `[0.0000s]` line after every chunk and the
exit question at the end of input are dropped, its chunk names
(`[string "_RESULT={f()}"]:1:`) read `stdin:1:`, its tracebacks end at the
typed chunk (the REPL's own frames cut), TH's C file and line leave its
messages, and readline's redrawing of a line past 80 columns goes.  In both:
addresses read 0xADDR, LuaJIT's fast functions builtin#N, th's and the
original's Lua folders LUA/, and each printed table's entries and who()'s
listing are sorted (two LuaJIT builds walk a hash part in different orders).
The transcripts are compared chunk by chunk; the differences kept on purpose
(KNOWN) are counted apart, and the comparison goes on after them until the
two read the input into different chunks.

    python scripts/fuzz_repl.py --cases 300 --seed 1 \\
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th [--show 10]
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import arguments  # noqa: E402

THIRDPARTY = "/work/shared/thirdparty"
TYPES = ["Byte", "Char", "Short", "Int", "Long", "Float", "Double"]

NUMBERS = ["0", "1", "-1", "42", "3.5", "-2.25", "0.1", "1/3", "-0", "0/0", "1/0", "-1/0", "1e300",
           "1e-300", "5e-324", "1e15", "1e16", "123456789012", "2^31", "2^53", "2^53 + 1", "2^63",
           "-2^63", "0x7fffffff", "math.pi", "math.huge", "1e100", "2.5e-7", "100000000000000", "2^-1074",
           "123.456", "-1e300", "1e-5", "0.1 + 0.2", "2^53 - 1", "-2^31", "1e21", "12345678901234567890"]
STRINGS = ['"abc"', '"a\\nb"', '"tab\\there"', '"\\0bin\\1\\255"', '""', "'q\"uote'", '"x"', "('ab'):rep(40)",
           '"\\r\\n"', "'it\\'s'", '"%d %s"']
SCALARS = ["true", "false", "nil"]
FUNCTIONS = ["math.sin", "function() end", "torch.Tensor", "string.format", "(function(a) return a end)"]
TABLES = ["{}", "{1, 2, 3}", "{a = 1}", "{1, {2, {3, {4, {5, {6}}}}}}", "{x = {y = {}}}", "{[1.5] = 'f', [true] = 1}",
          "{'a', b = 2, [3] = 'c'}", "{{}, {{}}}", "{f = math.sin}", "{s = 'str', n = -0, h = 1/0}",
          "(function() local t = {} for i = 1, 30 do t[i] = i * i end return t end)()",
          "(function() local t = {} t.self = t t[1] = {t} return t end)()",
          "setmetatable({}, {__tostring = function() return 'OBJ' end})",
          "setmetatable({a = 1}, {__index = {b = 2}})",
          "{t = torch.IntTensor{1, 2}, s = torch.FloatStorage(3)}", "{torch.Tensor()}",
          "{a = {b = {c = {d = {e = {f = 1}}}}}}", "{1, nil, 3}", "{n = 0/0}", "{'a\\nb', '\\0\\255'}",
          "{{{{{{{{1}}}}}}}}", "{[{}] = 1}", "{[-0] = 'z', [2^53] = 'big', [0.5] = 'half'}", "{_LAST}",
          "{f = function() end, t = torch.Timer}", "{torch.zeros(2, 2), {torch.LongStorage(1)}}",
          "setmetatable({}, {__index = function(t, k) return k end})", "_RESULTS and #_RESULTS"]
OBJECTS = ["torch.Timer() ~= nil", "torch.CmdLine() ~= nil", "torch.Tensor():type()", "torch.type(torch.Timer())",
           "torch.Generator() ~= nil", "torch.DoubleStorage(2):fill(1.5)", "torch.ByteStorage(3):fill(255)",
           "torch.CharStorage(2):fill(-1)"]
NN = ["nn.Linear(2, 3)", "nn.Sequential():add(nn.Tanh()):add(nn.Linear(3, 1))", "nn.ReLU()",
      "nn.ConcatTable():add(nn.Identity()):add(nn.Sigmoid())", "nn.MSECriterion()", "nn.Linear(2, 2).bias"]


def tensor(rng):
    T = rng.choice(TYPES)
    return rng.choice([
        f"torch.{T}Tensor(2, 3):fill(1)", f"torch.{T}Tensor()", f"torch.{T}Tensor{{1, 2, 3}}",
        f"torch.{T}Tensor(2, 2, 2):zero()", f"torch.{T}Storage(3):fill(2)", f"torch.{T}Storage()",
        f"torch.{T}Tensor{{{{1, -2}}, {{3, 100}}}}", f"torch.range(1, 4):type('torch.{T}Tensor')",
        f"torch.{T}Tensor(3):fill(7):narrow(1, 2, 2)", f"torch.{T}Tensor(1, 1, 1, 2):fill(3)",
    ] + (["torch.LongTensor{2^53 + 1, -2^62}", "torch.rand(2, 2)", "torch.randn(3)",
          "torch.DoubleTensor{1e10, 1, 1e-10}", "torch.FloatTensor{0/0, 1/0, -0}", "torch.zeros(2, 3):t()",
          "torch.ByteTensor{255, 0, 256}", "torch.eye(3):float()"] if T == "Double" else []))


def value(rng, nn):
    kind = rng.choices(["number", "string", "scalar", "function", "table", "object", "tensor", "nn"],
                       [5, 3, 2, 1, 4, 1, 4, 1 if nn else 0])[0]
    return {"number": lambda: rng.choice(NUMBERS), "string": lambda: rng.choice(STRINGS),
            "scalar": lambda: rng.choice(SCALARS), "function": lambda: rng.choice(FUNCTIONS),
            "table": lambda: rng.choice(TABLES), "object": lambda: rng.choice(OBJECTS),
            "tensor": lambda: tensor(rng), "nn": lambda: rng.choice(NN)}[kind]()


def values(rng, nn):
    n = rng.choice([1, 1, 1, 2, 3])
    vals = [value(rng, nn) for _ in range(n)]
    if n > 1 and rng.random() < 0.3:
        vals[rng.randrange(n)] = "nil"
    return ", ".join(vals)


class Case:
    """A session being drawn: its lines and the globals and locals it made."""

    def __init__(self, rng, nn):
        self.rng, self.nn = rng, nn
        self.lines = []
        self.names = []            # globals and locals holding a value
        self.functions = []        # global functions defined: (name, arity)
        self.count = 0

    def name(self, prefix):
        self.count += 1
        return f"{prefix}{self.count}"

    def add(self, *lines):
        self.lines.extend(lines)

    def step(self):
        rng = self.rng
        kind = rng.choices(list(STEPS), [w for w, _ in STEPS.values()])[0]
        STEPS[kind][1](self, rng)


def expression(c, rng):
    c.add(values(rng, c.nn) + rng.choice(["", "", "", " ", ";"]))


def assign(c, rng):
    name = c.name(rng.choice(["x", "v"]))
    c.add(f"{name} = {value(rng, c.nn)}")
    c.names.append(name)


def local(c, rng):
    name = c.name("y")
    c.add(f"local {name} = {value(rng, c.nn)}")
    c.names.append(name)


def use(c, rng):
    if not c.names:
        return expression(c, rng)
    name = rng.choice(c.names)
    c.add(rng.choice([name, f"{name}, {name}", f"type({name})", f"print({name})", f"torch.type({name})",
                      f"{name} == nil", f"= {name}"]))


def define(c, rng):
    name = c.name("f")
    body = rng.choice([
        ["function {n}(a, b)", "  return a + b", "end"],
        ["function {n}(a, b)", "  local t = {{a, b}}", "  return t, #t", "end"],
        ["{n} = function(a, b) return a .. b end"],
        ["function {n}(a, b)", "  if a then", "    return a.x.y", "  end", "  return b", "end"],
        ["function {n}(a, b)", "  error('failed in {n}: ' .. tostring(a))", "end"],
        ["function {n}(a, b)", "  return torch.range(1, 2):narrow(1, a, b)", "end"],
        ["function {n}(a, b)", "  return helper_{n}(a)", "end", "function helper_{n}(a)", "  return a * nil",
         "end"],
    ])
    c.add(*[line.format(n=name) for line in body])
    c.functions.append(name)


def call(c, rng):
    if not c.functions:
        return define(c, rng)
    name = rng.choice(c.functions)
    args = rng.choice(["1, 2", "'a', 'b'", "{}", "{x = {y = 5}}", "nil, 3", "2, 1", "", "3, 9"])
    c.add(rng.choice([f"{name}({args})", f"r = {name}({args})", f"print({name}({args}))",
                      f"pcall({name}, {args or 'nil'})"]))


def incomplete(c, rng):
    c.add(*rng.choice([
        ["t = {1,", "2, 3}", "t"], ["1 +", "2"], ["for i = 1, 3 do", "  io.write(i, ' ')", "end"],
        ["if true then", "print('yes')", "else", "print('no')", "end"], ["s = [[long", "string]]", "s"],
        ["(function()", "  return 1, 2", "end)()"], ["do", "  local z = 5", "  print(z)", "end"],
        ["while false do", "end"], ["repeat", "until true"], ["{", "a = 1,", "}"],
    ]))


def error(c, rng):
    c.add(rng.choice([
        "error('boom')", "error('boom', 0)", "error({code = 1})", "error()", "error(5)", "error(true)",
        "x = nil + 1", "nil .. 'a'", "undefined_fn()", "local q = {} q.a.b = 1", "torch.Tensor(2):narrow(1, 5, 1)",
        "torch.Tensor(2, 2) + torch.Tensor(3)", "error(setmetatable({}, {__tostring = function() return 'E!' end}))",
        "assert(false)", "assert(nil, 'assertion message')", "({})()", "#nil",
    ]))


def output(c, rng):
    c.add(rng.choice([
        f"print({values(rng, c.nn)})", "print()", "print(1, nil, 'a')", f"io.write({rng.choice(STRINGS)}, 1, '\\n')",
        "io.write('no newline')", "io.write(1.5, ' ', -0, '\\n')", f"print({rng.choice(TABLES)})",
        "print(torch.Tensor(2, 2):fill(3))", "io.stdout:write('w\\n')", "print(('%5.2f'):format(math.pi))",
        "print(string.format('%q', 'a\\nb'))", "$ echo from-shell", "$ printf 'a\\tb\\n'", "who()", "?",
        "? math.sin",
    ]))


def returning(c, rng):
    c.add(rng.choice(["return 1", f"return {values(rng, c.nn)}", "return", "= 1 + 1", f"= {values(rng, c.nn)}"]))


STEPS = {"expression": (6, expression), "assign": (3, assign), "local": (2, local), "use": (4, use),
         "define": (2, define), "call": (3, call), "incomplete": (2, incomplete), "error": (2, error),
         "output": (3, output), "returning": (2, returning)}

ENDINGS = [None] * 6 + ["os.exit()", "os.exit(3)", "os.exit(true)", "os.exit(false)", "1 +* 2",
                        "for i = 1, 2 do", "x = = 1", "function broken(", "print('unfinished'"]


def case(rng, nn):
    """-> (lines of the session, the script run first with -i or None)"""
    c = Case(rng, nn)
    c.add(f"torch.manualSeed({rng.randrange(1000)})")
    if nn:
        c.add("require 'nn';")
    length = rng.randint(5, 20)
    while len(c.lines) < length:
        c.step()
    ending = rng.choice(ENDINGS)
    if ending:
        c.add(ending)
    script = None
    if rng.random() < 0.15:
        script = rng.choice(["x0 = 7\nprint('script ran')\n", "local hidden = 1\nfunction s0() return 'S' end\n",
                             "io.write('partial')\n"])
    return c.lines, script


# ---------------------------------------------------------------- running

def transcript(cmd, lines, script, folder, timeout, env):
    """Runs one session -> (exit status or 'hang', what stdout and stderr showed)"""
    argv = [cmd]
    if script is not None:
        with open(os.path.join(folder, "case.lua"), "w") as f:
            f.write(script)
        argv += ["-i", "case.lua"]
    stdin = ("\n".join(lines) + "\n").encode("latin-1")
    try:
        p = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=folder,
                           env=env, timeout=timeout)
        return p.returncode, p.stdout.decode("latin-1")
    except subprocess.TimeoutExpired as e:
        return "hang", (e.stdout or b"").decode("latin-1")


# ---------------------------------------------------------------- the original's transcript in th's form

BANNER = re.compile(r" \n  ______.*?http://torch\.ch \n\t\n", re.S)   # (after a -i script's output)
TIMING = re.compile(r" {70}\[\d+\.\d+s\]\t\n")
EXIT_QUESTION = re.compile(r"Do you really want to exit \(\[y\]/n\)\? \t\n\Z")
CHUNK_NAME = re.compile(r'\[string ".*?"\]:(\d+)')
# trepl's frames below the typed chunk, and the tab print() left after the last
REPL_FRAMES = re.compile(r"\n\t\[C\]: in function 'xpcall'\n(?:\t[^\n]*\n)*?\t\[C\]: at 0x[0-9a-f]+\t\n")
RESULT_GLOBAL = re.compile(r"^\[_RESULT\] +=[^\n]*\n", re.M)   # (trepl's own global, in who())
SYNTAX_ERROR = re.compile(r"(syntax error: [^\n]*)\t\n")
AT_EOF = re.compile(r"^(\.\.> )syntax error: ", re.M)     # (after the prompt that met the end)
TH_SOURCE = re.compile(r" at /\S+\.c:\d+")                # (TH's C file and line, which th leaves out)
# readline redrawing the end of a line past 80 columns (the echo had it already)
WRAP = re.compile(r" \r\x1b\[A(?:\x1b\[C)+\x1b\[K[^\n]*")


def original_as_th(text):
    text = WRAP.sub("", TH_SOURCE.sub("", BANNER.sub("", text)))
    text = TIMING.sub("", text)
    text = EXIT_QUESTION.sub("\n", text)
    text = CHUNK_NAME.sub(r"stdin:\1", text)
    text = RESULT_GLOBAL.sub("", REPL_FRAMES.sub("\n", text))
    return SYNTAX_ERROR.sub(r"\1\n", AT_EOF.sub(r"\1\nsyntax error: ", text))


ADDRESS = re.compile(r"0x[0-9a-f]{6,16}")
BUILTIN = re.compile(r"builtin#\d+")     # (LuaJIT builds number their fast functions apart)
LUA_DIRS = re.compile(r"/opt/torch7-ref/share/lua/5\.1/|\S*/th/lua/")


def sorted_tables(lines):
    """Each printed table's entries (a `  key : value` line, or `  key : `
    and the nested table below it) in sorted order"""
    out, i = [], 0
    while i < len(lines):
        m = re.fullmatch(r"(?:.*\t)?( *)\{", lines[i])     # (after the values before it)
        end = next((j for j in range(i + 1, len(lines)) if m and lines[j] == m.group(1) + "}"), None)
        if end is None:
            out.append(lines[i])
            i += 1
            continue
        pad = m.group(1) + "  "
        entries = []
        for line in lines[i + 1:end]:
            if line.startswith(pad) and not line.startswith(pad + " ") or not entries:
                entries.append([line])
            else:
                entries[-1].append(line)
        out.append(lines[i])
        for entry in sorted(entries, key=lambda e: e[0]):
            out.extend(sorted_tables(entry))
        out.append(lines[end])
        i = end + 1
    return out


def sorted_who(lines):
    """who()'s listing in sorted order (trepl's came in pairs order)"""
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        if lines[i] == "== User Variables ==\t":
            end = next((j for j in range(i + 1, len(lines)) if lines[j] == "==\t"), i + 1)
            entries = []
            for line in lines[i + 1:end]:      # (a string value may hold line breaks)
                if line.startswith("[") or not entries:
                    entries.append([])
                entries[-1].append(line)
            out.extend(line for entry in sorted(entries) for line in entry)
            i = end
            continue
        i += 1
    return out


def canonical(text):
    """(the last prompt, met by the end of input, goes: trepl showed one more
    after an unfinished chunk's error)"""
    text = LUA_DIRS.sub("LUA/", BUILTIN.sub("builtin#N", ADDRESS.sub("0xADDR", text)))
    text = re.sub(r"th> \n\Z", "", text)
    return "\n".join(sorted_who(sorted_tables(text.split("\n"))))


# ---------------------------------------------------------------- differences kept

def first_difference(want, have):
    """-> (line number, the original's line, th's line) where two lists of lines part"""
    for k in range(max(len(want), len(have))):
        a, b = (want[k] if k < len(want) else "<end>"), (have[k] if k < len(have) else "<end>")
        if a != b:
            return k, a, b
    return None


def parts(text, lines):
    """A transcript cut at each prompt: one part per typed chunk (a prompt
    may follow output that did not end its line, io.write: then what
    follows it is one of the lines typed)"""
    out = [[]]
    for line in text.split("\n"):
        before, prompt, after = line.rpartition("th> ")
        if prompt and before and (after in lines or not after):
            out[-1].append(before)
            line = prompt + after
        if line.startswith("th> ") and out[-1]:
            out.append([])
        out[-1].append(line)
    return out


def typed(part):
    """The lines typed in a part (after its prompts)"""
    return [line[4:] for line in part if line.startswith(("th> ", "..> "))]


def uses_earlier_local(lines, chunk):
    """(_LAST too: it may hold what a surviving local showed)"""
    locals_ = set(re.findall(r"^local (?:function )?(\w+)", "\n".join(lines), re.M))
    if locals_:
        locals_.add("_LAST")
    return any(re.search(rf"\b{name}\b", line) for name in locals_ for line in chunk
               if not line.startswith("local "))


# (name, test(case's lines, the chunk typed where they part, the original's line, th's line))
KNOWN = [
    ("locals survive from line to line in th", lambda lines, chunk, a, b: uses_earlier_local(lines, chunk)),
    ("th's tostring, string.format and io.write are Lua functions (numbers formatted as Torch7's LuaJIT)",
     lambda lines, chunk, a, b: a.replace("builtin#N", "0xADDR") == b.replace("builtin#N", "0xADDR")),
    ("a line that does not compile is a syntax error at once in th, trepl read on to the end",
     lambda lines, chunk, a, b: a == "..> " and b.startswith("syntax error: ")),
    ("a multi-line expression completes in th, trepl read on to the end",
     lambda lines, chunk, a, b: a.startswith("..> ") and len(chunk) > 1),
    ("print of a table holding itself: {...} in th, trepl went on to its depth limit",
     lambda lines, chunk, a, b: "t.self = t" in " ".join(chunk) or "_RESULTS" in " ".join(chunk)
     or "t.self = t" in " ".join(lines) and "{...}" in a + b),
    ("th's torch.Timer is a table (a torch.class), the original's a userdata: who() names its class",
     lambda lines, chunk, a, b: chunk == ["who()"] and "torch.Timer [status" in a),
    ("who() lists th's surviving locals too", lambda lines, chunk, a, b: chunk == ["who()"]
     and re.search(r"^local ", "\n".join(lines), re.M)),
    ("`?` and `? name` are th's help (trepl's told of browse(), th -g, th -a; `? name` needed its help backend)",
     lambda lines, chunk, a, b: chunk[:1] and chunk[0].startswith("?")),
    ("`expr;` runs without printing in th, trepl read it as a statement (a syntax error)",
     lambda lines, chunk, a, b: chunk[-1].rstrip().endswith(";") and a.startswith("syntax error: ")),
]


def differences(lines, want, have):
    """Compares the transcripts chunk by chunk -> (names of the known
    differences met, the first other one: (the chunk typed, the original's
    line, th's line) or None).  Where the two read the input into different
    chunks (trepl read on), the rest cannot be matched: it ends there."""
    met = []
    for w, h in zip(parts(want, lines), parts(have, lines)):
        part = first_difference(w, h)
        if not part:
            continue
        k, a, b = part
        chunk = typed(w)
        name = next((name for name, test in KNOWN if test(lines, chunk, a, b) or test(lines, typed(h), a, b)), None)
        if not name:
            return met, (chunk, a, b)
        met.append(name)
        if typed(w) != typed(h):
            break
    if not met and len(parts(want, lines)) != len(parts(have, lines)):
        return met, (typed(parts(want, lines)[-1]), "<end>", "<end>")
    return met, None


# ---------------------------------------------------------------- main

def main():
    args = arguments(300, "cases")
    args.th, args.ref = (os.path.abspath(p) if os.sep in p else p for p in (args.th, args.ref))
    nn = os.path.isdir(os.path.join(THIRDPARTY, "nn"))
    env = dict(os.environ)
    if nn and "LUA_PATH" not in env:
        env["LUA_PATH"] = f"{THIRDPARTY}/?.lua;{THIRDPARTY}/?/init.lua;{THIRDPARTY}/moses/?.lua;;"
    rng = random.Random(args.seed)
    folder = tempfile.mkdtemp(prefix="fuzz_repl_")
    env["TREPL_HISTORY"] = os.path.join(folder, "history")
    counts, new, hangs = {}, [], 0
    try:
        for n in range(args.calls):
            lines, script = case(rng, nn and rng.random() < 0.2)
            ref_status, ref_out = transcript(args.ref, lines, script, folder, args.timeout, env)
            th_status, th_out = transcript(args.th, lines, script, folder, args.timeout, env)
            hangs += th_status == "hang"
            want, have = canonical(original_as_th(ref_out)), canonical(th_out)
            if (want, ref_status) == (have, th_status):
                continue
            met, other = differences(lines, want, have)
            for name in met:
                counts[name] = counts.get(name, 0) + 1
            if other or ref_status != th_status and not met:
                new.append((n, lines, script, ref_status, th_status, other))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"cases: {args.calls}  th hangs: {hangs}  cases differing: {len(new)} "
          f"(and {sum(counts.values())} known chunks)")
    for name, k in sorted(counts.items()):
        print(f"  known: {k} x {name}")
    for n, lines, script, ref_status, th_status, other in new[:args.show]:
        print(f"--- case {n}" + (f" (after -i script {script!r})" if script else "") + ":")
        print("    " + "\n    ".join(lines))
        if ref_status != th_status:
            print(f"  exit status: original {ref_status}, th {th_status}")
        if other:
            chunk, a, b = other
            print(f"  in {chunk!r}:\n  ref: {a[:300]!r}\n  th:  {b[:300]!r}")


if __name__ == "__main__":
    main()
