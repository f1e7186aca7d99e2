"""Differential fuzz of error messages and their positions.

Builds random erroring calls (wrong sizes, dimensions or indices out of
range, wrong argument types, methods a type lacks) of tensor functions,
methods, indexing, operators and constructors, puts each in a random call
context (directly in a closure given to pcall, pcall(f, args) with f the torch
function or method itself, method, field (x.f(x), x['f'](x), (x.f)(x)) or torch form, a tail call, local
functions 1-3 deep with tail or plain calls, an error caught and raised again
with error(e, 0) or error(e)), runs them under th and the original and
compares the FULL message: the "file:line: " position included (the script's
path written <script>), only the original's " at /tmp/ref-build/...c:NNN"
suffix stripped.  A message of the original located in one of its installed
torch Lua files (which th has not) is counted apart as known.

With --scripts N, also N uncaught errors: `th script.lua` per case, comparing
the exit status and the first line of stderr without its program prefix
("/usr/bin/luajit: " for the original, "th: " for th); the traceback below it
is not compared (th prints its own, see README).

    python scripts/fuzz_errors.py --calls 2000 --seed 1 [--scripts 40] \
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th
"""
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import arguments, differences, report, unexplained  # noqa: E402

PRELUDE = r"""
io.stdout:setvbuf('line')
local script = debug.getinfo(1, 'S').source:sub(2)
local function clean(m)
   m = tostring(m)
   local i, j = m:find(script, 1, true)
   while i do
      m = m:sub(1, i - 1) .. '<script>' .. m:sub(j + 1)
      i, j = m:find(script, i + 8, true)
   end
   m = m:gsub(' at /tmp/ref%-build/[^%s%)]*:%d+', '')
   return (m:gsub('\n', '|'))
end
function show(i, f)
   torch.manualSeed(1)
   local ok, a, b = pcall(f)
   if not ok then print(i .. ' escaped ' .. clean(a)) return end
   if a then print(i .. ' ok') else print(i .. ' err ' .. clean(b)) end
end
"""

TYPES = ["Double", "Float", "Long", "Int", "Short", "Char", "Byte"]


def setup(rng):
    """Lua lines making the operands: x (2x3), v (3), w (2), s (a storage),
    f (another type's 2x3), l (LongTensor indices), m (ByteTensor mask)"""
    T = rng.choice(TYPES[:2] * 3 + TYPES[2:])
    O = rng.choice([t for t in TYPES if t != T])
    return (f"local x, v, w = torch.{T}Tensor(2, 3):fill(1), torch.{T}Tensor(3):fill(2), "
            f"torch.{T}Tensor(2):fill(3); local f, s = torch.{O}Tensor(2, 3):fill(1), "
            f"torch.{T}Storage(3); local l, m = torch.LongTensor{{1, 9}}, torch.ByteTensor(5):fill(1)"), T


# erroring calls of a function or method: (name, receiver, arguments)
CALLS = [
    ("add", "x", "v"), ("add", "x", "'a'"), ("add", "x", "f"), ("add", "x", "{}"),
    ("cmul", "x", "w"), ("cdiv", "v", "w"), ("copy", "x", "v"), ("dot", "v", "w"),
    ("mm", "x", "x"), ("mm", "v", "w"), ("mv", "x", "w"), ("addmv", "w", "x, x"),
    ("addr", "x", "v, v"), ("ger", "x", "v"), ("bmm", "x", "x"),
    ("sum", "x", "5"), ("sum", "x", "0"), ("max", "x", "3"), ("min", "x", "-4"), ("mean", "x", "'a'"),
    ("cumsum", "x", "4"), ("prod", "x", "7"), ("sort", "x", "3"), ("topk", "v", "5"),
    ("narrow", "x", "3, 1, 1"), ("narrow", "x", "1, 2, 5"), ("narrow", "x", "'a', 1, 1"),
    ("select", "x", "1, 9"), ("select", "x", "4, 1"), ("transpose", "x", "1, 4"),
    ("sub", "x", "1, 5"), ("unfold", "x", "3, 1, 1"), ("view", "x", "5"), ("view", "x", "4, 2"),
    ("expand", "x", "4, 4"), ("resize", "x", "'a'"), ("fill", "x", "'a'"), ("fill", "x", "{}"),
    ("index", "x", "1, l"), ("index", "x", "3, l"), ("indexFill", "x", "1, l, 2"),
    ("gather", "x", "1, l"), ("maskedSelect", "x", "m"), ("maskedFill", "x", "m, 1"),
    ("bitand", "x", "3"), ("cbitor", "x", "x"), ("lerp", "x", "v, 0.5"),
    ("cat", "x", "f"), ("cat", "x", "v, 3"), ("repeatTensor", "x", "'a'"),
    ("clamp", "x", "'a', 2"), ("pow", "x", "'a'"), ("norm", "x", "2, 5"),
    ("reshape", "x", "5"), ("equal", "x", "'a'"), ("cross", "x", "x"), ("kthvalue", "v", "9"),
    ("apply", "x", "3"), ("map", "x", "v, function(a) return a end"),
    ("set", "x", "s, 0, 5"), ("isSameSizeAs", "x", "3"), ("random", "x", "3, 1"),
    ("cumprod", "x", "0"), ("std", "x", "4"), ("var", "x", "'a'"), ("median", "x", "3"),
    ("mode", "x", "5"), ("renorm", "x", "2, 5, 1"), ("dist", "x", "v"), ("addcmul", "x", "v, w"),
    ("addcdiv", "x", "1, x, v"), ("cmax", "x", "v"), ("cmin", "x", "'a'"), ("fmod", "x", "{}"),
    ("tril", "v", ""), ("triu", "x", "'a'"), ("diag", "x", "'a'"), ("trace", "v", ""),
    ("histc", "x", "'a'"), ("squeeze", "x", "5"), ("t", "v", "2"), ("permute", "x", "1, 1"),
    ("split", "x", "0"), ("chunk", "x", "'a'"), ("nonzero", "x", "'a'"), ("clone", "x", "2"),
    ("resizeAs", "x", "s"), ("typeAs", "x", "3"), ("type", "x", "'torch.Nothing'"),
    ("copy", "x", "'a'"), ("mul", "x", "v"), ("div", "x", "'a'"), ("exp", "x", "v"),
    ("abs", "x", "'a'"), ("sqrt", "x", "x, x"), ("neg", "x", "2"), ("round", "x", "{}"),
    ("eq", "x", "v"), ("lt", "x", "'a'"), ("ge", "x", "{}"), ("ne", "x", "f"),
    ("all", "x", "2"), ("any", "m", "'a'"), ("numel", "x", "2"), ("logical", "x", ""),
    ("zero", "x", "1"), ("indexCopy", "x", "1, l, x"), ("indexAdd", "v", "1, l, v"),
    ("scatter", "x", "1, l, 2"), ("maskedCopy", "x", "m, v"), ("sign", "x", "'a'"),
    ("atan2", "x", "v"), ("cinv", "x", "v"), ("csub", "x", "w"), ("frac", "x", "1, 2"),
    ("max", "x", "v, 1"), ("min", "x", "0"), ("sum", "x", "1, 2"), ("prod", "x", "'a'"),
    ("storageOffset", "x", "2"), ("unfold", "x", "1, 3, 1"), ("narrow", "v", "1, 0, 2"),
]
# what replaces an argument, or is given one too many
WRONG = ["nil", "'a'", "'2'", "{}", "true", "f", "s", "9", "-1", "0.5", "0", "l", "m", "x", "v", "2^40"]
# operations that are not one function's call: indexing, operators, constructors
EXPRS = [
    "x[5]", "x[{1, 9}]", "x[{{1, 5}}]", "x[{1, 2, 3}]", "v[0]", "v[-9]", "s[9]", "x['q']",
    "x[l]", "x[m]", "v[torch.LongTensor{7}]",
    "x + v", "x - w", "x * 'a'", "x * v", "v * x", "x / v", "x % {}", "{} + x", "'2' * x", "x + f",
    "x ^ 2", "torch.Tensor(2, 'a')", "torch.Tensor({1, 'a'})", "torch.LongStorage('a')",
    "torch.Tensor(s, 2, 5)", "torch.Tensor(-1)", "x.new(2, {})", "torch.FloatTensor(true)",
    "torch.randn(-2)", "torch.zeros('a')", "torch.range(1, 2, 0)", "torch.eye('a')",
    "x:size(5)", "x:stride(0)", "x:nosuch()", "x.nosuch(x)", "#v + x",
    "torch.linspace(1, 2, 'a')", "torch.logspace(x, 1)", "torch.randperm(-3)", "torch.randperm('a')",
    "torch.multinomial(v, 5)", "torch.multinomial(x:fill(-1), 1)", "torch.ones(2, {})",
    "torch.Tensor(x:size(), 'a')", "torch.Storage(-2)", "torch.LongStorage({1, 'a'})",
    "torch.Tensor(torch.LongStorage{2, 3}, torch.LongStorage{1})", "s:resize('a')", "s:fill({})",
    "s:narrow(2, 5)", "s:copy(v)", "x:storage()[9]", "torch.DoubleTensor({{1, 2}, {3}})",
    "x[{{}, {}, {}}]", "x[{{3, 1}}]", "x[{{1, 2}, 'a'}]", "x[{1, {}}]", "v[{{2, 1}}]",
    "torch.cat({x, v}, 3)", "torch.cat(x, v)", "torch.stack", "torch.randn(2, 'a')",
    "torch.uniform(x, 'a')", "torch.normal(x, 0, -1)", "torch.bernoulli(x, 2)",
    "x:uniform(2, 1)", "x:geometric(0)", "x:exponential('a')", "x:cauchy({})",
    "torch.setdefaulttensortype('torch.Nothing')", "torch.manualSeed('a')", "torch.rand(-1)",
]
ASSIGNS = ["x[5] = 1", "x[{1, 9}] = 0", "x[1] = 'a'", "v[{2}] = {}", "s[9] = 1", "s[1] = 'a'",
           "x[m] = 2", "v[l] = 1", "x[{{}, 2}] = v", "x[1] = v", "v[{{1, 2}}] = w:narrow(1, 1, 1)",
           "x[{1, 2, 3}] = 1", "x[0] = 1", "v['a'] = 1", "x[true] = 1", "v[{5}] = 1"]


def expression(rng):
    """-> (expression or statement, is_statement, direct): direct is a
    pcall(f, args) form of the call, or None"""
    k = rng.random()
    if k < 0.6:
        name, recv, args = rng.choice(CALLS)
        if rng.random() < 0.35:       # one argument replaced, or one more
            parts = [a.strip() for a in args.split(",")] if args and "function" not in args else []
            wrong = rng.choice(WRONG)
            if parts and rng.random() < 0.7:
                parts[rng.randrange(len(parts))] = wrong
            else:
                parts.append(wrong)
            args = ", ".join(parts)
        form = rng.choice(["method", "method", "field", "torch", "bracket", "paren"])
        rest = f", {args}" if args else ""
        if form == "method":
            e = f"{recv}:{name}({args})"
        elif form == "field":
            e = f"{recv}.{name}({recv}{rest})"
        elif form == "bracket":
            e = f"{recv}['{name}']({recv}{rest})"
        elif form == "paren":      # (a call LuaJIT cannot name)
            e = f"({rng.choice(['torch', recv])}.{name})({recv}{rest})"
        else:
            e = f"torch.{name}({recv}{rest})"
        direct = f"{'torch' if form == 'torch' else recv}.{name}, {recv}{rest}"
        return e, False, direct
    if k < 0.9:
        return rng.choice(EXPRS), False, None
    return rng.choice(ASSIGNS), True, None


def wrap(rng, e, statement, direct):
    """the lines of a case: e in a random context, returning pcall's results"""
    use = (lambda: e) if statement else (lambda: f"local r = {e}; return r")
    tail = (lambda: e) if statement else (lambda: f"return {e}")
    kinds = ["closure tail", "closure", "local tail", "local", "nested", "rethrow0",
             "rethrow", "pcall local"]
    if direct:
        kinds.append("direct")
    kind = rng.choice(kinds)
    if kind == "direct":
        return [f"return pcall({direct})"]
    if kind == "closure tail":
        return ["return pcall(function()", tail(), "end)"]
    if kind == "closure":
        return ["return pcall(function()", use(), "end)"]
    if kind in ("local tail", "local", "pcall local"):
        body = tail() if kind != "local" else use()
        lines = ["local function a1()", body, "end"]
        if kind == "pcall local":
            return lines + ["return pcall(a1)"]
        return lines + ["return pcall(function()", rng.choice(["a1()", "local r = a1() return r", "return a1()"]), "end)"]
    if kind == "nested":
        depth = rng.randint(1, 3)
        lines = ["local function a1()", rng.choice([tail(), use()]), "end"]
        for d in range(2, depth + 1):
            lines += [f"local function a{d}()",
                      rng.choice([f"return a{d - 1}()", f"a{d - 1}()", f"local r = a{d - 1}() return r"]),
                      "end"]
        return lines + ["return pcall(function()", rng.choice([f"a{depth}()", f"return a{depth}()"]), "end)"]
    # caught, then raised again
    again = "error(e, 0)" if kind == "rethrow0" else "error(e)"
    return ["return pcall(function()", "local ok, e = pcall(function()", rng.choice([tail(), use()]),
            "end)", again, "end)"]


def case(rng):
    """a case: its lines as a chunk of their own, named <script> (its
    positions then count from its first line, the same whichever batch runs
    it, after a crash too)"""
    lines, T = setup(rng)
    e, statement, direct = expression(rng)
    body = "\n".join([lines] + wrap(rng, e, statement, direct))
    return f"return assert(loadstring([==[{body}]==], '@<script>'))()"


TORCHPATH = r"/\S+/share/lua/5\.1/\S+?\.lua:\d+: "
THPATH = r"/\S+/th/lua/\S+?\.lua:\d+: "


def torchpath(want, have):
    """the original's message is located in one of its installed torch Lua
    files: th's is the same without that position, or with one in the
    script, or in th's own file"""
    parts = re.split(TORCHPATH, want)
    if len(parts) == 1:
        return False
    pattern = r"(?:(?:<script>|script\.lua):\d+: |/\S+/th/lua/\S+?\.lua:\d+: )?".join(
        re.escape(p) for p in parts)
    return re.fullmatch(pattern, have) is not None


def accepted(want):
    """the original's call did not fail: its pcall returned true, or, raised
    again, the result ("[torch.DoubleTensor with no dimension]", nil)"""
    return (want in ("ok", "") or re.match(r"err (<script>:\d+: )?(nil|table: 0x\w+)$", want) is not None
            or re.search(r"\[torch\.\w+ (with no dimension|of size [\dx]+)\]\|$", want) is not None)


# Differences kept on purpose, each with its reason: (reason, test(body, want, have))
KNOWN = [
    ("original's torch Lua path (th has not its files)", lambda body, want, have: torchpath(want, have)),
    ("the original's own Lua code failed inside (Tensor.lua's repeatTensor: attempt to call "
     "method 'isContiguous'; type: getmetatable's argument; split: min's): th names the bad argument",
     lambda body, want, have: re.search(TORCHPATH + r"(attempt to |both |bad argument #\d+ to "
                                        r"'(getmetatable|min|max|tonumber|set)')", want) is not None),
    ("expand's sizes: the original's Lua expand passed them on to C, numbered from its own "
     "arguments (x:expand(4, 4, f) #3); th numbers the argument given",
     lambda body, want, have: "expand" in body and "number expected" in want and "number expected" in have),
    ("chunk of a tensor: luaT's check said 'torch.DoubleTensor expected, got boolean'",
     lambda body, want, have: "got boolean)" in want and "chunks expected" in have),
    ("both accepted the call and returned a tensor or table (raised again by error(e)): values "
     "are not this fuzzer's (the original's show uninitialised memory)",
     lambda body, want, have: accepted(want) and accepted(have)),
    ("a view into its own source that fails: the original resized the tensor first and named "
     "its new sizes as the input's (README, 'Where th differs')",
     lambda body, want, have: "Wrong size for view" in want and "Wrong size for view" in have
     and re.search(r":view\(x,|view'?\]?\)?(\(|, )x, x,", body) is not None),
    ("permute of no permutation: the original's Lua permute returned the tensor for some, failed "
     "inside for others; th: 'Invalid permutation' (README, 'Where th differs')",
     lambda body, want, have: "permute" in body and have.endswith("Invalid permutation")
     and (accepted(want) or "transpose" in want or "attempt to compare" in want)),
    ("a dimension of 2^40: the original cut it to a C int (0), th names the number given",
     lambda body, want, have: "2^40" in body and ("1099511627776" in have or "Index dimension is out of bounds" in have)),
    ("the index family's dimension below 1: the original checked it above only and read the "
     "source's size -1 from outside its sizes (its count message); th: out of range",
     lambda body, want, have: re.search(r"index(Copy|Add)('?\]?\)?(\(|, )[xvw], |\()(0|0\.5|-1)\b", body) is not None
     and "Number of indices should be equal" in want and "(out of range)" in have),
    ("diag of a diagonal past the matrix: the original said 'dimension 1 out of range of 0D tensor'",
     lambda body, want, have: "diag" in body and "out of range of 0D tensor" in want),
    ("the setup's storage s given as sizes (x:repeatTensor(s)): its 3 elements were "
     "uninitialised memory in the original (a size of billions), zeros in th",
     lambda body, want, have: re.search(r"[(,] ?s\)", body) is not None
     and ("not enough memory" in want or re.search(TORCHPATH, want) is not None)),
    ("a view past its storage's end (torch.Tensor(s, 2, 5) of 3 elements): the original read "
     "the memory beyond",
     lambda body, want, have: "torch.Tensor(s, 2, 5)" in body),
    ("the original read a string that is no number as 0 in an integer tensor's operator "
     "(x * 'a') and storage (s[1] = 'a'): th refuses it, as the original did for Float and Double",
     lambda body, want, have: accepted(want) and "number expected, got string" in have),
    ("the same for the value of an integer tensor's maskedFill or indexFill: the original read 'a' "
     "as 0 and went on to its later checks (the mask's size, the indices' range)",
     lambda body, want, have: have.endswith("(number expected, got string)") and "'a'" in body
     and re.search(r"local x, v, w = torch\.(Byte|Char|Short|Int|Long)Tensor", body) is not None
     and re.search(r"(maskedFill|indexFill)", body) is not None),
    ("the original accepted negative sizes (torch.Tensor(-1) empty, torch.randn(-2)): th refuses them",
     lambda body, want, have: accepted(want) and ("negative size" in have or "non-negative size" in have)),
    ("luaT's type check named another argument's type (3 called userdata): th names the argument's",
     lambda body, want, have: re.sub(r"got [\w.*]+\)$", "", want) == re.sub(r"got [\w.*]+\)$", "", have)
     and want.endswith(("got userdata)", "got number)", "got boolean)", "got string)"))),
]


def scripts(rng, count, th, ref):
    """uncaught errors: -> [(body, original's (status, line), th's)]"""
    out = []
    for _ in range(count):
        lines, _ = setup(rng)
        e, statement, _ = expression(rng)
        stmt = e if statement else f"local r = {e}"
        ret = e if statement else f"return {e}"
        shape = rng.choice(["top", "local", "nested", "tail"])
        if shape == "top":
            body = [lines, stmt]
        elif shape == "local":
            body = [lines, "local function f()", stmt, "end", "f()"]
        elif shape == "tail":
            body = [lines, "local function f()", ret, "end", "local function g()", "return f()", "end", "g()"]
        else:
            body = [lines, "local function f()", ret, "end", "local function g()", "f()", "end", "g()"]
        src = "\n".join(body) + "\n"
        got = []
        with tempfile.TemporaryDirectory() as d:
            pathlib.Path(d, "script.lua").write_text(src)
            for cmd in (ref, th):
                p = subprocess.run([cmd, "script.lua"], cwd=d, capture_output=True, text=True,
                                   errors="replace", timeout=60)
                first = (p.stderr.splitlines() or [""])[0]
                first = re.sub(r"^(/usr/bin/luajit|th): ", "", first)
                first = re.sub(r" at /tmp/ref-build/[^\s)]*:\d+", "", first)
                got.append((p.returncode, first))
        out.append((src, got[0], got[1]))
    return out


def main():
    extra = "--scripts" in sys.argv and int(sys.argv[sys.argv.index("--scripts") + 1])
    if extra is not False:
        i = sys.argv.index("--scripts")
        del sys.argv[i:i + 2]
    args = arguments(2000)
    args.th, args.ref = os.path.abspath(args.th), os.path.abspath(args.ref)
    rng = random.Random(args.seed)
    calls = [case(rng) for _ in range(args.calls)]
    mismatches, th_failures, ref_failures = differences(calls, args.th, args.ref, args.batch,
                                                        args.timeout, PRELUDE)
    left = unexplained(mismatches, KNOWN)
    report(calls, left, th_failures, ref_failures, args.show)
    if extra:
        results = scripts(rng, extra, args.th, args.ref)
        # (the known differences of the messages, the same exit status; or
        # the original did not fail)
        bad = [r for r in results if r[1] != r[2]
               and not (r[1][0] == r[2][0]
                        and any(test(r[0], "err " + r[1][1], "err " + r[2][1]) for _, test in KNOWN))
               and not (r[1] == (0, "") and any(test(r[0], "", r[2][1]) for _, test in KNOWN))]
        print(f"scripts: {len(results)}  differing: {len(bad)}")
        for src, want, have in bad[:args.show]:
            print(f"--- script:\n{src}  ref: {want}\n  th:  {have}")


if __name__ == "__main__":
    main()
