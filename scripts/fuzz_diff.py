"""Differential fuzz of th against the original Torch7.

Generates random torch calls (valid and invalid arguments), runs them in
batches under both `th` commands and compares what each call printed: a
result's type, sizes and values (5 significant digits), or just "error".
A batch that crashes or hangs is reported as such.

    python scripts/fuzz_diff.py --calls 10000 --seed 7 \
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th [--show 20]
"""
import argparse
import os
import random
import subprocess
import tempfile

# the Lua every fuzzer's prelude starts with (walk, counter, heading, filled)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz_prelude.lua"), encoding="utf-8") as _f:
    SHARED_LUA = _f.read()

PRELUDE = SHARED_LUA + r"""
io.stdout:setvbuf('line')   -- the original dies of SIGFPE on some calls: keep what came before
local function fmt(v)
   if v ~= v then return 'nan' end
   return string.format('%.5g', v)
end
local function repr(r)
   if torch.isTensor(r) then
      local n = r:nElement()
      local parts = {torch.type(r), r:dim() == 0 and 'empty' or table.concat(r:size():totable(), 'x')}
      if n > 0 then
         local c = r:contiguous():view(-1)
         for i = 1, math.min(n, 40) do parts[#parts + 1] = fmt(c[i]) end
      end
      return table.concat(parts, ' ')
   elseif torch.isStorage and torch.isStorage(r) then
      return torch.type(r) .. ' ' .. r:size()
   elseif type(r) == 'number' then
      return fmt(r)
   elseif type(r) == 'string' then
      return (r:gsub('\n', '|'))
   elseif type(r) == 'table' then
      local parts = {}
      for i, v in ipairs(r) do parts[i] = repr(v) end
      return '{' .. table.concat(parts, '; ') .. '}'
   end
   return tostring(r)
end
-- mk(type, sizes, kind): a deterministic tensor
function mk(T, sizes, kind)
   return filled(T, sizes, function(i)
      if kind == 'pos' then return (i * 7) % 11 + 1
      elseif kind == 'frac' then return ((i * 37) % 19) * 0.25 - 2
      elseif kind == 'bin' then return (i * 5) % 3 == 0 and 1 or 0
      elseif kind == 'idx' then return (i * 3) % 2 + 1 end
      return (i * 7) % 11 - 5
   end)
end
function show(i, f)
   local ok, a, b = pcall(f)
   if not ok then print(i .. ' error') return end
   local out = repr(a)
   if b ~= nil then out = out .. ' | ' .. repr(b) end
   print(i .. ' ok ' .. out)
end
"""

TYPES = ["Double", "Float", "Long", "Int", "Short", "Char", "Byte"]
NUMBERS = ["0", "1", "2", "3", "-1", "-2", "0.5", "1.5", "2.7", "-0.5", "100", "2^31", "1e10", "-3.5", "7"]
COUNTS = NUMBERS[:11] + ["-3.5", "7"]     # no huge counts: the original would allocate them
DIMS = ["1", "2", "3", "0", "-1", "1.5", "4"]
KINDS = ["'pos'", "'frac'", "'mix'"]


def sizes(rng):
    nd = rng.choice([1, 1, 2, 2, 2, 3])
    return [rng.choice([1, 2, 3, 4, 5]) for _ in range(nd)]


def tensor(rng, T=None, shape=None, kind=None):
    T = T or rng.choice(TYPES)
    shape = shape or sizes(rng)
    kind = kind or rng.choice(KINDS)
    return f"mk('{T}', {{{', '.join(map(str, shape))}}}, {kind})", T, shape


def big(rng, T):
    """a tensor past the small-tensor size (the bulk paths)"""
    return tensor(rng, T, [rng.choice([9, 10, 13]), rng.choice([8, 10])])


UNARY = ["abs", "neg", "sign", "sqrt", "exp", "log", "floor", "ceil", "round", "trunc", "frac",
         "sigmoid", "tanh", "cinv", "cos", "atan", "log1p", "rsqrt"]
BYNUMBER = ["add", "mul", "div", "fmod", "remainder", "pow", "cmax", "cmin", "csub", "lt", "ge", "eq", "ne"]
BYTENSOR = ["add", "cmul", "cdiv", "cpow", "cfmod", "cremainder", "cmax", "cmin", "csub", "lt", "le", "eq",
            "atan2", "dist", "dot"]
REDUCE = ["sum", "prod", "max", "min", "mean", "std", "var", "cumsum", "cumprod", "sort", "median", "mode",
          "norm", "all", "any", "logicalall"]


SCALES = ["1", "1e-3", "1e5", "0.03125", "1e-7", "-1", "1e12"]
BITS = ["bitand", "bitor", "bitxor", "lshift", "rshift", "cbitand", "clshift", "crshift"]


def more(rng, T, x, y, shape, n, d):
    """Printing, serialization, scatter/index*, sorting, BLAS, logical and
    bit operations, conversions and numeric strings."""
    shp = ", ".join(map(str, shape))
    a, b, c = (rng.choice([1, 2, 3]) for _ in range(3))
    k = rng.choice(["1", "2", "3", "0", "-1", "1.5"])
    return rng.choice([
        f"return tostring({x})", f"return tostring({x}:mul({rng.choice(SCALES)}))",
        f"return tostring({x}:storage())", f"return tostring(torch.{T}Tensor(2, {rng.choice([30, 12])}):fill({n}))",
        f"return torch.deserialize(torch.serialize({x}))",
        f"return torch.serialize({x}, 'ascii')", f"return torch.deserialize(torch.serialize({x}, 'ascii'), 'ascii')",
        f"local r = {x}:clone(); r:scatter({d}, mk('Long', {{{shp}}}, 'idx'), {n}); return r",
        f"local r = {x}:clone(); r:scatter({d}, mk('Long', {{{shp}}}, 'idx'), {y}); return r",
        f"local r = {x}:clone(); r:indexAdd({d}, torch.LongTensor{{1}}, {y}:narrow({d}, 1, 1)); return r",
        f"local r = {x}:clone(); r:indexCopy({d}, torch.LongTensor{{{k}}}, {y}:narrow({d}, 1, 1)); return r",
        f"local r = {x}:clone(); r:maskedCopy(mk('Byte', {{{shp}}}, 'bin'), {y}); return r",
        f"return torch.sort({x}, {d}, true)", f"return torch.topk({x}, {k}, {d}, true, true)",
        f"return torch.topk({x}, {k}, {d}, false, false)", f"return torch.kthvalue({x}, {k}, {d})",
        f"return torch.median({x}, {d})", f"return torch.mode({x}, {d})", f"return torch.nonzero({x})",
        f"return torch.cross({x}, {y})", f"return torch.cross({x}, {y}, {d})",
        f"return torch.addmm({n}, mk('{T}', {{{a}, {b}}}, 'mix'), {n}, mk('{T}', {{{a}, {c}}}, 'frac'), mk('{T}', {{{c}, {b}}}, 'pos'))",
        f"return torch.addmv({n}, mk('{T}', {{{a}}}, 'mix'), {n}, mk('{T}', {{{a}, {c}}}, 'frac'), mk('{T}', {{{c}}}, 'pos'))",
        f"return torch.addr(mk('{T}', {{{a}, {b}}}, 'mix'), {n}, mk('{T}', {{{a}}}, 'frac'), mk('{T}', {{{b}}}, 'pos'))",
        f"return torch.bmm(mk('{T}', {{2, {a}, {b}}}, 'mix'), mk('{T}', {{2, {b}, {c}}}, 'frac'))",
        f"return torch.baddbmm(mk('{T}', {{2, {a}, {c}}}, 'pos'), mk('{T}', {{2, {a}, {b}}}, 'mix'), mk('{T}', {{2, {b}, {c}}}, 'frac'))",
        f"return torch.mm({x}:t(), {y})", f"return torch.renorm({x}, {rng.choice(['1', '2', '0.5'])}, {d}, {n})",
        f"return torch.histc({x}, {a + 2}, {rng.choice(NUMBERS)}, {rng.choice(NUMBERS)})",
        f"return torch.{rng.choice(BITS)}({x}, {n})", f"return torch.{rng.choice(BITS)}({x}, {y})",
        f"return {x}:{rng.choice(['byte', 'char', 'short', 'int', 'long', 'float', 'double'])}()",
        f"return torch.add({x}, '{n}')", f"return {x}:mul('{n}')", f"return {x}:narrow('{d}', '1', '1')",
        f"return torch.{T}Tensor({{{{{n}, {rng.choice(NUMBERS)}}}, {{{a}, {b}}}}})",
        f"return torch.{T}Tensor({{'{n}', {a}}})", f"local x = {x}; x['{a}'] = '{n}'; return x",
        f"return torch.mean({x}, {d})", f"return torch.std({x}, {d}, true)", f"return torch.var({x}, {d})",
        f"return torch.cumsum({x}, {d})", f"return torch.cumprod({x}, {d})", f"return torch.trace({x})",
        f"return torch.diag({x})", f"return torch.sign({x})", f"return torch.numel({x})",
        f"return {x}:clone():resizeAs({y})", f"return {x}:isSameSizeAs({y})", f"return {x}:nDimension()",
        f"return torch.all(torch.eq({x}, {y}))", f"return torch.any(torch.ne({x}, {n}))",
        f"return torch.addcdiv({x}, {n}, {y}, mk('{T}', {{{shp}}}, 'pos'))",
        f"return torch.xcorr2(mk('{T}', {{4, 4}}, 'mix'), mk('{T}', {{{a}, {b}}}, 'frac'))",
        f"return torch.conv2(mk('{T}', {{4, 4}}, 'mix'), mk('{T}', {{{a}, {b}}}, 'frac'), 'F')",
    ])


def call(rng):
    """One random call as a Lua expression (a function body returning values)."""
    kind = rng.random()
    T = rng.choice(TYPES)
    x, _, shape = (big(rng, T) if rng.random() < 0.2 else tensor(rng, T))
    y, _, _ = tensor(rng, T if rng.random() < 0.9 else None, shape if rng.random() < 0.85 else None)
    n = rng.choice(NUMBERS)
    d = rng.choice(DIMS)
    if rng.random() < 0.3:
        return more(rng, T, x, y, shape, n, d)
    if kind < 0.12:
        f = rng.choice(UNARY)
        return rng.choice([f"return torch.{f}({x})", f"local x = {x}; x:{f}(); return x"])
    if kind < 0.27:
        f = rng.choice(BYNUMBER)
        return rng.choice([f"return torch.{f}({x}, {n})", f"local x = {x}; local r = x:{f}({n}); return x, r"])
    if kind < 0.42:
        f = rng.choice(BYTENSOR)
        return rng.choice([f"return torch.{f}({x}, {y})", f"local x = {x}; local r = x:{f}({y}); return x, r"])
    if kind < 0.50:
        f = rng.choice(["addcmul", "addcdiv", "add", "lerp"])
        z, _, _ = tensor(rng, T, shape, "'pos'")
        if f == "add":
            return f"return torch.add({x}, {n}, {y})"
        if f == "lerp":
            return f"return torch.lerp({x}, {y}, {n})"
        return f"return torch.{f}({x}, {n}, {y}, {z})"
    if kind < 0.62:
        f = rng.choice(REDUCE)
        form = rng.choice([f"return torch.{f}({x})", f"return torch.{f}({x}, {d})", f"return {x}:{f}({d})"])
        if f == "norm":
            form = rng.choice([f"return torch.norm({x}, {n})", f"return torch.norm({x}, {n}, {d})"])
        return form
    if kind < 0.66:
        f = rng.choice(["topk", "kthvalue"])
        return rng.choice([f"return torch.{f}({x}, {n})", f"return torch.{f}({x}, {n}, {d})"])
    if kind < 0.80:
        i, j = rng.choice(NUMBERS[:10] + ["2^31", "-2^31"]), rng.choice(NUMBERS[:10])
        return rng.choice([
            f"return {x}:narrow({d}, {i}, {j})", f"return {x}:select({d}, {i})", f"return {x}:sub({i}, {j})",
            f"return {x}:transpose({d}, {rng.choice(DIMS)})", f"return {x}:unfold({d}, {i}, {j})",
            f"return {x}:view(-1, {i})", f"return {x}:repeatTensor({i}, {j})", f"return {x}:squeeze({d})",
            f"return torch.cat({x}, {y}, {d})", f"return torch.split({x}, {i}, {d})",
            f"return torch.chunk({x}, {i}, {d})", f"return {x}:index({d}, torch.LongTensor{{{i}, {j}}})",
            f"return {x}:gather({d}, mk('Long', {{{', '.join(map(str, shape))}}}, 'idx'))",
            f"return {x}:maskedSelect(mk('Byte', {{{', '.join(map(str, shape))}}}, 'bin'))",
            f"local x = {x}; x:maskedFill(mk('Byte', {{{', '.join(map(str, shape))}}}, 'bin'), {n}); return x",
            f"local x = {x}; x:indexFill({d}, torch.LongTensor{{1}}, {n}); return x",
            f"return {x}[{i}]", f"local x = {x}; x[{i}] = {n}; return x",
            f"return {x}:expand({', '.join(str(rng.choice([1, 2, 3, -1])) for _ in shape)})",
            f"return {x}:t()", f"return {x}:clone():resize({i}, {j}):nElement()",
        ])
    if kind < 0.90:
        a, b, n = rng.choice(COUNTS), rng.choice(COUNTS), rng.choice(COUNTS)
        return rng.choice([
            f"return torch.range({a}, {b})", f"return torch.range({a}, {b}, {n})",
            f"return torch.linspace({a}, {b}, {n})", f"return torch.logspace({a}, {b}, {n})",
            f"return torch.eye({a}, {b})", f"return torch.diag({x}, {a})", f"return torch.tril({x}, {a})",
            f"return torch.triu({x}, {a})", f"return torch.histc({x}, {a})",
            f"return torch.zeros({a}, {b})", f"return torch.ones({a})",
            f"return torch.{T}Tensor():range({a}, {b})",
            f"return torch.range(torch.{T}Tensor({rng.choice([2, 3, 4])}, 2), {a}, {b})",
        ])
    T2 = rng.choice(TYPES)
    return rng.choice([
        f"return {x}:type('torch.{T2}Tensor')", f"return {x}:clamp({n}, {rng.choice(NUMBERS)})",
        f"return torch.{T2}Tensor({shape[0]}):copy({x}:select(1, 1):contiguous():view(-1):narrow(1, 1, 1):expand({shape[0]}))",
        f"return {x}:fill({n})", f"return torch.mm({x}, {y})", f"return torch.mv({x}, {y})",
        f"return torch.ger({x}, {y})", f"return {x}:equal({y})", f"return {x}:apply(function(v) return v * 2 end)",
        f"return {x}:map({y}, function(a, b) return a - b end)",
        f"local x = {x}:narrow(1, 1, 1):expand({', '.join(map(str, [max(shape[0], 2)] + shape[1:]))}); "
        f"x:add({n}); return x",
    ])


def batch_program(calls, offset, prelude=PRELUDE):
    lines = [prelude]
    for k, body in enumerate(calls):
        lines.append(f"show({offset + k}, function() {body} end)")
    return "\n".join(lines) + "\n"


def run(cmd, program, timeout):
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(program)
        path = f.name
    try:
        p = subprocess.run([cmd, path], capture_output=True, text=True, errors="replace", timeout=timeout)
        status = "ok" if p.returncode == 0 else f"exit {p.returncode}"
        out = p.stdout
    except subprocess.TimeoutExpired as e:
        status, out = "hang", (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
    finally:
        os.unlink(path)
    results = {}
    for line in out.splitlines():
        num, _, rest = line.partition(" ")
        if num.isdigit():
            results[int(num)] = rest.rstrip()
    return status, results


def same(want, have):
    """Outputs agree: the same words and numbers (5 significant digits, which
    th formats as the original's LuaJIT did, exact ties included)."""
    return want.split() == have.split()


def run_all(cmd, calls, start, timeout, prelude=PRELUDE):
    """Run calls[start:] under cmd (each call a function body, after the Lua
    prelude), resuming after a call that kills the process -> results by
    call number, {call number: 'crash' or 'hang'}."""
    results, failures = {}, {}
    at = start
    end = start + len(calls)
    while at < end:
        status, got = run(cmd, batch_program(calls[at - start:], at, prelude), timeout)
        results.update(got)
        if status == "ok":
            break
        last = max([k for k in got if k >= at], default=at - 1)
        failures[last + 1] = "hang" if status == "hang" else "crash"
        at = last + 2
    return results, failures


def differences(calls, th, ref, batch, timeout, prelude=PRELUDE):
    """Run the calls under both commands, batch by batch -> the mismatches
    (number, call, original's output, th's), th's crashes and hangs, the
    original's"""
    mismatches, th_failures, ref_failures = [], {}, {}
    for start in range(0, len(calls), batch):
        chunk = calls[start:start + batch]
        want_all, rf = run_all(ref, chunk, start, timeout, prelude)
        got, tf = run_all(th, chunk, start, timeout, prelude)
        ref_failures.update(rf)
        th_failures.update(tf)
        for k in range(start, start + len(chunk)):
            if k in rf:
                continue   # the original crashed or hung here: th does better with an error
            want, have = want_all.get(k, "missing"), got.get(k, tf.get(k, "missing"))
            if want == "error" and have == "error":
                continue
            if not same(want, have):
                mismatches.append((k, calls[k], want, have))
    return mismatches, th_failures, ref_failures


def report(calls, mismatches, th_failures, ref_failures, show):
    print(f"calls: {len(calls)}  original crashes/hangs: {len(ref_failures)}  "
          f"th crashes/hangs: {len(th_failures)}  mismatches: {len(mismatches)}")
    for k, status in sorted(th_failures.items()):
        print(f"  th {status} at {k}: {calls[k]}")
    for k, body, want, have in mismatches[:show]:
        print(f"--- {k}: {body}\n  ref: {want[:300]}\n  th:  {have[:300]}")


def unexplained(mismatches, known):
    """The mismatches no (name, test(body, want, have)) of known explains;
    those it does are printed as known, by name"""
    left = []
    for m in mismatches:
        name = next((name for name, test in known if test(m[1], m[2], m[3])), None)
        if name:
            print(f"known ({name}): {m[0]}")
        else:
            left.append(m)
    return left


def show_by_lines(calls, mismatches, th_failures, ref_failures, show, known, differing):
    """report's counts, then each mismatch by its differing lines
    (differing(want, have) -> pairs of lines), those known(want, have)
    names counted apart by name"""
    report(calls, [], th_failures, ref_failures, 0)
    for k, status in sorted(ref_failures.items()):
        print(f"  original {status} at {k}: {calls[k][:600]}")
    counts, new = {}, []
    for m in mismatches:
        name = known(m[2], m[3])
        if name:
            counts[name] = counts.get(name, 0) + 1
        else:
            new.append(m)
    print(f"mismatches: {len(new)} (and {sum(counts.values())} known)")
    for name, n in sorted(counts.items()):
        print(f"  known: {n} x {name}")
    for k, body, want, have in new[:show]:
        print(f"--- {k}: {body}")
        for a, b in differing(want, have):
            print(f"  ref: {a[:400]}\n  th:  {b[:400]}")


def arguments(calls=10000, name="calls"):
    """the fuzzers' options; `name` is what the count of cases is called on the command line"""
    ap = argparse.ArgumentParser()
    ap.add_argument("--" + name, dest="calls", type=int, default=calls)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--th", default=".venv/bin/th")
    ap.add_argument("--ref", default="/opt/torch7-ref/bin/th")
    ap.add_argument("--show", type=int, default=30)
    ap.add_argument("--timeout", type=float, default=60)
    return ap.parse_args()


def main():
    args = arguments()
    rng = random.Random(args.seed)
    calls = [call(rng) for _ in range(args.calls)]
    report(calls, *differences(calls, args.th, args.ref, args.batch, args.timeout), args.show)


if __name__ == "__main__":
    main()
