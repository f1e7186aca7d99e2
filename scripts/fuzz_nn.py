"""Differential fuzz of nn's layers and criteria: th against the original.

Each case builds one module or criterion with random settings (kernel,
stride, padding, dilation, in place or not...), feeds it a random input
(Double or Float, batched or not, contiguous or not), and prints its output
and gradients (and the parameters' gradients); both commands must print the
same values (5 significant digits) or both fail.  nn comes from LUA_PATH
(the third-party tree).  Uses fuzz_diff.py's runner.

    LUA_PATH='/work/shared/thirdparty/?.lua;/work/shared/thirdparty/?/init.lua;;' \\
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
      return repr1(r) .. ' |sum ' .. string.format('%.5g', r:clone():abs():sum())
   end
   return repr1(r)
end
-- inp(T, sizes, layout): random normal values; layout 't' transposes the
-- last two dimensions' memory, 'n' narrows a wider tensor (not contiguous)
function inp(T, sizes, layout)
   local s = {unpack(sizes)}
   local x
   if layout == 't' and #s >= 2 then
      s[#s], s[#s - 1] = s[#s - 1], s[#s]
      x = torch.randn(unpack(s)):transpose(#s, #s - 1)
   elseif layout == 'n' then
      s[#s] = s[#s] + 2
      x = torch.randn(unpack(s)):narrow(#s, 2, sizes[#sizes])
   else
      x = torch.randn(unpack(s))
   end
   return T == 'Float' and x:float() or x
end
-- step(m, x [, T]): forward and backward once, what they gave
function step(m, x, T)
   if T == 'Float' then m:float() end
   local y = m:forward(x)
   local go = y.new():resizeAs(y):copy(torch.randn(y:size()))
   m:zeroGradParameters()   -- (the original's were uninitialised memory)
   local gi = m:backward(x, go)
   return {y, gi, m.gradWeight or false, m.gradBias or false}
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
    ctor = pick(rng, f"nn.TemporalConvolution({i}, {o}, {kw}, {dw})", f"nn.TemporalMaxPooling({kw}, {dw})",
                f"nn.TemporalSubSampling({i}, {kw}, {dw})", f"nn.TemporalRowConvolution({i}, {kw}, {dw})")
    if "Row" in ctor:
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
