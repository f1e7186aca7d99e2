"""Differential fuzz of hot call sites: every case one loop of thousands of
iterations through one call site, so that LuaJIT compiles it and runs it
compiled (the other fuzzers run each case once, in the interpreter).

th reads and writes elements through LuaJIT FFI pointers, switches between
LuaJIT loops and numpy by size, and its traces are specialised per type and
layout: a value can be right when called once and wrong when the call site is
hot (the LuaJIT in lupa once miscompiled an int64 stored through a float*),
polymorphic (tensors of several types through it), or when a trace exits
midway.  Each case is a local function (the call site) called 2000-5000 times
with varying inputs, in one of these families:

- elements: `x[i]`, `x[i][j]`, `x[{i,j}]`, `s[i]` of a storage,
  `x:storage()[i]`, reads and writes, values that need converting (fractions
  into integer types, negatives into Byte, values past the type wrapping,
  int64-sized Long values, nan/inf/subnormals into Float);
- fill and copy between every pair of the seven types, the source changed
  by element writes as the loop goes;
- apply, map and map2 with closures capturing upvalues (counters and
  scales the loop changes, a closure made once or at every iteration, nil
  returned now and then);
- small tensor maths (add, mul, cmul, div, csub, sum, max/min, cumsum,
  comparisons, clamp, abs, dot...) at 8-200 elements (now and then up to
  1,100), th's LuaJIT/numpy crossover, new results, into results and in
  place, several operations through one site;
- LongTensor maths whose values cross 2^53 as the loop goes;
- pipelines: an element write, a copy into another type, maths on it, a
  read of it filling a third tensor, all in one site.

Operands are contiguous or views (transposed, narrowed, strided, expanded as
sources); one case mixes types and layouts through its call site, and most
switch to other types or layouts partway through the loop (a trace exit).
Lua numbers accumulate what the loop reads.  Each case prints the
accumulators and every element of its tensors' bases by '%a' (every bit;
fuzz_prelude's walk; past 400 elements, a weighted sum of them all); both
commands must agree exactly, and --show lists where each mismatch starts,
with its case.  Counted apart (KNOWN): max/min of all the elements of a
view holding NaN, where the original read past the view.  Each th batch first
waits for numpy to load (FUZZ_HOT_COLD=1 leaves that out: th's LuaJIT loops
at any size).  Uses fuzz_diff.py's runner (a crash or hang resumes after the
case).

    python scripts/fuzz_hot.py --cases 300 --seed 1 --batch 50 \\
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th [--show 10]
"""
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import SHARED_LUA, arguments, differences, report, unexplained  # noqa: E402

PRELUDE = SHARED_LUA + r"""
io.stdout:setvbuf('line')
awaitnumpy('FUZZ_HOT_COLD')
-- dig(t): heading and every element by %a (up to 400, then a sum of all)
local function dig(t)
   if not torch.isTensor(t) then return ex(t) end
   local out, sum = {heading(t)}, 0
   walk(t, function(k, v)
      if k <= 400 then out[#out + 1] = ex(v) end
      sum = sum + v * (k % 13 + 1)
   end)
   if t:nElement() > 400 then out[#out + 1] = 'sum ' .. ex(sum) end
   return table.concat(out, ' ')
end
-- each type's starting values, all exact in it
local POOLS = {
   Byte = {0, 1, 7, 100, 127, 128, 200, 255, 3, 64},
   Char = {0, 1, -1, 7, -100, 127, -128, 42, -3, 64},
   Short = {0, 1, -1, 300, -32768, 32767, 1000, -7, 255, 12345},
   Int = {0, 1, -1, 70000, -2147483648, 2147483647, 65536, -7, 123456789, 255},
   Long = {0, 1, -1, 2^40, -2^63, 2^62 + 2^20, 4294967296, -7, 2^53 + 2, 9007199254740993 - 1},
   Float = {0, 1, -1.5, 0.1, 3.4e38, -2^-149, 1/3, 1e-3, 65504.25, 0 / 0},
   Double = {0, 1, -1.5, 0.1, 1e300, -2^-1074, 1/3, 1e-3, 2^53 + 2, 1 / 0},
}
-- mk(T, sizes, a, b): element i is POOLS[T][(i*a+b) % #POOLS[T] + 1]
function mk(T, sizes, a, b)
   local p = POOLS[T]
   return filled(T, sizes, function(i) return p[(i * a + b) % #p + 1] end)
end
-- FIT[type](v): v within what the element type converts to by C's rules
-- on x86 without undefined behaviour (int32 for the narrow types, int64
-- for Long, whose largest double below 2^63 is 2^63 - 1024); NaN to 0.
-- Bounded by math.max and min, so that a closure's last step is not an
-- addition (see KNOWN in fuzz_hot.py)
local max, min = math.max, math.min
local function fitter(lo, hi)
   return function(v)
      if v ~= v then return 0 end
      return max(lo, min(hi, v))
   end
end
local int32 = fitter(-2^31, 2^31 - 1)
FIT = {['torch.ByteTensor'] = int32, ['torch.CharTensor'] = int32, ['torch.ShortTensor'] = int32,
       ['torch.IntTensor'] = int32, ['torch.LongTensor'] = fitter(-2^63, 2^63 - 1024),
       ['torch.FloatTensor'] = function(v) return v end, ['torch.DoubleTensor'] = function(v) return v end}
-- strided(t, d): every other element along d
function strided(t, d)
   return t:unfold(d, 1, 2):select(t:dim() + 1, 1)
end
function show(i, f)
   local res = {pcall(f)}
   if not res[1] then print(i .. ' error') return end
   local parts = {}
   for k = 2, table.maxn(res) do parts[#parts + 1] = dig(res[k]) end
   print(i .. ' ok ' .. table.concat(parts, ' | '))
end
"""

TYPES = ["Byte", "Char", "Short", "Int", "Long", "Float", "Double"]
FLOATS = ["Float", "Double"]
INTS = ["Byte", "Char", "Short", "Int", "Long"]

# values stored: some exact everywhere, some needing conversion in some type
PLAIN = [0, 1, 2, 3, 7, 42, 100, -1, -2, -5, -100, 0.5, 2.5, -0.5, 1.75, -2.25, 0.1, 1 / 3]
WRAP = [255, 256, 300, -128, -129, 127.9, -128.5, 32767, 32768, 70000, -70000, 2 ** 31 - 1, 2 ** 31, -2 ** 31,
        2 ** 32 + 5, 1e10, -1e10]
LONGISH = [2 ** 53 + 2, 2 ** 60, 2 ** 62 + 2 ** 40, -2 ** 63, 2 ** 63 - 2 ** 10, -2 ** 53 - 4, 1e18, 2 ** 53]
SPECIAL = [math.nan, math.inf, -math.inf, -0.0, 1e-310, 3.4e38, 3.5e38, 1e39, 2 ** -149, 1e300, 65504.5]


def lit(v):
    if v != v:
        return "(0/0)"
    if v in (math.inf, -math.inf):
        return "(1/0)" if v > 0 else "(-1/0)"
    if v == 0 and math.copysign(1, v) < 0:
        return "(0*-1)"
    if isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 64:
        return str(int(v))
    return repr(v)


def value_pool(rng, types):
    """Lua table of the values a case stores; the specials (C's undefined
    conversions into integers) only when every type is a float"""
    n = rng.randint(4, 12)
    menu = PLAIN * 2 + WRAP + LONGISH
    if all(t in FLOATS for t in types) or rng.random() < 0.1:
        menu = menu + SPECIAL
    return "{" + ", ".join(lit(rng.choice(menu)) for _ in range(n)) + "}"


class Case:
    """A case's Lua lines: bases (fresh tensors, returned at the end), views
    of them, the call site and the loop"""

    def __init__(self, rng):
        self.rng, self.lines, self.bases, self.n = rng, [], [], 0
        self.iters = rng.choice([2000, 3000, 5000])
        self.half = rng.randint(self.iters // 4, 3 * self.iters // 4) if rng.random() < 0.7 else None

    def name(self, p):
        self.n += 1
        return f"{p}{self.n}"

    def base(self, T, sizes):
        b = self.name("b")
        a, c = self.rng.randint(1, 29), self.rng.randint(0, 9)
        self.lines.append(f"local {b} = mk('{T}', {{{', '.join(map(str, sizes))}}}, {a}, {c})")
        self.bases.append(b)
        return b

    def view(self, T, sizes, writable=True):
        """a view of logical sizes `sizes` (1 or 2 dimensions) of a new base
        (a matrix transposed, narrowed, strided; expanded when not written)"""
        rng, nd = self.rng, len(sizes)
        layout = rng.choice(["contig", "contig", "t", "narrow", "strided"] + ([] if writable else ["expand"]))
        if layout == "t" and nd == 2:
            return f"{self.base(T, [sizes[1], sizes[0]])}:t()"
        if layout == "t" and nd == 3:
            return f"{self.base(T, sizes[::-1])}:transpose(1, 3)"
        if layout == "narrow":
            d = rng.randrange(nd)
            big = list(sizes)
            extra = rng.randint(1, 3)
            big[d] += extra
            return f"{self.base(T, big)}:narrow({d + 1}, {rng.randint(1, extra + 1)}, {sizes[d]})"
        if layout == "strided":
            d = rng.randrange(nd)
            big = list(sizes)
            big[d] = 2 * sizes[d] - rng.choice([0, 1])
            return f"strided({self.base(T, big)}, {d + 1})"
        if layout == "expand":
            d = rng.randrange(nd)
            small = list(sizes)
            small[d] = 1
            return f"{self.base(T, small)}:expand({', '.join(map(str, sizes))})"
        return self.base(T, sizes)

    def group(self, types, sizes, writable=True):
        """a Lua table of views, one of each type, cycled by the call site"""
        return "{" + ", ".join(self.view(T, sizes, writable=writable) for T in types) + "}"

    def types(self):
        """one type (monomorphic) or several (polymorphic call site)"""
        k = self.rng.choice([1, 1, 2, 3, 7])
        return [self.rng.choice(TYPES) for _ in range(k)] if k < 7 else list(TYPES)

    def loop(self, site, step, accs=("acc",)):
        """the loop around the call site: `step` is the body (uses it, xs);
        xs switches to ys at self.half when there is one"""
        accs_init = ", ".join(accs)
        zeros = ", ".join("0" for _ in accs)
        body = [f"local {accs_init} = {zeros}", site, f"for it = 1, {self.iters} do"]
        if self.half:
            body.append(f"   if it == {self.half} then xs, ys = ys, xs end")
        body.append(step)
        body.append("end")
        self.lines.extend(body)
        return accs

    def body(self, results):
        return "\n".join(self.lines) + "\nreturn " + ", ".join(results)


def shape(rng, small=False):
    """1 or 2 sizes: up to 12 elements a side (small), else mostly up to 200
    elements in all and now and then up to about 1,100 (th's numpy loops
    take over from 64 to a few thousand elements, by operation), or 3 sizes
    up to 6"""
    wide = not small and rng.random() < 0.15
    if not small and rng.random() < 0.15:
        return [rng.randint(2, 6) for _ in range(3)]
    if rng.random() < 0.5:
        return [rng.randint(2, 12 if small else 1100 if wide else 200)]
    hi = 8 if small else 33 if wide else 16
    return [rng.randint(2, hi), rng.randint(2, hi)]


def sizes_count(sizes):
    n = 1
    for s in sizes:
        n *= s
    return n


def elements(c):
    """element reads and writes through one call site"""
    rng = c.rng
    S = shape(rng, small=True)
    nd = len(S)
    types = c.types()
    other = c.types() if c.half else types
    c.lines.append(f"local V = {value_pool(rng, types + other)}")
    c.lines.append(f"local xs = {c.group(types, S)}")
    c.lines.append(f"local ys = {c.group(other, S)}")
    forms = ["x[i] = v", "s[k] = v", "x:storage()[k] = v"]
    reads = ["x[i]", "s[k]", "x:storage()[k]"]
    if nd == 2:
        # (x[i] = v of a matrix fills row i; x[{i, {}}] and x[{{}, j}] a row and a column)
        forms += ["x[i][j] = v", "x[{i, j}] = v", "x[{i, j}] = v", "x[{i, {}}] = v", "x[{{}, j}] = v"]
        reads += ["x[i][j]", "x[{i, j}]", "x[i]:sum()", "x[{{}, j}][i]"]
        reads.remove("x[i]")
    else:   # (a negative index counts from the end)
        forms += ["x[{i}] = v", "x[{{i, i}}] = v", "x[-i] = v"]
        reads += ["x[{i}]", "x[-i]", "x[{-i}]"]
    w, r = rng.choice(forms), rng.choice(reads)
    if rng.random() < 0.3:   # a second form through the same site, by parity
        w = f"if it % 2 == 0 then {w} else {rng.choice(forms)} end"
    a, b = rng.randint(1, 31), rng.randint(1, 31)
    j = f"local j = (it * {b}) % {S[1]} + 1; " if nd == 2 else ""
    site = ("local function site(x, it, v) "
            f"local i = (it * {a}) % {S[0]} + 1; {j}"
            "local s = x:storage(); local k = (it * 7) % s:size() + 1; "
            f"{w}; return {r} end")
    step = ("   local x = xs[it % #xs + 1]\n"
            f"   local got = site(x, it, V[(it * {rng.randint(1, 13)}) % #V + 1])\n"
            "   acc = acc + got; acc2 = acc2 + got * (it % 7)")
    accs = c.loop(site, step, ("acc", "acc2"))
    return list(accs) + c.bases


def fill_copy(c):
    """fill and copy between types through one call site"""
    rng = c.rng
    S = shape(rng)
    n = sizes_count(S)
    dtypes, stypes = c.types(), c.types()
    c.lines.append(f"local V = {value_pool(rng, dtypes + stypes)}")
    c.lines.append(f"local xs = {c.group(dtypes, S)}")
    c.lines.append(f"local ys = {c.group(c.types() if c.half else dtypes, S)}")
    c.lines.append(f"local srcs = {c.group(stypes, S, writable=rng.random() < 0.5)}")
    kind = rng.choice(["fill", "copy", "both", "copyview"])
    k = rng.randint(1, n)
    if kind == "fill":
        op = "x:fill(v)"
    elif kind == "copy":
        op = "x:copy(src)"
    elif kind == "copyview":   # copy between a sized view and a flat source
        op = f"x:copy(src:contiguous():view({n}))"
    else:
        op = "if it % 3 == 0 then x:fill(v) else x:copy(src) end"
    pick = "srcs[(it * 5) % #srcs + 1]"
    touch = ""
    if rng.random() < 0.7 and kind != "fill":   # the source changes as the loop goes
        touch = "src:storage()[(it * 3) % src:storage():size() + 1] = v; "
    site = f"local function site(x, src, v, it) {touch}{op}; return x:storage()[(it * {k}) % x:storage():size() + 1] end"
    step = ("   local x = xs[it % #xs + 1]\n"
            f"   local v = V[(it * {rng.randint(1, 13)}) % #V + 1]\n"
            f"   acc = acc + site(x, {pick}, v, it)")
    accs = c.loop(site, step)
    return list(accs) + c.bases


def closures(c):
    """apply, map and map2 with closures capturing upvalues.  What a closure
    computes is kept by fit in the range the element type converts from
    (int32 or int64: C's conversion beyond is undefined), its last step a
    max or min: the original's compiled closures converted the operands of
    a last addition into an integer type one by one (KNOWN)"""
    rng = c.rng
    S = shape(rng)
    types = c.types()
    c.lines.append(f"local V = {value_pool(rng, types)}")
    c.lines.append(f"local xs = {c.group(types, S)}")
    c.lines.append(f"local ys = {c.group(c.types() if c.half else types, S)}")
    f = rng.choice(["apply", "map", "map2"])
    expr = rng.choice(["fit(fit(e * scale) + cnt)", "fit(e + scale)", "fit((e - cnt) * 0.5)", "fit(-e)",
                       "fit(e * e)", "fit(scale)", "cnt % 2 == 0 and e or nil", "e / 3",
                       "math.floor(fit(e * scale))"])
    args = {"apply": "e", "map": "e, o", "map2": "e, o, p"}[f]
    if f != "apply":
        expr = rng.choice([expr, f"fit(fit({expr}) + o)" if "nil" not in expr else expr, "fit(o - e)",
                           "fit(fit(e * scale) + o)", "o" if f == "map" else "fit(p - o)"])
    fn = f"function({args}) cnt = cnt + 1; return {expr} end"
    fresh = rng.random() < 0.5   # a new closure each iteration, or one made once
    call = {"apply": "x:apply(FN)", "map": "x:map(x2, FN)", "map2": "x:map2(x2, x3, FN)"}[f]
    # map's operands: the same type as x (the original requires it)
    head = ("local function site(x, v) "
            "local x2, x3 = x:clone():mul(1), x:clone(); fit = FIT[torch.type(x)]; scale = v; ")
    if fresh:
        site = f"local cnt, scale, fit = 0, 1, nil; {head}{call.replace('FN', fn)}; return cnt end"
    else:
        site = f"local cnt, scale, fit = 0, 1, nil; local FN = {fn}; {head}{call}; return cnt end"
    step = ("   local x = xs[it % #xs + 1]\n"
            f"   local got = site(x, V[(it * {rng.randint(1, 13)}) % #V + 1])\n"
            "   acc = acc + got + x:storage()[1]")
    accs = c.loop(site, step)
    return list(accs) + c.bases


def maths(c):
    """small tensor maths through one call site"""
    rng = c.rng
    S = shape(rng)
    types = c.types()
    other = c.types() if c.half else types
    op = rng.choice(["add", "mul", "cmul", "csub", "div", "addt", "sum", "max", "min", "maxd", "cumsum",
                     "cmp", "cmpt", "clamp", "abs", "dot", "addinto", "cmulinto", "neg", "fill_add",
                     "cmax", "mean", "prod", "sign", "addcmul", "fmod", "cdiv", "maskedFill", "lerp", "round",
                     "mixed", "cmpinto"])
    if op in ("div", "mean", "neg", "fmod", "cdiv", "lerp", "round") or (op == "abs" and rng.random() < 0.5):
        types = [t for t in types if t in FLOATS] or ["Double"]
        other = [t for t in other if t in FLOATS] or ["Float"]
    if op == "abs":   # (the original has no Byte, Char or Short abs)
        types, other = ([t if t not in ("Byte", "Char", "Short") else "Int" for t in ts] for ts in (types, other))
    inplace = rng.random() < 0.5
    c.lines.append(f"local V = {value_pool(rng, types + other)}")
    c.lines.append(f"local xs = {c.group(types, S, writable=inplace)}")
    c.lines.append(f"local ys = {c.group(other, S, writable=inplace)}")
    # the second operand of each tensor: a view of the same type
    c.lines.append("local function partner(x) return x:clone():mul(-1):add(1) end")
    d = rng.randint(1, len(S))
    lohi = sorted([rng.choice([-100, -1.5, 0, 1, 2.5, 7, 100, 200]) for _ in range(2)])
    calls = {
        "add": ("torch.add(x, v)", "x:add(v)"),
        "mul": ("torch.mul(x, v)", "x:mul(v)"),
        "cmul": ("torch.cmul(x, y)", "x:cmul(y)"),
        "csub": ("torch.csub(x, y)", "x:csub(y)"),
        "div": ("torch.div(x, v)", "x:div(v)"),
        "addt": ("torch.add(x, v, y)", "x:add(v, y)"),
        "sum": (f"torch.sum(x, {d})", "x:sum()"),
        "max": ("x:max()", "x:max()"),
        "min": ("x:min()", "x:min()"),
        "maxd": (f"torch.max(x, {d})", f"torch.min(x, {d})"),
        "cumsum": (f"torch.cumsum(x, {d})", f"x:cumsum({d})"),
        "cmp": (f"torch.{rng.choice(['lt', 'le', 'gt', 'ge', 'eq', 'ne'])}(x, v)",
                f"x:{rng.choice(['lt', 'gt', 'ne'])}(v):sum()"),
        "cmpt": (f"torch.{rng.choice(['lt', 'le', 'gt', 'ge', 'eq', 'ne'])}(x, y)", "x:eq(y):sum()"),
        # (into a result of the operands' type)
        "cmpinto": (f"torch.{rng.choice(['lt', 'ge', 'ne'])}(x.new(), x, y)",
                    f"torch.{rng.choice(['le', 'gt', 'eq'])}(x.new(), x, v)"),
        "clamp": (f"torch.clamp(x, {lit(lohi[0])}, {lit(lohi[1])})", f"x:clamp({lit(lohi[0])}, {lit(lohi[1])})"),
        "abs": ("torch.abs(x)", "x:abs()"),
        "neg": ("torch.neg(x)", "x:neg()"),
        "sign": ("torch.sign(x)", "x:sign()"),
        "dot": ("x:dot(y)", "torch.dot(y, x)"),
        "addinto": ("r:add(x, v)", "torch.add(r, x, y)"),
        "cmulinto": ("r:cmul(x, y)", "torch.cmul(r, y, x)"),
        "fill_add": ("x:fill(v):add(y)", "x:fill(v):add(v)"),
        "cmax": ("torch.cmax(x, y)", "x:cmin(v)"),
        "mean": (f"torch.mean(x, {d})", "x:mean()"),
        "prod": (f"torch.prod(x, {d})", "x:prod()"),
        "addcmul": ("torch.addcmul(x, v, x, y)", "x:addcmul(2, y, y)"),
        "fmod": (f"torch.fmod(x, {rng.choice(['3', '0.7', '-2.5'])})", "x:remainder(1.5)"),
        "cdiv": ("torch.cdiv(x, y)", "x:cdiv(y)"),
        "maskedFill": ("x:clone():maskedFill(torch.gt(x, y), v)", "x:maskedFill(torch.lt(x, y), v)"),
        "lerp": ("torch.lerp(x, y, 0.25)", "x:lerp(y, 0.75)"),
        "round": ("torch.round(x)", "x:floor()"),
        # several operations through the one site, picked by the iteration
        "mixed": ("({torch.add(x, v), torch.cmul(x, y), torch.sum(x, 1), x:clone():fill(v),"
                  " torch.lt(x, y), x:clone():copy(y)})[it % 6 + 1]",
                  "({x:add(v), x:mul(-1), x:clamp(-50, 50), x:copy(y), x:fill(v), x:csub(y)})[it % 6 + 1]"),
    }
    call = calls[op][1 if inplace else 0]
    if op in ("addinto", "cmulinto"):
        call = f"local r = x.new():resizeAs(x):zero(); local q = {call}; return r"
    else:
        call = f"return {call}"
    if not inplace and rng.random() < 0.3:   # the tensor changes as the loop goes
        call = f"x:storage()[(it * 3) % x:storage():size() + 1] = v; {call}"
    site = f"local function site(x, y, v, it) {call} end"
    step = ("   local x = xs[it % #xs + 1]\n"
            f"   local v = V[(it * {rng.randint(1, 13)}) % #V + 1]\n"
            "   local got = site(x, partners[x], v, it)\n"
            "   if torch.isTensor(got) then got = got:storage()[(it % got:storage():size()) + 1] end\n"
            "   acc = acc + got; acc2 = acc2 + (got == got and got % 7 or 1)")
    c.lines.append("local partners = {}; for _, g in ipairs{xs, ys} do for _, x in ipairs(g) do "
                   "partners[x] = partner(x) end end")
    if op in ("max", "min"):
        c.lines.insert(0, "-- extreme-nan")
    accs = c.loop(site, step, ("acc", "acc2"))
    return list(accs) + c.bases


def longs(c):
    """LongTensor maths whose values cross 2^53 as the loop goes: th computes
    in doubles under a bound on the operands and takes numpy's int64 past
    it, so the path changes with the values (and with the sizes)"""
    rng = c.rng
    S = shape(rng)
    c.lines.append("local V = {" + ", ".join(lit(rng.choice([3, -7, 2 ** 20 + 1, 2 ** 40 - 3, -2 ** 52 + 5, 2 ** 53 + 2,
                                                             2 ** 61 + 2 ** 30, -2 ** 63, 1, 0, -1]))
                                         for _ in range(rng.randint(4, 10))) + "}")
    c.lines.append(f"local xs = {c.group(['Long'] * rng.randint(1, 3), S, writable=True)}")
    c.lines.append(f"local ys = {c.group(['Long'] * rng.randint(1, 2), S, writable=True)}")
    d = rng.randint(1, len(S))
    op = rng.choice([
        "x:add(v)", "torch.add(x, v)", "x:mul(3)", "torch.cmul(x, y)", "x:csub(y)", "torch.sum(x)",
        f"torch.sum(x, {d})", f"torch.cumsum(x, {d})", "x:max()", "x:min()", f"torch.max(x, {d})", "x:dot(y)",
        "torch.cmax(x, y)", "torch.abs(x)", "torch.div(x, 7)", "torch.fmod(x, -5)", "torch.remainder(x, 9)",
        f"torch.prod(x, {d})", "x:clone():mul(v)", "torch.add(x, 2, y)", "torch.eq(x, y)", "torch.lt(x, v)",
        "x:clamp(-2^60, 2^60)", "x:sign()"])
    touch = "x:storage()[(it * 5) % x:storage():size() + 1] = v; "
    site = f"local function site(x, y, v, it) {touch}local q = {op}; return q end"
    step = ("   local x = xs[it % #xs + 1]\n"
            f"   local v = V[(it * {rng.randint(1, 13)}) % #V + 1]\n"
            "   local got = site(x, partners[x], v, it)\n"
            "   if torch.isTensor(got) then got = got:storage()[(it % got:storage():size()) + 1] end\n"
            "   acc = acc + got; acc2 = acc2 + got % 1000")
    c.lines.append("local partners = {}; for _, g in ipairs{xs, ys} do for _, x in ipairs(g) do "
                   "partners[x] = x:clone():add(1) end end")
    accs = c.loop(site, step, ("acc", "acc2"))
    return list(accs) + c.bases


def pipeline(c):
    """several paths in one site, each step's result the next one's input
    across types: an element write, a copy into another type, maths on the
    copy, an element read of it filling a third tensor"""
    rng = c.rng
    S = shape(rng, small=rng.random() < 0.5)
    n = sizes_count(S)
    c.lines.append(f"local V = {value_pool(rng, TYPES)}")
    c.lines.append(f"local xs = {c.group(c.types(), S)}")
    c.lines.append(f"local ys = {c.group(c.types(), S)}")
    c.lines.append(f"local zs = {c.group(c.types(), S)}")
    c.lines.append(f"local ws = {c.group(c.types(), [n])}")
    maths = rng.choice(["y:add(v)", "y:mul(2)", "y:cmul(y)", "y:clamp(-100, 100)", "y:fill(y:sum())",
                        "y:copy(torch.lt(y, v))", "y:csub(y:clone():mul(2))"])
    flat = "x:storage()[(it * 3) % x:storage():size() + 1] = v"
    site = ("local function site(x, y, z, w, v, it) "
            f"{flat}; y:copy(x); {maths}; z:copy(y); w:fill(z:storage()[it % z:storage():size() + 1]); "
            "return w:sum() + z:storage()[1] end")
    step = ("   local x, y = xs[it % #xs + 1], ys[(it * 7) % #ys + 1]\n"
            "   local z, w = zs[(it * 3) % #zs + 1], ws[(it * 5) % #ws + 1]\n"
            f"   local got = site(x, y, z, w, V[(it * {rng.randint(1, 13)}) % #V + 1], it)\n"
            "   acc = acc + got; acc2 = acc2 + (got == got and got % 7 or 1)")
    accs = c.loop(site, step, ("acc", "acc2"))
    return list(accs) + c.bases


FAMILIES = [(elements, 25), (fill_copy, 15), (closures, 12), (maths, 22), (longs, 12), (pipeline, 14)]


def case(rng):
    c = Case(rng)
    fam = rng.choices([f for f, _ in FAMILIES], [w for _, w in FAMILIES])[0]
    return c.body(fam(c))


# (name, test(body, original's output, th's)): differences that are the original's
KNOWN = [
    # max/min of all the elements of a view holding NaN: the original's loop
    # walked on past the view (other values); th gives NaN (fuzz_exact's too)
    ("max/min of a view holding NaN", lambda body, want, have: body.startswith("-- extreme-nan") and "nan" in have),
]


def first_difference(want, have):
    """where two digests part: the value (0 = first accumulator) and word
    within it, and a few words of each from there"""
    wv, hv = want.split(" | "), have.split(" | ")
    for v, (a, b) in enumerate(zip(wv, hv)):
        if a != b:
            aw, bw = a.split(), b.split()
            w = next((k for k, (x, y) in enumerate(zip(aw, bw)) if x != y), min(len(aw), len(bw)))
            return f"value {v} word {w}: ref {' '.join(aw[w:w + 4])} / th {' '.join(bw[w:w + 4])}"
    return f"{len(wv)} values against {len(hv)}"


def main():
    args = arguments(calls=300, name="cases")
    rng = random.Random(args.seed)
    calls = [case(rng) for _ in range(args.calls)]
    mismatches, th_failures, ref_failures = differences(calls, args.th, args.ref, args.batch, args.timeout, PRELUDE)
    left = unexplained(mismatches, KNOWN)
    report(calls, left, th_failures, ref_failures, 0)
    for k, body, want, have in left[:args.show]:
        print(f"--- {k}: {first_difference(want, have)}\n{body}")


if __name__ == "__main__":
    main()
