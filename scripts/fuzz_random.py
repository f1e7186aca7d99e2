"""Differential fuzz of Torch7's random numbers against the original.

Each case is a short seeded program: torch.manualSeed (or a torch.Generator's
seed) and then 3-9 steps drawn at random, run one after another so that the
generator's state (the Mersenne Twister's position in its 624 words, the
cached second normal value) carries over from step to step.  The steps:
seeds (numbers huge, negative, fractional, numeric and other strings, nan,
inf), initialSeed and seed; getRNGState/setRNGState of the default generator
and of Generator objects, states moved between them, corrupted (a byte of
the header changed), short, of another type or a view; every distribution as
a number (random with 0, 1 and 2 bounds, a > b, huge bounds; uniform,
normal, exponential, cauchy, logNormal, geometric, bernoulli) and as a
tensor method or torch.f(tensor, ...) on the seven types, contiguous or views
(transposed, narrowed, strided, selected, expanded, empty), bernoulli with a
Float or Double tensor of probabilities (outside [0, 1], NaN, other sizes),
multinomial (1-D and 2-D, views, zero rows, with and without replacement,
more samples than categories, into a given result), randperm (0, 1, into a
given tensor) and rand/randn (sizes as numbers or a LongStorage, into a
result, as methods, under another default type); a Generator as first
argument wherever it is accepted, and runs of plain draws that move the
stream across a regeneration of the state.  Each step prints its results
exactly (%.17g, integers as integers: tensors and their base tensors, which
show writes outside a view) or its error's message without its position, and
the case ends by drawing a number and a normal from each generator.

Uses fuzz_diff.py's runner (batches; a crash or hang resumes after the case).
A differing case is minimised: steps are dropped, one at a time, while the
difference stays.  Differences kept on purpose (KNOWN) are counted apart.

    python scripts/fuzz_random.py --calls 1000 --seed 1 \\
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th [--show 30] [--no-minimise]
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import arguments, differences, report, unexplained  # noqa: E402

PRELUDE = r"""
io.stdout:setvbuf('line')
local stdout = io.stdout
local deftype = torch.getdefaulttensortype()
local function num(v)
   if v ~= v then return 'nan' end
   if v == math.floor(v) and math.abs(v) < 2^63 then return string.format('%d', v) end
   return string.format('%.17g', v)
end
-- an error's message without where it was raised (th's file:line, TH's " at file:line")
local function clean(s)
   s = tostring(s):gsub('[^%s]*%.lua:%d+: ', ''):gsub('%[string "[^"]*"%]:%d+: ', '')
   return (s:gsub(' at /%S+:%d+', ''))
end
local function values(t)
   local n = t:nElement()
   if n == 0 then return '' end
   local c = t:contiguous():view(-1)
   local parts, sum, wsum = {}, 0, 0
   for i = 1, n do
      local v = c[i]
      if i <= 40 then parts[#parts + 1] = num(v) end
      if v == v then sum = sum + v; wsum = wsum + v * (i % 97) end
   end
   if n > 40 then parts[#parts + 1] = '... sum ' .. num(sum) .. ' w ' .. num(wsum) end
   return table.concat(parts, ' ')
end
local function dump(v)
   local t = type(v)
   if t == 'number' then return num(v) end
   if t == 'string' then return string.format('%q', v) end
   if torch.isTensor(v) then
      local sz = v:dim() == 0 and 'empty' or table.concat(v:size():totable(), 'x')
      return '<' .. torch.type(v) .. ' ' .. sz .. ' ' .. values(v) .. '>'
   end
   if torch.isStorage(v) then return '<' .. torch.type(v) .. ' #' .. v:size() .. '>' end
   if torch.typename(v) then return '<' .. torch.typename(v) .. '>' end
   return tostring(t == 'table' and t or v)
end
local outs
-- try(f): what f returns, or its error, into the case's output
function try(f)
   local r = {pcall(f)}
   if r[1] then
      local parts = {}
      for k = 2, table.maxn(r) do parts[#parts + 1] = dump(r[k]) end
      outs[#outs + 1] = table.concat(parts, ' ')
   else
      outs[#outs + 1] = 'err ' .. clean(r[2])
   end
end
-- fill(x): x's storage 1..6, 0 over and over (a deterministic start)
function fill(x)
   local s = x:storage()
   if s then for i = 1, s:size() do s[i] = i % 7 end end
   return x
end
-- state(s): a digest of an RNG state (its header bytes and a sum of the words)
function state(s)
   if not torch.isTensor(s) then return s end
   local parts, sum = {s:nElement()}, 0
   for i = 1, math.min(24, s:nElement()) do parts[#parts + 1] = s[i] end
   for i = 1, s:nElement() do sum = (sum * 31 + s[i]) % 1000000007 end
   return table.concat(parts, ',') .. ' #' .. sum
end
function show(i, f)
   outs = {}
   local ok, e = pcall(f)
   if not ok then outs[#outs + 1] = 'ERR ' .. clean(e) end
   torch.setdefaulttensortype(deftype)
   stdout:write(i, ' ', (table.concat(outs, ' ; '):gsub('\n', '\\n')), '\n')
end
"""

TYPES = ["Double", "Float", "Long", "Int", "Short", "Char", "Byte"]
FLOATS = ["Double", "Float"]
SEEDS = ["0", "1", "7", "123", "2^31 - 1", "2^31", "2^32", "2^32 + 5", "2^53", "2^53 + 2", "2^62", "2^63",
         "2^64", "-1", "-7", "-2^31", "-2^63", "1.5", "-2.7", "0.25", "1e300", "-1e300", "math.huge",
         "-math.huge", "0/0", "'42'", "'-3'", "'0x10'", "' 12 '", "'1e3'", "'abc'", "''", "nil", "true", "{}"]
BOUNDS = ["0", "1", "2", "3", "5", "10", "100", "-1", "-5", "-100", "127", "128", "255", "256", "-128", "-129",
          "32767", "32768", "-32769", "2^31 - 1", "2^31", "-2^31", "-2^31 - 1", "2^32 - 1", "2^32", "2^32 + 1",
          "2^40", "-2^40", "2^52", "2^53", "2^53 + 1", "2^62", "2^63", "-2^63", "1e20", "-1e20", "2.5", "-2.5",
          "0.5", "'7'", "'x'", "nil", "math.huge", "0/0"]
PARAMS = ["0", "1", "2", "-1", "0.5", "0.25", "0.999", "1e-300", "3", "-2.5", "100", "1e10", "1e300", "-1e300",
          "math.huge", "-math.huge", "0/0", "'2'", "nil", "true"]
PROBS = ["0", "1", "0.5", "0.3", "0.7", "1e-10", "0.999999", "-0.1", "1.1", "2", "0/0", "math.huge", "-0"]
MWEIGHTS = ["0", "1", "2", "0.5", "0.1", "3", "10", "1e-300", "1e300", "-1", "0/0", "math.huge"]
NSAMPLE = ["1", "2", "3", "4", "5", "7", "10", "0", "-1", "1.5", "'2'", "nil", "2^31"]
# (no huge sizes: 16 GB for 2^31; no negative ones, an error in th on
# purpose where Torch7 cut the dimensions there and drew the rest)
SIZES = ["0", "1", "2", "3", "5", "10", "1.5", "'3'", "nil"]


def gen(rng, k):
    """'' or a Generator argument followed by a comma"""
    return rng.choice(["", "", "", f"G{k}, "])


def shape(rng):
    r = rng.random()
    if r < 0.75:
        return [rng.randint(1, 4) for _ in range(rng.randint(1, 3))]
    if r < 0.92:
        return [rng.choice([13, 33, 65, 70, 100, 130])]
    return rng.choice([[700], [25, 30], [1250], [2049], [3001], [40, 77]])


def tensor(rng, T, name="x"):
    """Lua defining `name` (a tensor of type T: contiguous or a view) and
    `name`b (its base, whose other elements show writes outside the view)"""
    sz = shape(rng)
    dims = ", ".join(map(str, sz))
    form = rng.choice(["c", "c", "t", "n", "s", "sel", "tr", "e", "empty"])
    mk = f"torch.{T}Tensor"
    if form == "c" or (form in ("t", "tr") and len(sz) < 2):
        return f"local {name}b = fill({mk}({dims})); local {name} = {name}b"
    if form == "empty":
        return f"local {name}b = {mk}(); local {name} = {name}b"
    if form == "t":
        return f"local {name}b = fill({mk}({dims})); local {name} = {name}b:transpose(1, {len(sz)})"
    if form == "tr":
        return f"local {name}b = fill({mk}({dims})); local {name} = {name}b:transpose(1, 2)"
    if form == "n":
        big = sz[:-1] + [sz[-1] + 2]
        return (f"local {name}b = fill({mk}({', '.join(map(str, big))})); "
                f"local {name} = {name}b:narrow({len(sz)}, 2, {sz[-1]})")
    if form == "s":
        n = 1
        for v in sz:
            n *= v
        step = rng.choice([2, 3])
        return (f"local {name}b = fill({mk}({n * step})); "
                f"local {name} = {mk}({name}b:storage(), 2, torch.LongStorage{{{n}}}, torch.LongStorage{{{step}}})")
    if form == "sel":
        return f"local {name}b = fill({mk}({dims}, 3)); local {name} = {name}b:select({len(sz) + 1}, 2)"
    # expanded: a zero stride, the elements written over one another
    return f"local {name}b = fill({mk}(1, {sz[-1]})); local {name} = {name}b:expand({rng.randint(2, 3)}, {sz[-1]})"


def args(rng, pool, most):
    """0..most arguments from pool, as Lua text (trailing nils dropped)"""
    vals = [rng.choice(pool) for _ in range(rng.randint(0, most))]
    while vals and vals[-1] == "nil":
        vals.pop()
    return ", ".join(vals)


def join(*parts):
    return ", ".join(p for p in parts if p)


def step_seed(rng, k):
    g = rng.choice(["", "G1", "G2"])
    gc = g + ", " if g else ""
    r = rng.random()
    if r < 0.7:
        return (f"try(function() return torch.manualSeed({gc}{rng.choice(SEEDS)}) end); "
                f"try(function() return torch.initialSeed({g}) end)")
    if r < 0.85:
        # seed(): a fresh seed from the clock or entropy; set a known one after
        return (f"try(function() return type(torch.seed({g})), torch.initialSeed({g}) == torch.initialSeed({g}) end); "
                f"torch.manualSeed({gc}{rng.choice(SEEDS[:20])})")
    return f"try(function() return torch.initialSeed({rng.choice(['G1', 'G2', '', 'nil', '5'])}) end)"


def step_state(rng, k):
    g, h = rng.choice(["", "G1", "G2"]), rng.choice(["", "G1", "G2"])
    gc, hc = (v + ", " if v else "" for v in (g, h))
    r = rng.random()
    draw = rng.choice(["torch.random()", "torch.uniform()", "torch.normal()", "torch.rand(3)",
                       "torch.randn(3)", f"torch.random({hc.rstrip(', ')})", f"torch.normal({h})"])
    if r < 0.35:
        return (f"local s = torch.getRNGState({g}); try(function() return state(s) end); "
                f"try(function() return {draw}, {draw} end); "
                f"try(function() return state(torch.setRNGState({hc}s)) end); "
                f"try(function() return {draw}, {draw} end)")
    if r < 0.5:
        into = rng.choice(["torch.ByteTensor()", "torch.ByteTensor(10)", "torch.ByteTensor(6000)",
                           "torch.ByteTensor(100, 100):t()", "torch.FloatTensor()", "torch.ByteTensor(5048)"])
        return (f"try(function() local s = torch.getRNGState({gc}{into}); return state(s), s:isContiguous() end); "
                f"try(function() return {draw} end)")
    if r < 0.8:
        # (a byte of the header, of the cached normal, or of a state word's
        # low half: the high halves are 0 in every state a generator makes)
        pos = rng.choice(list(range(1, 25)) + [5025, 5029, 5033, 5041, 5045, 5048, 25 + 8 * rng.randint(0, 623) + rng.randint(0, 3)])
        val = rng.choice(["0", "1", "2", "255", "112", "113", "111", "7", "128"])
        return (f"local s = torch.getRNGState({g}):clone(); s[{pos}] = {val}; "
                f"try(function() return state(torch.setRNGState({hc}s)) end); "
                f"try(function() return {draw}, {draw}, {draw} end)")
    bad = rng.choice(["torch.ByteTensor(10)", "torch.ByteTensor()", "torch.getRNGState():narrow(1, 1, 5000)",
                      "torch.getRNGState():double()", "torch.getRNGState():view(8, 631)",
                      "torch.getRNGState():view(631, 8):t()", "torch.ByteTensor(5048):zero()",
                      "torch.ByteTensor(5049):fill(1)", "nil", "5", "'x'", "G1"])
    return (f"try(function() return state(torch.setRNGState({hc}{bad})) end); "
            f"try(function() return {draw} end)")


def step_number(rng, k):
    g = gen(rng, rng.choice([1, 2]))
    name = rng.choice(["random", "random", "uniform", "normal", "exponential", "cauchy", "logNormal",
                       "geometric", "bernoulli"])
    pool = BOUNDS if name == "random" else (PROBS if name in ("geometric", "bernoulli") else PARAMS)
    calls = [f"torch.{name}({join(g.rstrip(', '), args(rng, pool, 2 if name != 'geometric' else 1))})"
             for _ in range(rng.randint(1, 4))]
    return "; ".join(f"try(function() return {c} end)" for c in calls)


def step_fill(rng, k):
    T = rng.choice(TYPES)
    name = rng.choice(["random", "random", "uniform", "normal", "exponential", "cauchy", "logNormal",
                       "geometric", "bernoulli"])
    pool = BOUNDS if name == "random" else (PROBS if name in ("geometric", "bernoulli") else PARAMS)
    a = args(rng, pool, 2 if name not in ("geometric", "bernoulli") else 1)
    g = gen(rng, rng.choice([1, 2])).rstrip(", ")
    form = rng.random()
    if form < 0.5:
        call = f"x:{name}({join(g, a)})"
    elif form < 0.6:
        call = f"x.{name}({join('x', g, a)})"   # (a field call: named as the C function)
    elif form < 0.9:
        call = f"torch.{name}({join(g, 'x', a)})"
    else:
        call = f"torch.{name}({join('x', g, a)})"
    return f"{tensor(rng, T)}; try(function() local r = {call}; return r == x, x, xb end)"


def step_bernoulli(rng, k):
    T, P = rng.choice(TYPES), rng.choice(FLOATS + ["Long"] if rng.random() < 0.1 else FLOATS)
    vals = [rng.choice(PROBS[:7] if rng.random() < 0.7 else PROBS) for _ in range(rng.randint(1, 8))]
    g = gen(rng, rng.choice([1, 2])).rstrip(", ")
    psize = rng.choice(["x:nElement()", "x:nElement()", "x:nElement()", "x:nElement() + 1", "1"])
    form = rng.choice(["same", "flat", "t"])
    p = (f"local pv = {{{', '.join(vals)}}}; local p = torch.{P}Tensor(math.max({psize}, 0)); "
         f"for i = 1, p:nElement() do p[i] = pv[(i - 1) % #pv + 1] end; ")
    if form == "same":
        p += "if p:nElement() == x:nElement() and x:dim() > 0 then p = p:view(x:size()) end; "
    elif form == "t":
        p += "if p:nElement() == x:nElement() and x:dim() == 2 then p = p:view(x:size(2), x:size(1)):t() end; "
    call = rng.choice([f"x:bernoulli({join(g, 'p')})", f"torch.bernoulli({join(g, 'x', 'p')})"])
    return f"{tensor(rng, T)}; {p}try(function() local r = {call}; return x, xb end)"


def step_multinomial(rng, k):
    P = rng.choice(FLOATS + (["Long"] if rng.random() < 0.05 else []))
    rows = rng.choice([None, None, 1, 2, 3, 0])
    ncat = rng.choice([1, 2, 3, 4, 5, 6, 10, 30, 100])
    n = (rows or 1) * ncat
    if rng.random() < 0.8:
        vals = [rng.choice(MWEIGHTS[:7]) for _ in range(min(n, 12))]
    else:
        vals = [rng.choice(MWEIGHTS) for _ in range(min(n, 12))]
    dims = f"{ncat}" if rows is None else f"{rows}, {ncat}"
    p = (f"local pv = {{{', '.join(vals)}}}; local p = torch.{P}Tensor({dims}); local pf = p:view(-1); "
         f"for i = 1, p:nElement() do pf[i] = pv[(i - 1) % #pv + 1] end; ")
    if rows and rng.random() < 0.3:
        p += f"p = torch.{P}Tensor({ncat}, {rows}):copy(p:t():contiguous()):t(); "   # a transposed view
    if rows and rows > 1 and rng.random() < 0.2:
        p += "p[2]:zero(); "   # a row of zeros
    ns = rng.choice(NSAMPLE + [str(ncat), str(ncat), str(ncat + 1)])
    repl = rng.choice(["", "true", "false", "nil", "1"])
    g = gen(rng, rng.choice([1, 2])).rstrip(", ")
    res = rng.choice(["", "", "torch.LongTensor()", "torch.LongTensor(7)", "torch.LongTensor(5, 5):t()",
                      "torch.DoubleTensor()", "torch.LongTensor(3, 4)"])
    rest = join("p", ns, repl)
    if res:
        call = rng.choice([f"torch.multinomial({join('r0', g, rest)})", f"torch.multinomial({join(g, 'r0', rest)})",
                           f"p.multinomial({join('r0', g, rest)})"])
    else:
        call = rng.choice([f"torch.multinomial({join(g, rest)})", f"p:multinomial({join(g, ns, repl)})"])
    return (f"{p}local r0 = {res or 'nil'}; "
            f"try(function() local r = {call}; return r, r == r0 end)")


def step_randperm(rng, k):
    n = rng.choice(["0", "1", "2", "3", "5", "10", "100", "700", "5000", "-1", "1.5", "'4'", "nil", "2.9", "0/0"])
    g = gen(rng, rng.choice([1, 2])).rstrip(", ")
    res = rng.choice(["", "", "torch.LongTensor()", "torch.LongTensor(20)", "torch.DoubleTensor(3)",
                      "torch.FloatTensor()", "torch.IntTensor()", "torch.ByteTensor()",
                      "torch.LongTensor(4, 5):t()", "torch.DoubleTensor(30):narrow(1, 3, 10)"])
    call = f"torch.randperm({join('r0' if res else '', g, n)})"
    if res and rng.random() < 0.3:
        call = f"r0:randperm({join(g, n)})"
    return f"local r0 = {res or 'nil'}; try(function() local r = {call}; return r, r == r0 end)"


def step_rand(rng, k):
    name = rng.choice(["rand", "randn"])
    r = rng.random()
    if r < 0.4:
        sizes = ", ".join(rng.choice(SIZES[:6]) for _ in range(rng.randint(1, 3)))
    elif r < 0.55:
        sizes = "torch.LongStorage{" + ", ".join(rng.choice(SIZES[:6]) for _ in range(rng.randint(0, 3))) + "}"
    elif r < 0.6:
        dims = ", ".join(rng.choice(SIZES[1:5]) for _ in range(rng.randint(1, 2)))
        sizes = rng.choice([f"{{{dims}}}", f"torch.LongTensor{{{dims}}}", f"torch.LongStorage{{{dims}}}, 2",
                            f"torch.IntStorage{{{dims}}}"])
    else:
        sizes = ", ".join(rng.choice(SIZES) for _ in range(rng.randint(0, 3)))
    g = gen(rng, rng.choice([1, 2])).rstrip(", ")
    res = rng.choice(["", "", "torch.DoubleTensor()", "torch.FloatTensor(2, 2)", "torch.LongTensor()",
                      "torch.DoubleTensor(5, 5):t()"])
    pre = ""
    if rng.random() < 0.15:
        pre = f"torch.setdefaulttensortype('torch.{rng.choice(['FloatTensor', 'DoubleTensor', 'IntTensor'])}'); "
    if res and rng.random() < 0.3:
        call = f"r0:{name}({join(g, sizes)})"
    elif res:
        call = rng.choice([f"torch.{name}({join('r0', g, sizes)})", f"torch.{name}({join(g, 'r0', sizes)})"])
    else:
        call = f"torch.{name}({join(g, sizes)})"
    return f"local r0 = {res or 'nil'}; {pre}try(function() local r = {call}; return r, r == r0 end)"


def step_object(rng, k):
    """a Generator through serialization, and what is no Generator where one may be"""
    g = rng.choice(["G1", "G2"])
    r = rng.random()
    if r < 0.5:
        fmt = rng.choice(["", ", 'ascii'"])
        return (f"local G3 = torch.deserialize(torch.serialize({g}{fmt}){fmt}); "
                f"try(function() return torch.type(G3), torch.random(G3), torch.normal(G3), torch.random({g}), "
                f"torch.initialSeed(G3) end); try(function() return state(torch.getRNGState(G3)) end)")
    if r < 0.6:
        return ("try(function() local G3 = torch.Generator(" + rng.choice(["5", "G1", "'x'", "nil"]) + "); "
                "return torch.type(G3), torch.typename(G3), torch.isTypeOf(G3, 'torch.Generator'), G3 == G3 end)")
    bad = rng.choice(["{}", "'G'", "torch.FloatTensor(2)", "io.stdout", "true", "torch.LongStorage(2)"])
    call = rng.choice([f"torch.random({bad})", f"torch.random({bad}, 3)", f"torch.uniform({bad})",
                       f"torch.normal({bad}, 1)", f"torch.rand({bad}, 2)", f"torch.randperm({bad}, 3)",
                       f"torch.manualSeed({bad}, 3)", f"torch.initialSeed({bad})", f"torch.getRNGState({bad})",
                       f"torch.FloatTensor(3):uniform({bad})", f"torch.multinomial({bad}, torch.Tensor{{1, 2}}, 1)"])
    return f"try(function() return {call} end)"


def step_skip(rng, k):
    """plain draws that move the stream (across a regeneration of the state)"""
    n = rng.choice([1, 2, 3, 100, 300, 620, 623, 624, 625, 1000, 1247, 1248])
    g = rng.choice(["", "G1", "G2"])
    what = rng.choice([f"torch.random({g})", f"torch.uniform({g})", f"torch.normal({g})"])
    return f"for _ = 1, {n} do {what} end"


STEPS = {"seed": (step_seed, 2), "state": (step_state, 2), "number": (step_number, 3), "fill": (step_fill, 5),
         "bernoulli": (step_bernoulli, 2), "multinomial": (step_multinomial, 3), "randperm": (step_randperm, 2),
         "rand": (step_rand, 2), "object": (step_object, 1), "skip": (step_skip, 2)}


def case(rng, only=None):
    """a list of Lua statements: the generators and seeds, the steps, the end draws"""
    names = [n for n in STEPS if not only or n in only or n == "skip"]
    weights = [STEPS[n][1] for n in names]
    head = (f"local G1, G2 = torch.Generator(), torch.Generator(); torch.manualSeed({rng.choice(SEEDS[:12])}); "
            f"torch.manualSeed(G1, {rng.choice(SEEDS[:12])}); torch.manualSeed(G2, {rng.choice(SEEDS[:12])})")
    steps = [STEPS[rng.choices(names, weights)[0]][0](rng, k) for k in range(rng.randint(3, 9))]
    tail = ("try(function() return torch.random(), torch.normal(), torch.random(G1), torch.normal(G1), "
            "torch.random(G2), torch.normal(G2) end); "
            "try(function() return state(torch.getRNGState()), state(torch.getRNGState(G1)) end)")
    return [head] + [f"do {s} end" for s in steps] + [tail]


def body(stmts):
    return "\n".join(stmts)


def left_next(body, want, have):
    """a state set with left and next that disagree (a byte of either
    changed): the original read its words on past the end of the array
    (into the cached normal's bytes); th regenerates the state there"""
    return re.search(r"s\[(9|1[0-2]|1[7-9]|2[0-4])\] = ", body) is not None


# differences kept on purpose: (name, test(body, want, have))
KNOWN = [("left and next of a set state disagree", left_next)]


def minimise(cases, mismatches, args, prelude):
    """each mismatching case with its steps dropped one at a time while a
    difference KNOWN does not explain stays (one batch per round: every
    one-step-shorter variant)"""
    out = []
    for k, _, want, have in mismatches:
        stmts = cases[k]
        while len(stmts) > 2:
            variants = [stmts[:i] + stmts[i + 1:] for i in range(1, len(stmts) - 1)]
            found, _, _ = differences([body(v) for v in variants], args.th, args.ref, len(variants),
                                      args.timeout, prelude)
            found = [m for m in found if not any(test(m[1], m[2], m[3]) for _, test in KNOWN)]
            if not found:
                break
            stmts = variants[found[0][0]]
            want, have = found[0][2], found[0][3]
        out.append((k, body(stmts), want, have))
    return out


def main():
    argv = sys.argv[1:]
    only, do_min = None, True
    if "--only" in argv:
        at = argv.index("--only")
        only = argv[at + 1].split(",")
        del argv[at:at + 2]
    if "--no-minimise" in argv:
        argv.remove("--no-minimise")
        do_min = False
    sys.argv[1:] = argv
    args = arguments(1000)
    rng = random.Random(args.seed)
    cases = [case(rng, only) for _ in range(args.calls)]
    calls = [body(c) for c in cases]
    mismatches, th_failures, ref_failures = differences(calls, args.th, args.ref, args.batch, args.timeout, PRELUDE)
    for k, status in sorted(ref_failures.items()):
        print(f"  original {status} at {k}")
    left = unexplained(mismatches, KNOWN)
    if do_min:
        left = minimise(cases, left[:args.show], args, PRELUDE)
    report(calls, left, th_failures, ref_failures, args.show)


if __name__ == "__main__":
    main()
