"""Differential fuzz of Lua's operators and metamethods on torch objects.

Each case builds its operands in Lua from formulas (no randomness in Lua:
everything is drawn in Python from the seed) and applies one operator the
way user code writes it: `a + b`, `a - b`, `a * b`, `a / b`, `a % b`,
`a ^ b`, `-a`, `a == b`, `a ~= b`, `a < b`, `a <= b`, `a > b`, `a >= b`,
`a .. b`, `#a`, `tostring(a)`, `a()`, `a.foo`, `a:foo()`, `a[k]`,
`a[k] = v`, `torch.type(a)`, `type(a)`.  Operands: tensors of the seven
types in 0-3 dimensions (sizes 0-5, sometimes more; empty tensors), fresh or
views (transposed, narrowed, selected, expanded, at a storage offset), of
the same or another type, the same or another shape (same count, sizes that
look broadcastable, other counts); numbers (0, -0, fractions, negatives,
2^31, 2^53, 1e300, inf, nan...), numeric and other strings, nil, booleans,
tables, functions; storages of the seven types; torch.Generator,
torch.Timer, torch.class instances with and without the __add__... methods.
For `*`: 1-D/2-D/3-D pairs of matching and mismatching sizes (dot, mv, mm,
errors).  Index keys for `a[k]`: integers in and out of range, 0,
negatives, fractions, huge, nan, inf, numeric and other strings.

Each case runs under pcall and prints a digest of every value returned
(type; a tensor's type, sizes, strides and every value by '%.17g'; a
storage's type and values) and of each operand afterwards (whether it was
modified), or the error's message with the original's " at file.c:NNN"
suffix stripped and its position compared as "@:" (the case's own line),
"@other:" (another line of the case program) or none (an error raised from
C, without a position).

    python scripts/fuzz_operators.py --calls 3000 --seed 1 \\
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th [--show 30]

Uses fuzz_diff.py's runner (batches; a crash or hang resumes after the case).
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import SHARED_LUA, arguments, differences, report, unexplained  # noqa: E402

PRELUDE = SHARED_LUA + r"""
io.stdout:setvbuf('line')   -- the original dies of SIGFPE on some cases: keep what came before
local SELF = debug.getinfo(1, 'S').source:sub(2)
local function num(v)
   if v ~= v then return 'nan' end
   if v == math.huge then return 'inf' elseif v == -math.huge then return '-inf' end
   if v == 0 and 1 / v < 0 then return '-0' end
   return string.format('%.17g', v)
end
-- the values of a tensor, read through its storage and strides
local function tdig(t)
   local nd = t:dim()
   local out = {torch.type(t), nd == 0 and '[]' or table.concat(t:size():totable(), 'x')}
   if nd == 0 then return table.concat(out, ' ') end
   out[#out + 1] = 's' .. table.concat(t:stride():totable(), ',')
   local sum = 0
   walk(t, function(k, v)
      if k <= 48 then out[#out + 1] = num(v) else sum = sum + v * (k % 13 + 1) end
   end)
   if t:nElement() > 48 then out[#out + 1] = 'rest=' .. num(sum) end
   return table.concat(out, ' ')
end
local function dig(v)
   local tv = type(v)
   if tv == 'number' then return 'n:' .. num(v)
   elseif tv == 'string' then return 's:' .. string.format('%q', v):gsub('\n', 'n')
   elseif tv == 'nil' or tv == 'boolean' then return tostring(v)
   elseif tv == 'function' then return 'function'
   elseif torch.isTensor(v) then return tdig(v)
   elseif torch.isStorage(v) then
      local out = {torch.type(v), '#' .. v:size()}
      for i = 1, math.min(v:size(), 48) do out[#out + 1] = num(v[i]) end
      return table.concat(out, ' ')
   elseif tv == 'table' and getmetatable(v) == nil then
      local out = {}
      for i = 1, #v do out[i] = dig(v[i]) end
      return '{' .. table.concat(out, ', ') .. '}'
   end
   local name = torch.typename(v)
   if name == 'OpsPlain' or name == 'OpsFull' then return name .. '(' .. tostring(rawget(v, 'v')) .. ')' end
   return 'object:' .. (name or tv)
end
-- an error's message: the original's " at file.c:NNN" dropped, a position
-- in the case program made "@:" (this case's line) or "@other:"
local function msg(e, line)
   if type(e) ~= 'string' then return 'E:' .. dig(e) end
   e = e:gsub(' at /[^%s]-%.c:%d+', '')
   local file, l, rest = e:match('^(.-):(%d+): (.*)$')
   if file and file == SELF then
      e = (tonumber(l) == line and '@: ' or '@other: ') .. rest
   end
   return 'E:' .. e:gsub('\n', '|')
end
-- show(i, f): f builds the operands and returns them (a table) and the
-- operation; printed: what the operation returned or its error, then each
-- operand afterwards
function show(i, f)
   local line = debug.getinfo(f, 'S').linedefined
   local ok, ops, op = pcall(f)
   if not ok then print(i .. ' setup ' .. msg(ops, line)) return end
   local res = {pcall(op)}
   local out = {}
   if res[1] then
      for k = 2, table.maxn(res) do out[#out + 1] = dig(res[k]) end
      out = {'ok ' .. table.concat(out, ' ; ')}
   else
      out = {msg(res[2], line)}
   end
   for k = 1, ops.n do out[#out + 1] = 'op' .. k .. '=' .. dig(ops[k]) end
   print(i .. ' ' .. table.concat(out, ' | '))
end
-- mk(T, sizes, kind): a fresh contiguous tensor, its values from a formula
local WIDE = {Double = 1e15, Float = 1e7, Long = 4e18, Int = 2e9, Short = 32000, Char = 120, Byte = 250}
function mk(T, sizes, kind)
   local t = torch[T .. 'Tensor']()
   if #sizes > 0 then t:resize(torch.LongStorage(sizes)) end
   local s, fl = t:storage(), T == 'Double' or T == 'Float'
   for i = 1, t:nElement() do
      local v
      if kind == 'pos' then v = (i * 7) % 11 + 1
      elseif kind == 'frac' then v = ((i * 37) % 19) * 0.25 - 2.25
      elseif kind == 'wide' then v = (((i * 13) % 9) - 4) / 4 * WIDE[T]
      elseif kind == 'zero' then v = (i % 3 == 0) and (i % 5) - 2 or 0
      elseif kind == 'odd' and fl then
         local k = i % 6
         v = k == 0 and 0 / 0 or k == 2 and 1 / 0 or k == 4 and -1 / 0 or k == 5 and -0.0 or i * 1.0000001
      else v = (i * 7) % 11 - 5 end
      if T == 'Byte' then v = v % 256 end
      if not fl then v = v >= 0 and math.floor(v) or -math.floor(-v) end
      s[i] = v
   end
   return t
end
-- classes of torch.class: one with no operators, one with all of luaT's
-- __xxx__ methods
local P = torch.class('OpsPlain')
function P:__init(v) self.v = v end
local F = torch.class('OpsFull')
function F:__init(v) self.v = v end
local function who(x) return type(x) == 'table' and rawget(x, 'v') or torch.type(x) end
for _, name in ipairs{'add', 'sub', 'mul', 'div', 'mod', 'pow', 'lt', 'le', 'eq', 'concat'} do
   F['__' .. name .. '__'] = function(a, b) return name .. '(' .. tostring(who(a)) .. ',' .. tostring(who(b)) .. ')' end
end
F.__eq__ = function(a, b) return rawget(a, 'v') == rawget(b, 'v') end
F.__lt__ = function(a, b) return (rawget(a, 'v') or 0) < (type(b) == 'table' and rawget(b, 'v') or 0) end
F.__le__ = F.__lt__
F.__unm__ = function(a) return 'unm(' .. tostring(who(a)) .. ')' end
F.__len__ = function(a) return 42 end
F.__tostring__ = function(a) return 'OpsFull<' .. tostring(rawget(a, 'v')) .. '>' end
F.__call__ = function(a, ...) return 'call', select('#', ...) end
"""

TYPES = ["Double", "Float", "Long", "Int", "Short", "Char", "Byte"]
KINDS = ["mix", "pos", "frac", "wide", "zero", "odd"]
NUMBERS = ["0", "1", "2", "3", "-1", "-2", "7", "0.5", "-2.5", "1.25", "255", "256", "-128", "300",
           "32768", "2^31", "2^53", "-0.0", "1e300", "1e-300", "1/0", "-1/0", "0/0", "1e10", "100"]
STRINGS = ["'2'", "'0.5'", "'-3'", "' 4 '", "'0x10'", "'1e2'", "'a'", "''", "'nan'"]
OTHERS = ["nil", "true", "false", "{}", "{1, 2}", "print", "torch.Generator()", "torch.Timer()",
          "OpsPlain(1)", "OpsFull(2)", "OpsFull(3)"]
KEYS = ["1", "2", "3", "-1", "-2", "0", "1.5", "-1.5", "0.5", "0.99", "-0.5", "4", "5", "6", "-4", "-6",
        "2^31", "2^32 + 1", "2^53", "2^63", "-2^63", "1e300", "-1e300", "0/0", "1/0", "-1/0", "-0.0",
        "'1'", "'2'", "'1.5'", "'x'", "'size'", "true", "{1}", "{}", "torch.LongStorage{1}"]
BINOPS = ["+", "-", "*", "/", "%", "^"]
COMPARE = ["==", "~=", "<", "<=", ">", ">="]


class Case:
    """The Lua lines of one case: locals for its operands, then the operation"""

    def __init__(self, rng):
        self.rng, self.lines, self.names = rng, [], []

    def operand(self, expr):
        name = f"o{len(self.names) + 1}"
        self.lines.append(f"local {name} = {expr}")
        self.names.append(name)
        return name

    def lua(self, operation):
        setup = "; ".join(self.lines)
        names = ", ".join(self.names)
        return (f"{setup}; return {{n = {len(self.names)}, {names}}}, "
                f"function() {operation} end")


def shape(rng):
    nd = rng.choice([1, 1, 1, 2, 2, 3, 0]) if rng.random() < 0.95 else rng.choice([1, 2])
    if nd == 0:
        return []
    if rng.random() < 0.05:
        return [rng.choice([40, 70, 130])] + [rng.choice([1, 2, 3]) for _ in range(nd - 1)]
    return [rng.choice([1, 2, 3, 4, 5, 0] if rng.random() < 0.1 else [1, 2, 3, 4, 5]) for _ in range(nd)]


def tensor(rng, T, S, kind=None, view=True):
    """a Lua expression: a tensor of type T and sizes S, maybe a view"""
    kind = kind or rng.choice(KINDS)
    dims = ", ".join(map(str, S))
    base = f"mk('{T}', {{{dims}}}, '{kind}')"
    if not view or not S or 0 in S or rng.random() < 0.55:
        return base
    nd = len(S)
    way = rng.choice(["t", "narrow", "select", "expand", "offset"] if nd >= 2 else ["narrow", "select", "expand", "offset"])
    if way == "t":
        rev = ", ".join(map(str, [S[1], S[0]] + S[2:]))
        return f"mk('{T}', {{{rev}}}, '{kind}'):transpose(1, 2)"
    if way == "narrow":
        d = rng.randrange(nd)
        big = list(S)
        big[d] += 2
        return f"mk('{T}', {{{', '.join(map(str, big))}}}, '{kind}'):narrow({d + 1}, 2, {S[d]})"
    if way == "select":
        big = [3] + list(S)
        return f"mk('{T}', {{{', '.join(map(str, big))}}}, '{kind}'):select(1, 2)"
    if way == "expand":
        small = [1 if rng.random() < 0.5 else s for s in S]
        return f"mk('{T}', {{{', '.join(map(str, small))}}}, '{kind}'):expand({dims})"
    n = 1
    for s in S:
        n *= s
    return (f"torch.{T}Tensor(mk('{T}', {{{n + 3}}}, '{kind}'):storage(), 3, "
            f"torch.LongStorage{{{dims}}})")


def other_shape(rng, S):
    """sizes for the second operand: mostly the same, else of the same count
    in another shape, broadcast-looking, or another count"""
    r = rng.random()
    if r < 0.6 or not S:
        return list(S)
    n = 1
    for s in S:
        n *= s
    if r < 0.75:
        return [n] if len(S) > 1 else ([1, n] if rng.random() < 0.5 else [n, 1])
    if r < 0.87:
        return [1] + list(S[1:]) if rng.random() < 0.5 else list(S[:-1]) + [1]
    return [s + 1 for s in S] if rng.random() < 0.5 else []


def scalar(rng):
    r = rng.random()
    if r < 0.75:
        return rng.choice(NUMBERS)
    if r < 0.88:
        return rng.choice(STRINGS)
    return rng.choice(OTHERS)


def storage(rng, T=None):
    T = T or rng.choice(TYPES)
    n = rng.choice([0, 1, 2, 3, 5])
    return f"mk('{T}', {{{n}}}, '{rng.choice(KINDS)}'):storage()" if n else f"torch.{T}Storage()"


def matmul_pair(rng, T):
    """1-D/2-D/3-D operands for *, sizes agreeing or not"""
    da, db = rng.choice([1, 2, 3]), rng.choice([1, 2, 3])
    n, k, m = (rng.choice([1, 2, 3, 4]) for _ in range(3))
    k2 = k if rng.random() < 0.75 else k + 1
    A = {1: [k], 2: [n, k], 3: [2, n, k]}[da]
    B = {1: [k2], 2: [k2, m], 3: [2, k2, m]}[db]
    T2 = T if rng.random() < 0.9 else rng.choice(TYPES)
    return tensor(rng, T, A), tensor(rng, T2, B)


def case(rng):
    c = Case(rng)
    T = rng.choice(TYPES)
    S = shape(rng)
    r = rng.random()
    if r < 0.40:                                   # arithmetic
        op = rng.choice(BINOPS)
        if op == "*" and rng.random() < 0.4:
            a, b = matmul_pair(rng, T)
            x, y = c.operand(a), c.operand(b)
        else:
            x = c.operand(tensor(rng, T, S))
            w = rng.random()
            if w < 0.45:
                T2 = T if rng.random() < 0.85 else rng.choice(TYPES)
                y = c.operand(tensor(rng, T2, other_shape(rng, S)))
            else:
                y = c.operand(scalar(rng))
            if rng.random() < 0.4:
                x, y = y, x
        return c.lua(f"return {x} {op} {y}")
    if r < 0.47:                                   # unary minus, length, tostring, type
        x = c.operand(tensor(rng, T, S) if rng.random() < 0.8 else
                      rng.choice([storage(rng), "torch.Generator()", "torch.Timer()", "OpsPlain(1)", "OpsFull(4)"]))
        e = rng.choice(["-{x}", "#{x}", "tostring({x})", "torch.type({x})", "type({x})", "torch.type(-{x})",
                        "-(-{x})", "#{x} == #{x}"])
        return c.lua("return " + e.format(x=x))
    if r < 0.62:                                   # comparisons
        op = rng.choice(COMPARE)
        x = c.operand(tensor(rng, T, S) if rng.random() < 0.7 else storage(rng, T))
        w = rng.random()
        if w < 0.3:
            y = x
        elif w < 0.6:
            y = c.operand(tensor(rng, T if rng.random() < 0.8 else rng.choice(TYPES), S))
        elif w < 0.75:
            y = c.operand(storage(rng, T))
        else:
            y = c.operand(scalar(rng))
        if rng.random() < 0.4:
            x, y = y, x
        return c.lua(f"return {x} {op} {y}")
    if r < 0.70:                                   # concatenation, call, fields, methods
        x = c.operand(tensor(rng, T, S) if rng.random() < 0.6 else
                      rng.choice([storage(rng), "torch.Generator()", "torch.Timer()", "OpsPlain(1)", "OpsFull(5)"]))
        y = rng.choice(["'s'", "1", "nil", "{}", x])
        e = rng.choice([f"{x} .. {y}", f"{y} .. {x}", f"{x}()", f"{x}(1, 2)", f"{x}.foo", f"{x}:foo()",
                        f"{x}.foo(1)", f"{x}:size()", f"{x}.size", f"rawequal({x}, {x})"])
        return c.lua("return " + e)
    if r < 0.92:                                   # indexing and assignment
        if rng.random() < 0.75:
            S = [rng.choice([1, 2, 3, 4]) for _ in range(rng.choice([1, 1, 2, 3]))] if rng.random() < 0.9 else []
            x = c.operand(tensor(rng, T, S))
        else:
            x = c.operand(storage(rng, T))
        k = rng.choice(KEYS)
        if rng.random() < 0.5:
            return c.lua(f"return {x}[{k}]")
        v = rng.choice(NUMBERS + ["'5'", "'z'", "nil", "true", "{1}"])
        if rng.random() < 0.15 and S:
            v = tensor(rng, rng.choice([T, T, rng.choice(TYPES)]), S[1:] if rng.random() < 0.7 else [2])
        return c.lua(f"{x}[{k}] = {v}; return {x}")
    # classes and the other torch objects with arithmetic and comparisons
    x = c.operand(rng.choice(["OpsPlain(1)", "OpsFull(2)", "OpsFull(3)", "torch.Generator()", "torch.Timer()",
                              storage(rng)]))
    y = c.operand(rng.choice(["OpsPlain(1)", "OpsFull(2)", "OpsFull(3)", "1", "'s'", tensor(rng, T, [2]),
                              storage(rng)]))
    if rng.random() < 0.4:
        x, y = y, x
    op = rng.choice(BINOPS + COMPARE + [".."])
    return c.lua(f"return {x} {op} {y}")


INTEGER_TENSOR = re.compile(r"(mk\('|torch\.)(Long|Int|Short|Char|Byte)(', |Tensor\()")
LUA_NUMBER = re.compile(r"^\s*[-+]?(0[xX][0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|inf|nan)\s*$")


def strtol_string(body, want, have):
    """an integer tensor + - * a string that is no number, or a number with
    a leading 0 or beyond a C long: the original read it with C's strtol
    (base 0: '010' is 8, 'a' 0, '12abc' 12, saturated at the long's ends);
    th reads it as its elements' stores do ('010' is 10) and refuses what
    is no number"""
    m = re.search(r"function\(\) return (o\d) ([-+*]) (o\d) end", body)
    if not m:
        return False
    ops = dict(re.findall(r"local (o\d) = ([^;]*);", body))
    x, y = ops.get(m.group(1), ""), ops.get(m.group(3), "")
    s = y if INTEGER_TENSOR.match(x) else None
    if s is None or not s.startswith("'"):
        return False
    s = s.strip("'")
    return (not LUA_NUMBER.match(s) or re.match(r"^\s*[-+]?0\d", s) is not None
            or len(re.sub(r"\D", "", s)) >= 19)


def string_modulo(body, want, have):
    """a string % x: the original's start-up had loaded penlight's stringx,
    which gives strings a % operator (Python's formatting); th's start-up
    loads penlight's modules on first use"""
    m = re.search(r"function\(\) return (o\d) % (o\d) end", body)
    ops = dict(re.findall(r"local (o\d) = ([^;]*);", body))
    return m is not None and ops.get(m.group(1), "").startswith("'")


def timer_table(body, want, have):
    """th's torch.Timer is a Lua table (a torch.class object), the
    original's a userdata: type(), # and comparisons with a tensor differ"""
    return "torch.Timer()" in body and ("table" in have or "length operator" in want)


def string_stored(body, want, have):
    """a string that is no number stored into an integer tensor or storage:
    Torch7 stored 0, th refuses it (README: on purpose)"""
    return (re.search(r"\] = '(z|a|)'", body) is not None and INTEGER_TENSOR.search(body) is not None
            and want.startswith("ok") and "got string" in have)


# differences that are the original's, not th's: (name, test(body, want, have))
KNOWN = [
    ("integer tensor and a string by strtol", strtol_string),
    ("Timer is a table", timer_table),
    ("penlight's string %", string_modulo),
    ("a string stored as 0", string_stored),
]


def main():
    args = arguments(calls=3000)
    rng = random.Random(args.seed)
    calls = [case(rng) for _ in range(args.calls)]
    mismatches, th_failures, ref_failures = differences(calls, args.th, args.ref, args.batch, args.timeout,
                                                        PRELUDE)
    left = unexplained(mismatches, KNOWN)
    report(calls, left, th_failures, ref_failures, args.show)
    for k in sorted(ref_failures):
        print(f"  original {ref_failures[k]} at {k}: {calls[k]}")


if __name__ == "__main__":
    main()
