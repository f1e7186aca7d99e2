"""Differential fuzz of the non-maths API against the original Torch7.

Random Lua cases, one category per case: torch.CmdLine (declarations of every
kind, parse of random argument lists, help, string, log, addTime, silent),
paths (names, files and folders made in a scratch folder, listings sorted,
odd and wrong arguments), utility (torch.class with parents and metamethods,
type/typename/isTypeOf/isTensor/isStorage, get/setmetatable, the default
tensor type and what it changes, pointer, factory, get/setenv), storages
(constructors, fill/copy/resize, reads and writes in and out of range, views,
conversions with wrap-around, printing), tensor metadata (constructors,
size/stride/offset/contiguity, set/resize/resizeAs, type conversions, ==,
sizes printed) and torch.Timer's deterministic parts.

Each case runs under pcall; what it printed (through print and io.write,
caught by pointing io.output at a temporary file) and a canonical digest of
what it returned (tables with sorted keys, tensors' types, sizes, strides,
offsets and values) are compared, an error by its message with any
`file.lua:line: ` prefix dropped.  Machine-dependent text (the scratch
folder, the current folder, the script's own name, dates and times) is
replaced by a placeholder; pairs-ordered output (CmdLine:string's listing of
non-defaults) is sorted.  Uses fuzz_diff.py's runner (batches; a crash or
hang resumes after the case).  Differences kept on purpose (KNOWN) are
counted apart; --only picks categories.

    python scripts/fuzz_api.py --calls 2000 --seed 1 \\
        --th .venv/bin/th --ref /opt/torch7-ref/bin/th [--show 30] [--only cmdline]
"""
import os
import random
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import arguments, differences, show_by_lines  # noqa: E402

PRELUDE = r"""
io.stdout:setvbuf('line')
local stdout, capture = io.stdout, io.tmpfile()
local P = print
local SCRIPT = debug.getinfo(1, 'S').source:sub(2)
local CWD = paths.cwd()
-- what goes to stderr goes into the case's output too (CmdLine's errors)
local methods, STDERR = getmetatable(io.stderr).__index, io.stderr
local realwrite = methods.write
methods.write = function(f, ...)
   if f == STDERR then return realwrite(capture, ...) end
   return realwrite(f, ...)
end
-- os.exit inside a case (help, CmdLine's errors) ends the case, not the run
os.exit = function(c) error('os.exit(' .. tostring(c) .. ')', 0) end
D = os.tmpname()
os.remove(D)
D = BASE .. '/' .. D:match('[^/]*$')
paths.mkdir(D)
local function plain(s) return (s:gsub('%p', '%%%0')) end
-- machine-dependent text to placeholders, source positions dropped
local function clean(s)
   s = s:gsub('[^%s]*%.lua:%d+: ', ''):gsub(' at /%S+:%d+', ''):gsub('%[string "[^"]*"%]:%d+: ', '')
   s = s:gsub(plain(D), '<D>'):gsub(plain(SCRIPT), '<script>'):gsub(plain(CWD), '<cwd>')
   s = s:gsub('started on [^%]]*%]', 'started on <date>]'):gsub('(%a+): 0x%x+', '%1: ADDR')
   s = s:gsub('%d%d%d%d%-%d%d%-%d%d', '<day>'):gsub('%d%d:%d%d:%d%d', '<time>')
   return s
end
local function num(v)
   if v ~= v then return 'nan' end
   if v == math.floor(v) and math.abs(v) < 2^63 then return string.format('%d', v) end
   return string.format('%.17g', v)
end
local dump
local function keyorder(a, b)
   local ta, tb = type(a), type(b)
   if ta ~= tb then return ta < tb end
   if ta == 'number' or ta == 'string' then return a < b end
   return tostring(a) < tostring(b)
end
-- dump(v): a canonical text of v (sorted keys, tensors by metadata and values)
function dump(v, seen)
   seen = seen or {}
   local t = type(v)
   if t == 'number' then return num(v) end
   if t == 'string' then return string.format('%q', v):gsub('\n', 'n') end
   if t ~= 'table' and t ~= 'userdata' then return t == 'function' and 'function' or tostring(v) end
   if torch.isTensor(v) then
      local parts = {torch.type(v), 'd' .. v:dim(), 'sz', table.concat(v:size():totable(), 'x'),
                     'st', table.concat(v:stride():totable(), ','), 'off', v:storageOffset()}
      if v:nElement() > 0 then
         local c = v:contiguous():view(-1)
         for i = 1, math.min(c:nElement(), 24) do parts[#parts + 1] = num(c[i]) end
      end
      return '<' .. table.concat(parts, ' ') .. '>'
   end
   if torch.isStorage(v) then
      local parts = {torch.type(v), '#' .. v:size()}
      for i = 1, math.min(v:size(), 24) do parts[#parts + 1] = num(v[i]) end
      return '<' .. table.concat(parts, ' ') .. '>'
   end
   local name = torch.typename(v)
   if t == 'userdata' then return '<' .. (name or 'userdata') .. '>' end
   if seen[v] then return '<cycle>' end
   seen[v] = true
   local keys = {}
   for k in pairs(v) do keys[#keys + 1] = k end
   table.sort(keys, keyorder)
   local parts = {}
   for _, k in ipairs(keys) do parts[#parts + 1] = dump(k, seen) .. '=' .. dump(v[k], seen) end
   seen[v] = nil
   return (name and name .. ':' or '') .. '{' .. table.concat(parts, ',') .. '}'
end
-- filled(x): x with its storage set to 1..6, 0 over and over (sized
-- constructors and growing resizes leave memory uninitialised in Torch7)
function filled(x)
   local s = torch.isTensor(x) and x:storage() or x
   if torch.isStorage(s) then for i = 1, s:size() do s[i] = i % 7 end end
   return x
end
-- sortlines(s): the lines of s sorted (output in pairs order), dates and
-- the like made placeholders first
function sortlines(s)
   local t = {}
   for line in (s .. '\n'):gmatch('(.-)\n') do t[#t + 1] = clean(line) end
   table.sort(t)
   return table.concat(t, '\n')
end
-- out(...): a digest line of values into the case's output
function out(...)
   local n = select('#', ...)
   local parts = {}
   for i = 1, n do parts[i] = dump((select(i, ...))) end
   io.write('[', table.concat(parts, ' '), ']\n')
end
-- try(f, ...): f's results or its error, as text, inside a case
function try(f, ...)
   local r = {pcall(f, ...)}
   if r[1] then out(unpack(r, 2, table.maxn(r))) else io.write('[err ', tostring(r[2]), ']\n') end
end
-- readfile(name): a file's text
function readfile(name)
   local f = io.open(name)
   if not f then return nil end
   local s = f:read('*a')
   f:close()
   return s
end
local deftype = torch.getdefaulttensortype()
function show(i, f)
   local start = capture:seek('end')
   io.output(capture)
   local r = {pcall(f)}
   io.output(stdout)
   print = P
   torch.setdefaulttensortype(deftype)
   capture:seek('set', start)
   local text = capture:read('*a') or ''
   if r[1] then
      local parts = {}
      for k = 2, table.maxn(r) do parts[#parts + 1] = dump(r[k]) end
      text = text .. '=> ' .. table.concat(parts, ' ')
   else
      text = text .. '=> error: ' .. tostring(r[2])
   end
   text = clean(text):gsub('\\', '\\\\'):gsub('\n', '\\n'):gsub('\t', '\\t')
   stdout:write(i, ' ', text, '\n')
end
"""

TYPES = ["Byte", "Char", "Short", "Int", "Long", "Float", "Double"]


def q(s):
    """a Lua string literal"""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def pick(rng, *choices):
    return rng.choice(choices)


# ---------------------------------------------------------------- CmdLine

OPTNAMES = ["-a", "-lr", "-seed", "-b", "-name", "-x_y", "-n2", "--long", "-v", "c"]
DEFAULTS = ["0", "1", "-2", "3.5", "-0.25", "1e10", "''", "'abc'", "'a b'", "'-x'", "'5'", "true", "false"]
BADDEFAULTS = ["nil", "{}", "0/0", "print"]
VALUES = ["3", "-1", "-2.5", "1e3", "abc", "", "true", "false", "0x10", " 4 ", "nan", "inf", "-", "--", "1,2",
          "x=y", "-0", "07"]
NUMVALUES = ["3", "-1", "-2.5", "1e3", "0x10", "-0", "07", "0.125", "-1e-3", " 4 ", "1e400"]
POSVALUES = ["data.t7", "x", "3", "-1", "", "a b", "-", "--", "-zz"]


def cmdline(rng, i):
    """a CmdLine declared at random, parsing a random argument list, then
    help, string, default or log"""
    body = []
    sep = pick(rng, "", "", "", "','", "'_'", "',', ':'", "'-', '+'")
    body.append(f"local cmd = torch.CmdLine({sep})")
    opts, args = [], []
    for _ in range(rng.randint(1, 6)):
        k = rng.random()
        if k < 0.2:
            body.append(f"cmd:text({pick(rng, '', q('Some text'), q(''), q('Options:'))})")
        elif k < 0.8:
            name = rng.choice(OPTNAMES)
            d = rng.choice(DEFAULTS) if rng.random() < 0.95 else rng.choice(BADDEFAULTS)
            help_ = pick(rng, q("the " + name.strip("-")), q(""), "nil", q("a\nb"))
            extra = "" if rng.random() < 0.9 else pick(rng, ", 'number'", ", 'string'", ", 'boolean'", ", 'table'")
            body.append(f"cmd:option({q(name)}, {d}, {help_}{extra})")
            opts.append((name, d))
        elif k < 0.95:
            name = pick(rng, "-input", "-out", "-n", "in")   # (an option's name broke the original's string())
            if name in args:   # (an argument declared twice broke the original's string())
                continue
            kind = "" if rng.random() < 0.9 else pick(rng, ", 'number'", ", 'string'")
            body.append(f"cmd:argument({q(name)}, {pick(rng, q('the ' + name.strip('-')), q(''), 'nil')}{kind})")
            args.append(name)
        else:
            body.append("cmd:silent()")
    # an argument list: the positional arguments mostly all there, in order,
    # options between them, now and then an unknown word or a request for help
    words = []
    for _ in range(rng.randint(0, 4)):
        if not opts:
            break
        name, d = rng.choice(opts)
        words.append([name])
        if d not in ("true", "false") or rng.random() < 0.2:
            if rng.random() < 0.95:
                numeric = d not in ("true", "false") and not d.startswith("'") and rng.random() < 0.8
                words[-1].append(rng.choice(NUMVALUES if numeric else VALUES))
    toks = []
    positional = [rng.choice(POSVALUES) for _ in args if rng.random() < 0.9]
    while words or positional:
        if positional and (not words or rng.random() < 0.4):
            toks.append(positional.pop(0))
        else:
            toks.extend(words.pop(0))
    k = rng.random()
    if k < 0.05:
        toks.insert(rng.randint(0, len(toks)), rng.choice(["-zz", "--zz", "-", "-input", "x"]))
    elif k < 0.09:
        toks.insert(rng.randint(0, len(toks)), rng.choice(["-h", "--help", "-help"]))
    argt = "{" + ", ".join(q(t) for t in toks)
    if rng.random() < 0.8:
        argt += (", " if toks else "") + "[0] = 'prog.lua'"
    argt += "}"
    body.append(f"local p = cmd:parse({argt})")
    body.append("out(p)")
    for _ in range(rng.randint(0, 3)):
        k = rng.random()
        if k < 0.35:
            prefix = pick(rng, q("run"), q(""), "nil", "5")
            ign = "{" + ", ".join(f"[{q(n.lstrip('-'))}] = true" for n, _ in rng.sample(opts, min(len(opts), rng.randint(0, 2)))) + "}"
            ign = pick(rng, ign, ign, "{}")   # (nil: an index error in the original)
            # string() prints what it leaves out, in pairs order
            body.append("do local s = io.output() local f = io.tmpfile() io.output(f) "
                        f"local ok, r = pcall(cmd.string, cmd, {prefix}, p, {ign}) io.output(s) f:seek('set') "
                        "io.write(sortlines(f:read('*a')), '\\n') out(ok, r) end")
        elif k < 0.55:
            body.append("cmd:help()")
        elif k < 0.65:
            body.append("cmd:help({[0] = 'x.lua'})")
        elif k < 0.75:
            body.append("out(cmd:default())")
        elif k < 0.9:
            fmt = pick(rng, "", ", '%F %T'", ", '%H'")
            time = pick(rng, "", f"cmd:addTime({pick(rng, q('tag'), 'nil')}{fmt}) ")
            silent = pick(rng, "", "cmd:silent() ")
            # (the parameters are printed in pairs order: the lines sorted)
            body.append(f"do local name = D .. '/log{i}' local s = io.output() local f = io.tmpfile() io.output(f) "
                        f"{time}cmd:log(name, {pick(rng, 'p', '{a = 1}', 'nil')}) {silent}print('after', 1) "
                        "io.output(s) f:seek('set') io.write(sortlines(f:read('*a')), '\\n') "
                        "io.write(sortlines(readfile(name) or 'nofile'), '\\n') end")
        else:
            body.append(f"out(cmd:parse({argt}))")
    return " ".join(body)


# ---------------------------------------------------------------- paths

PATHSTRS = ["''", "'a'", "'a/'", "'/b'", "'.'", "'..'", "'a//b'", "'/'", "'x.lua'", "'a/b.c.d'", "'a/.b'",
            "'.bashrc'", "'a/b/'", "'//'", "'a/../b'", "'x.tar.gz'", "'dir/x.'", "5", "nil", "true", "{}",
            "'a b/c d.e'", "'/a/b'", "'~'"]


WRITABLE = ["''", "nil", "true", "{}", "'.'", "R .. '/x//y/'", "R .. '/f/g'", "R .. '/sub/'", "R"]


def pathcall(rng):
    s = rng.choice(PATHSTRS)
    f = rng.choice(["dirname", "basename", "extname", "concat", "basename2", "concatn"])
    if f == "basename2":
        return f"paths.basename({s}, {pick(rng, q('lua'), q('.lua'), q('gz'), q(''), '5', 'nil', q('c.d'))})"
    if f == "concatn":
        return "paths.concat(" + ", ".join(rng.choice(PATHSTRS) for _ in range(rng.randint(0, 4))) + ")"
    return f"paths.{f}({s})"


def paths_case(rng, i):
    """path names, and files and folders made, listed and removed in R (a
    folder of its own in the scratch folder D)"""
    body = [f"local R = D .. '/p{i}' paths.mkdir(R)"]
    made = []
    for _ in range(rng.randint(1, 5)):
        k = rng.random()
        if k < 0.4:
            body.append(f"try(function() return {pathcall(rng)} end)")
        elif k < 0.55:
            name = rng.choice(["f", "g.txt", ".h", "sub/f", "e.lua"])
            body.append(f"do local f = io.open(R .. '/{name}', 'w') if f then f:write('x') f:close() end end")
            made.append(name)
        elif k < 0.7:
            name = rng.choice(["sub", "sub/deep", "d2", "sub/deep/er", ".hid"])
            body.append(f"try(paths.mkdir, R .. '/{name}')")
        elif k < 0.8:
            name = rng.choice(["sub", "sub/deep", "d2", "nosuch", "f", "g.txt", ""])
            body.append(f"try(paths.{pick(rng, 'rmdir', 'rmdir', 'rmall', 'rmall')}, R .. '/{name}'"
                        f"{pick(rng, '', ', ' + q('yes'), ', ' + q('no'))})")
        elif k < 0.9:
            what = rng.choice(["", "/sub", "/nosuch", "/f"])
            fn = rng.choice(["dir", "files", "iterdirs", "iterfiles", "filep", "dirp"])
            if fn in ("dir", "files"):
                body.append(f"try(function() local t = paths.{fn}(R .. '{what}') "
                            f"if type(t) == 'table' then table.sort(t) return t end "
                            "if type(t) ~= 'function' then return t end "
                            "local r = {} for n in t do r[#r + 1] = n end table.sort(r) return r end)")
            elif fn in ("iterdirs", "iterfiles"):
                body.append(f"try(function() local r = {{}} for n in paths.{fn}(R .. '{what}') do r[#r + 1] = n end "
                            "table.sort(r) return r end)")
            else:
                body.append(f"try(paths.{fn}, R .. '{what}')")
        else:
            body.append(rng.choice([
                "try(function() return paths.is_win(), paths.is_mac(), type(paths.uname()) end)",
                "try(function() return paths.cwd() end)",
                "try(function() return type(paths.home), paths.dirp(paths.home) end)",
                "try(function() return paths.findprogram('ls') ~= nil, paths.findprogram('nosuchprog_zz') end)",
                "try(function() local n = paths.tmpname() return type(n), paths.filep(n) end)",
                "try(function() return paths.thisfile() end)",
                "try(function() return paths.thisfile('x.lua') end)",
                f"try(paths.dofile, {pick(rng, q('nosuch_zz.lua'), '5', 'nil')})",
                f"try(paths.{pick(rng, 'filep', 'dirp')}, {rng.choice(PATHSTRS)})",
                # (listings only of R's folders: elsewhere they are the machine's, unsorted)
                f"try(paths.{pick(rng, 'dir', 'files')}, {pick(rng, 'nil', '5', '{}', 'true')})",
                # (writes only inside R, or to names that cannot be made)
                f"try(paths.{pick(rng, 'mkdir', 'rmdir', 'mkdir')}, {rng.choice(WRITABLE)})",
                "try(function() return paths.filep(R), paths.dirp(R), paths.filep(R .. '/f'), paths.dirp(R .. '/f') end)",
                "try(paths.findprogram)",
                "try(paths.concat, R, 'a', 'b')",
            ]))
    body.append("try(function() local r = {} for _, n in ipairs(paths.dir(R) or {}) do r[#r + 1] = n end "
                "table.sort(r) return r end)")
    body.append("paths.rmall(R, 'yes')")
    return " ".join(body)


# ---------------------------------------------------------------- utility

VALUES_ANY = ["nil", "1", "'s'", "{}", "true", "print", "torch.DoubleTensor(2)", "torch.IntStorage(3)",
              "torch.LongStorage()", "torch.Timer()", "torch.CmdLine()", "torch.DiskFile and 0",
              "torch.Generator and torch.Generator()", "io.stdout", "coroutine.create(print)"]
TYPENAMES = ["'torch.DoubleTensor'", "'torch.FloatTensor'", "'torch.IntTensor'", "'torch.LongTensor'",
             "'torch.ByteTensor'", "'torch.DoubleStorage'", "'nosuch'", "'torch.Tensor'", "''", "5", "nil",
             "'torch.CmdLine'", "'torch.Timer'", "'torch.HalfTensor'"]


def utility(rng, i):
    """torch.class hierarchies and their objects, the type functions on any
    value, the default tensor type and what it changes, names that exist"""
    k = rng.random()
    if k < 0.35:
        n = f"fz{i}"
        parent = pick(rng, None, None, "P", "Q")
        # (the class's constructor is its module table's field: fz1.C(...))
        lines = [f"{n} = {{}} local P = torch.class('{n}.P') function P:__init(a) self.a = a or 'pa' end "
                 f"function P:who() return 'P' end function P:pm() return self.a end",
                 f"local Q, Qp = torch.class('{n}.Q', '{n}.P') out(Qp == P) function Q:who() return 'Q' end"]
        parent_arg = f", '{n}.{parent}'" if parent else ""
        lines.append(f"local C, Cp = torch.class('{n}.C'{parent_arg}) local K = {n}.C out(Cp ~= nil)")
        for _ in range(rng.randint(0, 4)):
            lines.append(rng.choice([
                "function C:__init(x, y) self.x = x self.y = y end",
                "function C:__init(x) if Cp then Cp.__init(self, x) end self.c = true end",
                "function C:__tostring() return 'C(' .. tostring(self.x) .. ')' end",
                "function C:__index(k) if k == 'magic' then return 42 end return false end",
                "function C:__len() return 7 end",
                "function C:__add(o) return 'add' end",
                "function C:__call(a) return 'called', a end",
                "function C:__eq(o) return true end",
                "function C:who() return 'C' end",
            ]))
        for _ in range(rng.randint(1, 6)):
            lines.append(rng.choice([
                "local o = K(1, 2) out(torch.type(o), torch.typename(o), o.x, o.y, o.c)",
                "local o = C.new(3) out(torch.type(o), o.x)",
                "local o = K() out(tostring(o):gsub('0x%x+', 'ADDR'))",
                "local o = K(5) out(o.magic, o.nosuch, o.who and o:who())",
                "local o = K(5) try(function() return #o end)",
                "local o = K(5) try(function() return o + o end)",
                "local o = K(5) try(function() return o(9) end)",
                "local o, o2 = K(5), K(6) out(o == o2, rawequal(o, o2))",
                f"local o = K(1) out(torch.isTypeOf(o, '{n}.C'), torch.isTypeOf(o, '{n}.P'), torch.isTypeOf(o, '{n}.Q'), "
                f"torch.isTypeOf(o, C), torch.isTypeOf(o, P), torch.isTypeOf(o, 'fz'), torch.isTypeOf(o, '{n}'))",
                f"out(torch.getmetatable('{n}.C') == C, type(torch.getmetatable('{n}.C')))",
                "local o = K(1) out(o.pm and o:pm(), getmetatable(o) == C)",
                f"local f = torch.factory('{n}.C') local o = f() out(torch.type(o), o.x)",
                "local o = K(2) try(torch.setmetatable, {z = 1}, torch.typename(o)) ",
                f"local t = torch.setmetatable({{x = 8}}, '{n}.C') out(torch.type(t), t.x, t.who and t:who())",
                "try(torch.class, nil)", "try(torch.class, 5)",
                f"try(torch.class, '{n}.Z', 'nosuch.Parent')",
                f"local Z = torch.class('{n}.Y', 'torch.DoubleTensor') out(type(Z))",
                "local o = K(1) out(torch.isTensor(o), torch.isStorage(o))",
                # (trepl's print of an object: one field, as pairs' order is the VM's)
                f"print({n}.P(7))", f"print({{{n}.P()}})", f"print({n}.Q('q'), 1)",
                "local o = K(3) print(o)",
                f"local o = K(1) out(torch.typename(o), torch.typename(C), torch.type(C))",
                "local o = K(1) try(torch.getenv, o) ",
                "local o = K(1) local ok = pcall(torch.setenv, o, {zz = 1}) out(ok, o.zz)",
            ]))
        return " ".join(lines)
    if k < 0.55:
        v = rng.choice(VALUES_ANY)
        f = rng.choice(["type", "typename", "isTensor", "isStorage", "getmetatable", "pointer", "getenv",
                        "isTypeOf"])
        if f == "pointer":
            return (f"local v = {v} try(function() local p = torch.pointer(v) "
                    "return type(p), p == torch.pointer(v) end)")
        if f == "getmetatable":
            return f"try(function() local m = torch.getmetatable({rng.choice(TYPENAMES)}) return type(m) end)"
        if f == "getenv":
            return f"try(function() return type(torch.getenv({v})) end)"
        if f == "isTypeOf":
            return f"try(torch.isTypeOf, {v}, {rng.choice(TYPENAMES)})"
        return f"try(torch.{f}, {v})"
    if k < 0.8:
        t = rng.choice(TYPENAMES[:5] + ["'torch.ShortTensor'", "'torch.CharTensor'", "'nosuch'", "5", "nil"])
        uses = rng.sample([
            "torch.Tensor(2):type()", "torch.Storage(2):type() or 0", "torch.type(torch.Storage(2))",
            "torch.rand(2):type()", "torch.zeros(2):type()", "torch.range(1, 3):type()",
            "torch.getdefaulttensortype()", "torch.Tensor({1.5, 2}):sum()", "torch.Tensor.__typename",
            "torch.type(torch.Tensor():double())", "torch.linspace(0, 1, 3):type()", "torch.eye(2):type()",
            "torch.type(torch.Tensor(2):zero())", "torch.Tensor():type()", "torch.type(torch.randn(1))",
            "torch.type(torch.ones(1):typeAs(torch.IntTensor()))",
        ], rng.randint(1, 4))
        return (f"try(torch.setdefaulttensortype, {t}) "
                + " ".join(f"try(function() return {u} end)" for u in uses))
    name = rng.choice(["include", "getenv", "setenv", "isequal", "numel", "packageLuaPath", "version",
                       "typename2id", "id", "factory", "newmetatable", "getconstructortable", "updateerrorhandlers",
                       "serialize", "deserialize", "isTypeOf", "setnumthreads", "getnumthreads", "nonzero",
                       "Storage", "CharStorage", "HalfStorage", "isSharedWith", "pushudata", "metatype",
                       "updatethreadlocals", "Allocator", "test", "sizes", "setheaptracking", "getRNGState",
                       "class", "testing", "expand", "expandAs", "repeatTensor", "byte", "lshift", "Tester"])
    return f"out(type(torch.{name}))"


# ---------------------------------------------------------------- storage

STVALS = ["1", "-1", "0", "2.5", "-2.5", "127", "128", "255", "256", "300", "-129", "65535", "-32769",
          "2^31", "-2^31", "1e10", "0.5", "-0.5", "'7'", "'x'", "nil", "true"]


def storage_ctor(rng, T):
    k = rng.random()
    if k < 0.3:
        return f"filled(torch.{T}Storage({pick(rng, 0, 1, 3, 5, '2.5', '-1', '')}))"
    if k < 0.6:
        vals = [rng.choice(STVALS[:18]) for _ in range(rng.randint(0, 5))]
        return f"torch.{T}Storage({{{', '.join(vals)}}})"
    if k < 0.75 and T in ("Byte", "Char"):
        return f"torch.{T}Storage({pick(rng, q('abc'), q(''), q('a b'), q(chr(200) + 'z'))})"
    if k < 0.85:
        T2 = rng.choice(TYPES)
        return f"torch.{T}Storage(torch.{T2}Storage({{1, 2, 3, 4, 5}}){pick(rng, '', ', 2', ', 2, 3', ', 5, 1', ', 0', ', 4, 3', ', 6')})"
    return f"torch.{T}Storage({pick(rng, q('abc'), '{1, ' + q('a') + '}', '{{1}}', 'torch.DoubleTensor(2)', 'true', '-5')})"


def storage(rng, i):
    """a storage of a random type and constructor, then reads, writes, fills,
    copies, resizes, views and conversions"""
    T = rng.choice(TYPES)
    body = [f"local s = {storage_ctor(rng, T)}", "out(s)"]
    for _ in range(rng.randint(1, 6)):
        k = rng.random()
        if k < 0.25:
            body.append(f"try(function() return s[{pick(rng, 1, 2, 0, -1, 'nil', '#s', '#s + 1', '1.5', q('1'), q('x'))}] end)")
        elif k < 0.45:
            body.append(f"try(function() s[{pick(rng, 1, 2, 0, -1, '#s', '#s + 1', '1.5', q('2'))}] = {rng.choice(STVALS)} "
                        "return s end)")
        elif k < 0.55:
            body.append(f"try(function() return s:fill({rng.choice(STVALS)}) end)")
        elif k < 0.65:
            T2 = rng.choice(TYPES)
            vals = ", ".join(rng.choice(STVALS[:18]) for _ in range(4))
            body.append(f"try(function() local v, d = {{{vals}}}, torch.{T2}Storage(#s) for k = 1, #s do d[k] = v[(k - 1) % 4 + 1] end "
                        f"s = {pick(rng, 'd:copy(s)', 's:copy(d)')} "
                        "return s end)")
        elif k < 0.72:
            body.append(f"try(function() return filled(s:resize({pick(rng, 0, 1, 2, 6, -1, '2.5', 'nil')})) end)")
        elif k < 0.8:
            body.append(rng.choice(["try(function() return s:size(), #s end)", "try(function() return s:totable() end)",
                                    "try(function() return tostring(s) end)", "print(s)",
                                    "try(function() return s:string() end)", "try(function() return s:type() end)",
                                    "try(function() return s.isSharedWith and 'has' end)",
                                    "try(function() return torch.typename(s), torch.isStorage(s) end)",
                                    "try(function() return s:elementSize() end)",
                                    f"try(function() return s:string({pick(rng, q('hello'), q(''), '5', '{}')}) end)",
                                    "try(function() return tostring(s:string()) end)",
                                    f"try(function() return torch.{T}Storage(#s):copy(s) end)"]))
        elif k < 0.9:
            off, sz = rng.choice([(1, 1), (2, 2), (1, "#s"), (0, 1), (2, 10), ("#s", 1), (3, 0), (2, -1)])
            body.append(f"try(function() local v = torch.{T}Storage(s, {off}, {sz}) v[1] = 9 return v, s end)")
        else:
            T2 = rng.choice(TYPES)
            body.append(rng.choice([
                f"try(function() return s:{T2.lower()}() end)",
                # (sizes from a LongStorage's values: kept small)
                f"try(function() if torch.type(s) ~= 'torch.LongStorage' then return filled(torch.{T2}Tensor(s)) end end)",
                f"try(function() return torch.{T2}Storage():copy(s) end)",
                f"try(function() return s:copy(filled(torch.{T2}Storage(#s))) end)",
                "try(function() return s == s, s.clone and 'clone' end)",
                f"try(function() if #s >= 3 then return torch.{T}Tensor(s, {pick(rng, 1, 2)}, torch.LongStorage({{{pick(rng, 1, 2, 0)}}})) end end)",
            ]))
    return " ".join(body)


# ---------------------------------------------------------------- tensor_core

def tensor_ctor(rng, T):
    k = rng.random()
    if k < 0.25:
        n = rng.randint(0, 3)
        return f"filled(torch.{T}Tensor({', '.join(str(rng.choice([0, 1, 1, 2, 3])) for _ in range(n))}))"
    if k < 0.4:
        return f"filled(torch.{T}Tensor(torch.LongStorage({{{', '.join(str(rng.choice([0, 1, 2, 3])) for _ in range(rng.randint(0, 3)))}}})))"
    if k < 0.55:
        return f"torch.{T}Tensor({pick(rng, '{1, 2, 3}', '{}', '{{1, 2}, {3, 4}}', '{{1}, {2}}', '{{{1, 2}}}', '{{1, 2}, {3}}', '{1, {2}}', '{-1.5, 300}', '{' + q('a') + '}')})"
    if k < 0.75:
        off = rng.choice([1, 2, 0])   # (views within the storage: past its end the original read garbage)
        sizes = rng.choice(["{2}", "{2, 2}", "{3}", "{1, 3}", "{0}", "{2, 3}"])
        strides = rng.choice(["", "", ", {1}", ", {1, 2}", ", {0, 1}", ", {2, 1}", ", {3, 1}"])
        ls = pick(rng, True, False)
        if ls:
            sz = f"torch.LongStorage({sizes})"
            st = f", torch.LongStorage({strides[2:]})" if strides else ""
        else:
            sz, st = sizes[1:-1], ""
        return f"torch.{T}Tensor(torch.{T}Storage({{1, 2, 3, 4, 5, 6, 7, 8}}), {off}, {sz}{st})"
    if k < 0.85:
        return f"torch.{T}Tensor(torch.{rng.choice(TYPES)}Tensor(2, 2):fill(3))"
    return f"torch.{T}Tensor({pick(rng, q('x'), 'true', '{}, 2', 'filled(torch.IntStorage(2))', 'nil')})"


def tensor_core(rng, i):
    """a tensor of a random type and constructor, then its metadata, set,
    resize, fill and conversions"""
    T = rng.choice(TYPES)
    body = [f"local t = {tensor_ctor(rng, T)}", "out(t)"]
    for _ in range(rng.randint(1, 6)):
        k = rng.random()
        if k < 0.3:
            body.append(rng.choice([
                "try(function() return #t end)", "try(function() return t:size() end)",
                f"try(function() return t:size({pick(rng, 1, 2, 0, 3, -1, q('1'))}) end)",
                f"try(function() return t:stride({pick(rng, 1, 2, 0, 3)}) end)",
                "try(function() return t:stride() end)",
                "try(function() return t:dim(), t:nDimension(), t:nElement() end)",
                "try(function() return t:storageOffset(), t:isContiguous() end)",
                "try(function() return tostring(t:size()) end)", "print(t:size())",
                "try(function() return t:storage() end)", "try(function() return t:isSize(t:size()) end)",
                "try(function() return t:size():totable() end)",
                "try(function() return tostring(t) end)",
                f"try(function() return t:isSize(torch.LongStorage({{{pick(rng, '', '2', '2, 2', '1, 3', '0')}}})) end)",
                f"try(function() return t:size({pick(rng, '1.5', '1.9', '-1', 'nil', '{}')}) end)",
                f"try(function() return torch.{rng.choice(TYPES)}Tensor(t:size():totable()) end)",
                "try(function() return t:nElement(), t.numel and t:numel() end)",
                "try(function() return torch.{T}Tensor(t:size()):dim(), torch.{T}Tensor(t:size(), t:stride()):nElement() end)".replace("{T}", T),
            ]))
        elif k < 0.45:
            T2 = rng.choice(TYPES)
            body.append(rng.choice([
                f"try(function() return t:isSameSizeAs(torch.{T2}Tensor({pick(rng, '2', '2, 2', '', '0', '1, 3')})) end)",
                "try(function() return t:isSetTo(t), t:isSetTo(t:clone()) end)",
                "try(function() local u = torch.Tensor():typeAs(t):set(t) return u:isSetTo(t), u end)",
                f"try(function() return t:set(filled(torch.{T}Storage(6)), {pick(rng, 1, 2)}, torch.LongStorage({{{pick(rng, '2', '2, 2', '0', '3')}}})) end)",
                "try(function() return t:set() end)",
                f"try(function() return t:set(filled(torch.{T2}Tensor(2))) end)",
                "try(function() return t == t, t == t:clone() end)",
                "try(function() return torch.equal and 'has' end)",
            ]))
        elif k < 0.65:
            sizes = ", ".join(str(rng.choice([0, 1, 2, 3])) for _ in range(rng.randint(0, 3)))
            body.append(rng.choice([
                f"try(function() return filled(t:resize({sizes})) end)",
                f"try(function() return filled(t:resize(torch.LongStorage({{{sizes}}}))) end)",
                f"try(function() return filled(t:resizeAs(torch.{rng.choice(TYPES)}Tensor({sizes}))) end)",
                "try(function() return t:zero() end)",
                f"try(function() return t:fill({rng.choice(STVALS[:18])}) end)",
                f"try(function() return filled(t:resize({pick(rng, q('2'), '2.7', 'nil, 2', '{}')})) end)",
                "try(function() return t:clone() end)", "try(function() return t:contiguous() end)",
            ]))
        elif k < 0.85:
            T2 = rng.choice(TYPES)
            body.append(rng.choice([
                f"try(function() return t:type('torch.{T2}Tensor') end)",
                "try(function() return t:type() end)",
                f"try(function() return t:typeAs(torch.{T2}Tensor()) end)",
                f"try(function() return t:{T2.lower()}() end)",

                f"try(function() return torch.{T2}Tensor(t:size()):copy(t) end)",
                "try(function() local u = t:type(torch.type(t)) return rawequal(u, t) end)",
            ]))
        else:
            body.append(rng.choice([
                "try(function() return torch.LongStorage({3, 1, 2}) end)", "print(torch.LongStorage({3, 0, 2}))",
                "print(torch.LongStorage())", "try(function() return tostring(torch.LongStorage()) end)",
                "try(function() return torch.LongStorage({2, 3}) == torch.LongStorage({2, 3}) end)",
                "try(function() return t:size() == t:size() end)",
                "try(function() return torch.isTensor(t), torch.typename(t), t.__typename end)",
                "try(function() return t:storage() and t:storage():size() end)",
                "try(function() return t:narrow(1, 1, 1) end)",
                "try(function() return t:select(1, 1) end)",
                "try(function() return filled(torch.Tensor(t:storage())) end)",
            ]))
    return " ".join(body)


# ---------------------------------------------------------------- Timer

def timer(rng, i):
    """a Timer's stop/resume/reset as far as they are deterministic"""
    body = ["local t = torch.Timer()"]
    for _ in range(rng.randint(1, 6)):
        body.append(rng.choice([
            "t:stop()", "t:resume()", "t:reset()",
            "local a = t:time() out(type(a), type(a.real), type(a.user), type(a.sys), a.real >= 0)",
            "t:stop() local a, b = t:time(), t:time() out(a.real == b.real, a.user == b.user, a.sys == b.sys)",
            "t:stop() t:reset() local a = t:time() out(a.real, a.user, a.sys)",
            "local a = t:time().real local b = t:time().real out(b >= a)",
            "out(torch.type(t), torch.typename(t), type(t.time), type(t.stop), type(t.reset), type(t.resume))",
            "out(t:stop() == t, t:resume() == t, t:reset() == t)",
            "try(torch.Timer.time, nil)", "try(torch.Timer.stop, {})", "try(torch.Timer.reset, 5)",
            "try(function() return t.time() end)", "try(function() return torch.Timer(1, 2) ~= nil end)",
            "out(torch.isTypeOf(t, 'torch.Timer'), tostring(t):match('^torch.Timer') ~= nil)",
            "t:stop() t:reset() t:resume() local a = t:time() out(a.real < 1)",
        ]))
    return " ".join(body)


CATEGORIES = {"cmdline": cmdline, "paths": paths_case, "utility": utility, "storage": storage,
              "tensor_core": tensor_core, "timer": timer}
WEIGHTS = {"cmdline": 3, "paths": 2, "utility": 3, "storage": 3, "tensor_core": 3, "timer": 1}


# Differences known and kept (README, "Where th differs from Torch7 on
# purpose"): (name, the original's line, th's line), regular expressions
# matched against a case's first differing lines
KNOWN = [
    ("luaT named every bad self 'boolean'", r"torch\.Timer expected, got boolean", r"torch\.Timer expected, got "),
    ("Torch7 stored a non-numeric string as 0", r"^(?!.*err)", r"number expected, got string"),
    ("isTypeOf given no type, or a metatable: an index error in Torch7", r"attempt to index a nil value", r"type must be provided"),
    ("th's torch.class objects are tables, Torch7's Timer a userdata", r"^\[\"table\"\]", r"userdata expected, got table"),
    ("a class whose parent is a tensor type (in Torch7 made, but no method could be added)",
     r"^\[\"table\"\]$", r"calling '__newindex' on bad self"),
    ("C-level API th has not (torch.test, metatype, updateerrorhandlers...)", r"^\[\"(function|table)\"\]$", r"^\[\"nil\"\]$"),
]


def first_difference(want, have):
    w, h = want.split("\\n"), have.split("\\n")
    pairs = list(zip(w + [""] * (len(h) - len(w)), h + [""] * (len(w) - len(h))))
    return [(a, b) for a, b in pairs if a != b]


def known(want, have):
    a, b = first_difference(want, have)[0]
    for name, ref, mine in KNOWN:
        if re.search(ref, a) and re.search(mine, b):
            return name
    return None


def main():
    argv = sys.argv[1:]
    only = None
    if "--only" in argv:
        at = argv.index("--only")
        only = argv[at + 1].split(",")
        del argv[at:at + 2]
    sys.argv[1:] = argv
    args = arguments(2000)
    args.th, args.ref = (os.path.abspath(p) if os.sep in p else p for p in (args.th, args.ref))
    rng = random.Random(args.seed)
    names = [n for n in CATEGORIES if not only or n in only]
    weights = [WEIGHTS[n] for n in names]
    calls = []
    for k in range(args.calls):
        name = rng.choices(names, weights)[0]
        calls.append(f"--[[{name}]] " + CATEGORIES[name](rng, k))
    base = tempfile.mkdtemp(prefix="fuzz_api_")
    here = os.getcwd()
    os.chdir(base)   # (both run here: what a case makes in cwd goes with it)
    try:
        prelude = f"BASE = {q(base)}\n" + PRELUDE
        show_by_lines(calls, *differences(calls, args.th, args.ref, args.batch, args.timeout, prelude), args.show,
                      known, first_difference)
    finally:
        os.chdir(here)
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
