"""Differential fuzz of Torch7's construction and shape functions.

Random cases, one family each: cat (two tensors or a table, dimension given,
omitted, past the last, negative; empty tensors among them, mixed types,
sizes that disagree), range (integer and fractional steps, negative, 0, ends
not reached, huge counts), linspace/logspace (n = 0, 1, 2, large; equal ends;
integer types), eye, zeros/ones/rand with sizes as numbers, a LongStorage or
a table, diag (1-D to 2-D with k, 2-D to 1-D), tril/triu with k, trace, histc
(bins, min = max meaning the data's range, values outside, NaN, integer
types), reshape, repeatTensor, squeeze, split/chunk, expand/expandAs,
view/viewAs with -1, transpose/permute, narrow/select/sub/unfold argument
edges, nonzero, totable, torch.Tensor(table) of nested, ragged, empty tables,
numeric strings and booleans, and torch.Tensor(storage, offset, sizes,
strides) -- on the seven types, as functions `torch.f(...)`, as methods, and
into given results (fresh, resized from other sizes, a view of another
tensor, an operand itself).

Each case prints, for every value returned and every given result after the
call, its type, sizes, strides, storage offset and values exactly (%.17g),
or the error's message without its `file:line: `.  Uses fuzz_diff.py's runner
(batches; a crash or hang resumes after the case); differences that are the
original's are counted apart (KNOWN).

    python scripts/fuzz_construct.py --calls 2000 --seed 1 \\
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th [--show 30]
"""
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import SHARED_LUA, arguments, differences, report, unexplained  # noqa: E402

PRELUDE = SHARED_LUA + r"""
io.stdout:setvbuf('line')   -- the original may die on a case: keep what came before
local function num(v)
   if v ~= v then return 'nan' end
   if v == math.floor(v) and math.abs(v) < 2^63 then return string.format('%d', v) end
   return string.format('%.17g', v)
end
-- dig(t): type, sizes, strides, offset and values, read through the strides
local function dig(t)
   local parts = {heading(t)}
   if t:dim() == 0 then return parts[1] end
   parts[2] = 'o' .. t:storageOffset()
   local sum = 0
   walk(t, function(k, v)
      if k <= 48 then parts[#parts + 1] = num(v) end
      sum = sum + v * ((k * 31) % 13 + 1)
   end)
   if t:nElement() > 48 then parts[#parts + 1] = 'sum=' .. num(sum) end
   return table.concat(parts, ' ')
end
local function repr(r, depth)
   depth = depth or 0
   if torch.isTensor(r) then return dig(r)
   elseif torch.isStorage(r) then
      local parts = {torch.type(r), '#' .. r:size()}
      for i = 1, math.min(r:size(), 24) do parts[#parts + 1] = num(r[i]) end
      return table.concat(parts, ' ')
   elseif type(r) == 'number' then return num(r)
   elseif type(r) == 'string' then return string.format('%q', r)
   elseif type(r) == 'table' and depth < 6 then
      local parts = {}
      for i = 1, table.maxn(r) do parts[i] = repr(r[i], depth + 1) end
      return '{' .. table.concat(parts, '; ') .. '}'
   end
   return type(r)
end
-- mk(T, sizes, kind): a fresh contiguous tensor, its values from a formula
function mk(T, sizes, kind)
   local fl = T == 'Double' or T == 'Float'
   return filled(T, sizes, function(i)
      local v
      if kind == 'pos' then v = (i * 7) % 11 + 1
      elseif kind == 'frac' and fl then v = ((i * 37) % 19) * 0.25 - 2
      elseif kind == 'zero' then v = (i % 3 == 0) and ((i * 3) % 5 - 2) or 0
      elseif kind == 'nan' and fl then
         local k = i % 5
         v = k == 0 and 0 / 0 or k == 3 and 1 / 0 or ((i * 37) % 19) * 0.5 - 4
      else v = (i * 7) % 11 - 5 end
      if T == 'Byte' and v < 0 then v = -v end
      return v
   end)
end
local function clean(m)
   m = tostring(m)
   m = m:gsub('[^%s]*%.lua:%d+: ', ''):gsub('%[string "[^"]*"%]:%d+: ', ''):gsub(' at /%S+:%d+', '')
   return (m:gsub('\n', '|'))
end
-- show(i, f): the digests of what f returned and of the tensors f named as
-- given results (G, after the call), or the error's message
function show(i, f)
   G = {}
   local res = {pcall(f)}
   if not res[1] then print(i .. ' error ' .. clean(res[2])) return end
   local parts = {}
   for k = 2, table.maxn(res) do parts[#parts + 1] = repr(res[k]) end
   for k = 1, #G do parts[#parts + 1] = 'G' .. k .. ' ' .. repr(G[k]) end
   print(i .. ' ok ' .. table.concat(parts, ' | '))
end
-- given(t): t, recorded as a given result to print after the call
function given(t) G[#G + 1] = t; return t end
"""

TYPES = ["Double", "Float", "Long", "Int", "Short", "Char", "Byte"]
FLOATS = ["Double", "Float"]
KINDS = ["'mix'", "'pos'", "'frac'", "'zero'", "'nan'"]


def lua_list(xs):
    return "{" + ", ".join(map(str, xs)) + "}"


def shape(rng, lo=1, hi=4, nd=None):
    nd = nd if nd is not None else rng.choice([1, 1, 2, 2, 2, 3])
    return [rng.randint(lo, hi) for _ in range(nd)]


def mk(rng, T, S, kind=None):
    return f"mk('{T}', {lua_list(S)}, {kind or rng.choice(KINDS)})"


def operand(rng, T, S, kind=None):
    """a tensor of sizes S: fresh, or a view (transposed, narrowed, selected)"""
    k = rng.random()
    nd = len(S)
    if k < 0.55:
        return mk(rng, T, S, kind)
    if k < 0.72 and nd >= 2:
        B = [S[-1]] + S[1:-1] + [S[0]]
        return f"{mk(rng, T, B, kind)}:transpose(1, {nd})"
    if k < 0.88:
        B = S[:-1] + [S[-1] + 2]
        return f"{mk(rng, T, B, kind)}:narrow({nd}, 2, {S[-1]})"
    return f"{mk(rng, T, [2] + S, kind)}:select(1, 2)"


def bigger(rng, S):
    """S, or now and then sizes past th's small-tensor loops (64 elements)"""
    if rng.random() < 0.12:
        return [s * rng.choice([4, 7, 11]) for s in S]
    return S


def result(rng, T, operand=None):
    """a given result: fresh, of other sizes (resized), a view of another
    tensor, or an operand -> its Lua expression wrapped in given()"""
    k = rng.random()
    if operand and k < 0.12:
        return f"given({operand})"
    if rng.random() < 0.04:
        T = rng.choice(TYPES)   # (another type: the original's type errors)
    if k < 0.4:
        return f"given(torch.{T}Tensor())"
    if k < 0.7:
        return f"given({mk(rng, T, shape(rng, 1, 5))})"
    if k < 0.85:
        S = shape(rng, 2, 4, rng.choice([2, 3]))
        return f"given({mk(rng, T, S)}:transpose(1, {len(S)}))"
    S = shape(rng, 3, 6, 2)
    return f"given({mk(rng, T, S)}:narrow(2, 2, {S[1] - 2}))"


def vary(rng, T, fname, args, operand=None, method_self=None):
    """torch.f(args), torch.f(r, args), r:f(args) or self:f(args)"""
    k = rng.random()
    a = ", ".join(args)
    if k < 0.45:
        return f"return torch.{fname}({a})"
    r = result(rng, T, operand)
    if k < 0.8:
        return f"return torch.{fname}({r}{', ' if a else ''}{a})"
    if method_self is not None and k < 0.9:
        return f"return {method_self}:{fname}({a})"
    return f"return {r}:{fname}({a})"


NUMS = ["0", "1", "2", "3", "-1", "-2", "0.5", "1.5", "-0.5", "2.5", "10", "-3", "7", "0.1", "1e-3", "-7.25"]


def cat(rng, T):
    nd = rng.choice([1, 2, 2, 3])
    S = bigger(rng, shape(rng, 1, 3, nd))
    d = rng.randint(1, nd + 1) if rng.random() < 0.85 else rng.choice([0, -1, nd + 2, 1.5, "'2'"])
    parts = []
    for _ in range(rng.choice([1, 2, 2, 2, 3, 4])):
        P = list(S)
        r = rng.random()
        if r < 0.1:
            parts.append(f"torch.{T}Tensor()")
            continue
        if isinstance(d, int) and 1 <= d <= nd:
            P[d - 1] = rng.randint(1, 3)
        elif isinstance(d, int) and d == nd + 1 and len(P) < 4:
            pass
        if r < 0.18:
            P = shape(rng, 1, 3)   # sizes that may disagree
        T2 = T if rng.random() < 0.85 else rng.choice(TYPES)
        parts.append(operand(rng, T2, P))
    dim = [] if rng.random() < 0.3 else [str(d)]
    if len(parts) == 2 and rng.random() < 0.5:
        args = parts + dim
    else:
        args = ["{" + ", ".join(parts) + "}"] + dim
    op = parts[0] if not parts[0].startswith("torch.") else None
    if rng.random() < 0.1:
        # the result is one of the parts
        return (f"local a = {parts[0]}; G[1] = a; return torch.cat(a, "
                + ", ".join(["{a" + "".join(", " + p for p in parts[1:]) + "}"] + dim) + ")")
    return vary(rng, T, "cat", args, op)


def range_(rng, T):
    a, b = rng.choice(NUMS), rng.choice(NUMS)
    step = rng.choice(NUMS + ["0", "-1", "0.3", "-0.3", "1/3"])
    k = rng.random()
    if k < 0.05:
        a, b, step = "0", rng.choice(["1e12", "2^40", "1e18"]), rng.choice(["1", "1e-3"])
    elif k < 0.1:
        a, b, step = rng.choice(["0", "1"]), rng.choice(["0.9999999999", "1.0000000001", "3.0000001"]), "1"
    args = [a, b] if rng.random() < 0.3 else [a, b, step]
    if rng.random() < 0.15:
        # a result of as many elements in other sizes (range of integers)
        lo, n = rng.randint(-3, 3), rng.choice([1, 2, 3, 4, 6])
        up = rng.choice([True, False])
        return (f"return torch.range({same_count(rng, T, n)}, {lo}, {lo + n - 1 if up else lo - n + 1}, "
                f"{1 if up else -1})")
    if rng.random() < 0.3:
        args = [f"torch.{T}Tensor()"] + args
        return f"return torch.range({', '.join(args)})"
    return vary(rng, T, "range", args)


def spaces(rng, T):
    f = rng.choice(["linspace", "logspace"])
    a, b = rng.choice(NUMS), rng.choice(NUMS)
    if rng.random() < 0.15:
        b = a
    n = rng.choice(["0", "1", "2", "3", "5", "10", "-1", "2.5", "100", "1000"])
    args = [a, b] if rng.random() < 0.1 else [a, b, n]
    Tr = T if rng.random() < 0.6 else rng.choice(FLOATS)
    if len(args) == 3 and n.isdigit() and int(n) in (1, 2, 3, 10, 100) and rng.random() < 0.3:
        # a result holding n elements in other sizes, a view too (kept as it is)
        return f"return torch.{f}({same_count(rng, Tr, int(n))}, {', '.join(args)})"
    return vary(rng, Tr, f, args)


def same_count(rng, T, n):
    """a given result of n elements in more dimensions, maybe a view"""
    S = rng.choice([[1, n], [n, 1], [1, 1, n]] + ([[2, n // 2], [n // 2, 2]] if n % 2 == 0 else []))
    k = rng.random()
    if k < 0.5:
        return f"given({mk(rng, T, S)})"
    if k < 0.75 and len(S) == 2:
        return f"given({mk(rng, T, S[::-1])}:t())"
    return f"given({mk(rng, T, S[:-1] + [S[-1] + 2])}:narrow({len(S)}, 2, {S[-1]}))"


def eye(rng, T):
    n, m = rng.choice(["0", "1", "2", "3", "4", "-1", "2.5"]), rng.choice(["1", "2", "3", "5", "0"])
    args = [n] if rng.random() < 0.4 else [n, m]
    if rng.random() < 0.1:
        args = [f"torch.LongStorage{{{n}, {m}}}"]
    return vary(rng, T, "eye", args)


def sized(rng, T):
    f = rng.choice(["zeros", "ones", "zeros", "ones", "rand", "randn"])
    S = shape(rng, 0 if rng.random() < 0.1 else 1, 4)
    k = rng.random()
    if k < 0.5:
        args = [str(s) for s in S]
    elif k < 0.8:
        args = [f"torch.LongStorage({lua_list(S)})"]
    elif k < 0.9:
        args = [lua_list(S)]
    else:
        args = [rng.choice(["-1", "2.5", "'3'", "nil", "true"]), "2"]
    Tr = T if f in ("zeros", "ones") else rng.choice(FLOATS)
    pre = "torch.manualSeed(7); " if f in ("rand", "randn") else ""
    return pre + vary(rng, Tr, f, args)


def diag(rng, T):
    k = rng.choice(["", "", "1", "-1", "2", "-2", "5", "-5", "0"])
    S = bigger(rng, shape(rng, 1, 4, rng.choice([1, 1, 2, 2, 3])))
    x = operand(rng, T, S)
    args = [x] + ([k] if k else [])
    return vary(rng, T, "diag", args, x, x if k == "" else None)


def tri(rng, T):
    f = rng.choice(["tril", "triu"])
    k = rng.choice(["", "1", "-1", "2", "-3", "0", "10", "-10", "1.5"])
    S = bigger(rng, shape(rng, 1, 5, rng.choice([2, 2, 2, 1, 3])))
    x = operand(rng, T, S)
    args = [x] + ([k] if k else [])
    if rng.random() < 0.15:
        return f"local x = {x}; G[1] = x; return torch.{f}(x, x{', ' + k if k else ''})"
    return vary(rng, T, f, args, x)


def trace(rng, T):
    S = bigger(rng, shape(rng, 1, 5, rng.choice([2, 2, 1, 3])))
    x = operand(rng, T, S)
    return rng.choice([f"return torch.trace({x})", f"return {x}:trace()"])


def histc(rng, T):
    if rng.random() < 0.75:
        T = rng.choice(FLOATS)   # (the integer types have none: an error)
    S = bigger(rng, shape(rng, 1, 6))
    x = operand(rng, T, S, rng.choice(KINDS))
    bins = rng.choice(["", "1", "2", "3", "5", "10", "0", "-1", "2.5"])
    lo, hi = rng.choice(["0", "-2", "1", "-10", "3"]), rng.choice(["0", "2", "5", "1", "-1", "100"])
    args = [x]
    if bins:
        args.append(bins)
        if rng.random() < 0.7:
            args += [lo, hi]
    return vary(rng, T, rng.choice(["histc", "histc", "histc", "bhistc"]), args, None, x)


def reshape(rng, T):
    S = bigger(rng, shape(rng, 1, 4))
    n = math.prod(S)
    to = rng.choice([[n], [1, n], [n, 1], list(reversed(S)), [-1], [n, -1], [2, -1], [n + 1],
                     [-1, -1], [0], [2, n // 2 if n % 2 == 0 else n]])
    x = operand(rng, T, S)
    args = [x] + [str(v) for v in to] if rng.random() < 0.7 else [x, f"torch.LongStorage({lua_list(to)})"]
    return vary(rng, T, "reshape", args, x)


def repeat(rng, T):
    S = bigger(rng, shape(rng, 1, 3))
    x = operand(rng, T, S)
    rep = [rng.choice([1, 2, 3]) for _ in range(rng.choice([len(S), len(S), len(S) + 1, max(1, len(S) - 1)]))]
    if rng.random() < 0.1:
        rep[0] = rng.choice([0, -1])
    args = [str(v) for v in rep] if rng.random() < 0.8 else [f"torch.LongStorage({lua_list(rep)})"]
    k = rng.random()
    if k < 0.4:
        return f"return {x}:repeatTensor({', '.join(args)})"
    if k < 0.7:
        return f"return torch.repeatTensor({x}, {', '.join(args)})"
    return f"return torch.repeatTensor({result(rng, T)}, {x}, {', '.join(args)})"


def squeeze(rng, T):
    S = [rng.choice([1, 1, 2, 3]) for _ in range(rng.randint(1, 4))]
    x = mk(rng, T, S)
    d = rng.choice(["", "1", "2", str(len(S)), str(len(S) + 1), "0"])
    k = rng.random()
    if k < 0.5:
        return f"return {x}:squeeze({d})"
    if k < 0.8:
        return f"return torch.squeeze({x}{', ' + d if d else ''})"
    return f"return torch.squeeze({result(rng, T)}, {x}{', ' + d if d else ''})"


def split(rng, T):
    f = rng.choice(["split", "chunk"])
    S = shape(rng, 1, 6)
    x = mk(rng, T, S)
    n = rng.choice(["1", "2", "3", "4", "7", "0", "-1"])
    d = rng.choice(["", str(len(S)), "1", str(len(S) + 1)])
    args = [x, n] + ([d] if d else [])
    k = rng.random()
    if k < 0.5:
        return f"return torch.{f}({', '.join(args)})"
    if k < 0.7:
        return f"return {x}:{f}({', '.join(args[1:])})"
    return f"local r = {{torch.{T}Tensor()}}; return torch.{f}(r, {', '.join(args)}), r"


def expand(rng, T):
    S = [rng.choice([1, 1, 2, 3]) for _ in range(rng.randint(1, 3))]
    x = mk(rng, T, S)
    to = [s if s != 1 or rng.random() < 0.3 else rng.choice([1, 2, 4]) for s in S]
    if rng.random() < 0.15:
        to = [rng.choice([2, 3])] + to
    if rng.random() < 0.1:
        to[0] = rng.choice([0, 5])
    k = rng.random()
    if k < 0.4:
        return f"return {x}:expand({', '.join(map(str, to))})"
    if k < 0.55:
        return f"return {x}:expand(torch.LongStorage({lua_list(to)}))"
    if k < 0.7:
        return f"return torch.expand({x}, {', '.join(map(str, to))})"
    if k < 0.85:
        return f"return {x}:expandAs({mk(rng, rng.choice(TYPES), to)})"
    return f"local r = torch.{T}Tensor(); return {x}:expand(r, {', '.join(map(str, to))}), r"


def view(rng, T):
    S = shape(rng, 1, 4)
    n = 1
    for s in S:
        n *= s
    to = rng.choice([[n], [-1], [1, -1], [-1, 1], list(reversed(S)), [n, 1, 1], [-1, -1], [n + 1], [2, -1],
                     [0, -1], [-2, n]])
    x = mk(rng, T, S)
    if len(S) == 2 and rng.random() < 0.25:
        x = f"{x}:t()"
    k = rng.random()
    if k < 0.5:
        return f"return {x}:view({', '.join(map(str, to))})"
    if k < 0.65:
        return f"return {x}:view(torch.LongStorage({lua_list(to)}))"
    if k < 0.8:
        return f"return torch.view({x}, {', '.join(map(str, to))})"
    if k < 0.9:
        return f"return {x}:viewAs({mk(rng, rng.choice(TYPES), [t if t > 0 else 1 for t in to])})"
    return f"local r = torch.{T}Tensor(); return {x}:view(r, {', '.join(map(str, to))}), r"


def transpose(rng, T):
    S = shape(rng, 1, 4, rng.randint(1, 4))
    x = mk(rng, T, S)
    nd = len(S)
    k = rng.random()
    dims = [str(v) for v in range(1, nd + 1)]
    if k < 0.4:
        a, b = rng.choice(dims + ["0", str(nd + 1)]), rng.choice(dims + ["-1"])
        return rng.choice([f"return {x}:transpose({a}, {b})", f"return torch.transpose({x}, {a}, {b})"])
    if k < 0.5:
        return rng.choice([f"return {x}:t()", f"return torch.t({x})"])
    perm = list(dims)
    rng.shuffle(perm)
    if rng.random() < 0.15:
        perm = perm[:-1] if len(perm) > 1 else perm + ["1"]
    if rng.random() < 0.1:
        perm[0] = perm[-1]
    return rng.choice([f"return {x}:permute({', '.join(perm)})", f"return torch.permute({x}, {', '.join(perm)})"])


def slicing(rng, T):
    S = shape(rng, 1, 5)
    x = operand(rng, T, S)
    nd = len(S)
    d = rng.choice([str(v) for v in range(1, nd + 1)] * 3 + ["0", str(nd + 1), "-1"])
    i = rng.choice(["1", "2", "3", "0", "-1", "5", "6", "1.5"])
    n = rng.choice(["1", "2", "3", "0", "-1", "4", "6"])
    if rng.random() < 0.6 and d.isdigit() and 1 <= int(d) <= nd:
        # within the dimension, its last index too
        z = S[int(d) - 1]
        i = str(rng.randint(1, z))
        n = str(rng.randint(1, z - int(i) + 1))
    f = rng.choice(["narrow", "select", "sub", "unfold"])
    if f == "narrow":
        return rng.choice([f"return {x}:narrow({d}, {i}, {n})", f"return torch.narrow({x}, {d}, {i}, {n})"])
    if f == "select":
        return rng.choice([f"return {x}:select({d}, {i})", f"return torch.select({x}, {d}, {i})"])
    if f == "sub":
        args = [rng.choice(["1", "2", "-1", "-2", "1", "2", "-1", "0", "3", "5", "6"]) for _ in range(2 * rng.randint(1, nd))]
        return f"return {x}:sub({', '.join(args)})"
    return rng.choice([f"return {x}:unfold({d}, {n}, {rng.choice(['1', '2', '3', '0'])})",
                       f"return torch.unfold({x}, {d}, {n}, {rng.choice(['1', '2'])})"])


def nonzero(rng, T):
    S = bigger(rng, shape(rng, 1, 4, rng.choice([1, 2, 3])))
    x = operand(rng, T, S, rng.choice(["'zero'", "'mix'", "'nan'"]))
    k = rng.random()
    if k < 0.4:
        return f"return torch.nonzero({x})"
    if k < 0.6:
        return f"return {x}:nonzero()"
    r = rng.choice(["given(torch.LongTensor())", f"given({mk(rng, 'Long', shape(rng))})",
                    f"given({mk(rng, 'Long', [5, 5])}:t())", f"given(torch.{T}Tensor())"])
    return rng.choice([f"return torch.nonzero({r}, {x})", f"return {r}:nonzero({x})"])


def totable(rng, T):
    S = shape(rng, 0 if rng.random() < 0.1 else 1, 3, rng.choice([1, 2, 3]))
    x = mk(rng, T, S)
    if len(S) == 2 and rng.random() < 0.3:
        x = f"{x}:t()"
    if rng.random() < 0.1:
        x = f"torch.{T}Tensor()"
    return rng.choice([f"return {x}:totable()", f"return torch.totable({x})"])


ELEMS = ["1", "2", "-3", "0.5", "-2.25", "300", "-129", "'4'", "'2.5'", "'x'", "true", "{}", "0/0", "1e10"]


def nested(rng, depth):
    if depth == 0:
        return rng.choice(ELEMS[:7] if rng.random() < 0.9 else ELEMS)
    n = rng.choice([1, 2, 3])
    items = [nested(rng, depth - 1) for _ in range(n)]
    if rng.random() < 0.08:
        items.append(nested(rng, max(0, depth - 1 - rng.choice([0, 1]))) if depth > 1 else "{1}")
    if rng.random() < 0.04:
        items = []
    return "{" + ", ".join(items) + "}"


def fromtable(rng, T):
    t = nested(rng, rng.choice([1, 1, 2, 2, 3]))
    if rng.random() < 0.05:
        t = rng.choice(["{}", "{{}}", "{{}, {}}", "{1, {2}}", "{{1}, 2}"])
    return rng.choice([f"return torch.{T}Tensor({t})", f"return torch.Tensor({t})"])


def fromstorage(rng, T):
    n = rng.randint(1, 12)
    s = f"torch.{T}Storage({n})"
    fill = f"local s = {s}; for i = 1, {n} do s[i] = i * 3 - 7 end; "
    if T == "Byte":
        fill = f"local s = {s}; for i = 1, {n} do s[i] = i * 3 end; "
    off = rng.choice(["1", "2", "3", str(n), str(n + 1), "0", "-1"])
    nd = rng.choice([0, 1, 1, 2, 2, 3])
    sizes = [rng.choice([1, 2, 3]) for _ in range(nd)]
    strides = [rng.choice([1, 2, 0, 3, -1]) for _ in range(nd)]
    # (only views inside the storage: past its end the original grows it
    # uninitialised)
    o = int(off) if off.lstrip("-").isdigit() else 1
    reach = o + sum((z - 1) * max(st, 0) for z, st in zip(sizes, strides))
    plain = o + math.prod(sizes) - 1
    k = rng.random()
    if nd == 0 or k < 0.15:
        return fill + f"return torch.{T}Tensor(s{', ' + off if k < 0.1 else ''})"
    if k < 0.55 and plain <= n:
        return fill + f"return torch.{T}Tensor(s, {off}, torch.LongStorage({lua_list(sizes)}))"
    if k < 0.85 and reach <= n and min(strides) >= 0 and o >= 1:
        return fill + (f"return torch.{T}Tensor(s, {off}, torch.LongStorage({lua_list(sizes)}), "
                       f"torch.LongStorage({lua_list(strides)}))")
    pairs = [(z, rng.choice([1, 2, 0])) for z in sizes]
    if o >= 1 and o + sum((z - 1) * st for z, st in pairs) <= n:
        # sizes and strides as numbers: size1, stride1, size2, stride2...
        flat = ", ".join(f"{z}, {st}" for z, st in pairs)
        return fill + f"return torch.{T}Tensor(s, {off}, {flat})"
    return fill + f"return torch.{T}Tensor(s, {off}, torch.LongStorage({lua_list(sizes)}), 5)"


def defaulttype(rng, T):
    """a constructor under another default tensor type (set back after)"""
    D = rng.choice(TYPES)
    call = rng.choice(["torch.range(1, 5, 1.5)", "torch.linspace(0, 1, 5)", "torch.logspace(0, 2, 3)",
                       "torch.eye(2, 3)", "torch.zeros(2, 2)", "torch.ones(3)", "torch.Tensor({1.5, -2})",
                       "torch.Tensor(2):fill(3)", "torch.cat(torch.Tensor({1}), torch.Tensor({2}))",
                       "torch.Tensor(torch.LongStorage({2})):zero()", "torch.diag(torch.Tensor({1, 2}))",
                       "torch.histc(torch.Tensor({1, 2, 2}), 2)", "torch.Tensor():range(1, 3)",
                       "torch.rand(2)", "torch.Tensor({{1, 2}, {3, 4}}):t():contiguous()"])
    return (f"torch.setdefaulttensortype('torch.{D}Tensor'); torch.manualSeed(3); "
            f"local ok, r = pcall(function() return {call} end); "
            f"torch.setdefaulttensortype('torch.DoubleTensor'); if not ok then error(r, 0) end; return r")


def shared(rng, T):
    """tensors sharing a storage or a tensor's memory, and sizes read back"""
    S = shape(rng, 1, 4)
    x = operand(rng, T, S)
    d = rng.choice(["1", "2", "3", "0", "-1", "1.5"])
    return rng.choice([
        f"local x = {x}; local y = torch.{T}Tensor(x); y:fill(3); return x, y",
        f"local x = {x}; return torch.{T}Tensor(x:storage()), x:storage():size()",
        f"local x = {x}; return x:size({d}), x:stride({d})",
        f"local x = {x}; return torch.{T}Tensor():set(x), x:isContiguous()",
        # (resized within its elements: growing leaves memory uninitialised)
        f"local x = {x}; return torch.{T}Tensor():resizeAs(x):copy(x):resize({math.prod(S)}, 1)",
        f"local x = {x}; return x:clone():resize({lua_list(shape(rng, 1, 3))[1:-1]}):zero(), x",
        f"return torch.numel({x}), {x}:nElement(), {x}:nDimension()",
        f"local x = {x}; return torch.{rng.choice(TYPES)}Tensor({lua_list(S)[1:-1]}):zero():copy(x)",
        f"local x = {x}; return x:contiguous(), x:isSameSizeAs(torch.{T}Tensor({lua_list(S)[1:-1]}))",
    ])


def zerosize(rng, T):
    """sizes of 0 among others, and an operand as its own result"""
    S = [rng.choice([0, 1, 2, 3]) for _ in range(rng.randint(1, 3))]
    sz = ", ".join(map(str, S))
    x = mk(rng, T, shape(rng, 1, 3, 2))
    return rng.choice([
        f"return torch.zeros({sz})", f"return torch.{T}Tensor({sz}):zero()", f"return torch.ones({sz})",
        f"return torch.{T}Tensor():resize({sz}):fill(2)", f"return torch.{T}Tensor(torch.LongStorage({{{sz}}})):zero()",
        f"return torch.cat(torch.{T}Tensor({sz}):zero(), {x})", f"return torch.cat({{{x}, torch.{T}Tensor({sz}):zero()}}, 1)",
        f"return torch.{T}Tensor({sz}):nElement(), torch.{T}Tensor({sz}):dim()",
        f"local x = {x}; return torch.reshape(x, x, {x}:nElement()), x",
        f"local x = {x}; return torch.repeatTensor(x, x, 2, 1), x",
        f"local x = {x}; return torch.diag(x, x), x", f"local x = {x}; return torch.triu(x, x, 1), x",
        f"local x = {x}; return x:narrow(1, 1, 0)", f"local x = {x}; return x:unfold(2, 0, 1)",
        f"local x = {x}; return x:narrow(1, {rng.choice([1, 2, 3, 4])}, 0)",
        f"return torch.nonzero(torch.{T}Tensor())", f"return torch.{T}Tensor():totable()",
        f"return torch.histc(torch.{rng.choice(FLOATS)}Tensor(){rng.choice(['', ', 5', ', 5, 0, 1', ', 5, 1, 1'])})",
        f"return torch.range(torch.{T}Tensor({sz}), 1, 3)",
        f"return torch.linspace(torch.{rng.choice(FLOATS)}Tensor({sz}), 1, 3, 4)",
        f"return torch.eye(torch.{T}Tensor({sz}), 2)",
    ])


FAMILIES = [(cat, 16), (range_, 8), (spaces, 8), (eye, 4), (sized, 6), (diag, 6), (tri, 6), (trace, 2),
            (histc, 6), (reshape, 5), (repeat, 4), (squeeze, 3), (split, 4), (expand, 4), (view, 5),
            (transpose, 4), (slicing, 6), (nonzero, 4), (totable, 2), (fromtable, 6), (fromstorage, 4), (defaulttype, 3), (shared, 4), (zerosize, 4)]


def case(rng):
    T = rng.choice(TYPES)
    fam = rng.choices([f for f, _ in FAMILIES], [w for _, w in FAMILIES])[0]
    return f"--[[{fam.__name__}]] " + fam(rng, T)


# differences that are the original's, counted apart: (name, test on a case)
KNOWN = [
    # a negative size: TH's resizeNd ended the sizes there (zeros(-1, 2) is
    # empty, reshape(x, 12, -1) 1-D); th says so (as for resize and expand)
    ("negative-size", lambda body, want, have: "non-negative size expected" in have),
    # cat into one of its parts: the original resized the part, then read it
    # (uninitialised memory, or narrow's error when it was empty); th: narrow's
    # error, or the other parts
    ("cat-into-part", lambda body, want, have: "; G[1] = a; return torch.cat(a," in body),
    # histc of no bins or fewer: the original returned an empty tensor, or
    # crashed; th: an error
    ("histc-bins", lambda body, want, have: "number of bins must be positive" in have),
    # diag's diagonal beyond the matrix: TH's message named a dimension of a
    # 0-D tensor; th names the diagonal
    ("diag-range", lambda body, want, have: "out of range of 0D tensor" in want and "diagonal" in have),
    # repeatTensor by 0 or fewer: TH's unfold of an empty tensor; th names
    # the repetitions
    ("repeat-nonpositive", lambda body, want, have: "repetitions must be positive" in have),
    # a range of more elements than memory holds: the original's count
    # overflowed (an empty tensor, or a negative allocation); th: the memory
    # error with the count
    # histc over the data's range of a view holding NaN: the original's
    # min/max of such a view read past it (README: fuzz_views), its bins
    # from garbage
    ("histc-nan-view", lambda body, want, have: body.startswith("--[[histc]]") and "'nan')" in body
     and any(v in body for v in (":transpose(", ":narrow(", ":select("))),
    ("huge-range", lambda body, want, have: "range" in body and "not enough memory" in have),
]


def main():
    args = arguments(calls=2000)
    rng = random.Random(args.seed)
    calls = [case(rng) for _ in range(args.calls)]
    mismatches, th_failures, ref_failures = differences(calls, args.th, args.ref, args.batch, args.timeout,
                                                        PRELUDE)
    report(calls, unexplained(mismatches, KNOWN), th_failures, ref_failures, args.show)


if __name__ == "__main__":
    main()
