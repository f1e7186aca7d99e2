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
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import PRELUDE, arguments, differences, report  # noqa: E402

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


# the structural kinds without parameters or divisions (Narrow... Max, Index,
# the tables, CAdd-like, Identity-like, MaskedSelect, the containers of
# those, CAddTensorTable, Collapse, the zips)
INTEGRAL = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 21, 33, 39, 40, 42, 43, 44, 45, 52}


def structural(rng, T, layout):
    """one of nn's Lua-level shape and table modules (and containers of a
    few layers): its constructor, its input's Lua (a tensor, a table of
    tensors, index tensors) and the element type (Long or Int for some)"""
    kind = rng.randrange(58)
    if kind in INTEGRAL and rng.random() < 0.25:   # shapes and tables of integers
        T = pick(rng, "Long", "Int")
    return build(rng, kind, T, layout) + (T,)


def build(rng, kind, T, layout):
    """structural's module of that kind, and its input"""
    def x(sizes, lay=None):
        return f"inp('{T}', {{{', '.join(map(str, sizes))}}}, '{lay or layout}')"

    def table(*sizes):
        return "{" + ", ".join(x(sz, pick(rng, "c", "c", "t", "n")) for sz in sizes) + "}"

    def index(n, hi, shape=None):
        """n indices 1..hi (or a tensor of that shape): a LongTensor or a DoubleTensor"""
        shape = shape or [n]
        itype = pick(rng, "Long", "Long", "Double")
        return f"torch.{itype}Tensor({', '.join(map(str, shape))}):random(1, {hi})"

    sz = shapes(rng)
    nd = len(sz)
    d = rng.randint(1, nd)
    dim = pick(rng, d, d, d - nd - 1)             # negative: from the end
    batch = rng.randint(1, 3)
    n, n2 = rng.randint(1, 5), rng.randint(1, 5)
    ntab = rng.randint(1, 3)
    if kind == 0:
        size = sz[d - 1]
        off = pick(rng, rng.randint(1, size), -rng.randint(1, size))
        length = pick(rng, rng.randint(1, max(1, size - abs(off) + 1)), -1, "")
        return f"nn.Narrow({dim}, {off}{', ' + str(length) if length != '' else ''})", x(sz)
    if kind == 1:
        return f"nn.Select({dim}, {pick(rng, rng.randint(1, sz[d - 1]), -rng.randint(1, sz[d - 1]))})", x(sz)
    if kind == 2:
        total = 1
        for v in sz:
            total *= v
        target = pick(rng, [total], [1, total], [total, 1], sz[::-1])
        mode = pick(rng, "", ", true", ", false")
        inp_ = ([batch] if mode != ", false" and rng.random() < 0.5 else []) + sz
        return f"nn.Reshape({', '.join(map(str, target))}{mode})", x(inp_)
    if kind == 3:
        total = 1
        for v in sz:
            total *= v
        target = pick(rng, [-1], [total], [-1, sz[-1]], [sz[0], -1], sz[::-1])
        batched = rng.random() < 0.5
        dims = f":setNumInputDims({nd})" if batched or rng.random() < 0.3 else ""
        return f"nn.View({', '.join(map(str, target))}){dims}", x(([batch] if batched else []) + sz,
                                                                    pick(rng, "c", "c", "c", "n"))
    if kind == 4:
        s = shapes(rng, rng.randint(2, 4))
        k = len(s)
        perms = [f"{{{rng.randint(1, k)}, {rng.randint(1, k)}}}" for _ in range(rng.randint(1, 2))]
        batched = rng.random() < 0.4
        dims = f":setNumInputDims({k})" if batched else ""
        return f"nn.Transpose({', '.join(perms)}){dims}", x(([batch] if batched else []) + s)
    if kind == 5:
        batched = rng.random() < 0.4
        return (f"nn.Replicate({n}, {rng.randint(1, nd + 1)}{', ' + str(nd) if batched else ''})",
                x(([batch] if batched else []) + sz))
    if kind == 6:
        batched = rng.random() < 0.4
        pad = pick(rng, 1, 2, -1, -2)
        return (f"nn.Padding({d}, {pad}, {nd if batched else 'nil'}, {pick(rng, 0, 1.5)}, "
                f"{rng.randint(1, sz[d - 1] + 1)})", x(([batch] if batched else []) + sz))
    if kind == 7:
        s = [pick(rng, 1, 1, 2, 3) for _ in range(rng.randint(1, 4))]
        batched = rng.random() < 0.4
        sq = pick(rng, "", str(rng.randint(1, len(s))))
        nid = f", {len(s)}" if batched else ""
        return f"nn.Squeeze({sq or 'nil'}{nid})", x(([pick(rng, 1, 2)] if batched else []) + s)
    if kind == 8:
        batched = rng.random() < 0.4
        nid = f", {nd}" if batched else ""
        return f"nn.Unsqueeze({rng.randint(1, nd + 1)}{nid})", x(([batch] if batched else []) + sz)
    if kind in (9, 10):
        mod = pick(rng, "Max", "Min", "Mean", "Sum")
        batched = rng.random() < 0.3
        args = f"{dim}, {nd if batched else 'nil'}"
        if mod == "Sum":
            args += f", {pick(rng, 'true', 'false')}, {pick(rng, 'true', 'false')}"
        return f"nn.{mod}({args})", x(([batch] if batched else []) + sz)
    if kind == 11:
        return f"nn.Index({d})", f"{{{x(sz)}, {index(rng.randint(1, 4), sz[d - 1])}}}"
    if kind == 12:
        batched = rng.random() < 0.3
        parts = []
        for _ in range(rng.randint(1, 3)):
            s = list(sz)
            s[d - 1] = rng.randint(1, 3)
            parts.append(([batch] if batched else []) + s)
        return f"nn.JoinTable({dim}{', ' + str(nd) if batched else ''})", table(*parts)
    if kind == 13:
        batched = rng.random() < 0.3
        return f"nn.SplitTable({dim}{', ' + str(nd) if batched else ''})", x(([batch] if batched else []) + sz)
    if kind == 14:
        k = rng.randint(1, 4)
        return f"nn.NarrowTable({rng.randint(1, k)}, {pick(rng, 1, 2, -1)})", table(*[sz] * k)
    if kind == 15:
        k = rng.randint(1, 4)
        return (f"nn.SelectTable({pick(rng, rng.randint(1, k), -rng.randint(1, k))})",
                "{" + ", ".join(pick(rng, x(sz), table(sz, sz)) for _ in range(k)) + "}")
    if kind == 16:
        return "nn.FlattenTable()", f"{{{x(sz)}, {{{x(sz)}, {table(sz, sz)}}}, {table(sz)}}}"
    if kind == 17:
        i, cat = sz[-1], pick(rng, 1, 2) if nd > 1 else 1
        outs = [n if cat == 1 and nd > 1 else rng.randint(1, 4) for _ in range(ntab)]
        mods = "".join(f":add(nn.Linear({i}, {o}))" for o in outs)
        return f"nn.Concat({cat}){mods}", x(sz if nd <= 2 else sz[-2:])
    if kind == 18:
        i = sz[-1]
        mods = "".join(pick(rng, f":add(nn.Linear({i}, {rng.randint(1, 4)}))", ":add(nn.Identity())",
                            ":add(nn.ConcatTable():add(nn.Tanh()):add(nn.MulConstant(2)))")
                       for _ in range(ntab))
        return f"nn.ConcatTable(){mods}", x(sz[-2:])
    if kind == 19:
        i = sz[-1]
        mods = "".join(pick(rng, f":add(nn.Linear({i}, {rng.randint(1, 4)}))", ":add(nn.Sigmoid())",
                            f":add(nn.Sum({pick(rng, 1, -1)}))") for _ in range(ntab))
        return f"nn.ParallelTable(){mods}", table(*[sz[-2:]] * ntab)
    if kind == 20:
        i = sz[-1]
        return (f"nn.MapTable(nn.Linear({i}, {n}))" if rng.random() < 0.6 else "nn.MapTable(nn.Square())",
                table(*[sz[-2:]] * ntab))
    if kind in (21, 22):
        mod = pick(rng, "CAddTable", "CSubTable", "CMulTable", "CMaxTable", "CMinTable",
                   "CAddTable" if T in ("Long", "Int") else "CDivTable")
        k = 2 if mod in ("CSubTable", "CDivTable") else rng.randint(1, 3)
        arg = pick(rng, "", "true") if mod == "CAddTable" else ""
        return f"nn.{mod}({arg})", table(*[sz] * k)
    if kind in (23, 24):
        mod = pick(rng, "DotProduct()", f"PairwiseDistance({pick(rng, 1, 2, 3)})", "CosineDistance()")
        s = pick(rng, [n], [batch, n])
        return f"nn.{mod}", table(s, s)
    if kind == 25:
        ta, tb = pick(rng, "false", "true"), pick(rng, "false", "true")
        a, b, c = rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4)
        sa = [b, a] if ta == "true" else [a, b]
        sb = [c, b] if tb == "true" else [b, c]
        pre = [batch] if rng.random() < 0.5 else []
        return f"nn.MM({ta}, {tb})", table(pre + sa, pre + sb)
    if kind == 26:
        tr = pick(rng, "false", "true")
        a, b = rng.randint(1, 4), rng.randint(1, 4)
        pre = [batch] if rng.random() < 0.5 else []
        return f"nn.MV({tr})", table(pre + [a, b], pre + [a if tr == "true" else b])
    if kind in (27, 28):
        nidx = rng.randint(2, 8)
        pad = pick(rng, "nil", "nil", rng.randint(1, nidx))
        norm = pick(rng, "nil", "nil", 1, 0.5)
        ntype = pick(rng, "", ", 1", ", 2")
        return (f"nn.LookupTable({nidx}, {n}, {pad}, {norm}{ntype if norm != 'nil' else ''})",
                index(0, nidx, pick(rng, [rng.randint(1, 6)], [batch, rng.randint(1, 5)])))
    if kind == 29:
        mod = pick(rng, "SpatialContrastiveNormalization", "SpatialSubtractiveNormalization",
                   "SpatialDivisiveNormalization")
        planes = rng.randint(1, 3)
        kern = pick(rng, "torch.ones(3)", "torch.ones(3, 3)", "torch.Tensor{1, 2, 1}",
                    "torch.Tensor{{1, 2, 1}, {2, 4, 2}, {1, 2, 1}}", "torch.ones(5)", "torch.ones(3, 5)")
        return f"nn.{mod}({planes}, {kern})", x(image(rng, planes, rng.choice([None, None, 1, 2])))
    if kind == 30:
        experts = rng.randint(1, 3)
        s = [n] if rng.random() < 0.5 else [n, n2]
        if rng.random() < 0.5:   # a batch
            gate = f"nn.SoftMax():{T.lower()}():forward({x([batch, experts], 'c')})"
            ex = pick(rng, table(*[[batch] + s] * experts), x([batch, experts] + s))
        else:
            gate = f"nn.SoftMax():{T.lower()}():forward({x([experts], 'c')})"
            ex = pick(rng, table(*[s] * experts), x([experts] + s))
        return "nn.MixtureTable()", f"{{{gate}, {ex}}}"
    if kind == 31:
        i = rng.randint(1, 4)
        s = [rng.randint(1, 3) for _ in range(rng.randint(1, 3))] + [i]
        return f"nn.Bottle(nn.Linear({i}, {n}))", x(s)
    if kind == 32:
        return (f"nn.L1Penalty({pick(rng, 1, 0.1)}, {pick(rng, 'true', 'false')}, {pick(rng, 'true', 'false')})",
                x(sz))
    if kind == 33:
        mod = pick(rng, "Identity()", "Contiguous()", f"GradientReversal({pick(rng, 1, -0.5, 2)})", "ZeroGrad()",
                   f"Clamp({pick(rng, -1, -0.2)}, {pick(rng, 0.3, 1)})",
                   f"Copy(nil, nil, {pick(rng, 'true', 'false')})")
        return f"nn.{mod}", x(sz)
    if kind in (34, 35):
        i = sz[-1]
        chain = [f"nn.Linear({i}, {n})", pick(rng, "nn.Tanh()", "nn.ReLU()", "nn.Sigmoid()"),
                 pick(rng, "nn.Replicate(2, 1)", "nn.Unsqueeze(1)", f"nn.Padding(1, {pick(rng, 1, -1)})",
                      "nn.Identity()"),
                 pick(rng, "nn.View(-1)", "nn.Contiguous()", "nn.Sum(1)", "nn.Max(1)", "nn.Mean(-1)",
                      "nn.SplitTable(1)")]
        return "nn.Sequential()" + "".join(f":add({c})" for c in chain), x(sz[-2:])
    if kind == 36:
        k = rng.randint(1, 3)
        s = [k, n] if rng.random() < 0.5 else [n, k]
        indim = 1 if s[0] == k else 2
        mods = "".join(f":add(nn.Linear({n}, {rng.randint(1, 3)}))" for _ in range(k))
        return f"nn.Parallel({indim}, 1){mods}", x(s)
    if kind == 37:
        planes = rng.randint(1, 3)
        mods = "".join(f":add(nn.SpatialConvolution({planes}, {rng.randint(1, 3)}, {pick(rng, 1, 3)}, "
                       f"{pick(rng, 1, 3)}, 1, 1, {rng.randint(0, 1)}, {rng.randint(0, 1)}))" for _ in range(ntab))
        sizes = image(rng, planes)
        sizes[-1], sizes[-2] = max(sizes[-1], 3), max(sizes[-2], 3)
        return f"nn.DepthConcat({len(sizes) - 2}){mods}", x(sizes)
    if kind == 38:
        k, st = rng.randint(1, 3), rng.randint(1, 3)
        if rng.random() < 0.8:   # (the unpooling wants a kernel as large as its step)
            k = st
        return (f"(function() local p = nn.SpatialMaxPooling({k}, {k}, {st}, {st}); "
                f"return nn.Sequential():add(p):add(nn.SpatialMaxUnpooling(p)) end)()", x(image(rng, n)))
    if kind == 39:
        return "nn.MaskedSelect()", f"{{{x(sz)}, torch.rand({', '.join(map(str, sz))}):gt(0.5)}}"
    if kind == 40:
        return f"nn.Sequential():add(nn.SplitTable(1)):add(nn.JoinTable({dim}))", x([n] + sz)
    if kind == 41:
        # a container of table modules: a pair made, combined
        i = sz[-1]
        op = pick(rng, "CAddTable", "CMulTable", "CosineDistance", "PairwiseDistance(2)", "DotProduct",
                  "JoinTable(1)", "CMaxTable")
        return (f"nn.Sequential():add(nn.ConcatTable():add(nn.Linear({i}, {n})):add(nn.Linear({i}, {n})))"
                f":add(nn.{op if '(' in op else op + '()'})", x(sz[-2:] if nd > 1 else sz))
    if kind == 42:
        return (f"nn.Sequential():add(nn.SplitTable({dim})):add(nn.NarrowTable(1, 1)):add(nn.FlattenTable())"
                f":add(nn.SelectTable(1))", x(sz if nd > 1 else sz + [2]))
    if kind == 43:
        return (f"nn.Sequential():add(nn.Transpose({{1, {nd}}})):add(nn.Contiguous()):add(nn.View(-1))"
                f":add(nn.Replicate({n}))", x(sz))
    return more_structural(rng, kind, x, table, index, sz, n, batch)


def more_structural(rng, kind, x, table, index, sz, n, batch):
    """nn's other Lua-level modules: tensor tables, collapsing, constants,
    formats, CReLU, Maxout, one-hot, pixel shuffle, zips, dynamic k-max,
    layer and weight normalisations, up-sampling, Normalize"""
    nd = len(sz)
    if kind == 44:
        return "nn.CAddTensorTable()", f"{{{x(sz)}, {table(*[sz] * rng.randint(1, 3))}}}"
    if kind == 45:
        return f"nn.Collapse({pick(rng, nd, max(1, nd - 1))})", x(sz)
    if kind == 46:
        return f"nn.Constant({pick(rng, 2, -0.5)}, {pick(rng, nd, max(1, nd - 1))})", x(sz)
    if kind == 47:
        shapes_ = pick(rng, ("'bchw'", "'bhwc'"), ("'bchw'", "'bf'"), ("'chw'", "'hwc'"), ("'bf'", "'fb'"),
                       ("nil", "nil"))
        size = {"'bchw'": [batch, 2, 3, 4], "'chw'": [2, 3, 4], "'bf'": [batch, n], "nil": sz}[shapes_[0]]
        return f"nn.Convert({shapes_[0]}, {shapes_[1]})", x(size)
    if kind == 48:
        return f"nn.CReLU({pick(rng, 'nil', nd, max(1, nd - 1))}, {pick(rng, 'false', 'true')})", x(sz)
    if kind == 49:
        i = sz[-1]
        return f"nn.Maxout({i}, {n}, {rng.randint(1, 3)})", x(sz[-2:])
    if kind == 50:
        c = rng.randint(2, 6)
        return f"nn.OneHot({c})", index(0, c, pick(rng, [rng.randint(1, 5)], [batch, rng.randint(1, 4)]))
    if kind == 51:
        r = rng.randint(1, 3)
        return f"nn.PixelShuffle({r})", x(([batch] if rng.random() < 0.5 else []) +
                                           [r * r * rng.randint(1, 2), rng.randint(1, 3), rng.randint(1, 3)])
    if kind == 52:
        k = rng.randint(1, 3)
        if rng.random() < 0.5:
            return "nn.ZipTable()", "{" + ", ".join(table(*[sz] * k) for _ in range(rng.randint(1, 3))) + "}"
        return "nn.ZipTableOneToMany()", f"{{{x(sz)}, {table(*[sz] * k)}}}"
    if kind == 53:
        frames = rng.randint(2, 7)
        return (f"nn.TemporalDynamicKMaxPooling({rng.randint(1, frames)}, {pick(rng, 0, 0.5)})",
                x(([batch] if rng.random() < 0.5 else []) + [frames, n]))
    if kind == 54:
        i = sz[-1]
        return (pick(rng, f"nn.LayerNormalization({i})", f"nn.WeightNorm(nn.Linear({i}, {n}))",
                     f"nn.LinearWeightNorm({i}, {n})"), x(sz[-2:]))
    if kind == 55:
        mode = pick(rng, "nil", "'linear'")
        return f"nn.UpSampling({rng.randint(1, 3)}, {mode})", x(image(rng, n, batch))
    if kind == 56:
        return f"nn.Normalize({pick(rng, 1, 2, 3, 'math.huge')})", x(sz[-2:])
    return f"nn.{pick(rng, 'ReLU6()', 'ReLU6(true)', 'TanhShrink()')}", x(sz)


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


def main():
    args = arguments(calls=2000)
    rng = random.Random(args.seed)
    calls = [case(rng, k) for k in range(args.calls)]
    report(calls, *differences(calls, args.th, args.ref, args.batch, args.timeout, NN_PRELUDE), args.show)


if __name__ == "__main__":
    main()
