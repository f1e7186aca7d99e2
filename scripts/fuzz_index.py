"""Differential fuzz of tensor indexing with tables (x[{...}] reads and
writes) between th and the original Torch7.

Random tensors of 1 to 4 dimensions and every type, some transposed; random
index tables of numbers (negative, out of range), ranges ({a, b}, {a}, {},
{nil, b}), holes, numeric and other strings and booleans; reads, stores of
numbers, strings and tables, and stores of a view's clone.  Each case prints
its result (type, sizes, strides, values) or its error, under both commands;
the lines that differ are shown (the original's " at <TH source>:<line>"
suffix of an error dropped).

    python scripts/fuzz_index.py --cases 1500 --seed 1 \
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th [--show 20]
"""
import argparse
import random
import re
import subprocess
import tempfile

PRELUDE = r"""
local function fmt(v) if v ~= v then return 'nan' end return string.format('%.6g', v) end
local function repr(r)
   if torch.isTensor(r) then
      local parts = {torch.type(r), r:dim() == 0 and 'empty' or table.concat(r:size():totable(), 'x'),
                     table.concat(r:stride():totable(), ',')}
      if r:nElement() > 0 then
         local c = r:contiguous():view(-1)
         for i = 1, math.min(r:nElement(), 30) do parts[#parts + 1] = fmt(c[i]) end
      end
      return table.concat(parts, ' ')
   end
   if type(r) == 'number' then return fmt(r) end
   return tostring(r)
end
local function run(i, f)
   local ok, r = pcall(f)
   if ok then print(i, repr(r)) else print(i, 'error', (tostring(r):gsub('^.-:%d+: ', ''))) end
end
"""
TYPES = ["Double", "Float", "Int", "Byte", "Long"]


def entry(size, rng):
    c = rng.random()
    if c < 0.35:
        return str(rng.choice([1, size, -1, -size, rng.randint(-size - 1, size + 1), 0, 2]))
    if c < 0.75:
        a = rng.choice([1, 2, -1, -size, size, size + 1, 0])
        b = rng.choice([size, -1, 1, 2, size + 1, -size - 1])
        return rng.choice(["{%d,%d}" % (a, b), "{%d}" % a, "{}", "{nil,%d}" % b, "{'%d'}" % a])
    if c < 0.85:
        return "nil"
    return rng.choice(["'2'", "' -1 '", "'x'", "true"])


def case(i, rng):
    nd = rng.randint(1, 4)
    sizes = [rng.randint(1, 4) for _ in range(nd)]
    n = 1
    for s in sizes:
        n *= s
    dims = ",".join(map(str, sizes))
    x = "torch.%sTensor(%s):copy(torch.range(1, %d):view(%s))" % (rng.choice(TYPES), dims, n, dims)
    if nd >= 2 and rng.random() < 0.3:
        x += ":transpose(1,%d)" % nd
    idx = "{" + ",".join(entry(sizes[d] if d < nd else 3, rng) for d in range(rng.randint(0, nd + 1))) + "}"
    kind = rng.random()
    if kind < 0.5:
        body = "local x = %s return x[%s]" % (x, idx)
    elif kind < 0.8:
        body = "local x = %s x[%s] = %s return x" % (x, idx, rng.choice(["7", "-2.5", "'9'", "'x'", "{}"]))
    else:
        body = ("local x = %s local v = x[%s] if torch.isTensor(v) then x[%s] = v:clone():fill(5) end return x"
                % (x, idx, idx))
    return "run(%d, function() %s end)" % (i, body)


def outputs(th, script):
    out = subprocess.run(th.split() + [script], capture_output=True, text=True, timeout=600)
    return [re.sub(r" at /\S+:\d+", "", line) for line in out.stdout.splitlines()], out.returncode


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=1500)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--th", default=".venv/bin/th")
    p.add_argument("--ref", default="/opt/torch7-ref/bin/th")
    p.add_argument("--show", type=int, default=20)
    a = p.parse_args()
    rng = random.Random(a.seed)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(PRELUDE + "\n".join(case(i, rng) for i in range(a.cases)) + "\n")
    (mine, rc1), (theirs, rc2) = outputs(a.th, f.name), outputs(a.ref, f.name)
    if rc1 or rc2 or len(mine) != len(theirs):
        print(f"a run failed: th exit {rc1} ({len(mine)} lines), original exit {rc2} ({len(theirs)} lines)")
    differ = [(m, t) for m, t in zip(mine, theirs) if m != t]
    for m, t in differ[:a.show]:
        print(f"th:       {m}\noriginal: {t}")
    print(f"{len(differ)} of {min(len(mine), len(theirs))} cases differ ({f.name})")


if __name__ == "__main__":
    main()
