"""Differential fuzz of tensor maths on views and into explicit results.

Each case builds its operands deterministically (values from formulas:
negative, fractional, zero, large, and nan/inf in Double and Float) of one of
the seven types, as views of fresh base tensors: transpose, t(), narrow,
select, sub, unfold (overlapping too), expand (stride 0), double transposes,
views of views, a storage offset (a narrowed 1-D storage viewed), or the
tensor itself.  Sizes are mostly 1-6 per dimension in 1-4 dimensions,
sometimes hundreds to thousands of elements, and rarely past 65,536 (th's
LuaJIT contiguous loops, its strided kernels and its numpy paths).  Then one
operation: unary maths, by a number, by a tensor, addcmul/addcdiv/lerp/clamp,
comparisons (into Byte or into a result of the operand's type), bit
operations on integer types, fill/zero/copy between types and layouts,
reductions with and without a dimension (sum, prod, mean, max/min with
indices, cumsum/cumprod, std/var, norm, median, mode, kthvalue, topk, sort,
all/any), BLAS (dot, mv, mm, addmm, addmv, addr, bmm, baddbmm on views) and
the index family (index, gather, scatter, indexAdd/indexCopy/indexFill,
maskedSelect/maskedFill/maskedCopy).  Each in one of its forms: a new result
`torch.f(x, ...)`; an explicit result `torch.f(r, x, ...)` or
`r:f(x, ...)` with r fresh, of another shape (resized) or a view of another
tensor; r the same tensor as an operand or a view overlapping it; in place
`x:f(...)` on a view.  Printed per case: a digest of each value returned
(type, sizes, strides, the first values, and for bigger ones a count of nan
and inf and two sums over every element) and of every base tensor after the
call (writes outside a view show there).  Uses fuzz_diff.py's runner
(batches, a crash or hang resumes after the case, 5 significant digits).

    python scripts/fuzz_views.py --calls 2000 --seed 1 \\
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th [--show 30]

FUZZ_VIEWS_BIG=0 leaves out the cases past 65,536 elements (they are slow).
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import SHARED_LUA, arguments, differences, report, unexplained  # noqa: E402

PRELUDE = SHARED_LUA + r"""
io.stdout:setvbuf('line')   -- the original may die on a case: keep what came before
local function fmt(v)
   if v ~= v then return 'nan' end
   return string.format('%.5g', v)
end
-- dig(t): a tensor's digest, read element by element through its strides
local function dig(t)
   local parts = {heading(t)}
   local add, totals = counter()
   walk(t, function(k, v)
      if k <= 24 then parts[#parts + 1] = fmt(v) end
      add(k, v)
   end)
   if t:nElement() > 24 then
      local nan, inf, sum, wsum = totals()
      parts[#parts + 1] = string.format('nan=%d inf=%d sum=%s w=%s', nan, inf, fmt(sum), fmt(wsum))
   end
   return table.concat(parts, ' ')
end
local function repr(r)
   if torch.isTensor(r) then return dig(r)
   elseif type(r) == 'number' then return fmt(r)
   elseif type(r) == 'string' then return (r:gsub('\n', '|'))
   elseif type(r) == 'table' then
      local parts = {}
      for i, v in ipairs(r) do parts[i] = repr(v) end
      return '{' .. table.concat(parts, '; ') .. '}'
   end
   return tostring(r)
end
-- mk(T, sizes, kind): a fresh contiguous tensor, its values from a formula
local bigs = {Double = 1.5e9, Float = 3.5e5, Long = 1e9, Int = 1e5, Short = 3000, Char = 15, Byte = 31}
function mk(T, sizes, kind)
   local fl = T == 'Double' or T == 'Float'
   return filled(T, sizes, function(i)
      local v
      if kind == 'pos' then v = (i * 7) % 11 + 1
      elseif kind == 'frac' then v = ((i * 37) % 19) * 0.25 - 2
      elseif kind == 'big' then v = ((i * 13) % 17 - 8) * bigs[T] + (i % 3)
      elseif kind == 'zero' then v = (i % 4 == 0) and ((i * 3) % 5 - 2) or 0
      elseif kind == 'nan' and fl then
         local k = i % 7
         v = k == 0 and 0 / 0 or k == 3 and 1 / 0 or k == 5 and -1 / 0 or ((i * 37) % 19) * 0.25 - 2
      elseif kind == 'bin' then v = (i * 5) % 3 == 0 and 1 or 0
      elseif kind == 'idx' then v = (i * 3) % 2 + 1
      else v = (i * 7) % 11 - 5 end
      if T == 'Byte' and v < 0 then v = -v end
      if T == 'Byte' and v ~= v then v = 3 end
      if T == 'Byte' and v > 255 then v = v % 256 end
      return v
   end)
end
-- ix(sizes, hi): a LongTensor of indices 1..hi, from a formula
function ix(sizes, hi, seed)
   return filled('Long', sizes, function(i) return (i * (seed or 5) + 1) % hi + 1 end)
end
-- show(i, f): the digests of every value f returned, or 'error'
function show(i, f)
   local res = {pcall(f)}
   if not res[1] then print(i .. ' error') return end
   local parts = {}
   for k = 2, table.maxn(res) do parts[#parts + 1] = repr(res[k]) end
   print(i .. ' ok ' .. table.concat(parts, ' | '))
end
"""

TYPES = ["Double", "Float", "Long", "Int", "Short", "Char", "Byte"]
FLOATS = ["Double", "Float"]
INTS = ["Long", "Int", "Short", "Char", "Byte"]
KINDS = ["'mix'", "'frac'", "'pos'", "'big'", "'zero'", "'nan'"]
UNARY_ALL = ["abs", "neg", "sign"]
UNARY_FLOAT = ["sqrt", "exp", "log", "floor", "ceil", "round", "trunc", "frac", "sigmoid", "tanh", "cinv",
               "cos", "sin", "atan", "log1p", "rsqrt", "acos", "asin", "tan", "cosh", "sinh", "square"]
BYNUMBER = ["add", "mul", "div", "fmod", "remainder", "pow", "cmax", "cmin", "csub"]
COMPARE = ["lt", "le", "gt", "ge", "eq", "ne"]
BYTENSOR = ["add", "cmul", "cdiv", "cpow", "cfmod", "cremainder", "cmax", "cmin", "csub", "atan2"]
BITS_N = ["bitand", "bitor", "bitxor", "lshift", "rshift"]
BITS_T = ["cbitand", "cbitor", "cbitxor", "clshift", "crshift"]


def number(rng, T):
    if T in FLOATS:
        return rng.choice(["0", "1", "2", "3", "-1", "-2", "0.5", "1.5", "-0.5", "2.7", "-3.5", "100", "1e10",
                           "0/0", "1/0", "-1/0"] if rng.random() < 0.1 else
                          ["0", "1", "2", "3", "-1", "-2", "0.5", "1.5", "-0.5", "2.7", "-3.5", "100"])
    if T == "Byte":
        return rng.choice(["0", "1", "2", "3", "5", "7", "100", "200"])
    return rng.choice(["0", "1", "2", "3", "-1", "-2", "-3", "5", "7", "100"])


def value(v):
    """a number's Lua text -> its value, for ordering clamp's bounds"""
    special = {"0/0": 0.0, "1/0": float("inf"), "-1/0": float("-inf")}
    return special[v] if v in special else float(v)


class Case:
    """A case's Lua lines: operands (views of fresh bases) and what to return"""

    def __init__(self, rng, T, big=False):
        self.rng, self.T, self.lines, self.bases, self.n = rng, T, [], [], 0
        self.big = big
        self.overlapping = set()   # views whose elements share memory (expand, unfold)
        self.unfolded = set()      # those of them by an unfold (rows overlapping, no stride 0)

    def name(self, p):
        self.n += 1
        return f"{p}{self.n}"

    def base(self, T, shape, kind):
        b = self.name("b")
        self.lines.append(f"local {b} = mk('{T}', {{{', '.join(map(str, shape))}}}, {kind})")
        self.bases.append(b)
        return b

    def chain(self, S, depth, writable):
        """-> (base shape, method calls) giving a view of sizes S"""
        rng, nd = self.rng, len(S)
        if depth == 0 or rng.random() < 0.2 or nd == 0:
            return S, []
        ops = ["narrow", "select", "sub", "offset", "contig"]
        if nd >= 2:
            ops += ["transpose", "transpose", "unfold", "perm"]
        if nd == 2:
            ops.append("t")
        if any(s > 1 for s in S) and (not writable or rng.random() < 0.3):
            ops.append("expand")
        op = rng.choice(ops)
        n = 1
        for s in S:
            n *= s
        if op == "contig":
            return S, []
        if op == "transpose":
            i, j = rng.sample(range(nd), 2)
            S2 = list(S)
            S2[i], S2[j] = S2[j], S2[i]
            b, ch = self.chain(S2, depth - 1, writable)
            return b, ch + [f":transpose({i + 1}, {j + 1})"]
        if op == "t":
            b, ch = self.chain([S[1], S[0]], depth - 1, writable)
            return b, ch + [":t()"]
        if op == "perm":
            # two transposes: a rotation of three dimensions or a swap back
            i, j = rng.sample(range(nd), 2)
            k = rng.randrange(nd)
            S1 = list(S)
            S1[j], S1[k] = S1[k], S1[j]
            S2 = list(S1)
            S2[i], S2[j] = S2[j], S2[i]
            b, ch = self.chain(S2, depth - 1, writable)
            return b, ch + [f":transpose({i + 1}, {j + 1}):transpose({j + 1}, {k + 1})"]
        if op == "narrow":
            d = rng.randrange(nd)
            extra = rng.choice([1, 2, 3])
            off = rng.randint(1, extra + 1)
            S2 = list(S)
            S2[d] += extra
            b, ch = self.chain(S2, depth - 1, writable)
            return b, ch + [f":narrow({d + 1}, {off}, {S[d]})"]
        if op == "select" and nd < 4:
            d = rng.randrange(nd + 1)
            m = rng.choice([1, 2, 3, 4])
            S2 = S[:d] + [m] + S[d:]
            b, ch = self.chain(S2, depth - 1, writable)
            return b, ch + [f":select({d + 1}, {rng.randint(1, m)})"]
        if op == "sub":
            S2, args = [], []
            for s in S:
                lo, hi = rng.choice([0, 0, 1, 2]), rng.choice([0, 1, 2])
                S2.append(s + lo + hi)
                args += [str(lo + 1), str(lo + s)]
            b, ch = self.chain(S2, depth - 1, writable)
            return b, ch + [f":sub({', '.join(args)})"]
        if op == "unfold" and nd >= 2:
            size = S[-1]
            d = rng.randrange(nd - 1)
            step = rng.choice([size, size + 1, 2] if writable else [1, 2, size, size + 1])
            step = max(step, 1)
            S2 = S[:-1]
            S2[d] = (S[d] - 1) * step + size
            if writable and step < size:
                step = size
                S2[d] = S[d] * size
            b, ch = self.chain(S2, depth - 1, writable)
            return b, ch + [f":unfold({d + 1}, {size}, {step})"]
        if op == "expand":
            S2 = [1 if s > 1 and rng.random() < 0.5 else s for s in S]
            if S2 == S:
                S2 = [1 if s > 1 else s for s in S]
            b, ch = self.chain(S2, depth - 1, writable)
            return b, ch + [f":expand({', '.join(map(str, S))})"]
        if op == "offset":
            off = rng.choice([1, 2, 3, 5])
            return [n + off + rng.choice([0, 2])], [f":narrow(1, {off + 1}, {n}):view({', '.join(map(str, S))})"]
        return S, []

    def view(self, T, S, kind=None, writable=False, depth=None):
        """a new local: a view of sizes S of a fresh base -> its name"""
        kind = kind or self.rng.choice(KINDS)
        depth = self.rng.choice([0, 1, 1, 2, 2, 3]) if depth is None else depth
        shape, ch = self.chain(list(S), depth, writable)
        b = self.base(T, shape, kind)
        x = self.name("x")
        self.lines.append(f"local {x} = {b}{''.join(ch)}")
        if any(":expand(" in m or (":unfold(" in m and overlaps(m)) for m in ch):
            self.overlapping.add(x)
        if any(":unfold(" in m and overlaps(m) for m in ch):
            self.unfolded.add(x)
        return x

    def body(self, call_lines, results):
        """the case: operands, the call, and the values to print (results,
        then every base)"""
        out = results + [b for b in self.bases if b not in results]
        return " ".join(self.lines + call_lines + [f"return {', '.join(out)}"])


def overlaps(call):
    """an unfold whose step is below its size"""
    _, size, step = (int(v) for v in call[call.index(":unfold(") + 8:].split(")")[0].split(","))
    return step < size


def shape(rng, nd=None, big=False):
    if big:
        return rng.choice([[300, 250], [70000], [40, 45, 40], [20, 30, 11, 11], [260, 270]])
    r = rng.random()
    if r < 0.07:
        return rng.choice([[40, 50], [300], [7, 9, 11], [16, 16, 4], [5, 6, 7, 8], [63, 65], [1000], [3, 700]])
    nd = nd or rng.choice([1, 1, 2, 2, 2, 3, 3, 4])
    return [rng.choice([1, 1, 2, 3, 4, 5, 6]) for _ in range(nd)]


def lua_sizes(S):
    return ", ".join(map(str, S))


def result_forms(c, f, x_args, S, T, RT=None, inplace=None, method_self=None):
    """The forms of an element-wise call torch.f(x, ...): new result,
    explicit result (fresh / resized / a view / aliasing an operand /
    overlapping), and method forms -> (call lines, values to return).
    x_args: the operands' names and numbers as Lua text, the first a tensor."""
    rng = c.rng
    RT = RT or T
    args = ", ".join(x_args)
    forms = ["new", "fresh", "resize", "view", "method_res"]
    if RT == T:
        forms += ["alias0", "alias_any", "overlap"]
    if inplace:
        forms += ["inplace", "inplace", "inplace"]
    form = rng.choice(forms)
    if form == "new":
        return [f"local r = torch.{f}({args})"], ["r"]
    if form == "fresh":
        return [f"local r = torch.{RT}Tensor({lua_sizes(S)}):fill(9)", f"local q = torch.{f}(r, {args})"], ["r", "q"]
    if form == "resize":
        other = rng.choice([[7], [2, 3], [1], [50, 3], []])
        ctor = f"torch.{RT}Tensor({lua_sizes(other)})" + (":fill(9)" if other else "")
        return [f"local r = {ctor}", f"local q = torch.{f}(r, {args})"], ["r", "q"]
    if form == "view":
        r = c.view(RT, S, "'pos'", writable=True)
        return [f"local q = torch.{f}({r}, {args})"], [r, "q"]
    if form == "method_res":
        r = c.view(RT, S, "'pos'", writable=True) if rng.random() < 0.5 else f"torch.{RT}Tensor()"
        if not r.startswith("x"):
            c.lines.append(f"local r = {r}")
            r = "r"
        return [f"local q = {r}:{f}({args})"], [r, "q"]
    if form == "alias0":
        return [f"local q = torch.{f}({x_args[0]}, {args})"], [x_args[0], "q"]
    if form == "alias_any":
        tensors = [a for a in x_args if a.startswith("x")]
        r = rng.choice(tensors)
        return [f"local q = torch.{f}({r}, {args})"], [r, "q"]
    if form == "overlap":
        # the first operand and r views of one storage, r one element on
        n = 1
        for s in S:
            n *= s
        bo = c.base(T, [n + 1], rng.choice(KINDS))
        ox, orr = (1, 2) if rng.random() < 0.5 else (2, 1)
        c.lines.append(f"local xo = {bo}:narrow(1, {ox}, {n}):view({lua_sizes(S)})")
        c.lines.append(f"local r = {bo}:narrow(1, {orr}, {n}):view({lua_sizes(S)})")
        args = ", ".join(["xo"] + x_args[1:])
        return [f"local q = torch.{f}(r, {args})"], ["r", "q"]
    # in place: x:f(rest)
    rest = ", ".join(x_args[1:])
    return [f"local q = {x_args[0]}:{f}({rest})"], [x_args[0], "q"]


def unary(c):
    rng, T = c.rng, c.T
    S = shape(rng, big=c.big)
    f = rng.choice(UNARY_ALL if T not in FLOATS else UNARY_ALL + UNARY_FLOAT * 3)
    if f == "square":
        f = "abs"
    x = c.view(T, S, writable=True)
    return result_forms(c, f, [x], S, T, inplace=True)


def by_number(c):
    rng, T = c.rng, c.T
    S = shape(rng, big=c.big)
    x = c.view(T, S, writable=True)
    r = rng.random()
    if r < 0.55:
        f = rng.choice(BYNUMBER)
        v = number(rng, T)
        if T in INTS and f in ("div", "fmod", "remainder") and v == "0":
            v = "3"   # the original dies of SIGFPE
        return result_forms(c, f, [x, v], S, T, inplace=True)
    if r < 0.7:
        a, b = sorted([number(rng, T), number(rng, T)], key=value)
        return result_forms(c, "clamp", [x, a, b], S, T, inplace=True)
    if r < 0.85 and T in INTS:
        f = rng.choice(BITS_N)
        return result_forms(c, f, [x, rng.choice(["0", "1", "3", "5", "7", "12"])], S, T, inplace=True)
    f = rng.choice(COMPARE)
    RT = rng.choice(["Byte", T])
    return result_forms(c, f, [x, number(rng, T)], S, T, RT=RT, inplace=RT == T or T == "Byte")


def other_shape(rng, S):
    """the same number of elements in another shape (Torch7 element-wise
    calls ask only for that)"""
    n = 1
    for s in S:
        n *= s
    return rng.choice([[n], [1, n], [n, 1]]) if n > 1 else [1]


def by_tensor(c):
    rng, T = c.rng, c.T
    S = shape(rng, big=c.big)
    x = c.view(T, S, writable=True)
    y = c.view(T, S if rng.random() < 0.9 else other_shape(rng, S), "'pos'" if rng.random() < 0.4 else None)
    r = rng.random()
    if r < 0.45:
        f = rng.choice(BYTENSOR)
        if f == "atan2" and T not in FLOATS:
            f = "cmul"
        if T in INTS and f in ("cdiv", "cfmod", "cremainder"):
            y = c.view(T, S, "'pos'")   # no zero divisor: the original dies of SIGFPE
        args = [x, y]
        if f in ("add", "csub") and rng.random() < 0.4:
            args = [x, number(rng, T), y]
        return result_forms(c, f, args, S, T, inplace=True)
    if r < 0.6 and T in INTS:
        f = rng.choice(BITS_T)
        return result_forms(c, f, [x, y], S, T, inplace=True)
    if r < 0.75:
        f = rng.choice(COMPARE)
        RT = rng.choice(["Byte", T])
        return result_forms(c, f, [x, y], S, T, RT=RT, inplace=RT == T or T == "Byte")
    if r < 0.9:
        z = c.view(T, S, "'pos'")
        f = rng.choice(["addcmul", "addcdiv", "lerp"] if T in FLOATS else ["addcmul", "addcdiv"])
        if f == "lerp":
            return result_forms(c, f, [x, y, rng.choice(["0.25", "0.5", "2", "-1"])], S, T, inplace=True)
        return result_forms(c, f, [x, number(rng, T), y, z] if rng.random() < 0.7 else [x, y, z], S, T,
                            inplace=True)
    f = rng.choice(["dist", "dot", "equal"])
    if f == "dist":
        return [f"local q = torch.dist({x}, {y}{rng.choice(['', ', 1', ', 3', ', 0.5'])})"], ["q"]
    if f == "dot":
        return [f"local q = torch.dot({x}, {y})"], ["q"]
    return [f"local q = {x}:equal({y})"], ["q"]


def fill_copy(c):
    rng, T = c.rng, c.T
    S = shape(rng, big=c.big)
    x = c.view(T, S, writable=True)
    r = rng.random()
    if r < 0.25:
        return [f"local q = {x}:fill({number(rng, T)})"], [x, "q"]
    if r < 0.35:
        return [f"local q = {x}:zero()"], [x, "q"]
    T2 = rng.choice(TYPES)
    y = c.view(T2, S if rng.random() < 0.8 else other_shape(rng, S))
    if r < 0.85:
        return [f"local q = {x}:copy({y})"], [x, "q"]
    # map / type conversions of a view
    return [f"local q = {y}:type('torch.{T}Tensor')"], ["q"]


def reduction(c):
    rng, T = c.rng, c.T
    S = shape(rng, big=c.big)
    x = c.view(T, S)
    nd = len(S)
    d = rng.randint(1, nd) if rng.random() < 0.93 else rng.choice([0, nd + 1])
    f = rng.choice(["sum", "prod", "mean", "max", "min", "cumsum", "cumprod", "std", "var", "norm",
                    "median", "mode", "kthvalue", "topk", "sort", "all", "any", "max", "min", "sum"])
    if f in ("all", "any"):
        b = c.view("Byte", S, "'bin'")
        return [f"local q = {b}:{f}()"], ["q"]
    if f in ("max", "min", "median", "mode", "kthvalue", "sort", "topk"):
        extra = ""
        if f == "kthvalue":
            extra = f"{rng.randint(1, S[d - 1] if 0 < d <= nd else 1)}, "
        if f == "topk":
            extra = f"{rng.randint(1, S[d - 1] if 0 < d <= nd else 1)}, "
        tail = ""
        if f == "sort":
            tail = rng.choice(["", ", true", ", false"])
        if f == "topk":
            tail = rng.choice(["", ", true", ", false, false", ", true, true", ", false, true"])
        form = rng.random()
        if form < 0.15 and f in ("max", "min", "median"):
            return [f"local q = torch.{f}({x})"], ["q"]
        if form < 0.35 and f == "sort":
            return [f"local v, i = torch.sort({x}{tail})"], ["v", "i"]
        if form < 0.55:
            return [f"local v, i = torch.{f}({x}, {extra}{d}{tail})"], ["v", "i"]
        if form < 0.85:
            # explicit results: fresh, resized, views
            sz = list(S)
            if 0 < d <= nd and f not in ("sort", "topk"):
                sz[d - 1] = 1
            if rng.random() < 0.5:
                vv = c.view(T, sz, "'pos'", writable=True)
                ii = c.view("Long", sz, "'pos'", writable=True)
            else:
                c.lines.append(f"local v0 = torch.{T}Tensor({rng.choice(['', '3', '2, 2'])})")
                c.lines.append(f"local i0 = torch.LongTensor({rng.choice(['', '5'])})")
                vv, ii = "v0", "i0"
            call = [f"local v, i = torch.{f}({vv}, {ii}, {x}, {extra}{d}{tail})"]
            if f in ("sort", "topk") and 0 < d <= nd:
                # (whether the two results step differently along dim: see KNOWN)
                call.append(f"local steps = {vv}:dim() == {ii}:dim() and {vv}:dim() >= {d} and "
                            f"{vv}:stride({d}) ~= {ii}:stride({d}) and {vv}:size({d}) > 1 and 'STEPS' or ''")
                return call, ["steps", vv, ii, "v", "i"]
            return call, [vv, ii, "v", "i"]
        return [f"local v, i = {x}:{f}({extra}{d}{tail})"], ["v", "i"]
    if f == "norm":
        p = rng.choice(["1", "2", "3", "0.5", "0", "1/0"])
        if rng.random() < 0.4:
            return [f"local q = torch.norm({x}, {p})"], ["q"]
        if rng.random() < 0.5:
            r = c.view(T, S, "'pos'", writable=True)
            return [f"local q = torch.norm({r}, {x}, {p}, {d})"], [r, "q"]
        return [f"local q = torch.norm({x}, {p}, {d})"], ["q"]
    flag = ""
    if f in ("std", "var"):
        flag = rng.choice(["", ", true", ", false"])
    form = rng.random()
    if form < 0.25 and f not in ("cumsum", "cumprod"):
        return [f"local q = torch.{f}({x}{flag if f in ('std', 'var') and not flag else ''})"], ["q"]
    if form < 0.5:
        return [f"local q = torch.{f}({x}, {d}{flag})"], ["q"]
    if form < 0.85:
        sz = list(S)
        if 0 < d <= nd and f not in ("cumsum", "cumprod"):
            sz[d - 1] = 1
        if rng.random() < 0.3 and f in ("cumsum", "cumprod"):
            # in place: the result is the operand
            w = c.view(T, S, writable=True)
            return [f"local q = torch.{f}({w}, {w}, {d})"], [w, "q"]
        r = c.view(T, sz, "'pos'", writable=True) if rng.random() < 0.6 else f"torch.{T}Tensor({rng.choice(['', '4', '2, 3'])})"
        if not r.startswith("x"):
            c.lines.append(f"local r = {r}")
            r = "r"
        return [f"local q = torch.{f}({r}, {x}, {d}{flag})"], [r, "q"]
    return [f"local q = {x}:{f}({d}{flag})"], ["q"]


def blas(c):
    rng, T = c.rng, c.T
    dims = lambda: rng.choice([1, 1, 2, 3, 4, 5, 6, 9, 17, 33] if not c.big else [100, 250, 300])  # noqa: E731
    a, b, k = dims(), dims(), dims()
    beta, alpha = number(rng, T) if rng.random() < 0.4 else "1", number(rng, T) if rng.random() < 0.4 else "1"
    f = rng.choice(["mm", "mv", "addmm", "addmv", "addr", "bmm", "baddbmm", "dot", "ger", "addbmm"])
    form = rng.random()

    def res(S, name):
        """an explicit result: fresh, resized or a view"""
        r = rng.random()
        if r < 0.4:
            return c.view(T, S, "'pos'", writable=True)
        c.lines.append(f"local {name} = torch.{T}Tensor({rng.choice(['', '3', lua_sizes(S)])})")
        return name

    if f == "dot":
        x, y = c.view(T, [k]), c.view(T, [k])
        return [f"local q = torch.dot({x}, {y})"], ["q"]
    if f in ("mm", "addmm"):
        A, B = c.view(T, [a, k]), c.view(T, [k, b])
        if f == "mm":
            if form < 0.4:
                return [f"local q = torch.mm({A}, {B})"], ["q"]
            r = res([a, b], "r")
            if form < 0.8:
                return [f"local q = torch.mm({r}, {A}, {B})"], [r, "q"]
            return [f"local q = {r}:mm({A}, {B})"], [r, "q"]
        C = c.view(T, [a, b], writable=True)
        if form < 0.3:
            return [f"local q = torch.addmm({beta}, {C}, {alpha}, {A}, {B})"], ["q"]
        if form < 0.6:
            return [f"local q = {C}:addmm({beta}, {alpha}, {A}, {B})"], [C, "q"]
        if form < 0.7 and a == k == b:
            # the result is also a factor
            return [f"local q = {C}:addmm({A}, {C})"], [C, "q"]
        r = res([a, b], "r")
        return [f"local q = torch.addmm({r}, {beta}, {C}, {alpha}, {A}, {B})"], [r, "q"]
    if f in ("mv", "addmv"):
        A, v = c.view(T, [a, k]), c.view(T, [k])
        if f == "mv":
            if form < 0.5:
                return [f"local q = torch.mv({A}, {v})"], ["q"]
            r = res([a], "r")
            return [f"local q = torch.mv({r}, {A}, {v})"], [r, "q"]
        y = c.view(T, [a], writable=True)
        if form < 0.3:
            return [f"local q = torch.addmv({beta}, {y}, {alpha}, {A}, {v})"], ["q"]
        if form < 0.7:
            return [f"local q = {y}:addmv({beta}, {alpha}, {A}, {v})"], [y, "q"]
        r = res([a], "r")
        return [f"local q = torch.addmv({r}, {beta}, {y}, {alpha}, {A}, {v})"], [r, "q"]
    if f in ("addr", "ger"):
        u, v = c.view(T, [a]), c.view(T, [b])
        if f == "ger":
            if form < 0.5:
                return [f"local q = torch.ger({u}, {v})"], ["q"]
            r = res([a, b], "r")
            return [f"local q = torch.ger({r}, {u}, {v})"], [r, "q"]
        M = c.view(T, [a, b], writable=True)
        if form < 0.3:
            return [f"local q = torch.addr({beta}, {M}, {alpha}, {u}, {v})"], ["q"]
        if form < 0.7:
            return [f"local q = {M}:addr({beta}, {alpha}, {u}, {v})"], [M, "q"]
        r = res([a, b], "r")
        return [f"local q = torch.addr({r}, {beta}, {M}, {alpha}, {u}, {v})"], [r, "q"]
    n = rng.choice([1, 2, 3])
    a, b, k = min(a, 9), min(b, 9), min(k, 9)
    A, B = c.view(T, [n, a, k]), c.view(T, [n, k, b])
    if f == "bmm":
        if form < 0.5:
            return [f"local q = torch.bmm({A}, {B})"], ["q"]
        r = res([n, a, b], "r")
        return [f"local q = torch.bmm({r}, {A}, {B})"], [r, "q"]
    if f == "addbmm":
        M = c.view(T, [a, b], writable=True)
        if form < 0.5:
            return [f"local q = torch.addbmm({beta}, {M}, {alpha}, {A}, {B})"], ["q"]
        return [f"local q = {M}:addbmm({beta}, {alpha}, {A}, {B})"], [M, "q"]
    M = c.view(T, [n, a, b], writable=True)
    if form < 0.3:
        return [f"local q = torch.baddbmm({beta}, {M}, {alpha}, {A}, {B})"], ["q"]
    if form < 0.7:
        return [f"local q = {M}:baddbmm({beta}, {alpha}, {A}, {B})"], [M, "q"]
    r = res([n, a, b], "r")
    return [f"local q = torch.baddbmm({r}, {beta}, {M}, {alpha}, {A}, {B})"], [r, "q"]


def index_family(c):
    rng, T = c.rng, c.T
    S = shape(rng, big=c.big and rng.random() < 0.5)
    nd = len(S)
    d = rng.randint(1, nd)
    x = c.view(T, S, writable=True)
    f = rng.choice(["index", "gather", "scatter", "indexAdd", "indexCopy", "indexFill", "maskedSelect",
                    "maskedFill", "maskedCopy", "index", "gather", "scatter"])
    m = rng.choice([1, 2, 3, 5])
    if f == "index":
        idx = f"ix({{{m}}}, {S[d - 1]}, {rng.choice([3, 5, 7])})"
        form = rng.random()
        if form < 0.5:
            return [f"local q = {x}:index({d}, {idx})"], ["q"]
        sz = list(S)
        sz[d - 1] = m
        r = c.view(T, sz, "'pos'", writable=True) if rng.random() < 0.5 else f"torch.{T}Tensor()"
        if not r.startswith("x"):
            c.lines.append(f"local r = {r}")
            r = "r"
        return [f"local q = torch.index({r}, {x}, {d}, {idx})"], [r, "q"]
    if f in ("gather", "scatter"):
        isz = [rng.randint(1, s) for s in S]
        isz[d - 1] = rng.choice([1, 2, 3, S[d - 1]])
        ib = c.name("ib")
        c.lines.append(f"local {ib} = ix({{{lua_sizes(isz)}}}, {S[d - 1]}, {rng.choice([3, 5, 7])})")
        iv = c.name("iv")
        c.lines.append(f"local {iv} = {ib}" + (":t():contiguous():t()" if nd == 2 and rng.random() < 0.4 else ""))
        if f == "gather":
            if rng.random() < 0.5:
                return [f"local q = {x}:gather({d}, {iv})"], ["q"]
            r = c.view(T, isz, "'pos'", writable=True)
            return [f"local q = torch.gather({r}, {x}, {d}, {iv})"], [r, "q"]
        if rng.random() < 0.4:
            return [f"local q = {x}:scatter({d}, {iv}, {number(rng, T)})"], [x, "q"]
        ssz = isz if rng.random() < 0.7 else S
        src = c.view(T, ssz, "'pos'")
        mark = "--[[short-src]] " if ssz[d - 1] < isz[d - 1] else ""
        return [f"{mark}local q = {x}:scatter({d}, {iv}, {src})"], [x, "q"]
    if f in ("indexAdd", "indexCopy", "indexFill"):
        seed = rng.choice([3, 5, 7])
        idx = f"ix({{{m}}}, {S[d - 1]}, {seed})"
        if f == "indexFill":
            return [f"local q = {x}:indexFill({d}, {idx}, {number(rng, T)})"], [x, "q"]
        sz = list(S)
        sz[d - 1] = m
        src = c.view(T, sz, "'pos'")
        return [f"local q = {x}:{f}({d}, {idx}, {src})"], [x, "q"]
    mask = c.view("Byte", S if rng.random() < 0.9 else other_shape(rng, S), "'bin'")
    if f == "maskedSelect":
        if rng.random() < 0.5:
            return [f"local q = {x}:maskedSelect({mask})"], ["q"]
        c.lines.append(f"local r = torch.{T}Tensor({rng.choice(['', '2', '2, 3'])})")
        return [f"local q = torch.maskedSelect(r, {x}, {mask})"], ["r", "q"]
    if f == "maskedFill":
        return [f"local q = {x}:maskedFill({mask}, {number(rng, T)})"], [x, "q"]
    n = 1
    for s in S:
        n *= s
    src = c.view(T, rng.choice([S, [n], [n + 3]]), "'pos'")
    return [f"local q = {x}:maskedCopy({mask}, {src})"], [x, "q"]


def small_cases(c):
    """zero-size, one-element and expanded operands"""
    rng, T = c.rng, c.T
    kind = rng.choice(["empty", "one", "expand"])
    if kind == "empty":
        f = rng.choice(["add", "mul", "cmul", "sum", "fill", "copy", "abs", "max", "cumsum", "maskedSelect"])
        e = f"torch.{T}Tensor()"
        return [{
            "add": f"local q = torch.add({e}, 1)", "mul": f"local q = {e}:mul(2)",
            "cmul": f"local q = torch.cmul({e}, {e})", "sum": f"local q = torch.sum({e})",
            "fill": f"local q = {e}:fill(3)", "copy": f"local q = {e}:copy({e})",
            "abs": f"local q = torch.abs({e})", "max": f"local q = torch.max({e})",
            "cumsum": f"local q = torch.cumsum({e})", "maskedSelect": f"local q = {e}:maskedSelect(torch.ByteTensor())",
        }[f]], ["q"]
    if kind == "one":
        x = c.view(T, [1] * rng.randint(1, 3), writable=True)
        f = rng.choice(["add", "cmul", "sum", "max", "prod", "cumprod", "sort", "mm"])
        return [{
            "add": f"local q = torch.add({x}, {x}, 3)", "cmul": f"local q = {x}:cmul({x})",
            "sum": f"local q = {x}:sum()", "max": f"local q, i = torch.max({x}, 1)",
            "prod": f"local q = torch.prod({x}, 1)", "cumprod": f"local q = {x}:cumprod(1)",
            "sort": f"local q, i = {x}:sort(1)", "mm": f"local q = torch.mm({x}:view(1, 1), {x}:view(1, 1))",
        }[f]], [x, "q"]
    S = [rng.choice([2, 3, 4]) for _ in range(rng.randint(1, 3))]
    b = c.base(T, [1] * len(S), "'mix'")
    x = c.name("x")
    c.lines.append(f"local {x} = {b}:expand({lua_sizes(S)})")
    y = c.view(T, S)
    f = rng.choice(["add", "cmul", "sum", "fill", "copy", "cumsum", "sort", "clone", "contiguous", "addcmul"])
    return [{
        "add": f"local q = torch.add({x}, {y})", "cmul": f"local q = torch.cmul({y}, {x})",
        "sum": f"local q = torch.sum({x}, {len(S)})", "fill": f"local q = {x}:fill(4)",
        "copy": f"local q = {x}:copy({y})", "cumsum": f"local q = torch.cumsum({x}, 1)",
        "sort": f"local q, i = torch.sort({x}, 1)", "clone": f"local q = {x}:clone()",
        "contiguous": f"local q = {x}:contiguous()", "addcmul": f"local q = torch.addcmul({y}, 2, {x}, {x})",
    }[f]], [x, "q"]


FAMILIES = [(unary, 12), (by_number, 16), (by_tensor, 20), (fill_copy, 8), (reduction, 20), (blas, 10),
            (index_family, 10), (small_cases, 4)]


def case(rng, k, big_ok=True):
    T = rng.choice(TYPES)
    big = big_ok and rng.random() < 0.006
    c = Case(rng, T, big)
    fam = rng.choices([f for f, _ in FAMILIES], [w for _, w in FAMILIES])[0]
    if big and fam in (small_cases,):
        fam = by_tensor
    call_lines, results = fam(c)
    body = c.body(call_lines, results)
    if fam is blas and c.overlapping:
        body = "--[[blas-overlap]] " + body
    if fam is reduction and c.overlapping & set(results) or c.unfolded & set(results):
        body = "--[[overlapping-result]] " + body
    return body


def zeroed_past_view(body, want, have):
    """A product into a result view with a dimension of size 1: the
    original zeroed it first with its `zero` of such views, which wrote the
    next elements of the storage instead of the view's (README): what both
    print agrees but for the bases (the `return`'s b1, b2...), where the
    original's differing elements are 0."""
    names = re.search(r"return (.*)$", body)
    if not re.search(r"(mm|mv|addr|ger)\(", body) or not names:
        return False
    bases = {i for i, name in enumerate(names.group(1).split(", ")) if re.fullmatch(r"b\d+", name)}
    wparts, hparts = want.split(" | "), have.split(" | ")
    if len(wparts) != len(hparts):
        return False
    differing = [i for i, (w, h) in enumerate(zip(wparts, hparts)) if w != h]
    if not differing or not set(differing) <= bases:
        return False
    for i in differing:
        w, h = wparts[i].split(), hparts[i].split()
        values = [(a, b) for a, b in zip(w[3:], h[3:]) if "=" not in a]
        if len(w) != len(h) or w[:3] != h[:3] or any(a != b and a != "0" for a, b in values):
            return False
    return True


# differences that are the original's, counted apart: (name, test on a case)
KNOWN = [
    # a result overlapping its operand one element on: what the original
    # read depends on its loop (SIMD blocks of 8, or element by element)
    ("overlap", lambda body, want, have: "local xo = " in body),
    # a matrix operand whose rows overlap (unfold) or repeat (expand): the
    # original's BLAS (sgemm) refuses its leading dimension ("On entry to
    # SGEMM parameter number 8 had an illegal value") and leaves the result
    ("blas-overlap", lambda body, want, have: body.startswith("--[[blas-overlap]]")),
    # sort, max... into a result whose elements share memory, or an
    # element-wise result whose rows overlap (unfold): written in the
    # original's order over its own earlier writes (th orders the writes of
    # an expanded element-wise result as the original did, not these)
    ("overlapping-result", lambda body, want, have: body.startswith("--[[overlapping-result]]")),
    # sort (topk) into a values result and an indices result of different
    # strides along dim: the original's quicksort stepped the indices by the
    # values' stride (indices out of range, written outside the view; past
    # its storage it can overwrite the indices tensor itself, which the
    # original then reports empty: th's own STEPS says so)
    ("sort-strides", lambda body, want, have: want.startswith("ok STEPS ") or have.startswith("ok STEPS ")),
    # scatter of a source shorter along dim than the index: the original read
    # past the source's end (th: an error)
    ("short-src", lambda body, want, have: "--[[short-src]]" in body),
    ("zeroed-past-view", zeroed_past_view),
    # max/min of all the elements of a view that is not one line of memory,
    # holding a NaN: the original's loop, left at the NaN, walks on past the
    # view (values from memory around it, or a segfault); th gives the NaN
    ("extreme-nan", lambda body, want, have: have.startswith("ok nan |") and "'nan')" in body
     and any(f in body for f in ("torch.max(x", "torch.min(x"))),
]


def main():
    args = arguments(calls=2000)
    rng = random.Random(args.seed)
    big_ok = os.environ.get("FUZZ_VIEWS_BIG", "1") != "0"
    calls = [case(rng, k, big_ok) for k in range(args.calls)]
    mismatches, th_failures, ref_failures = differences(calls, args.th, args.ref, args.batch, args.timeout,
                                                        PRELUDE)
    report(calls, unexplained(mismatches, KNOWN), th_failures, ref_failures, args.show)


if __name__ == "__main__":
    main()
