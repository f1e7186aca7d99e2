"""Differential fuzz of what th prints, against the original Torch7.

Each case prints something, under both commands, and the text must agree
byte for byte: `print(t)`, `tostring(t)` and `io.write(tostring(t))` of
tensors of every type (Half too), 0 to 5 dimensions (empty tensors, size-1
dimensions, wide matrices cut into "Columns a to b" blocks, the
"(i,j,.,.) = " slices of 3-D and 4-D tensors), values of every magnitude
(1e-12 to 1e12, tiny and huge together, common scale lines such as
"1e-05 *", integers exact in double, -0, nan, inf, -inf, ties at the 4th
decimal, numbers a little past halfway, values about a power of ten), views
that are not contiguous (transposed, narrowed, selected, expanded,
unfolded); storages of every type, sizes and strides (LongStorage); numbers
by print, tostring, io.write and a file's write, and by `..` (whose
differences, lupa's LuaJIT's own rounding that th cannot reach, are counted
apart as known and shown last, as are math.ceil's -0 where the original's
interpreter gave 0); string.format of numbers (and numeric strings) by %g
%f %e %d %s %5.2f %a and other flags, widths and precisions, huge, tiny,
nan, inf and -0 included; Long values past 2^53, the default tensor type
Float; tables holding tensors and storages (trepl's pretty print), print of
several values at once.  Values come from formulas (no random generator).

A case's output is captured by pointing io.output at a temporary file (the
`print` of th, like the original's trepl print, writes through io.write), and
printed escaped on one line; the cases that differ are shown line by line.
Uses fuzz_diff.py's runner (batches, a crash or hang resumes after the case).

    python scripts/fuzz_print.py --calls 8000 --seed 1 \\
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th [--show 20]
"""
import difflib
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import arguments, run_all  # noqa: E402

PRELUDE = r"""
io.stdout:setvbuf('line')
local capture = io.tmpfile()
local stdout = io.stdout
-- show(i, f): what f printed (through print / io.write), escaped on one line
function show(i, f)
   local start = capture:seek('end')
   io.output(capture)
   local ok, err = pcall(f)
   io.output(stdout)
   capture:seek('set', start)
   local text = capture:read('*a') or ''
   if not ok then
      text = text .. '<error: ' .. (tostring(err):gsub('^[^:]*:%d+: ', ''):gsub(' at /%S+:%d+', '')) .. '>'
   end
   text = text:gsub('\\', '\\\\'):gsub('\n', '\\n'):gsub('\t', '\\t')
   stdout:write(i, ' ', text, '|\n')
end
-- mk(T, sizes, values): a tensor of type T and these sizes, its storage
-- filled with the values in turn (again from the first when they run out)
function mk(T, sizes, vals)
   local t = torch[T .. 'Tensor'](unpack(sizes))
   local n = t:nElement()
   if n == 0 then return t end
   local s = t:storage()
   for i = 1, n do s[i] = vals[(i - 1) % #vals + 1] end
   return t
end
-- st(T, values): a storage
function st(T, vals)
   local s = torch[T .. 'Storage'](#vals)
   for i = 1, #vals do s[i] = vals[i] end
   return s
end
"""

TYPES = ["Double", "Float", "Long", "Int", "Short", "Char", "Byte"]
FLOATING = ["Double", "Float", "Half"]
RANGE = {"Byte": (0, 255), "Char": (-128, 127), "Short": (-32768, 32767),
         "Int": (-2 ** 31, 2 ** 31 - 1), "Long": (-2 ** 53, 2 ** 53)}
SPECIAL = ["0/0", "-(0/0)", "1/0", "-1/0", "-0.0", "0"]


def lit(v):
    """a float as an exact Lua literal"""
    if isinstance(v, str):
        return v
    if v == int(v) and abs(v) < 2 ** 63:
        return str(int(v))
    return repr(float(v))


def magnitude(rng, lo, hi):
    """a number of random sign with magnitude between 10^lo and 10^hi, 1 to
    6 significant digits"""
    e = rng.uniform(lo, hi)
    digits = rng.choice([1, 2, 3, 4, 5, 6])
    v = float("%.*g" % (digits, 10 ** e))
    return -v if rng.random() < 0.4 else v


def tie4(rng):
    """a number that rounds at the 4th decimal (x.xxxx5 and nearby)"""
    base = rng.randint(-99999, 99999) / 10000
    return base + rng.choice([0.00005, -0.00005, 0.000049, 0.000051, 0.00004999999, 0.00005000001])


def neartie(rng, digits=None, lo=-320, hi=300):
    """a literal a little past halfway: digits, a 5, zeros, another digit (the
    numbers lupa's LuaJIT can take for ties)"""
    n = digits or rng.randint(1, 14)
    mant = str(rng.randint(10 ** (n - 1), 10 ** n - 1)) + "5" + "0" * rng.randint(1, 16 - n) + str(rng.randint(1, 9))
    sign = "-" if rng.random() < 0.3 else ""
    return f"{sign}{mant[0]}.{mant[1:]}e{rng.randint(lo, hi)}"


def family(rng, T):
    """a list of values (Lua literals) of one of the families"""
    n = rng.choice([1, 2, 3, 4, 5, 7, 12])
    if T not in FLOATING:
        lo, hi = RANGE[T]
        kind = rng.choice(["small", "range", "edge", "zero"])
        if kind == "small":
            vals = [rng.randint(max(lo, -12), min(hi, 12)) for _ in range(n)]
        elif kind == "range":
            vals = [rng.randint(lo, hi) for _ in range(n)]
        elif kind == "edge":
            vals = [rng.choice([lo, hi, 0, 1, lo + 1, hi - 1, 10 ** rng.randint(0, 9)]) for _ in range(n)]
            vals = [min(max(v, lo), hi) for v in vals]
        else:
            vals = [0] * n
        return [lit(v) for v in vals]
    kind = rng.choice(["int", "bigint", "frac", "tie", "scale", "mix", "tiny", "huge", "special",
                       "zero", "wide", "e10", "exact", "edge", "edge", "neartie"])
    if kind == "int":
        vals = [rng.randint(-1000, 1000) for _ in range(n)]
    elif kind == "bigint":
        vals = [rng.choice([1, -1]) * rng.choice([10 ** rng.randint(5, 15), 2 ** 53, 2 ** 31, 123456789,
                                                  999999999, 1e9, 1e10, 99999]) for _ in range(n)]
    elif kind == "frac":
        vals = [magnitude(rng, -1, 2) for _ in range(n)]
    elif kind == "tie":
        vals = [tie4(rng) for _ in range(n)]
    elif kind == "scale":
        e = rng.choice([-12, -8, -6, -5, -4, -3, -2, 4, 5, 6, 7, 9, 12])
        vals = [magnitude(rng, e, e + rng.choice([0.5, 1, 2, 3.9])) for _ in range(n)]
    elif kind == "mix":
        vals = [magnitude(rng, rng.choice([-12, -6, -3, 0]), rng.choice([0, 3, 6, 12])) for _ in range(n)]
    elif kind == "tiny":
        vals = [magnitude(rng, -320, -100) for _ in range(n)]
    elif kind == "huge":
        vals = [magnitude(rng, 99, 308) for _ in range(n)]
    elif kind == "special":
        vals = [rng.choice(SPECIAL + [magnitude(rng, -3, 3), rng.randint(-5, 5)]) for _ in range(n)]
    elif kind == "zero":
        vals = [rng.choice([0, "-0.0"]) for _ in range(n)]
    elif kind == "wide":
        vals = [magnitude(rng, -5, 8) for _ in range(n)]
    elif kind == "e10":
        vals = [rng.choice([1, -1]) * rng.choice([9.99995, 0.999995, 99999.5, 9999.95, 0.0999995, 1e-5,
                                                  9.99994, 1e5, 1e-4, 0.1, 1e6, 1e4])
                for _ in range(n)]
    elif kind == "neartie":   # 5 significant digits kept by %11.4e, 4 decimals by %N.4f
        e = rng.choice([(-320, 300), (-12, 12), (-3, 3)])
        vals = [neartie(rng, rng.choice([5, 5, 4, 3, 6]), *e) for _ in range(n)]
    elif kind == "edge":   # about a power of ten: where the widths and scales change
        vals = []
        for _ in range(n):
            k = rng.randint(-8, 12)
            v = 10.0 ** k * rng.choice([1, 1 - 1e-16, 1 + 1e-15, 1 - 5e-6, 1 - 4e-6, 1 - 6e-5, 0.99995, 1.00005])
            vals.append(-v if rng.random() < 0.3 else v)
    else:
        vals = [rng.randint(-10 ** 6, 10 ** 6) / rng.choice([2, 4, 8, 16, 32, 1024]) for _ in range(n)]
    return [lit(v) for v in vals]


def shape(rng):
    nd = rng.choice([1, 1, 2, 2, 2, 3, 3, 4])
    dims = []
    for _ in range(nd):
        dims.append(rng.choice([1, 1, 2, 2, 3, 4, 5]))
    if nd == 2 and rng.random() < 0.3:
        dims[1] = rng.choice([9, 12, 17, 20, 21, 27, 30, 41, 81])   # wide: column blocks
    if nd >= 3 and rng.random() < 0.2:
        dims[-1] = rng.choice([11, 17, 25])
    return dims


def view(rng, x, dims):
    """x, or a view of it (maybe not contiguous) -> expression"""
    nd = len(dims)
    c = rng.random()
    if c < 0.45:
        return x
    if c < 0.55 and nd >= 2:
        return f"{x}:t()" if nd == 2 else f"{x}:transpose(1, {nd})"
    if c < 0.65 and dims[0] > 1:
        return f"{x}:narrow(1, 2, {dims[0] - 1})"
    if c < 0.75 and nd >= 2:
        d = rng.randint(1, nd)
        return f"{x}:select({d}, {rng.randint(1, dims[d - 1])})"
    if c < 0.80 and nd >= 2 and dims[-1] > 1:
        return f"{x}:narrow({nd}, 1, {dims[-1] - 1})"
    if c < 0.85 and nd == 1:
        return f"{x}:view(1, {dims[0]}):expand({rng.choice([2, 3])}, {dims[0]})"
    if c < 0.90 and nd == 1 and dims[0] >= 2:
        return f"{x}:unfold(1, 2, 1)"
    if c < 0.95:
        return f"{x}:sub(1, 1)"
    return f"{x}:view({', '.join(map(str, reversed(dims)))})"


def tensor_case(rng):
    T = rng.choice(TYPES + ["Half"])
    vals = family(rng, T)
    dims = shape(rng)
    x = view(rng, f"mk('{T}', {{{', '.join(map(str, dims))}}}, {{{', '.join(vals)}}})", dims)
    return rng.choice([f"print({x})", f"io.write(tostring({x}))", f"print(tostring({x}))",
                       f"print({x}, {x}:size())", f"local x = {x}; print(x:size()); print(x)"])


def empty_case(rng):
    T = rng.choice(TYPES)
    return rng.choice([
        f"print(torch.{T}Tensor())", f"print(torch.{T}Tensor(0))", f"print(torch.{T}Tensor():size())",
        f"print(torch.{T}Storage())", f"print(torch.{T}Storage(0))", f"print(torch.{T}Tensor(3):narrow(1, 1, 0))",
        f"io.write(tostring(torch.{T}Tensor()))", f"print(torch.{T}Tensor(), torch.{T}Tensor(1):fill(1))",
        f"print(torch.{T}Tensor():stride())", f"print(torch.{T}Tensor(2, 0):fill(3))", f"print(#torch.{T}Tensor())",
        f"print(torch.{T}Tensor(1, 1, 1, 1):fill(7))", f"print(torch.{T}Tensor(1, 1, 1):fill(0))",
        f"print(torch.{T}Tensor(2, 1, 2, 1, 2):fill(1))", f"print(torch.{T}Tensor(1):fill(5):__tostring__())",
        f"print(torch.{T}Storage(3):fill(2):totable())", f"print(torch.{T}Tensor(2, 2):fill(1):type())",
    ])


def storage_case(rng):
    T = rng.choice(TYPES + ["Half"])
    vals = family(rng, T)
    s = rng.choice([f"st('{T}', {{{', '.join(vals)}}})",
                    f"mk('{T}', {{{len(vals)}}}, {{{', '.join(vals)}}}):storage()"])
    return rng.choice([f"print({s})", f"io.write(tostring({s}))", f"print({s}, {s})",
                       f"print({s}:size(), #{s})"])


def size_case(rng):
    dims = ", ".join(str(rng.choice([1, 2, 3, 5, 10, 100, 1000000, 2 ** 31, 2 ** 40])) for _ in range(rng.randint(0, 5)))
    small = ", ".join(str(rng.choice([1, 2, 3, 4])) for _ in range(rng.randint(1, 4)))
    return rng.choice([
        f"print(torch.LongStorage({{{dims}}}))", f"print(torch.Tensor({small}):size())",
        f"print(torch.Tensor({small}):stride())", f"print(torch.Tensor({small}):t():stride())" if small.count(",") == 1
        else f"print(torch.Tensor({small}):size():totable())",
        f"print(torch.LongStorage({{{dims}}}):totable())", f"print(torch.Tensor({small}):size(1))",
        f"print(torch.Tensor({small}):nElement(), torch.Tensor({small}):dim())",
        f"print(torch.LongStorage({{{dims}}}), torch.IntStorage({{{small}}}))",
        f"io.write(tostring(torch.Tensor({small}):size()))",
    ])


def number(rng):
    c = rng.random()
    if c < 0.15:
        return rng.choice(SPECIAL + ["math.huge", "-math.huge", "math.pi", "-math.pi", "2^53", "2^53 + 1",
                                     "2^63", "-2^63", "2^-1074", "2.2250738585072014e-308",
                                     "1.7976931348623157e308", "0.1 + 0.2", "1/3", "2/3", "2^-21", "1e15",
                                     "1e16", "1e14", "123456789012345", "0.03125", "2.5", "-2.5", "0.5"])
    if c < 0.22:
        return neartie(rng)
    if c < 0.3:
        return lit(rng.randint(-10 ** 6, 10 ** 6))
    if c < 0.4:
        return lit(tie4(rng))
    if c < 0.5:
        return lit(rng.randint(-10 ** 9, 10 ** 9) / 2 ** rng.randint(1, 30))
    if c < 0.6:
        return lit(rng.choice([1, -1]) * (rng.randint(1, 10 ** 15) + 0.5))
    return lit(magnitude(rng, -13, 17) if rng.random() < 0.9 else magnitude(rng, -320, 308))


# marks the cases turning numbers into strings by `..`: LuaJIT's VM does it
# without tostring, and lupa's rounds a tie (tostring(2^-21)'s
# 4.7683715820312e-07 for the original's ...313e-07) or a number close to
# one as th cannot change; their differences are counted apart ("known")
CONCAT = "--[[concat]]"
# and math.ceil of a number between -1 and -0.5: -0 in th (as C's ceil and
# the original's compiled traces), 0 in the original's interpreter
CEIL = "--[[ceil]]"
KNOWN = (CONCAT, CEIL)

SPECS = ["%g", "%f", "%e", "%d", "%s", "%5.2f", "%.14g", "%.3g", "%10.4f", "%-8.3e", "%+g", "% f", "%08.3f",
         "%.0f", "%.0e", "%#g", "%x", "%i", "%5d", "%-5d|", "%.17g", "%G", "%E", "%.10f", "%12.4e", "%.1f",
         "%7.4f", "%11.4e", "%q", "%.20f", "%#.0f", "%+.3e", "%o", "%X", "%c", "%5s", "%-10s|", "%.2s",
         "%u", "%.99f", "%3.0f", "%.4f", "%.3d", "%+5i", "%-+8.3x", "%a", "%.3a", "%A", "%#o", "%#x", "%05.1f",
         "%.0g", "%#.0e", "%-+12.5G|", "%.15g", "%.16g"]


def format_case(rng):
    specs = [rng.choice(SPECS) for _ in range(rng.randint(1, 3))]
    args = []
    for s in specs:
        if s[-1] in "dixXocu" or s.endswith("d|"):
            args.append(rng.choice([lit(rng.randint(-10 ** 6, 10 ** 6)), lit(rng.randint(32, 126)), "2^31",
                                    "-2^31", "2^53", "1e15", "-1", "0", "2^63", "-0.0", "3.7", "-3.7", "0.5",
                                    "1e300", "0/0", "1/0", "255"]))
        else:
            args.append(number(rng) if rng.random() < 0.9 else
                        rng.choice(["'0.125'", "' 1e-3 '", "'0x10'", "'-2.5'", "'7'", "'1e400'"]))
    fmt = " ".join(specs).replace("'", "\\'")
    call = f"string.format('{fmt}', {', '.join(args)})"
    return rng.choice([f"print({call})", f"io.write({call}, '\\n')", f"print(({call}):len(), {call})"])


def number_case(rng):
    vs = [number(rng) for _ in range(rng.randint(1, 4))]
    v = vs[0]
    return rng.choice([
        f"print({', '.join(vs)})", f"io.write({', '.join(vs)})", f"io.write({v}, ' ', {vs[-1]}, '\\n')",
        f"print(tostring({v}))", f"print('' .. {v}) {CONCAT}", f"print({v} .. '|' .. {vs[-1]}) {CONCAT}",
        f"local f = io.tmpfile(); f:write({', '.join(vs)}); f:seek('set'); print(f:read('*a')); f:close()",
        f"print(tonumber(tostring({v})) == {v})", f"print(math.floor({v}), math.ceil({v})) {CEIL}",
        f"print({v}, nil, true, 'x')", f"print(torch.Tensor({{{v}}})[1])", f"print(torch.FloatTensor({{{v}}})[1])",
        f"print(torch.Tensor({{{', '.join(vs)}}}):sum())", f"print(tostring({v}):len())",
        f"print(string.format('%s', {v}) == tostring({v}))", f"print(({v}) % 1, -({v}))",
    ])


def table_case(rng):
    T = rng.choice(TYPES)
    vals = family(rng, T)
    x = f"mk('{T}', {{{len(vals)}}}, {{{', '.join(vals)}}})"
    n = number(rng)
    return rng.choice([
        f"print({{{x}}})", f"print({{{x}, {x}:storage(), {n}, 'x', true}})", f"print({{a = {x}}})",
        f"print({{{{{x}}}, {{}}}})", f"print({{{n}, {{{n}}}}})", f"print(tostring({{{x}}}):sub(1, 6))",
        f"print({{s = {x}:size()}})", f"print({{{x}:view(1, -1)}})", f"print({{torch.{T}Tensor()}})",
        f"print({x}, {{{n}}}, {n})", f"print({{{{{{{{{{{{{x}}}}}}}}}}}}})",
        f"print({{'{T}', {n}, -0.0, 0/0}})",
    ])


def big_case(rng):
    """larger tensors: many columns, many slices, long vectors"""
    T = rng.choice(TYPES)
    vals = family(rng, T)
    dims = rng.choice([[2, rng.randint(8, 90)], [rng.randint(30, 150)], [2, 2, rng.randint(8, 40)],
                       [2, 3, 2, rng.randint(5, 30)], [1, rng.randint(70, 200)], [3, 1, 1, 2], [40, 3]])
    x = view(rng, f"mk('{T}', {{{', '.join(map(str, dims))}}}, {{{', '.join(vals)}}})", dims)
    return rng.choice([f"print({x})", f"io.write(tostring({x}))"])


def misc_case(rng):
    """Long values past 2^53, the default tensor type, char storages from
    strings, sums and other numbers a tensor gives"""
    n = number(rng)
    T = rng.choice(TYPES)
    vals = family(rng, T)
    x = f"mk('{T}', {{{len(vals)}}}, {{{', '.join(vals)}}})"
    return rng.choice([
        f"print(torch.LongTensor({{2^53, -2^53, 2^62}}):add({rng.choice([1, 3, -1, 7])}))",
        f"print(torch.LongTensor({{2^62, 2^40 + 1}}):mul(-1):view(1, 2))",
        f"torch.setdefaulttensortype('torch.FloatTensor'); local ok, e = pcall(print, torch.Tensor({{{n}, 1}})); "
        f"torch.setdefaulttensortype('torch.DoubleTensor'); assert(ok, e)",
        f"print(torch.CharStorage():string('{rng.choice(['abc', 'hello world', 'x'])}'))",
        f"print({x}:sum(), {x}:max(), {x}:min())", f"print({x}:double():mean(), {x}:double():std())",
        f"print({x}[1], {x}:storage()[1])", f"print(torch.Tensor({{{n}}}):float()[1])",
        f"print({x}:double():mul({n}))", f"print({x}:double():div({n}))", f"print({x}:double():add({n}))",
        f"print(torch.Tensor({{{n}, {number(rng)}, {number(rng)}}}))",
        f"print(torch.FloatTensor({{{n}, {number(rng)}, {number(rng)}}}))",
        f"print(torch.Tensor({{{{{n}, {number(rng)}}}, {{{number(rng)}, {number(rng)}}}}}))",
    ])


def case(rng):
    c = rng.random()
    for limit, make in [(0.35, tensor_case), (0.42, empty_case), (0.52, storage_case), (0.57, size_case),
                        (0.70, format_case), (0.80, number_case), (0.86, table_case), (0.93, misc_case),
                        (1.0, big_case)]:
        if c < limit:
            return make(rng)


def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def main():
    args = arguments(calls=3000)
    rng = random.Random(args.seed)
    cases = [case(rng) for _ in range(args.calls)]
    differ, th_fail, ref_fail = [], {}, {}
    for start in range(0, len(cases), args.batch):
        chunk = cases[start:start + args.batch]
        want, rf = run_all(args.ref, chunk, start, args.timeout, PRELUDE)
        have, tf = run_all(args.th, chunk, start, args.timeout, PRELUDE)
        ref_fail.update(rf)
        th_fail.update(tf)
        for k in range(start, start + len(chunk)):
            if k in rf:
                continue
            w, h = want.get(k, "<missing>"), have.get(k, tf.get(k, "<missing>"))
            if w != h:
                differ.append((k, w, h))
    known = [d for d in differ if any(tag in cases[d[0]] for tag in KNOWN)]
    differ = [d for d in differ if d not in known]
    print(f"cases: {len(cases)}  original crashes/hangs: {len(ref_fail)}  th crashes/hangs: {len(th_fail)}  "
          f"differ: {len(differ)}  known (number .. string, math.ceil): {len(known)}")
    for k, status in sorted(ref_fail.items()):
        print(f"  original {status} at {k}: {cases[k]}")
    for k, status in sorted(th_fail.items()):
        print(f"  th {status} at {k}: {cases[k]}")
    for k, w, h in differ[:args.show] + known[:max(0, args.show - len(differ)) // 4]:
        print(f"--- {k}: {cases[k][:400]}")
        w, h = unescape(w.rstrip("|")).split("\n"), unescape(h.rstrip("|")).split("\n")
        for line in difflib.unified_diff(w, h, "original", "th", n=1, lineterm=""):
            print("   " + repr(line)[1:-1] if line[:1] in "+- " else "   " + line)


if __name__ == "__main__":
    main()
