"""Differential fuzz of nn's layers and criteria: th against the original.

Each case builds one module or criterion with random settings (kernel,
stride, padding, dilation, in place or not...), feeds it a random input
(Double or Float, batched or not, contiguous or not), and prints its output
and gradients (and the parameters' gradients); both commands must print the
same values (5 significant digits) or both fail.  A fifth of the cases are
nn's Lua-level shape and table modules and containers (`structural`): tables
of tensors in and out (a random gradient of the output's structure), index
tensors, Long and Int tensors through the shape modules, and sometimes a
first pass on other values before the one printed.  nn comes from LUA_PATH
(the third-party tree, with moses).  Uses fuzz_diff.py's runner.

    LUA_PATH='/work/shared/thirdparty/?.lua;/work/shared/thirdparty/?/init.lua;/work/shared/thirdparty/moses/?.lua;;' \\
    python scripts/fuzz_nn.py --calls 2000 --seed 7 --th .venv/bin/th --ref /opt/torch7-ref/bin/th
"""
import math
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import PRELUDE, arguments, differences, report, unexplained  # noqa: E402

NN_PRELUDE = PRELUDE + r"""
require 'nn'
-- a tensor's summary: fuzz_diff's repr, and the sum of the absolute values
-- (every element counts, not only the first 40)
local repr1 = repr
function repr(r)
   if torch.isTensor(r) and r:nElement() > 40 then
      return repr1(r) .. ' |sum ' .. string.format('%.5g', r:double():abs():sum())
   end
   return repr1(r)
end
-- inp(T, sizes, layout): random normal values (an integer type's times 5);
-- layout 't' transposes the last two dimensions' memory, 'n' narrows a
-- wider tensor (not contiguous)
function inp(T, sizes, layout)
   local s = {unpack(sizes)}
   local lay = (layout == 't' and #s >= 2 or layout == 'n') and layout or 'c'
   if lay == 't' then
      s[#s], s[#s - 1] = s[#s - 1], s[#s]
   elseif lay == 'n' then
      s[#s] = s[#s] + 2
   end
   local x = torch.randn(unpack(s))
   if T ~= 'Double' and T ~= 'Float' then x:mul(5) end
   x = x:type('torch.' .. T .. 'Tensor')
   if lay == 't' then return x:transpose(#s, #s - 1) end
   if lay == 'n' then return x:narrow(#s, 2, sizes[#sizes]) end
   return x
end
-- like(y): a random gradient of y's structure (a tensor or nested tables)
function like(y)
   if type(y) == 'number' then return torch.normal(0, 1) end
   if torch.isTensor(y) then
      if y:nElement() == 0 then return y.new() end
      local r = torch.randn(y:size())
      if not torch.type(y):find('Float') and not torch.type(y):find('Double') then r:mul(5) end
      return y.new():resizeAs(y):copy(r)
   end
   local g = {}
   for i, v in ipairs(y) do g[i] = like(v) end
   return g
end
-- step(m, x [, T [, again]]): forward and backward once (after a first pass
-- on x when again() gives the second input), what they gave (the output,
-- the input's gradient and the parameters' gradients, if any)
function step(m, x, T, again)
   if T and T ~= 'Double' then m:type('torch.' .. T .. 'Tensor') end
   if again then
      m:backward(x, like(m:forward(x)))
      x = again()
   end
   local y = m:forward(x)
   local go = like(y)
   m:zeroGradParameters()   -- (the original's were uninitialised memory)
   local gi = m:backward(x, go)
   local _, grads = m:parameters()
   return {y, gi, grads or false}
end
-- crit(c, x, t [, T]): a criterion's loss and gradient
function crit(c, x, t, T)
   if T == 'Float' then
      c:float()
      if torch.type(t) == 'torch.DoubleTensor' then t = t:float() end
   end
   local l = c:forward(x, t)
   local g = c:backward(x, t)
   return {l, g}
end
"""


def pick(rng, *options):
    return rng.choice(options)


def image(rng, planes, batch=None):
    """sizes of an image input: planes x H x W, batched or not"""
    h, w = rng.randint(3, 9), rng.randint(3, 9)
    batch = rng.choice([None, 1, 2, 3]) if batch is None else batch
    return ([batch] if batch else []) + [planes, h, w]


def volume(rng, planes):
    t, h, w = rng.randint(3, 6), rng.randint(3, 6), rng.randint(3, 6)
    batch = rng.choice([None, 1, 2])
    return ([batch] if batch else []) + [planes, t, h, w]


def spatial(rng):
    """a convolution, pooling, padding or resampling layer on an image"""
    i, o = rng.randint(1, 4), rng.randint(1, 4)
    kw, kh, dw, dh = rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 3), rng.randint(1, 3)
    pw, ph = rng.randint(0, min(2, kw // 2 + 1)), rng.randint(0, min(2, kh // 2 + 1))
    dil = rng.randint(1, 2)
    aw, ah = rng.randint(0, max(0, dw - 1)), rng.randint(0, max(0, dh - 1))
    ceil = pick(rng, "", ":ceil()")
    layers = [
        (f"nn.SpatialConvolution({i}, {o}, {kw}, {kh}, {dw}, {dh}, {pw}, {ph})", i),
        (f"nn.SpatialConvolutionMM({i}, {o}, {kw}, {kh}, {dw}, {dh}, {pw}, {ph})", i),
        (f"nn.SpatialConvolutionMM({i}, {o}, {kw}, {kh}, {dw}, {dh}, {pw}, {ph}):noBias()", i),
        (f"nn.SpatialDilatedConvolution({i}, {o}, {kw}, {kh}, {dw}, {dh}, {pw}, {ph}, {dil}, {dil})", i),
        (f"nn.SpatialFullConvolution({i}, {o}, {kw}, {kh}, {dw}, {dh}, {pw}, {ph}, {aw}, {ah})", i),
        (f"nn.SpatialSubSampling({i}, {kw}, {kh}, {dw}, {dh})", i),
        (f"nn.SpatialMaxPooling({kw}, {kh}, {dw}, {dh}, {pw // 2}, {ph // 2}){ceil}", i),
        (f"nn.SpatialDilatedMaxPooling({kw}, {kh}, {dw}, {dh}, {pw // 2}, {ph // 2}, {dil}, {dil}){ceil}", i),
        (f"nn.SpatialAveragePooling({kw}, {kh}, {dw}, {dh}, {pw // 2}, {ph // 2}){ceil}"
         + pick(rng, "", ":setCountExcludePad()"), i),
        (f"nn.SpatialAdaptiveMaxPooling({rng.randint(1, 5)}, {rng.randint(1, 5)})", i),
        (f"nn.SpatialAdaptiveAveragePooling({rng.randint(1, 5)}, {rng.randint(1, 5)})", i),
        (f"nn.SpatialLPPooling({i}, {pick(rng, 1, 2)}, {kw}, {kh}, {dw}, {dh})", i),
        (f"nn.SpatialUpSamplingNearest({rng.randint(1, 3)})", i),
        (f"nn.SpatialUpSamplingBilinear({rng.randint(1, 3)})", i),
        (f"nn.SpatialReflectionPadding({pw}, {ph}, {ph}, {pw})", i),
        (f"nn.SpatialReplicationPadding({pw}, {ph}, {pw}, {ph})", i),
        (f"nn.SpatialZeroPadding({pw - 1}, {ph}, {pw}, {ph - 1})", i),
        (f"nn.SpatialCrossMapLRN({pick(rng, 1, 3, 5)}, {pick(rng, 1e-4, 0.5)}, 0.75, {pick(rng, 1, 2)})", i),
        ("nn.SpatialSoftMax()", i),
        ("nn.SpatialLogSoftMax()", i),
        (f"nn.SpatialBatchNormalization({i}){pick(rng, '', ':evaluate()')}", i),
        (f"nn.SpatialConvolutionLocal({i}, {o}, 7, 7, {kw}, {kh}, {dw}, {dh}, {pw}, {ph})", i),
        (f"nn.SpatialDepthWiseConvolution({i}, {o}, {kw}, {kh}, {dw}, {dh}, {pw}, {ph})", i),
    ]
    ctor, planes = rng.choice(layers)
    sizes = image(rng, planes)
    if "Local" in ctor:
        sizes[-1] = sizes[-2] = 7
    return ctor, sizes


def temporal(rng):
    i, o, kw, dw = rng.randint(1, 5), rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 3)
    frames = rng.randint(3, 10)
    batch = rng.choice([None, 1, 3])
    first = pick(rng, "true", "false")     # (TemporalRowConvolution's features first or last)
    ctor = pick(rng, f"nn.TemporalConvolution({i}, {o}, {kw}, {dw})", f"nn.TemporalMaxPooling({kw}, {dw})",
                f"nn.TemporalSubSampling({i}, {kw}, {dw})", f"nn.TemporalRowConvolution({i}, {kw}, {dw}, {first})")
    if "Row" in ctor and first == "true":
        return ctor, ([batch] if batch else []) + [i, frames]
    return ctor, ([batch] if batch else []) + [frames, i]


def volumetric(rng):
    i, o = rng.randint(1, 3), rng.randint(1, 3)
    k, d, p = rng.randint(1, 3), rng.randint(1, 2), rng.randint(0, 1)
    ctor = pick(rng, f"nn.VolumetricConvolution({i}, {o}, {k}, {k}, {k}, {d}, {d}, {d}, {p}, {p}, {p})",
                f"nn.VolumetricFullConvolution({i}, {o}, {k}, {k}, {k}, {d}, {d}, {d}, {p}, {p}, {p})",
                f"nn.VolumetricDilatedConvolution({i}, {o}, {k}, {k}, {k}, {d}, {d}, {d}, {p}, {p}, {p}, 2, 1, 2)",
                f"nn.VolumetricMaxPooling({k}, {k}, {k}, {d}, {d}, {d}, {p * (k // 2)}, 0, 0)",
                f"nn.VolumetricAveragePooling({k}, {k}, {k}, {d}, {d}, {d})",
                f"nn.VolumetricReplicationPadding({p}, {p + 1}, {p}, 0, 1, {p})",
                f"nn.VolumetricBatchNormalization({i})")
    return ctor, volume(rng, i)


def elementwise(rng):
    inplace = pick(rng, "true", "false")
    ctor = pick(rng, "nn.Tanh()", "nn.Sigmoid()", f"nn.ReLU({inplace})", f"nn.ELU({pick(rng, 1, 0.5)}, {inplace})",
                f"nn.LeakyReLU({pick(rng, 0.01, 0.3)}, {inplace})", f"nn.HardTanh({pick(rng, -1, -0.5)}, "
                f"{pick(rng, 1, 0.25)}, {inplace})", f"nn.Threshold({pick(rng, 0, 0.5, -0.2)}, {pick(rng, 0, 3)}, "
                f"{inplace})", f"nn.SoftPlus({pick(rng, 1, 2)}, {pick(rng, 20, 1)})",
                f"nn.SoftShrink({pick(rng, 0.5, 0.1)})", f"nn.HardShrink({pick(rng, 0.5, 0.1)})",
                "nn.LogSigmoid()", "nn.Square()", "nn.Abs()", "nn.Exp()", "nn.Log()", "nn.Sqrt()",
                f"nn.Power({pick(rng, 2, 3, 0.5, 1)})", f"nn.PReLU({pick(rng, 0, 3)})", "nn.SoftMax()",
                "nn.LogSoftMax()", "nn.SoftMin()", "nn.SoftSign()", f"nn.MulConstant({pick(rng, 2, -0.5)}, {inplace})",
                f"nn.AddConstant({pick(rng, 2, -0.5)}, {inplace})", "nn.GatedLinearUnit()", "nn.Normalize(2)",
                f"nn.Clamp({pick(rng, -1, 0)}, {pick(rng, 0.5, 2)})")
    sizes = pick(rng, [3, 6], [6], [2, 3, 4], [4, 6])
    if "PReLU(3)" in ctor:
        sizes = pick(rng, [2, 3, 4], [3, 2, 2], [2, 3])
    if "Sqrt" in ctor or "Log()" in ctor or "Power(0.5)" in ctor:
        ctor = f"nn.Sequential():add(nn.Abs()):add({ctor})"
    return ctor, sizes


def linear(rng):
    i, o = rng.randint(1, 6), rng.randint(1, 6)
    ctor = pick(rng, f"nn.Linear({i}, {o})", f"nn.Linear({i}, {o}):noBias()", f"nn.Bilinear({i}, {i}, {o})",
                f"nn.BatchNormalization({i}){pick(rng, '', ':evaluate()')}", f"nn.Mul()", f"nn.Add({i})",
                f"nn.CMul({i})", f"nn.Euclidean({i}, {o})", f"nn.WeightedEuclidean({i}, {o})",
                f"nn.Cosine({i}, {o})")
    batch = rng.choice([None, 1, 4])
    if "Bilinear" in ctor:
        return ctor, [batch or 2, i], "bilinear"
    if "BatchNormalization" in ctor:
        batch = batch or 3
    return ctor, ([batch] if batch else []) + [i]


def shapes(rng, nd=None, low=1, high=5):
    return [rng.randint(low, high) for _ in range(nd or rng.randint(1, 3))]


class Draws:
    """what structural's builders share: sizes and counts drawn once per case
    before the builder's own draws (keep their order: it is the cases'), and
    the Lua of inputs in the case's element type and layout"""

    def __init__(self, rng, T, layout):
        self.rng, self.T, self.layout = rng, T, layout
        self.sz = shapes(rng)
        self.nd = len(self.sz)
        self.d = rng.randint(1, self.nd)
        self.dim = pick(rng, self.d, self.d, self.d - self.nd - 1)   # negative: from the end
        self.batch = rng.randint(1, 3)
        self.n, self.n2 = rng.randint(1, 5), rng.randint(1, 5)
        self.ntab = rng.randint(1, 3)

    def x(self, sizes, lay=None):
        return f"inp('{self.T}', {{{', '.join(map(str, sizes))}}}, '{lay or self.layout}')"

    def table(self, *sizes):
        return "{" + ", ".join(self.x(sz, pick(self.rng, "c", "c", "t", "n")) for sz in sizes) + "}"

    def index(self, n, hi, shape=None):
        """n indices 1..hi (or a tensor of that shape): a LongTensor or a DoubleTensor"""
        shape = shape or [n]
        itype = pick(self.rng, "Long", "Long", "Double")
        return f"torch.{itype}Tensor({', '.join(map(str, shape))}):random(1, {hi})"


# structural's builders: each gives a module's constructor and its input's Lua

def _narrow(rng, c):
    size = c.sz[c.d - 1]
    off = pick(rng, rng.randint(1, size), -rng.randint(1, size))
    length = pick(rng, rng.randint(1, max(1, size - abs(off) + 1)), -1, "")
    return f"nn.Narrow({c.dim}, {off}{', ' + str(length) if length != '' else ''})", c.x(c.sz)


def _select(rng, c):
    return f"nn.Select({c.dim}, {pick(rng, rng.randint(1, c.sz[c.d - 1]), -rng.randint(1, c.sz[c.d - 1]))})", c.x(c.sz)


def _reshape(rng, c):
    total = math.prod(c.sz)
    target = pick(rng, [total], [1, total], [total, 1], c.sz[::-1])
    mode = pick(rng, "", ", true", ", false")
    inp_ = ([c.batch] if mode != ", false" and rng.random() < 0.5 else []) + c.sz
    return f"nn.Reshape({', '.join(map(str, target))}{mode})", c.x(inp_)


def _view(rng, c):
    total = math.prod(c.sz)
    target = pick(rng, [-1], [total], [-1, c.sz[-1]], [c.sz[0], -1], c.sz[::-1])
    batched = rng.random() < 0.5
    dims = f":setNumInputDims({c.nd})" if batched or rng.random() < 0.3 else ""
    return f"nn.View({', '.join(map(str, target))}){dims}", c.x(([c.batch] if batched else []) + c.sz,
                                                                pick(rng, "c", "c", "c", "n"))


def _transpose(rng, c):
    s = shapes(rng, rng.randint(2, 4))
    k = len(s)
    perms = [f"{{{rng.randint(1, k)}, {rng.randint(1, k)}}}" for _ in range(rng.randint(1, 2))]
    batched = rng.random() < 0.4
    dims = f":setNumInputDims({k})" if batched else ""
    return f"nn.Transpose({', '.join(perms)}){dims}", c.x(([c.batch] if batched else []) + s)


def _replicate(rng, c):
    batched = rng.random() < 0.4
    return (f"nn.Replicate({c.n}, {rng.randint(1, c.nd + 1)}{', ' + str(c.nd) if batched else ''})",
            c.x(([c.batch] if batched else []) + c.sz))


def _padding(rng, c):
    batched = rng.random() < 0.4
    pad = pick(rng, 1, 2, -1, -2)
    return (f"nn.Padding({c.d}, {pad}, {c.nd if batched else 'nil'}, {pick(rng, 0, 1.5)}, "
            f"{rng.randint(1, c.sz[c.d - 1] + 1)})", c.x(([c.batch] if batched else []) + c.sz))


def _squeeze(rng, c):
    s = [pick(rng, 1, 1, 2, 3) for _ in range(rng.randint(1, 4))]
    batched = rng.random() < 0.4
    sq = pick(rng, "", str(rng.randint(1, len(s))))
    nid = f", {len(s)}" if batched else ""
    return f"nn.Squeeze({sq or 'nil'}{nid})", c.x(([pick(rng, 1, 2)] if batched else []) + s)


def _unsqueeze(rng, c):
    batched = rng.random() < 0.4
    nid = f", {c.nd}" if batched else ""
    return f"nn.Unsqueeze({rng.randint(1, c.nd + 1)}{nid})", c.x(([c.batch] if batched else []) + c.sz)


def _reduce(rng, c):
    mod = pick(rng, "Max", "Min", "Mean", "Sum")
    batched = rng.random() < 0.3
    args = f"{c.dim}, {c.nd if batched else 'nil'}"
    if mod == "Sum":
        args += f", {pick(rng, 'true', 'false')}, {pick(rng, 'true', 'false')}"
    return f"nn.{mod}({args})", c.x(([c.batch] if batched else []) + c.sz)


def _index(rng, c):
    return f"nn.Index({c.d})", f"{{{c.x(c.sz)}, {c.index(rng.randint(1, 4), c.sz[c.d - 1])}}}"


def _join_table(rng, c):
    batched = rng.random() < 0.3
    parts = []
    for _ in range(rng.randint(1, 3)):
        s = list(c.sz)
        s[c.d - 1] = rng.randint(1, 3)
        parts.append(([c.batch] if batched else []) + s)
    return f"nn.JoinTable({c.dim}{', ' + str(c.nd) if batched else ''})", c.table(*parts)


def _split_table(rng, c):
    batched = rng.random() < 0.3
    return (f"nn.SplitTable({c.dim}{', ' + str(c.nd) if batched else ''})",
            c.x(([c.batch] if batched else []) + c.sz))


def _narrow_table(rng, c):
    k = rng.randint(1, 4)
    return f"nn.NarrowTable({rng.randint(1, k)}, {pick(rng, 1, 2, -1)})", c.table(*[c.sz] * k)


def _select_table(rng, c):
    k = rng.randint(1, 4)
    return (f"nn.SelectTable({pick(rng, rng.randint(1, k), -rng.randint(1, k))})",
            "{" + ", ".join(pick(rng, c.x(c.sz), c.table(c.sz, c.sz)) for _ in range(k)) + "}")


def _flatten_table(rng, c):
    sz = c.sz
    return "nn.FlattenTable()", f"{{{c.x(sz)}, {{{c.x(sz)}, {c.table(sz, sz)}}}, {c.table(sz)}}}"


def _concat(rng, c):
    i, cat = c.sz[-1], pick(rng, 1, 2) if c.nd > 1 else 1
    outs = [c.n if cat == 1 and c.nd > 1 else rng.randint(1, 4) for _ in range(c.ntab)]
    mods = "".join(f":add(nn.Linear({i}, {o}))" for o in outs)
    return f"nn.Concat({cat}){mods}", c.x(c.sz if c.nd <= 2 else c.sz[-2:])


def _concat_table(rng, c):
    i = c.sz[-1]
    mods = "".join(pick(rng, f":add(nn.Linear({i}, {rng.randint(1, 4)}))", ":add(nn.Identity())",
                        ":add(nn.ConcatTable():add(nn.Tanh()):add(nn.MulConstant(2)))")
                   for _ in range(c.ntab))
    return f"nn.ConcatTable(){mods}", c.x(c.sz[-2:])


def _parallel_table(rng, c):
    i = c.sz[-1]
    mods = "".join(pick(rng, f":add(nn.Linear({i}, {rng.randint(1, 4)}))", ":add(nn.Sigmoid())",
                        f":add(nn.Sum({pick(rng, 1, -1)}))") for _ in range(c.ntab))
    return f"nn.ParallelTable(){mods}", c.table(*[c.sz[-2:]] * c.ntab)


def _map_table(rng, c):
    i = c.sz[-1]
    return (f"nn.MapTable(nn.Linear({i}, {c.n}))" if rng.random() < 0.6 else "nn.MapTable(nn.Square())",
            c.table(*[c.sz[-2:]] * c.ntab))


def _cwise_table(rng, c):
    mod = pick(rng, "CAddTable", "CSubTable", "CMulTable", "CMaxTable", "CMinTable",
               "CAddTable" if c.T in ("Long", "Int") else "CDivTable")
    k = 2 if mod in ("CSubTable", "CDivTable") else rng.randint(1, 3)
    arg = pick(rng, "", "true") if mod == "CAddTable" else ""
    return f"nn.{mod}({arg})", c.table(*[c.sz] * k)


def _real_cwise_table(rng, c):
    """_cwise_table's second place in BUILDERS, kept out of INTEGRAL: it is
    Double or Float always (and so has its CDivTable)"""
    return _cwise_table(rng, c)


def _pair_distance(rng, c):
    mod = pick(rng, "DotProduct()", f"PairwiseDistance({pick(rng, 1, 2, 3)})", "CosineDistance()")
    s = pick(rng, [c.n], [c.batch, c.n])
    return f"nn.{mod}", c.table(s, s)


def _mm(rng, c):
    ta, tb = pick(rng, "false", "true"), pick(rng, "false", "true")
    a, b, m = rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4)
    sa = [b, a] if ta == "true" else [a, b]
    sb = [m, b] if tb == "true" else [b, m]
    pre = [c.batch] if rng.random() < 0.5 else []
    return f"nn.MM({ta}, {tb})", c.table(pre + sa, pre + sb)


def _mv(rng, c):
    tr = pick(rng, "false", "true")
    a, b = rng.randint(1, 4), rng.randint(1, 4)
    pre = [c.batch] if rng.random() < 0.5 else []
    return f"nn.MV({tr})", c.table(pre + [a, b], pre + [a if tr == "true" else b])


def _lookup_table(rng, c):
    nidx = rng.randint(2, 8)
    pad = pick(rng, "nil", "nil", rng.randint(1, nidx))
    norm = pick(rng, "nil", "nil", 1, 0.5)
    ntype = pick(rng, "", ", 1", ", 2")
    return (f"nn.LookupTable({nidx}, {c.n}, {pad}, {norm}{ntype if norm != 'nil' else ''})",
            c.index(0, nidx, pick(rng, [rng.randint(1, 6)], [c.batch, rng.randint(1, 5)])))


def _contrast_normalization(rng, c):
    mod = pick(rng, "SpatialContrastiveNormalization", "SpatialSubtractiveNormalization",
               "SpatialDivisiveNormalization")
    planes = rng.randint(1, 3)
    kern = pick(rng, "torch.ones(3)", "torch.ones(3, 3)", "torch.Tensor{1, 2, 1}",
                "torch.Tensor{{1, 2, 1}, {2, 4, 2}, {1, 2, 1}}", "torch.ones(5)", "torch.ones(3, 5)")
    return f"nn.{mod}({planes}, {kern})", c.x(image(rng, planes, rng.choice([None, None, 1, 2])))


def _mixture_table(rng, c):
    experts = rng.randint(1, 3)
    s = [c.n] if rng.random() < 0.5 else [c.n, c.n2]
    if rng.random() < 0.5:   # a batch
        gate = f"nn.SoftMax():{c.T.lower()}():forward({c.x([c.batch, experts], 'c')})"
        ex = pick(rng, c.table(*[[c.batch] + s] * experts), c.x([c.batch, experts] + s))
    else:
        gate = f"nn.SoftMax():{c.T.lower()}():forward({c.x([experts], 'c')})"
        ex = pick(rng, c.table(*[s] * experts), c.x([experts] + s))
    return "nn.MixtureTable()", f"{{{gate}, {ex}}}"


def _bottle(rng, c):
    i = rng.randint(1, 4)
    s = [rng.randint(1, 3) for _ in range(rng.randint(1, 3))] + [i]
    return f"nn.Bottle(nn.Linear({i}, {c.n}))", c.x(s)


def _l1_penalty(rng, c):
    return (f"nn.L1Penalty({pick(rng, 1, 0.1)}, {pick(rng, 'true', 'false')}, {pick(rng, 'true', 'false')})",
            c.x(c.sz))


def _identity_like(rng, c):
    mod = pick(rng, "Identity()", "Contiguous()", f"GradientReversal({pick(rng, 1, -0.5, 2)})", "ZeroGrad()",
               f"Clamp({pick(rng, -1, -0.2)}, {pick(rng, 0.3, 1)})",
               f"Copy(nil, nil, {pick(rng, 'true', 'false')})")
    return f"nn.{mod}", c.x(c.sz)


def _sequential(rng, c):
    i = c.sz[-1]
    chain = [f"nn.Linear({i}, {c.n})", pick(rng, "nn.Tanh()", "nn.ReLU()", "nn.Sigmoid()"),
             pick(rng, "nn.Replicate(2, 1)", "nn.Unsqueeze(1)", f"nn.Padding(1, {pick(rng, 1, -1)})",
                  "nn.Identity()"),
             pick(rng, "nn.View(-1)", "nn.Contiguous()", "nn.Sum(1)", "nn.Max(1)", "nn.Mean(-1)",
                  "nn.SplitTable(1)")]
    return "nn.Sequential()" + "".join(f":add({m})" for m in chain), c.x(c.sz[-2:])


def _parallel(rng, c):
    k = rng.randint(1, 3)
    s = [k, c.n] if rng.random() < 0.5 else [c.n, k]
    indim = 1 if s[0] == k else 2
    mods = "".join(f":add(nn.Linear({c.n}, {rng.randint(1, 3)}))" for _ in range(k))
    return f"nn.Parallel({indim}, 1){mods}", c.x(s)


def _depth_concat(rng, c):
    planes = rng.randint(1, 3)
    mods = "".join(f":add(nn.SpatialConvolution({planes}, {rng.randint(1, 3)}, {pick(rng, 1, 3)}, "
                   f"{pick(rng, 1, 3)}, 1, 1, {rng.randint(0, 1)}, {rng.randint(0, 1)}))" for _ in range(c.ntab))
    sizes = image(rng, planes)
    sizes[-1], sizes[-2] = max(sizes[-1], 3), max(sizes[-2], 3)
    return f"nn.DepthConcat({len(sizes) - 2}){mods}", c.x(sizes)


def _max_unpooling(rng, c):
    k, st = rng.randint(1, 3), rng.randint(1, 3)
    if rng.random() < 0.8:   # (the unpooling wants a kernel as large as its step)
        k = st
    return (f"(function() local p = nn.SpatialMaxPooling({k}, {k}, {st}, {st}); "
            f"return nn.Sequential():add(p):add(nn.SpatialMaxUnpooling(p)) end)()", c.x(image(rng, c.n)))


def _masked_select(rng, c):
    return "nn.MaskedSelect()", f"{{{c.x(c.sz)}, torch.rand({', '.join(map(str, c.sz))}):gt(0.5)}}"


def _split_join(rng, c):
    return f"nn.Sequential():add(nn.SplitTable(1)):add(nn.JoinTable({c.dim}))", c.x([c.n] + c.sz)


def _pair_combined(rng, c):
    """a container of table modules: a pair made, combined"""
    i = c.sz[-1]
    op = pick(rng, "CAddTable", "CMulTable", "CosineDistance", "PairwiseDistance(2)", "DotProduct",
              "JoinTable(1)", "CMaxTable")
    return (f"nn.Sequential():add(nn.ConcatTable():add(nn.Linear({i}, {c.n})):add(nn.Linear({i}, {c.n})))"
            f":add(nn.{op if '(' in op else op + '()'})", c.x(c.sz[-2:] if c.nd > 1 else c.sz))


def _table_chain(rng, c):
    return (f"nn.Sequential():add(nn.SplitTable({c.dim})):add(nn.NarrowTable(1, 1)):add(nn.FlattenTable())"
            f":add(nn.SelectTable(1))", c.x(c.sz if c.nd > 1 else c.sz + [2]))


def _flatten_chain(rng, c):
    return (f"nn.Sequential():add(nn.Transpose({{1, {c.nd}}})):add(nn.Contiguous()):add(nn.View(-1))"
            f":add(nn.Replicate({c.n}))", c.x(c.sz))


def _cadd_tensor_table(rng, c):
    return "nn.CAddTensorTable()", f"{{{c.x(c.sz)}, {c.table(*[c.sz] * rng.randint(1, 3))}}}"


def _collapse(rng, c):
    return f"nn.Collapse({pick(rng, c.nd, max(1, c.nd - 1))})", c.x(c.sz)


def _constant(rng, c):
    return f"nn.Constant({pick(rng, 2, -0.5)}, {pick(rng, c.nd, max(1, c.nd - 1))})", c.x(c.sz)


def _convert(rng, c):
    formats = pick(rng, ("'bchw'", "'bhwc'"), ("'bchw'", "'bf'"), ("'chw'", "'hwc'"), ("'bf'", "'fb'"),
                   ("nil", "nil"))
    size = {"'bchw'": [c.batch, 2, 3, 4], "'chw'": [2, 3, 4], "'bf'": [c.batch, c.n], "nil": c.sz}[formats[0]]
    return f"nn.Convert({formats[0]}, {formats[1]})", c.x(size)


def _crelu(rng, c):
    return f"nn.CReLU({pick(rng, 'nil', c.nd, max(1, c.nd - 1))}, {pick(rng, 'false', 'true')})", c.x(c.sz)


def _maxout(rng, c):
    return f"nn.Maxout({c.sz[-1]}, {c.n}, {rng.randint(1, 3)})", c.x(c.sz[-2:])


def _one_hot(rng, c):
    k = rng.randint(2, 6)
    return f"nn.OneHot({k})", c.index(0, k, pick(rng, [rng.randint(1, 5)], [c.batch, rng.randint(1, 4)]))


def _pixel_shuffle(rng, c):
    r = rng.randint(1, 3)
    return f"nn.PixelShuffle({r})", c.x(([c.batch] if rng.random() < 0.5 else []) +
                                         [r * r * rng.randint(1, 2), rng.randint(1, 3), rng.randint(1, 3)])


def _zip_table(rng, c):
    k = rng.randint(1, 3)
    if rng.random() < 0.5:
        return "nn.ZipTable()", "{" + ", ".join(c.table(*[c.sz] * k) for _ in range(rng.randint(1, 3))) + "}"
    return "nn.ZipTableOneToMany()", f"{{{c.x(c.sz)}, {c.table(*[c.sz] * k)}}}"


def _dynamic_kmax(rng, c):
    frames = rng.randint(2, 7)
    return (f"nn.TemporalDynamicKMaxPooling({rng.randint(1, frames)}, {pick(rng, 0, 0.5)})",
            c.x(([c.batch] if rng.random() < 0.5 else []) + [frames, c.n]))


def _layer_weight_norm(rng, c):
    i = c.sz[-1]
    return (pick(rng, f"nn.LayerNormalization({i})", f"nn.WeightNorm(nn.Linear({i}, {c.n}))",
                 f"nn.LinearWeightNorm({i}, {c.n})"), c.x(c.sz[-2:]))


def _up_sampling(rng, c):
    mode = pick(rng, "nil", "'linear'")
    return f"nn.UpSampling({rng.randint(1, 3)}, {mode})", c.x(image(rng, c.n, c.batch))


def _normalize(rng, c):
    return f"nn.Normalize({pick(rng, 1, 2, 3, 'math.huge')})", c.x(c.sz[-2:])


def _relu6_like(rng, c):
    return f"nn.{pick(rng, 'ReLU6()', 'ReLU6(true)', 'TanhShrink()')}", c.x(c.sz)


def _convolution_map(rng, c):
    """SpatialConvolutionMap on a full, one-to-one or random table, its
    strides fitting the input (elsewhere the original's gradients were
    wrong, or read past its input: README)"""
    nin, nout = rng.randint(1, 4), rng.randint(1, 4)
    table = pick(rng, f"nn.tables.full({nin}, {nout})", f"nn.tables.oneToOne({nin})",
                 f"nn.tables.random({nin}, {nout}, {rng.randint(1, nin)})")
    kw, kh, dw, dh = rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 2), rng.randint(1, 2)
    batch = rng.choice([None, 1, 2])
    sizes = ([batch] if batch else []) + [nin, kh + dh * rng.randint(0, 6), kw + dw * rng.randint(0, 6)]
    return f"nn.SpatialConvolutionMap({table}, {kw}, {kh}, {dw}, {dh})", c.x(sizes)


# structural draws one of these; a builder listed twice is drawn twice as often
# (and the order is the cases': keep it)
BUILDERS = (
    _narrow, _select, _reshape, _view, _transpose, _replicate, _padding, _squeeze, _unsqueeze,
    _reduce, _reduce, _index, _join_table, _split_table, _narrow_table, _select_table, _flatten_table,
    _concat, _concat_table, _parallel_table, _map_table, _cwise_table, _real_cwise_table,
    _pair_distance, _pair_distance, _mm, _mv, _lookup_table, _lookup_table, _contrast_normalization,
    _mixture_table, _bottle, _l1_penalty, _identity_like, _sequential, _sequential, _parallel,
    _depth_concat, _max_unpooling, _masked_select, _split_join, _pair_combined, _table_chain,
    _flatten_chain, _cadd_tensor_table, _collapse, _constant, _convert, _crelu, _maxout, _one_hot,
    _pixel_shuffle, _zip_table, _dynamic_kmax, _layer_weight_norm, _up_sampling, _normalize, _relu6_like,
    _convolution_map, _convolution_map,
)

# the builders without parameters or divisions, which also take Long and Int
# tensors (a quarter of their cases)
INTEGRAL = {
    _narrow, _select, _reshape, _view, _transpose, _replicate, _padding, _squeeze, _unsqueeze,
    _reduce, _index, _join_table, _split_table, _narrow_table, _select_table, _flatten_table,
    _cwise_table, _identity_like, _masked_select, _split_join, _table_chain, _flatten_chain,
    _cadd_tensor_table, _collapse, _zip_table,
}


def structural(rng, T, layout):
    """one of nn's Lua-level shape and table modules (and containers of a
    few layers): its constructor, its input's Lua (a tensor, a table of
    tensors, index tensors) and the element type (Long or Int for some)"""
    build = rng.choice(BUILDERS)
    if build in INTEGRAL and rng.random() < 0.25:   # shapes and tables of integers
        T = pick(rng, "Long", "Int")
    return build(rng, Draws(rng, T, layout)) + (T,)


def criterion(rng):
    """a criterion: its constructor, the input's sizes and the target's Lua"""
    n, c = rng.randint(1, 5), rng.randint(2, 6)
    avg = pick(rng, "", "true", "false")
    targets = {
        "class": f"torch.LongTensor({n}):random(1, {c})",
        "same": f"torch.randn({n}, {c})",
        "prob": f"torch.rand({n}, {c})",
        "sign": f"torch.rand({n}, {c}):gt(0.5):double():mul(2):add(-1)",
        "multilabel": f"torch.LongTensor({n}, {c}):random(0, {c})",
        "bin": f"torch.rand({n}, {c}):gt(0.5):double()",
    }
    crits = [
        (f"nn.MSECriterion({avg})", "same"), (f"nn.AbsCriterion({avg})", "same"),
        (f"nn.SmoothL1Criterion({avg})", "same"), (f"nn.DistKLDivCriterion({avg})", "prob"),
        (f"nn.ClassNLLCriterion({pick(rng, 'nil', f'torch.rand({c})')}, {avg or 'true'})", "class"),
        (f"nn.CrossEntropyCriterion({pick(rng, '', f'torch.rand({c})')})", "class"),
        (f"nn.MarginCriterion({pick(rng, 1, 0.5)})", "sign"), ("nn.SoftMarginCriterion()", "sign"),
        (f"nn.MultiMarginCriterion({pick(rng, 1, 2)}, {pick(rng, 'nil', f'torch.rand({c})')}, "
         f"{pick(rng, 1, 0.3)})", "class"),
        ("nn.MultiLabelMarginCriterion()", "multilabel"), ("nn.MultiLabelSoftMarginCriterion()", "bin"),
        ("nn.BCECriterion()", "bin"), (f"nn.HingeEmbeddingCriterion({pick(rng, 1, 0.5)})", "sign"),
        ("nn.L1HingeEmbeddingCriterion()", "pair"), ("nn.CosineEmbeddingCriterion()", "pair"),
        ("nn.MarginRankingCriterion()", "pair"),
    ]
    ctor, kind = rng.choice(crits)
    if kind == "pair":
        return ctor, n, c, kind
    return ctor, n, c, targets[kind]


def case(rng, k):
    T = pick(rng, "Double", "Double", "Float")
    layout = pick(rng, "c", "c", "t", "n")
    family = rng.random()
    if family < 0.2:
        ctor, x, T = structural(rng, T, layout)
        again = f", function() return {x} end" if rng.random() < 0.25 else ""   # a second pass
        return f"torch.manualSeed({k}); local x = {x}; return step({ctor}, x, '{T}'{again})"
    family = (family - 0.2) / 0.8
    if family < 0.22:
        ctor, n, c, target = criterion(rng)
        if target == "pair":   # (MarginRanking compares numbers: one column)
            pair = "a:select(2, 1), b:select(2, 1)" if "Margin" in ctor else "a, b"
            return (f"torch.manualSeed({k}); local a, b = inp('{T}', {{{n}, {c}}}), inp('{T}', {{{n}, {c}}}); "
                    f"local y = torch.rand({n}):gt(0.5):double():mul(2):add(-1); "
                    f"return crit({ctor}, {{{pair}}}, y, '{T}')")
        x = f"inp('{T}', {{{n}, {c}}}, '{layout}')"
        if "BCE" in ctor:
            x = f"torch.rand({n}, {c})" + (":float()" if T == "Float" else "")
        if "ClassNLL" in ctor:
            x = f"nn.LogSoftMax():forward({x})"
        return f"torch.manualSeed({k}); local x = {x}; local t = {target}; return crit({ctor}, x, t, '{T}')"
    made = (spatial if family < 0.55 else temporal if family < 0.63 else volumetric if family < 0.72
            else elementwise if family < 0.9 else linear)(rng)
    ctor, sizes = made[0], made[1]
    shape = ", ".join(map(str, sizes))
    if len(made) > 2:
        return (f"torch.manualSeed({k}); local x = {{inp('{T}', {{{shape}}}), inp('{T}', {{{shape}}})}}; "
                f"return step({ctor}, x, '{T}')")
    return f"torch.manualSeed({k}); local x = inp('{T}', {{{shape}}}, '{layout}'); return step({ctor}, x, '{T}')"


def window_past_input(body, want, have):
    """An unpadded window reaching past the input's end (a kernel larger than
    the input, THNN's output size by C's division: 1): the original read the
    memory past the rows (README).  SpatialConvolution(MM) of pad 0 along a
    dimension, TemporalRowConvolution (its frames the last dimension with its
    features first, else the one before)."""
    sizes = re.search(r"inp\('\w+', \{([\d, ]+)\}", body)
    if not sizes:
        return False
    sizes = [int(v) for v in sizes.group(1).split(", ")]
    conv = re.search(r"nn\.SpatialConvolution(?:MM)?\((\d+), \d+, (\d+), (\d+), \d+, \d+, (\d+), (\d+)\)", body)
    if conv:
        kw, kh, pw, ph = (int(v) for v in conv.groups()[1:])
        return (pw == 0 and kw > sizes[-1]) or (ph == 0 and kh > sizes[-2])
    row = re.search(r"nn\.TemporalRowConvolution\(\d+, (\d+), \d+(, true)?", body)
    return row is not None and len(sizes) >= 2 and int(row.group(1)) > sizes[-1 if row.group(2) else -2]


# differences that are the original's (README), counted apart: (name, test on a case)
KNOWN = [
    ("window-past-input", window_past_input),
    # Squeeze of a single element: the original set its output to the
    # number, which Torch7's set took as a size (uninitialised memory, README)
    ("squeeze-one", lambda body, want, have: "nn.Squeeze(" in body
     and re.search(r"inp\('\w+', \{1(, 1)*\}", body) is not None),
    # the original read an image's height as its width (non-square images,
    # kernels, steps or padding swapped; its backward then refused the gradient)
    ("depthwise-sizes", lambda body, want, have: "nn.SpatialDepthWiseConvolution(" in body),
    # a random table that leaves the last input planes unused: the original
    # stepped from image to image of a batch by the planes the table names
    # (the second image read, and its gradient written, planes too early)
    ("map-unused-planes", lambda body, want, have: "SpatialConvolutionMap(nn.tables.random(" in body
     and re.search(r"inp\('\w+', \{2, \d+, \d+, \d+\}", body) is not None),
]


def main():
    args = arguments(calls=2000)
    rng = random.Random(args.seed)
    calls = [case(rng, k) for k in range(args.calls)]
    mismatches, th_failures, ref_failures = differences(calls, args.th, args.ref, args.batch, args.timeout,
                                                        NN_PRELUDE)
    report(calls, unexplained(mismatches, KNOWN), th_failures, ref_failures, args.show)


if __name__ == "__main__":
    main()
