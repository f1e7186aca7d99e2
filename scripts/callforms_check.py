"""Try every call form Torch7 declared, under th and under the original, and compare.

    python scripts/callforms_check.py record [--th /opt/torch7-ref/bin/th]
    python scripts/callforms_check.py check  [--th .venv/bin/th] [--show N] [--only NAME,...]

../shared/reference/callforms.txt lists each function's declared variants per
tensor type.  For every variant this makes calls with suitable arguments (every
subset of its optional arguments for up to three of them; all, none, and each
one alone or left out beyond that), seeds the generators before each call, and
prints per call: error or ok, the values (to 1e-5) and types returned, and every
tensor argument afterwards (in-place results).  `record` runs the original and stores
its lines in tests/fixtures/callforms_expected.txt; `check` runs th and counts
the calls whose line differs, by kind: th rejects a valid call, th accepts an
invalid one, or both run and give different results.
"""
import argparse
import collections
import itertools
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FORMS = ROOT.parent / "shared" / "reference" / "callforms.txt"
if not FORMS.exists():
    FORMS = pathlib.Path("/work/shared/reference/callforms.txt")
EXPECTED = ROOT / "tests" / "fixtures" / "callforms_expected.txt"
# the argument profiles: "square" (3x3 tensors, dimension 1, numbers 2) and
# "wide" (2x4 tensors, dimension 2, numbers 3), each with its recorded results
PROFILES = {"square": ((3, 3), 1, 2), "wide": ((2, 4), 2, 3)}
PROFILE = "square"


def expected_path():
    if PROFILE == "square":
        return EXPECTED
    return EXPECTED.with_name(f"callforms_expected_{PROFILE}.txt")

LINE = re.compile(r"^(\w+) (torch\.|x:)(\w+)\((.*)\)(?: -> (.+))?$")
NUMBER_TYPES = {"double", "float", "long", "int", "short", "char", "unsigned char", "ptrdiff_t"}
SPD = "spd"   # a symmetric positive definite 3x3 matrix, for LAPACK
IDX = "idx"   # a 3x3 LongTensor of indices 1..3

# the shapes of the tensor arguments (other than optional results), in order
SHAPES = {
    "addmv": [(3,), (3, 3), (3,)], "mv": [(3, 3), (3,)], "addr": [(3, 3), (3,), (3,)],
    "ger": [(3,), (3,)], "bmm": [(2, 3, 3)] * 2, "baddbmm": [(2, 3, 3)] * 3,
    "addbmm": [(3, 3), (2, 3, 3), (2, 3, 3)], "conv2": [(4, 4), (2, 2)], "xcorr2": [(4, 4), (2, 2)],
    "conv3": [(3, 3, 3), (2, 2, 2)], "xcorr3": [(3, 3, 3), (2, 2, 2)], "multinomial": [(3,)],
    "multinomialAliasSetup_": [(4,)], "multinomialAlias_": [(5,), "J", "q"],
    "gesv": [(3, 2), SPD], "trtrs": [(3, 2), SPD], "potrs": [(3, 2), SPD], "gels": [(3, 2), SPD],
    "potrf": [SPD], "potri": [SPD], "pstrf": [SPD], "symeig": [SPD], "eig": [SPD],
    "inverse": [SPD], "svd": [SPD], "qr": [SPD], "geqrf": [SPD],
    "orgqr": [SPD, (3,)], "ormqr": [SPD, (3,), (3, 3)],
    "gather": [(3, 3), IDX], "scatter": [(3, 3), IDX, (3, 3)],
}
# the values of the number arguments, in order (2 when not listed)
NUMBERS = {
    "range": [1, 6, 2], "linspace": [1, 3, 5], "logspace": [1, 3, 5], "clamp": [2, 5],
    "bernoulli": [0.5], "geometric": [0.5], "exponential": [1.5], "random": [2, 9],
    "uniform": [0, 1], "normal": [0, 1], "logNormal": [1, 0.5], "cauchy": [0, 1],
    "histc": [4, 1, 5], "bhistc": [4, 1, 5], "renorm": [2, 5], "lerp": [0.5],
    "eye": [3, 2], "randperm": [5], "pstrf": [-1], "match": [1], "diag": [1],
    "tril": [1], "triu": [1], "topk": [2], "kthvalue": [2], "abs": [-3], "neg": [3],
}
LONGARG = {"reshape": "9, 1", "rand": "2, 3", "randn": "2, 3", "zeros": "2, 3", "ones": "2, 3"}
INDEXARG = {"cross": 2}


class Arg:
    def __init__(self, text):
        self.optional = text.startswith("[")
        self.returned = text.endswith("*")
        core = text.strip("*").strip("[]")
        self.kind, _, self.default = core.partition("=")
        m = re.match(r"charoption\{(.*)\}", self.kind)
        self.options = m.group(1).split("|") if m else None
        self.tensor = self.kind.endswith("Tensor")
        self.result = self.tensor and self.optional and self.returned


def parse():
    forms = []
    for line in FORMS.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        m = LINE.match(line)
        if not m:
            raise ValueError(line)
        typ, how, name, args, ret = m.groups()
        forms.append((line, typ, how, name, [Arg(a) for a in args.split(", ")] if args else [], ret))
    return forms


def subsets(args):
    """The combinations of optional arguments tried for one form."""
    opt = [i for i, a in enumerate(args) if a.optional]
    if len(opt) <= 3:
        combos = itertools.chain.from_iterable(itertools.combinations(opt, k) for k in range(len(opt) + 1))
    else:
        combos = [tuple(opt), ()] + [(i,) for i in opt] + [tuple(j for j in opt if j != i) for i in opt]
    seen = []
    for c in combos:
        c = tuple(sorted(c))
        if c not in seen:
            seen.append(c)
    return seen


def tensor_expr(kind, shape):
    kind = "LongTensor" if kind == "IndexTensor" else kind
    if shape == SPD:
        return f"spd('{kind}')"
    if shape == IDX:
        return "idx()"
    if shape == "J":
        return "torch.LongTensor{1, 1, 2, 1}"
    if shape == "q":
        return "torch.Tensor{1, 0.5, 1, 0.75}"
    return f"mk('{kind}', {{{', '.join(map(str, shape))}}})"


def call_source(name, how, args, present):
    """-> Lua source of the call, or None when it cannot be written."""
    default_shape, default_index, default_number = PROFILES[PROFILE]
    shapes = list(SHAPES.get(name, []))
    numbers = list(NUMBERS.get(name, []))
    exprs = []
    for i, a in enumerate(args):
        if a.optional and i not in present:
            continue
        if a.result:
            kind = "LongTensor" if a.kind == "IndexTensor" else a.kind
            exprs.append(f"torch.{kind}()")
        elif a.tensor:
            shape = shapes.pop(0) if shapes else (IDX if a.kind == "IndexTensor" else default_shape)
            exprs.append(tensor_expr(a.kind, shape))
        elif a.kind.endswith("TensorArray"):
            k = a.kind[:-len("Array")]
            dims = ", ".join(map(str, default_shape))
            exprs.append(f"{{mk('{k}', {{{dims}}}), mk('{k}', {{{dims}}})}}")
        elif a.kind == "Generator":
            exprs.append("gen")
        elif a.options:
            choice = [o for o in a.options if o != a.default] or a.options
            exprs.append(repr(choice[0]))
        elif a.kind == "index":
            exprs.append(str(INDEXARG.get(name, default_index)))
        elif a.kind == "boolean":
            exprs.append("true")
        elif a.kind == "LongArg":
            exprs.append(LONGARG.get(name, "2, 3"))
        elif a.kind in NUMBER_TYPES:
            exprs.append(str(numbers.pop(0) if numbers else default_number))
        else:
            return None
    if how == "x:":
        if not exprs:
            return None
        return exprs, "a1:" + name + "(" + ", ".join(f"a{i + 1}" for i in range(1, len(exprs))) + ")"
    return exprs, "torch." + name + "(" + ", ".join(f"a{i + 1}" for i in range(len(exprs))) + ")"


PRELUDE = r"""
gen = torch.Generator()
function mk(kind, shape)
  local t = torch[kind](unpack(shape))
  local float = kind == 'FloatTensor' or kind == 'DoubleTensor'
  local s = t:storage()
  for i = 1, s:size() do
    s[i] = float and ((i * 37) % 17 + 1) / 8 or (i * 5) % 7 + 1
  end
  return t
end
function spd(kind)
  return torch[kind]({{4, 1, 0.5}, {1, 3, 0.25}, {0.5, 0.25, 2}})
end
function idx()
  return torch.LongTensor({{1, 2, 3}, {3, 1, 2}, {2, 3, 1}})
end
local function num(v)
  if v ~= v then return 'nan' end
  if v == 0 then return '0' end
  return string.format('%.17g', v)
end
local function show(v)
  if torch.isTensor(v) then
    local out = {torch.type(v), '['}
    for i = 1, v:dim() do out[#out + 1] = (i > 1 and 'x' or '') .. v:size(i) end
    out[#out + 1] = ']'
    if v:nElement() > 0 then
      local flat = v:contiguous():view(-1)
      local vals = {}
      for i = 1, flat:size(1) do vals[i] = num(flat[i]) end
      out[#out + 1] = '{' .. table.concat(vals, ',') .. '}'
    end
    return table.concat(out)
  elseif type(v) == 'number' then
    return num(v)
  elseif type(v) == 'table' then
    local out = {}
    for i = 1, #v do out[i] = show(v[i]) end
    return 'table{' .. table.concat(out, ';') .. '}'
  end
  return torch.type(v) .. (type(v) == 'boolean' and tostring(v) or '')
end
function try(id, f, args)
  torch.manualSeed(1)
  torch.manualSeed(gen, 1)
  local r = {pcall(f)}
  local out = {id}
  if not r[1] then
    out[2] = 'error'
  else
    out[2] = 'ok'
    for i = 2, table.maxn(r) do out[#out + 1] = show(r[i]) end
    out[#out + 1] = '|'
    for i = 1, #args do out[#out + 1] = show(args[i]) end
  end
  io.write(table.concat(out, ' '), '\n')
  io.flush()
end
"""


def calls():
    """-> [(id, form line, lua source)] for every call tried."""
    out = []
    for n, (line, typ, how, name, args, ret) in enumerate(parse()):
        for present in subsets(args):
            made = call_source(name, how, args, present)
            if made is None:
                continue
            exprs, call = made
            cid = f"{n}.{'-'.join(map(str, present)) or 'none'}"
            locals_ = "\n".join(f"  local a{i + 1} = {e}" for i, e in enumerate(exprs))
            arglist = ", ".join(f"a{i + 1}" for i in range(len(exprs)))
            src = (f"do\n{locals_}\n  try('{cid}', function() return {call} end, {{{arglist}}})\nend\n")
            out.append((cid, line, src))
    return out


def run(th, batch, timeout=300):
    """-> {id: line} for the calls of batch run in one process."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(PRELUDE + "".join(src for _, _, src in batch))
        path = f.name
    try:
        p = subprocess.run([th, path], capture_output=True, text=True, timeout=timeout)
        text = p.stdout
    except subprocess.TimeoutExpired as e:
        text = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    finally:
        os.unlink(path)
    got = {}
    for line in text.splitlines():
        cid, _, rest = line.partition(" ")
        got[cid] = rest
    return got


def run_all(th, todo, size=400):
    """Run in batches; a call after which the process died (the original
    segfaults on some) is recorded as 'crash' and the rest run again."""
    results = {}
    queue = [todo[i:i + size] for i in range(0, len(todo), size)]
    while queue:
        batch = queue.pop(0)
        got = run(th, batch)
        results.update(got)
        missing = [c for c in batch if c[0] not in got]
        if missing:
            results[missing[0][0]] = "crash"
            if missing[1:]:
                queue.insert(0, missing[1:])
        print(f"\r{len(results)}/{len(todo)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return results


def load_expected():
    exp = {}
    for line in expected_path().read_text().splitlines():
        cid, _, rest = line.partition(" ")
        exp[cid] = rest
    return exp


NUM = re.compile(r"-?(?:inf|nan|\d[\d.e+-]*)")


def same(expected, got):
    """The two result lines agree: same text around the numbers, and numbers
    equal to 1e-5 relatively (sums may be added up in another order)."""
    if NUM.sub("#", expected) != NUM.sub("#", got):
        return False
    for a, b in zip(NUM.findall(expected), NUM.findall(got)):
        if a != b:
            x, y = float(a), float(b)
            if not abs(x - y) <= 1e-5 * max(abs(x), abs(y), 1e-300):
                return False
    return True


def classify(expected, got):
    e_ok, g_ok = expected.startswith("ok"), got.startswith("ok")
    if e_ok and not g_ok:
        return "th rejects a valid call"
    if g_ok and not e_ok:
        return "th accepts an invalid call"
    if not same(expected, got):
        return "different results"
    return None


def compare(todo, got, expected):
    """-> {kind: [(id, form, expected, got)]}"""
    diffs = collections.defaultdict(list)
    for cid, line, _ in todo:
        if cid not in expected or expected[cid] == "crash":
            continue
        kind = classify(expected[cid], got.get(cid, "missing"))
        if kind:
            diffs[kind].append((cid, line, expected[cid], got.get(cid, "missing")))
    return diffs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("mode", choices=["record", "check"])
    parser.add_argument("--th")
    parser.add_argument("--show", type=int, default=0, help="print the first N differences of each kind")
    parser.add_argument("--only", help="comma-separated function names")
    parser.add_argument("--profile", choices=sorted(PROFILES), default="square")
    args = parser.parse_args()
    global PROFILE
    PROFILE = args.profile
    todo = calls()
    if args.only:
        names = set(args.only.split(","))
        todo = [c for c in todo if LINE.match(c[1]).group(3) in names]
    forms = {c[1] for c in todo}
    if args.mode == "record":
        got = run_all(args.th or "/opt/torch7-ref/bin/th", todo)
        expected_path().write_text("".join(f"{cid} {got[cid]}\n" for cid, _, _ in todo if cid in got))
        valid = sum(1 for c in todo if got.get(c[0], "").startswith("ok"))
        crashes = sum(1 for c in todo if got.get(c[0]) == "crash")
        print(f"{len(forms)} forms, {len(todo)} calls: {valid} valid, {crashes} crash the original")
        return
    expected = load_expected()
    got = run_all(args.th or str(ROOT / ".venv" / "bin" / "th"), todo)
    diffs = compare(todo, got, expected)
    valid = sum(1 for c in todo if expected.get(c[0], "").startswith("ok"))
    print(f"{len(forms)} forms, {len(todo)} calls ({valid} valid in the original)")
    for kind, items in sorted(diffs.items()):
        print(f"{kind}: {len(items)} calls, {len({i[1] for i in items})} forms")
        for cid, line, e, g in items[:args.show]:
            print(f"  {cid} {line}\n    torch7: {e[:300]}\n    th:     {g[:300]}")


if __name__ == "__main__":
    main()
