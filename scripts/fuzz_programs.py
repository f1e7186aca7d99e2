"""Differential fuzz of whole small training programs: th against the original.

Each case is a generated Torch7 program as users wrote them: a random small
model (Sequential, Concat, ConcatTable + CAddTable/CMulTable/JoinTable,
Parallel, weights shared by `clone('weight', 'bias', ...)` or `share`, an
nngraph gModule with one or two inputs and one or two outputs; Linear (or
Linear:noBias) then PReLU/CMul/Add/Normalize/Euclidean sometimes,
SpatialConvolution(MM), dilated, transposed and strided convolutions on tiny
images, max/average pooling, LookupTable + TemporalConvolution + pooling over
time on word indices, ReLU/Tanh/Sigmoid/ELU/LeakyReLU/HardTanh/SoftPlus,
Dropout and SpatialDropout, (Spatial)BatchNormalization, View/Reshape), Double
or Float (by `:float()`, `:type()` or the default tensor type), a criterion
matching the output (ClassNLL with weights or not, CrossEntropy, MultiMargin,
MSE, SmoothL1, Abs, BCE, Margin, SoftMargin, MultiLabelSoftMargin,
ParallelCriterion for two outputs), deterministic data (formulas, or
torch.manualSeed then rand/randn), and 3-20 training steps with an optim
algorithm and a random config (sgd with momentum/nesterov/dampening/
weightDecay/learningRateDecay, adam, adamax, adagrad, adadelta, rmsprop,
nag, asgd, rprop, lbfgs with or without lswolfe, cg), or by hand
(zeroGradParameters, backward, updateParameters; or updateGradInput then
accGradParameters with a scale).  Between steps, at random: evaluate()
outputs, getParameters() again, clearState, clone(), torch.save/torch.load
(binary or ascii, the model alone or with the optim state) or
serialize/deserialize, :float()/:double()/:type() of the whole model (then
the optim state starts again).  The program prints digests: each step's
loss, the parameters' and gradients' sums, absolute sums, norms and a few
elements, optim state fields (not the original's uninitialised buffers:
lbfgs's dir_bufs/stp_bufs/ro, cg's df3, asgd's tmp), evaluate-mode outputs
of the model and of its clone, an optim.ConfusionMatrix of the classes; all
at 5 significant digits, and with --bits also %a of numbers and an exact
weighted sum of every element of tensors.  Programs run in batches by
fuzz_diff.py's runner (crashes and hangs resumed; optim.cg's line search
never ends on some programs, in both); a program that fails prints what it
digested before and `error`.  OpenBLAS is pinned to the tests' Haswell
kernels (tests/conftest.py), so that a finding's bits are its fixture's.

nn comes from LUA_PATH for th (the third-party tree, with moses); the
original finds its installed nn, and optim/nngraph/graph by its ./?/init.lua:
the script runs both from a temporary folder of links into that tree.

    LUA_PATH='/work/shared/thirdparty/?.lua;/work/shared/thirdparty/?/init.lua;/work/shared/thirdparty/moses/?.lua;;' \\
    python scripts/fuzz_programs.py --calls 500 --seed 1 [--bits] [--timeout 20] \\
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th

    --print-case K   prints program K as a script to run alone (from a folder
                     where the original finds optim and nngraph)
    FUZZ_PROGRAMS_ERRORS=1 ...   runs th alone and lists the programs that
                     fail, with their error (to keep the generator valid)
"""
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import PRELUDE, arguments, differences  # noqa: E402

THIRDPARTY = os.environ.get("TH_THIRDPARTY", "/work/shared/thirdparty")
# OpenBLAS's kernels for the tests' CPU (tests/conftest.py): a finding's bits
# are those its fixture records
os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")

PROG_PRELUDE = PRELUDE + r"""
require 'nn'
require 'optim'
require 'nngraph'
BITS = false
UNINIT = {dir_bufs = true, stp_bufs = true, tmp = true, df3 = true, ro = true}
local D
local function exact(c)
   local h = 0
   for i = 1, c:nElement() do h = h + c[i] * ((i % 7) + 1) end
   return string.format('%a', h)
end
function digest(v)
   if type(v) == 'number' then
      return BITS and (fmt(v) .. '/' .. string.format('%a', v)) or fmt(v)
   elseif torch.isTensor(v) then
      local n = v:nElement()
      local head = torch.type(v):gsub('torch.', ''):gsub('Tensor', '') .. ' '
                   .. (v:dim() == 0 and 'empty' or table.concat(v:size():totable(), 'x'))
      if n == 0 then return head end
      local c = v:double():contiguous():view(-1)
      local parts = {head, 's' .. fmt(c:sum()), 'a' .. fmt(c:clone():abs():sum()),
                     fmt(c[1]), fmt(c[math.ceil(n / 2)]), fmt(c[n])}
      if BITS then parts[#parts + 1] = exact(c) end
      return table.concat(parts, ' ')
   elseif type(v) == 'table' then
      local keys = {}
      for k in pairs(v) do keys[#keys + 1] = k end
      table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
      local parts = {}
      for _, k in ipairs(keys) do
         local x = v[k]
         if UNINIT[k] then   -- the original's uninitialised memory (lbfgs's buffers, asgd's tmp)
         elseif type(x) == 'number' or type(x) == 'boolean' or torch.isTensor(x) or type(x) == 'table' then
            parts[#parts + 1] = tostring(k) .. ':' .. digest(x)
         end
      end
      return '{' .. table.concat(parts, ', ') .. '}'
   end
   return tostring(v)
end
function P(tag, v) D[#D + 1] = tag .. '=' .. digest(v) end
function program(body)
   D = {}
   torch.setdefaulttensortype('torch.DoubleTensor')
   local ok, err = pcall(body)
   torch.setdefaulttensortype('torch.DoubleTensor')
   if not ok then
      D[#D + 1] = os.getenv('FUZZ_PROGRAMS_ERRORS') and 'error ' .. tostring(err):sub(1, 160) or 'error'
   end
   return table.concat(D, ' ; ')
end
"""


def pick(rng, *options):
    return rng.choice(options)


def num(v):
    return repr(float(v)) if isinstance(v, float) else str(v)


class Prog:
    """A program being written: its Lua lines and a counter for names."""

    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.n = 0
        self.classes = None

    def name(self, base):
        self.n += 1
        return f"{base}{self.n}"

    def emit(self, line):
        self.lines.append(line)


def activation(rng):
    return pick(rng, "nn.ReLU()", "nn.Tanh()", "nn.Sigmoid()", "nn.ReLU(true)", "nn.ELU()",
                "nn.LeakyReLU(0.1)", "nn.HardTanh()", "nn.SoftPlus()")


def dense_block(p, D):
    """modules taking N x D to N x H -> (list of Lua module expressions, H)"""
    rng = p.rng
    H = rng.randint(2, 7)
    mods = [pick(rng, f"nn.Linear({D}, {H})", f"nn.Linear({D}, {H})", f"nn.Linear({D}, {H}):noBias()"),
            activation(rng)]
    if rng.random() < 0.15:
        mods.append(pick(rng, f"nn.PReLU({H})", f"nn.CMul({H})", f"nn.Add({H})", "nn.Normalize(2)",
                         "nn.MulConstant(0.7)", f"nn.Euclidean({H}, {H})", "nn.SoftSign()"))
    if rng.random() < 0.25:
        mods.append(f"nn.Dropout({pick(rng, 0.2, 0.5)})")
    if rng.random() < 0.2:
        mods.append(f"nn.BatchNormalization({H}{pick(rng, '', ', 1e-3, 0.2', ', nil, nil, false')})")
    return mods, H


def vector_trunk(p, D):
    """a variable holding a module from N x D to N x F -> (variable, F)"""
    rng = p.rng
    v = p.name("m")
    kind = rng.random()
    if kind < 0.35:
        mods, H = dense_block(p, D)
        if rng.random() < 0.4:
            more, H = dense_block(p, H)
            mods += more
        p.emit(f"local {v} = nn.Sequential()" + "".join(f":add({m})" for m in mods))
        return v, H
    if kind < 0.5:
        a, b = rng.randint(1, 4), rng.randint(1, 4)
        p.emit(f"local {v} = nn.Concat(2):add(nn.Linear({D}, {a})):add(nn.Sequential():add(nn.Linear({D}, {b}))"
               f":add({activation(rng)}))")
        return v, a + b
    if kind < 0.65:
        H = rng.randint(2, 5)
        join = pick(rng, "add", "join", "mul")
        tail = {"add": "nn.CAddTable()", "join": "nn.JoinTable(2)", "mul": "nn.CMulTable()"}[join]
        p.emit(f"local {v} = nn.Sequential():add(nn.ConcatTable():add(nn.Linear({D}, {H}))"
               f":add(nn.Sequential():add(nn.Linear({D}, {H})):add({activation(rng)}))):add({tail})")
        return v, 2 * H if join == "join" else H
    if kind < 0.78:   # shared weights
        H = rng.randint(2, 5)
        l1, l2 = p.name("lin"), p.name("lin")
        p.emit(f"local {l1} = nn.Linear({D}, {H})")
        how = pick(rng, "clone('weight', 'bias', 'gradWeight', 'gradBias')", "clone('weight', 'gradWeight', 'bias', 'gradBias')",
                   "share")
        if how == "share":
            p.emit(f"local {l2} = nn.Linear({D}, {H}); {l2}:share({l1}, 'weight', 'bias', 'gradWeight', 'gradBias')")
        else:
            p.emit(f"local {l2} = {l1}:{how}")
        p.emit(f"local {v} = nn.Sequential():add(nn.ConcatTable():add({l1})"
               f":add(nn.Sequential():add(nn.MulConstant(0.5)):add({l2}))):add(nn.CAddTable()):add({activation(rng)})")
        return v, H
    if kind < 0.88 and D % 2 == 0 and D >= 2:   # Parallel over two halves
        h1, h2 = rng.randint(1, 3), rng.randint(1, 3)
        p.emit(f"local {v} = nn.Sequential():add(nn.Reshape(2, {D // 2}))"
               f":add(nn.Parallel(2, 2):add(nn.Linear({D // 2}, {h1})):add(nn.Linear({D // 2}, {h2})))"
               f":add({activation(rng)})")
        return v, h1 + h2
    # nngraph
    H = rng.randint(2, 5)
    x, h, a, b, s = (p.name("node") for _ in range(5))
    p.emit(f"local {x} = nn.Identity()()")
    p.emit(f"local {h} = nn.Linear({D}, {H})({x})")
    p.emit(f"local {a} = {activation(rng)}({h})")
    p.emit(f"local {b} = nn.Linear({H}, {H})({pick(rng, a, h)})")
    comb = pick(rng, "nn.CAddTable()", "nn.CMulTable()", "nn.CSubTable()")
    p.emit(f"local {s} = {comb}({{{a}, {b}}})")
    p.emit(f"local {v} = nn.gModule({{{x}}}, {{{s}}})")
    return v, H


def image_trunk(p, C, H, W):
    """a module from N x C x H x W to N x F -> (variable, F)"""
    rng = p.rng
    v = p.name("m")
    k = rng.randint(1, 4)
    kw = rng.randint(1, 3)
    pad = rng.randint(0, kw // 2 + 0)
    conv = pick(rng, "nn.SpatialConvolution", "nn.SpatialConvolutionMM", "nn.SpatialConvolution",
                "nn.SpatialFullConvolution", "nn.SpatialDilatedConvolution")
    if conv == "nn.SpatialDilatedConvolution" and min(H, W) + 2 * pad < 2 * (kw - 1) + 1:
        conv = "nn.SpatialConvolution"
    if conv == "nn.SpatialFullConvolution":
        mods = [f"{conv}({C}, {k}, {kw}, {kw}, 1, 1, {pad}, {pad})", activation(rng)]
        h, w = H - 2 * pad + kw - 1, W - 2 * pad + kw - 1
    elif conv == "nn.SpatialDilatedConvolution":
        mods = [f"{conv}({C}, {k}, {kw}, {kw}, 1, 1, {pad}, {pad}, 2, 2)", activation(rng)]
        h, w = H + 2 * pad - 2 * (kw - 1), W + 2 * pad - 2 * (kw - 1)
    else:
        mods = [f"{conv}({C}, {k}, {kw}, {kw}, 1, 1, {pad}, {pad})", activation(rng)]
        h, w = H + 2 * pad - kw + 1, W + 2 * pad - kw + 1
    if rng.random() < 0.5 and h >= 2 and w >= 2:
        mods.append(pick(rng, "nn.SpatialMaxPooling(2, 2, 2, 2)", "nn.SpatialAveragePooling(2, 2, 2, 2)"))
        h, w = (h - 2) // 2 + 1, (w - 2) // 2 + 1
    if rng.random() < 0.25:
        mods.append(f"nn.SpatialBatchNormalization({k})")
    if rng.random() < 0.15:
        mods.append(f"nn.SpatialDropout({pick(rng, 0.2, 0.5)})")
    if rng.random() < 0.2 and h >= 2 and w >= 2:   # a second convolution, stride 2
        k2 = rng.randint(1, 3)
        mods += [f"nn.SpatialConvolution({k}, {k2}, 2, 2, 2, 2)", activation(rng)]
        k, h, w = k2, (h - 2) // 2 + 1, (w - 2) // 2 + 1
    F = k * h * w
    mods.append(pick(rng, f"nn.View({F}):setNumInputDims(3)", f"nn.View(-1, {F})", f"nn.Reshape({F}, true)"))
    p.emit(f"local {v} = nn.Sequential()" + "".join(f":add({m})" for m in mods))
    return v, F


def head(p, F, N):
    """the output layer, criterion and targets -> (head module expr, criterion expr, target expr)"""
    rng = p.rng
    C = rng.randint(2, 5)
    kind = rng.random()
    cls = f"torch.Tensor({{{', '.join(str(((i * 7 + rng.randint(0, 3)) % C) + 1) for i in range(N))}}})"
    if kind < 0.5:
        p.classes = C
    if kind < 0.3:
        crit = pick(rng, "nn.ClassNLLCriterion()", "nn.ClassNLLCriterion(nil, false)",
                    f"nn.ClassNLLCriterion(torch.Tensor({{{', '.join(num(rng.choice([0.5, 1.0, 2.0])) for _ in range(C))}}}))")
        return f"nn.Sequential():add(nn.Linear({F}, {C})):add(nn.LogSoftMax())", crit, cls
    if kind < 0.42:
        return f"nn.Linear({F}, {C})", "nn.CrossEntropyCriterion()", cls
    if kind < 0.5:
        return (f"nn.Linear({F}, {C})", f"nn.MultiMarginCriterion({pick(rng, 1, 2)}, nil, {pick(rng, 1, 0.5)})",
                cls)
    if kind < 0.7:
        tail = pick(rng, "", ":add(nn.Tanh())")
        crit = pick(rng, "nn.MSECriterion()", "nn.MSECriterion(false)", "nn.SmoothL1Criterion()",
                    "nn.AbsCriterion()")
        return (f"nn.Sequential():add(nn.Linear({F}, {C})){tail}", crit,
                f"torch.linspace(-0.9, 0.9, {N * C}):view({N}, {C})")
    if kind < 0.82:
        crit = pick(rng, "nn.BCECriterion()", "nn.BCECriterion(nil, false)",
                    f"nn.BCECriterion(torch.Tensor({C}):fill(0.7))", "nn.MultiLabelSoftMarginCriterion()")
        out = "nn.Sigmoid()" if "BCE" in crit else "nn.Identity()"
        return (f"nn.Sequential():add(nn.Linear({F}, {C})):add({out})", crit,
                f"torch.rand({N}, {C}):gt(0.5):type(torch.getdefaulttensortype())")
    sign = f"torch.rand({N}, 1):gt(0.4):type(torch.getdefaulttensortype()):mul(2):add(-1)"
    crit = pick(rng, "nn.MarginCriterion()", "nn.SoftMarginCriterion()", "nn.MarginCriterion(0.5)")
    return f"nn.Sequential():add(nn.Linear({F}, 1)):add(nn.Tanh())", crit, sign


OPTIMS = ["sgd", "sgd", "sgd", "adam", "adamax", "adagrad", "adadelta", "rmsprop", "nag", "asgd", "rprop",
          "lbfgs", "cg"]


def optim_config(rng, name):
    lr = pick(rng, 0.1, 0.05, 0.01, 0.3)
    c = {}
    if name == "sgd":
        c["learningRate"] = lr
        if rng.random() < 0.5:
            c["momentum"] = pick(rng, 0.9, 0.5)
            if rng.random() < 0.4:
                c["nesterov"] = "true"
                c["dampening"] = 0
            elif rng.random() < 0.3:
                c["dampening"] = pick(rng, 0, 0.1)
        if rng.random() < 0.4:
            c["weightDecay"] = pick(rng, 1e-3, 5e-4, 0.01)
        if rng.random() < 0.3:
            c["learningRateDecay"] = pick(rng, 1e-2, 1e-4)
    elif name in ("adam", "adamax"):
        c["learningRate"] = pick(rng, 0.01, 0.002, 0.05)
        if rng.random() < 0.3:
            c["beta1"], c["beta2"] = 0.8, 0.99
        if name == "adam" and rng.random() < 0.3:
            c["weightDecay"] = 1e-3
    elif name == "adagrad":
        c["learningRate"] = lr
        if rng.random() < 0.3:
            c["weightDecay"] = 1e-3
    elif name == "adadelta":
        if rng.random() < 0.5:
            c["rho"] = pick(rng, 0.9, 0.95)
    elif name == "rmsprop":
        c["learningRate"] = pick(rng, 0.01, 0.001)
        if rng.random() < 0.4:
            c["alpha"] = 0.9
    elif name == "nag":
        c["learningRate"] = lr
        c["momentum"] = pick(rng, 0.9, 0.5)
    elif name == "asgd":
        c["eta0"] = lr
        if rng.random() < 0.5:
            c["t0"] = 2
    elif name == "rprop":
        c["stepsize"] = pick(rng, 0.1, 0.01)
    elif name == "lbfgs":
        c["maxIter"] = rng.randint(1, 5)
        if rng.random() < 0.4:
            c["lineSearch"] = "optim.lswolfe"
        else:
            c["learningRate"] = pick(rng, 0.5, 1, 0.1)
        if rng.random() < 0.3:
            c["nCorrection"] = 3
    elif name == "cg":
        c["maxIter"] = rng.randint(1, 4)
    return "{" + ", ".join(f"{k} = {num(v)}" for k, v in c.items()) + "}"


def data(p, N, shape):
    rng = p.rng
    dims = ", ".join(map(str, [N] + shape))
    n = N
    for s in shape:
        n *= s
    return pick(rng, f"torch.rand({dims})", f"torch.randn({dims})",
                f"torch.linspace(-1, 1, {n}):view({dims})",
                f"torch.Tensor({dims}):apply(function() return 0 end):add(torch.range(1, {n}):view({dims}):mul(0.37):sin())")


def case(rng, k, bits=False):
    p = Prog(rng)
    emit = p.emit
    emit(f"BITS = {'true' if bits else 'false'}")
    emit(f"torch.manualSeed({k})")
    typing = pick(rng, "double", "double", "float", "float_default", "type")
    if typing == "float_default":
        emit("torch.setdefaulttensortype('torch.FloatTensor')")
    N = rng.randint(2, 6)
    graph2 = False
    seq = False
    if rng.random() < 0.12:   # words: LookupTable, TemporalConvolution, pooling over time
        V, E, L = rng.randint(3, 8), rng.randint(2, 4), rng.randint(3, 6)
        k, kw = rng.randint(1, 4), rng.randint(1, 3)
        trunk = p.name("m")
        pool = pick(rng, "nn.Max(2)", "nn.Mean(2)", "nn.Sum(2)")
        p.emit(f"local {trunk} = nn.Sequential():add(nn.LookupTable({V}, {E})):add(nn.TemporalConvolution({E}, {k}, {kw}))"
               f":add({activation(rng)}):add({pool})")
        F, shape, seq = k, None, (V, L)
    elif rng.random() < 0.4:
        C, H, W = rng.randint(1, 2), rng.randint(3, 6), rng.randint(3, 6)
        shape = [C, H, W]
        trunk, F = image_trunk(p, C, H, W)
    else:
        D = rng.randint(2, 6)
        shape = [D]
        trunk, F = vector_trunk(p, D)
        graph2 = rng.random() < 0.12
        if not graph2 and rng.random() < 0.1:   # a gModule of two inputs: x is a table
            D2, H = rng.randint(1, 4), rng.randint(2, 4)
            g = p.name("m")
            p.emit(f"local in1, in2 = nn.Identity()(), nn.Identity()()")
            p.emit(f"local t1 = {trunk}(in1)")
            p.emit(f"local t2 = {activation(rng)}(nn.Linear({D2}, {F})(in2))")
            join = pick(rng, "nn.CAddTable()", "nn.CMulTable()", "nn.JoinTable(2)")
            p.emit(f"local {g} = nn.gModule({{in1, in2}}, {{{join}({{t1, t2}})}})")
            trunk, F = g, (2 * F if "Join" in join else F)
            shape = (shape, [D2])
    hmod, crit, target = head(p, F, N)
    if graph2:   # an nngraph with two outputs and a ParallelCriterion
        emit("local gin = nn.Identity()()")
        emit(f"local gt = {trunk}(gin)")
        emit(f"local o1 = ({hmod})(gt)")
        emit(f"local o2 = nn.Linear({F}, 2)(gt)")
        emit("local model = nn.gModule({gin}, {o1, o2})")
        emit(f"local crit = nn.ParallelCriterion():add({crit}):add(nn.MSECriterion(), {pick(rng, 0.5, 1)})")
        emit(f"local y = {{{target}, torch.linspace(0, 1, {2 * N}):view({N}, 2)}}")
    else:
        emit(f"local model = nn.Sequential():add({trunk}):add({hmod})")
        emit(f"local crit = {crit}")
        emit(f"local y = {target}")
    if seq:
        emit(f"local x = torch.LongTensor({N}, {seq[1]}):random(1, {seq[0]})")
    elif isinstance(shape, tuple):
        emit(f"local x = {{{data(p, N, shape[0])}, {data(p, N, shape[1])}}}")
    else:
        emit(f"local x = {data(p, N, shape)}")
    if typing == "float_default":
        emit("y = nn.utils.recursiveType(y, 'torch.FloatTensor')")
    elif typing == "float":
        emit("model:float(); crit:float(); x = nn.utils.recursiveType(x, 'torch.FloatTensor'); y = nn.utils.recursiveType(y, 'torch.FloatTensor')")
    elif typing == "type":
        emit("model:type('torch.FloatTensor'); crit:type('torch.FloatTensor'); x = nn.utils.recursiveType(x, 'torch.FloatTensor')"
             "; y = nn.utils.recursiveType(y, 'torch.FloatTensor')")
    emit("local params, grads = model:getParameters()")
    emit("P('init', params)")
    if rng.random() < 0.3:
        emit("params, grads = model:getParameters(); P('again', params:nElement())")
    method = rng.choice(OPTIMS)
    style = "optim" if rng.random() < 0.75 else pick(rng, "manual", "acc")
    emit(f"local config = {optim_config(rng, method)}")
    if method == "sgd" and rng.random() < 0.15:   # a learning rate (weight decay) per parameter
        emit(f"config.{pick(rng, 'learningRates', 'weightDecays')} = "
             "torch.linspace(0.5, 1.5, params:nElement()):typeAs(params)")
    emit("local state = " + pick(rng, "config", "{}"))
    emit("local function feval(w)\n"
         "   if w ~= params then params:copy(w) end\n"
         "   grads:zero()\n"
         "   local out = model:forward(x)\n"
         "   local loss = crit:forward(out, y)\n"
         "   model:backward(x, crit:backward(out, y))\n"
         "   return loss, grads\n"
         "end")
    steps = rng.randint(3, 20)
    lr = pick(rng, 0.1, 0.05, 0.2)
    scale = pick(rng, 1, 0.5, 2)
    for s in range(1, steps + 1):
        if style == "optim":
            emit(f"do local _, fs = optim.{method}(feval, params, config, state); P('L{s}', fs[1]) end")
        elif style == "manual":
            emit(f"do model:zeroGradParameters(); local out = model:forward(x); local l = crit:forward(out, y); "
                 f"model:backward(x, crit:backward(out, y)); model:updateParameters({lr}); P('L{s}', l) end")
        else:
            emit(f"do model:zeroGradParameters(); local out = model:forward(x); local l = crit:forward(out, y); "
                 f"local go = crit:backward(out, y); model:updateGradInput(x, go); "
                 f"model:accGradParameters(x, go, {scale}); model:updateParameters({lr}); P('L{s}', l) end")
        if rng.random() < 0.25 or s == steps:
            emit(f"P('p{s}', params); P('g{s}', grads:norm())")
        if s < steps and rng.random() < 0.22:
            event(p, typing)
    emit("P('state', state)")
    emit("model:evaluate(); P('eval', model:forward(x)); model:training()")
    if rng.random() < 0.4:
        emit("local copy = model:clone(); copy:evaluate(); P('clone', copy:forward(x))")
    if rng.random() < 0.3:
        emit("model:clearState(); P('cleared', model:parameters())")
    if p.classes and not graph2 and rng.random() < 0.5:   # as training scripts report
        emit(f"local cm = optim.ConfusionMatrix({p.classes}); model:evaluate(); "
             f"cm:batchAdd(model:forward(x), y); cm:updateValids(); "
             f"P('cm', {{cm.totalValid, cm.averageValid, cm.averageUnionValid}}); P('cmp', tostring(cm))")
    body = "\n".join(p.lines)
    return f"return program(function()\n{body}\nend)"


def event(p, typing):
    rng = p.rng
    e = rng.random()
    emit = p.emit
    if e < 0.2:
        emit("model:evaluate(); P('ev', model:forward(x)); model:training()")
    elif e < 0.32:
        emit("params, grads = model:getParameters(); P('gp', params)")
    elif e < 0.42:
        emit("model:clearState(); params, grads = model:getParameters()")
    elif e < 0.55:
        emit("model = model:clone(); params, grads = model:getParameters(); P('cl', params)")
    elif e < 0.72:
        fmt_ = pick(rng, "", ", 'ascii'", ", 'binary'")
        emit(f"do local f = os.tmpname(); torch.save(f, model{fmt_}); model = torch.load(f{fmt_}); os.remove(f) end; "
             "params, grads = model:getParameters(); P('ld', params)")
    elif e < 0.77:
        emit("do local f = os.tmpname(); torch.save(f, {model = model, state = state}); "
             "local t = torch.load(f); os.remove(f); model, state = t.model, t.state end; "
             "params, grads = model:getParameters(); P('ls', state)")
    elif e < 0.85:
        emit("model = torch.deserialize(torch.serialize(model)); params, grads = model:getParameters()")
    else:
        to = pick(rng, "float", "double")
        T = "torch.FloatTensor" if to == "float" else "torch.DoubleTensor"
        how = pick(rng, f":{to}()", f":type('{T}')")
        emit(f"model{how}; crit:type('{T}'); x = nn.utils.recursiveType(x, '{T}'); y = nn.utils.recursiveType(y, '{T}'); "
             f"params, grads = model:getParameters(); state = {{}}; config = config; P('ty', params)")


def link_libraries(where):
    for name in ("nn", "optim", "nngraph", "graph", "xlua", "sys"):
        os.symlink(os.path.join(THIRDPARTY, name), os.path.join(where, name))
    os.symlink(os.path.join(THIRDPARTY, "moses", "moses.lua"), os.path.join(where, "moses.lua"))


def first_difference(want, have):
    """where two outputs part: the digest (its tag) and the text around its first differing word"""
    w, h = want.split(" ; "), have.split(" ; ")
    for i, (a, b) in enumerate(zip(w, h)):
        if a != b:
            at = 0
            while at < min(len(a), len(b)) and a[at] == b[at]:
                at += 1
            start = max(a.rfind(",", 0, max(at - 60, 0)) + 1, 0)
            return f"[{i}] {a[:a.find('=') + 1]} ...\n      ref {a[start:at + 100]}\n      th  {b[start:at + 100]}"
    return f"lengths {len(w)} / {len(h)}: ref ...{' ; '.join(w[len(h):])[:200]} th ...{' ; '.join(h[len(w):])[:200]}"


def main():
    sys.argv, extra = [a for a in sys.argv if a not in ("--bits",)], "--bits" in sys.argv
    show_case = None
    if "--print-case" in sys.argv:
        i = sys.argv.index("--print-case")
        show_case = int(sys.argv[i + 1])
        del sys.argv[i:i + 2]
    args = arguments(calls=300)
    rng = random.Random(args.seed)
    calls = [case(rng, k, extra) for k in range(args.calls)]
    if show_case is not None:
        print(PROG_PRELUDE.replace("io.stdout:setvbuf('line')", ""))
        print(f"print(select(2, pcall(function() {calls[show_case]} end)))")
        return
    if os.environ.get("FUZZ_PROGRAMS_ERRORS"):   # th alone: which programs fail, and why
        from fuzz_diff import run_all
        with tempfile.TemporaryDirectory(prefix="fuzz-programs-") as cwd:
            link_libraries(cwd)
            here = os.getcwd()
            os.chdir(cwd)
            try:
                got, failures = run_all(os.path.abspath(os.path.join(here, args.th)), calls, 0, args.timeout,
                                        PROG_PRELUDE)
            finally:
                os.chdir(here)
        bad = [k for k, v in got.items() if " ; error" in v or v.startswith("ok error")]
        for k in bad:
            print(k, got[k][got[k].index("error"):])
        print(f"programs: {len(calls)}  failing under th: {len(bad)} {bad[:20]}  crashes: {failures}")
        return
    here = os.getcwd()
    th, ref = os.path.abspath(args.th) if os.path.exists(args.th) else args.th, args.ref
    with tempfile.TemporaryDirectory(prefix="fuzz-programs-") as cwd:
        link_libraries(cwd)
        os.chdir(cwd)
        try:
            mismatches, th_failures, ref_failures = differences(calls, th, ref, min(args.batch, 50),
                                                                args.timeout, PROG_PRELUDE)
        finally:
            os.chdir(here)
    print(f"programs: {len(calls)}  original crashes/hangs: {len(ref_failures)} {sorted(ref_failures.items())[:10]}  "
          f"th crashes/hangs: {len(th_failures)}  mismatches: {len(mismatches)}")
    for k, status in sorted(th_failures.items()):
        print(f"  th {status} at {k}")
    for k, body, want, have in mismatches[:args.show]:
        print(f"--- {k}: {first_difference(want, have)}")


if __name__ == "__main__":
    main()
