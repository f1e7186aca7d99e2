"""Differential fuzz of serialization: th against the original Torch7, both ways.

Each case is either an object graph or a raw File script, built in Lua from a
description drawn here from the seed (so both sides build the same thing, no
RNG involved):

* objects: numbers (integers, huge, tiny, denormal, nan, inf, -0), strings
  (empty, binary bytes, newlines, long), booleans, nested tables with number,
  string and boolean keys (and one table key), shared references and cycles,
  tensors of the seven types and Half with 0-4 dimensions (sizes 0-4; a few
  past 4096 elements and 64 KB, the bulk paths), views sharing
  one storage (narrow, select, transpose, unfold, expand, explicit strides and
  offsets, a tensor smaller than its storage), storages, HalfStorages,
  torch.class objects (fields only, a custom write/read, a subclass),
  closures (shared upvalues, or holding the graph's tables) and nn modules (Linear, Sequential, Spatial
  convolution, after a forward pass or not).  The writer prints a digest of
  the object and saves it as torch.save binary (.bin) and ascii (.asc),
  torch.save unreferenced (.nrf, acyclic cases), torch.serialize binary and
  ascii (.ser/.sea), and a MemoryFile binary and ascii holding it twice (the
  second time a back-reference: .mem/.mea).  Every third case, the readers
  also load the .bin, .asc and .mem files cut short at six places.
* raw: a DiskFile or MemoryFile written in ascii or binary by a random
  sequence of writeX(number), writeX(storage), writeString, writeBool,
  writeObject, mode switches (ascii/binary/autoSpacing/noAutoSpacing,
  longSize, byte order between DiskFiles) and read back by the matching
  reads (readX(), readX(n), readX(storage), readString('*l'), readChar(n),
  readObject), the position after each step, seeks back and rereads,
  quiet/pedantic reads past the end (error or 0 and hasError), and
  readString('*a') at the end; the reader is a DiskFile or a MemoryFile.

The digest is canonical: types, sizes, strides, storage offsets, storage
identity (shared-ness: a repeated object prints as @id), every value to full
precision (%.17g, -0, nan, inf), strings in hex, tables with their keys
sorted; a closure prints what calling it gives.

Every case runs in four phases: the original writes, th writes, then each
reads both sides' files.  Differences reported:
  build      the two writers' digests or write errors differ
  ref->th    th reading the original's files differs from the original's reading
  th->ref    the original reading th's files differs from reading its own
  th->th     th reading its own files differs from the original's round trip
  th file    th and the original reading th's files differ (cut ones included)
  bytes      a file th wrote differs byte for byte from the original's (only
             for cases without hashed table keys, whose order is LuaJIT's)
Errors compare as "ERR" whatever their message (the messages are shown).
Uses fuzz_diff.py's runner (batches, resuming after a crash).
FUZZ_T7_DUMP=n prints what the first n cases gave; FUZZ_T7_NN=0 leaves nn out.

    LUA_PATH='/work/shared/thirdparty/?.lua;/work/shared/thirdparty/?/init.lua;/work/shared/thirdparty/moses/?.lua;;' \\
    nice -n 10 python scripts/fuzz_t7.py --calls 1000 --seed 1 --th .venv/bin/th --ref /opt/torch7-ref/bin/th
"""
import os
import random
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_diff import arguments, run_all  # noqa: E402

PRELUDE = r"""
io.stdout:setvbuf('line')
HAVE_NN = pcall(require, 'nn')
fz = {}
do
   local Thing = torch.class('fz.Thing')
   function Thing:__init(a) self.a = a end
   local Custom = torch.class('fz.Custom')
   function Custom:__init(x) self.x = x end
   function Custom:write(f) f:writeDouble(self.x or 0); f:writeObject(self.extra) end
   function Custom:read(f, version) self.x = f:readDouble(); self.extra = f:readObject(); self.v = version end
   torch.class('fz.Sub', 'fz.Thing')
end
NEGZERO = 1 / (-1 / 0)
PAL = {
   Double = {0, 1, -1, 0.1, 1/3, -2.5, 1e308, -1e-308, 5e-324, 0/0, 1/0, -1/0, NEGZERO, 2^53, 123456.789, math.pi},
   Float = {0, 1, -1, 0.1, 1/3, -2.5, 3.4e38, 1e-45, 0/0, 1/0, -1/0, NEGZERO, 16777217, 1e-40},
   Half = {0, 1, -1, 0.5, 65504, -2.5, 1/0, NEGZERO, 0.0001},
   Long = {0, 1, -1, 2^31, -2^31 - 1, 2^53, -2^53, 2^40 + 3, 123456789012},
   Int = {0, 1, -1, 2^31 - 1, -2^31, 65536, 12345},
   Short = {0, 1, -1, 32767, -32768, 300},
   Char = {0, 1, -1, 127, -128, 10, 32},
   Byte = {0, 1, 255, 10, 32, 128, 200},
}
function fillS(s, T, seed)
   local p = PAL[T]
   for i = 1, s:size() do s[i] = p[(i * seed) % #p + 1] end
   return s
end
function fillT(t, T, seed)
   if t:nElement() > 0 then fillS(t:storage(), T, seed) end
   return t
end
function fillNN(m, seed)
   m:zeroGradParameters()   -- (the original's are uninitialised memory)
   local ps = m:parameters() or {}
   for i, p in ipairs(ps) do
      local s = p:storage()
      for j = 1, s:size() do s[j] = ((j * seed + i) % 17 - 8) / 8 end
   end
   return m
end

local function num(v)
   if v ~= v then return 'nan' end
   if v == math.huge then return 'inf' elseif v == -math.huge then return '-inf' end
   if v == 0 then return 1 / v < 0 and '-0' or '0' end
   return string.format('%.17g', v)
end
local function hex(s)
   local n = #s
   local h = s:sub(1, 48):gsub('.', function(c) return string.format('%02x', c:byte()) end)
   if n > 48 then
      local sum = 0
      for i = 49, n do sum = (sum * 31 + s:byte(i)) % 2147483647 end
      h = h .. '..' .. sum
   end
   return n .. ':' .. h
end
function clean(e)
   e = tostring(e):match('^[^\n]*'):gsub('^[^\n]-%.lua:%d+: ', ''):gsub(' at /[^ ]*%.c:%d+', '')
   return (e:gsub('[{}|\n]', '?'))
end
function digest(root)
   local ids, n = {}, 0
   local visit
   local function keyof(x)
      if torch.isTensor(x) or torch.isStorage(x) then return torch.type(x) .. '@' .. torch.pointer(x) end
      return x
   end
   local function seen(x)
      local k = keyof(x)
      if ids[k] then return '@' .. ids[k] end
      n = n + 1
      ids[k] = n
      return nil, n
   end
   local function fields(t)
      local keys = {}
      for k in pairs(t) do
         local tk = type(k)
         local s = tk == 'number' and 'n' .. num(k) or tk == 'string' and 's' .. hex(k)
                   or tk == 'boolean' and 'b' .. tostring(k) or 'o'
         keys[#keys + 1] = {s, k}
      end
      table.sort(keys, function(a, b) return a[1] < b[1] end)
      local parts = {}
      for _, kk in ipairs(keys) do
         local k = kk[2]
         local ks = kk[1] == 'o' and visit(k) or kk[1]
         parts[#parts + 1] = ks .. '=' .. visit(t[k])
      end
      return '{' .. table.concat(parts, ',') .. '}'
   end
   function visit(x)
      local tx = type(x)
      if x == nil then return 'nil'
      elseif tx == 'number' then return 'n' .. num(x)
      elseif tx == 'string' then return 's' .. hex(x)
      elseif tx == 'boolean' then return 'b' .. tostring(x)
      end
      if torch.isStorage(x) then
         local r, id = seen(x)
         if r then return r end
         local vals, n = {}, x:size()
         for i = 1, math.min(n, 100) do vals[i] = num(x[i]) end
         if n > 100 then   -- the rest as a hash of their printed values
            local h = 0
            for i = 101, n do
               local v = num(x[i])
               for j = 1, #v do h = (h * 31 + v:byte(j)) % 2147483647 end
            end
            vals[#vals + 1] = '..' .. n .. ':' .. h
         end
         return 'S#' .. id .. ':' .. torch.type(x) .. '[' .. table.concat(vals, ' ') .. ']'
      elseif torch.isTensor(x) then
         local r, id = seen(x)
         if r then return r end
         local s = x:storage()
         return 'X#' .. id .. ':' .. torch.type(x) .. ' sz=' .. table.concat(x:size():totable(), 'x')
            .. ' st=' .. table.concat(x:stride():totable(), ',') .. ' off=' .. x:storageOffset()
            .. ' S=' .. (s and visit(s) or 'nil')
      elseif tx == 'function' then
         local r, id = seen(x)
         if r then return r end
         local ok, v = pcall(x, 3)
         return 'F#' .. id .. ':' .. (ok and visit(v) or 'ERR')
      elseif tx == 'table' then
         local r, id = seen(x)
         if r then return r end
         local tn = torch.typename(x)
         return (tn and 'C#' .. id .. ':' .. tn or 'T#' .. id) .. fields(x)
      end
      return '?' .. tx
   end
   return visit(root)
end
local function slurp(path)
   local f = io.open(path, 'rb')
   if not f then return nil end
   local s = f:read('*a')
   f:close()
   return s
end
local function spit(path, s)
   local f = io.open(path, 'wb')
   f:write(s)
   f:close()
end
local function memfile(s, mode)
   if s:byte(#s) ~= 0 then s = s .. '\0' end
   return torch.MemoryFile(torch.CharStorage():string(s), mode or 'r')
end
-- the formats: name -> write(path, obj), read(path)
FORMATS = {
   {'bin', function(p, o) torch.save(p, o) end, function(p) return torch.load(p) end},
   {'asc', function(p, o) torch.save(p, o, 'ascii') end, function(p) return torch.load(p, 'ascii') end},
   {'nrf', function(p, o) torch.save(p, o, 'binary', false) end, function(p) return torch.load(p, 'binary', false) end},
   {'ser', function(p, o) spit(p, torch.serialize(o)) end, function(p) return torch.deserialize(slurp(p)) end},
   {'sea', function(p, o) spit(p, torch.serialize(o, 'ascii')) end,
           function(p) return torch.deserialize(slurp(p), 'ascii') end},
   {'mem', function(p, o)
              local f = torch.MemoryFile(); f:binary(); f:writeObject(o); f:writeObject(o)
              spit(p, f:storage():string()); f:close()
           end,
           function(p)
              local f = memfile(slurp(p)); f:binary()
              local a = f:readObject(); local b = f:readObject(); f:close()
              return {a, b}
           end},
   {'mea', function(p, o)
              local f = torch.MemoryFile('w'); f:writeObject(o); f:writeObject(o)
              spit(p, f:storage():string()); f:close()
           end,
           function(p)
              local f = memfile(slurp(p)); local a = f:readObject(); local b = f:readObject(); f:close()
              return {a, b}
           end},
}
-- whether a table reaches itself (torch.save unreferenced would recurse forever)
local function cyclic(x, onpath)
   if type(x) ~= 'table' and type(x) ~= 'function' then return false end
   if onpath[x] then return true end
   onpath[x] = true
   if type(x) == 'function' then
      for i = 1, math.huge do
         local name, v = debug.getupvalue(x, i)
         if not name then break end
         if cyclic(v, onpath) then return true end
      end
   end
   for k, v in pairs(type(x) == 'table' and x or {}) do
      if cyclic(k, onpath) or cyclic(v, onpath) then return true end
   end
   onpath[x] = nil
   return false
end
function W(k, build)
   local ok, obj = pcall(build)
   if not ok then return 'BUILD ERR{' .. clean(obj) .. '}' end
   local acyclic = not cyclic(obj, {})
   local res = {digest(obj)}
   for _, fm in ipairs(FORMATS) do
      if fm[1] ~= 'nrf' or acyclic then
         local path = DIR .. '/' .. k .. '.' .. fm[1]
         local okw, e = pcall(fm[2], path, obj)
         if not okw then
            os.remove(path)
            res[#res + 1] = fm[1] .. ':ERR{' .. clean(e) .. '}'
         end
      end
   end
   return table.concat(res, ' || ')
end
function R(k)
   local res = {}
   for _, fm in ipairs(FORMATS) do
      local path = DIR .. '/' .. k .. '.' .. fm[1]
      if io.open(path, 'rb') then
         local ok, obj = pcall(fm[3], path)
         res[#res + 1] = fm[1] .. ':' .. (ok and digest(obj) or 'ERR{' .. clean(obj) .. '}')
         -- every third case, the file cut short at six places: an error, or
         -- what was read before the cut
         if k % 3 == 0 and (fm[1] == 'bin' or fm[1] == 'asc' or fm[1] == 'mem') then
            local s = slurp(path)
            for cut = 1, 6 do
               local short = DIR .. '/' .. k .. '.cut'
               spit(short, s:sub(1, math.floor(#s * cut / 7)))
               local okc, o = pcall(fm[3], short)
               res[#res + 1] = fm[1] .. cut .. ':' .. (okc and digest(o) or 'ERR{' .. clean(o) .. '}')
               os.remove(short)
            end
         end
      end
   end
   return table.concat(res, ' || ')
end
-- raw File scripts: ops(f, out) runs the writes or the reads, out collects
function RAWW(k, kind, ops)
   local path = DIR .. '/' .. k .. '.raw'
   local f = kind == 'disk' and torch.DiskFile(path, 'w') or torch.MemoryFile('w')
   local out = {}
   local ok, e = pcall(ops, f, out)
   if not ok then out[#out + 1] = 'ERR{' .. clean(e) .. '}' end
   if kind ~= 'disk' then spit(path, f:storage():string()) end
   f:close()
   return table.concat(out, ' ;; ')
end
function RAWR(k, kind, ops)
   local path = DIR .. '/' .. k .. '.raw'
   local s = slurp(path)
   if not s then return 'nofile' end
   local f = kind == 'disk' and torch.DiskFile(path, 'r') or memfile(s)
   CONTENT = kind ~= 'disk' and f:storage():string()
   local out = {}
   local ok, e = pcall(ops, f, out)
   if not ok then out[#out + 1] = 'ERR{' .. clean(e) .. '}' end
   f:close()
   return table.concat(out, ' ;; ')
end
function rd(out, f, g)
   local ok, v = pcall(g)
   out[#out + 1] = (ok and digest(v) or 'ERR{' .. clean(v) .. '}') .. '@' .. f:position()
                   .. (f:hasError() and '!' or '')
   -- the original's MemoryFile leaves a 0 byte where a failed ascii number's
   -- token ended (a bug th does not copy): what follows differs, stop there
   if CONTENT and f:storage():string() ~= CONTENT then
      out[#out + 1] = 'CORRUPTED'
      error('CORRUPTED')
   end
end
function show(i, f)
   local ok, s = pcall(f)
   print(i .. ' ' .. (ok and tostring(s) or 'PHASE ERR{' .. clean(s) .. '}'))
end
"""

TYPES = ["Double", "Float", "Long", "Int", "Short", "Char", "Byte"]

NUMBERS = ["0", "1", "-1", "42", "2^31", "-2^31", "2^31 - 1", "2^53", "2^53 + 1", "-2^63", "2^63", "2^64",
           "1e308", "-1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "1e-300", "0/0", "1/0",
           "-1/0", "NEGZERO", "0.1", "1/3", "math.pi", "123456789.123", "-0.5", "3.4028234663852886e38",
           "1e-45", "4503599627370495.5", "1e21", "1e-7"]


def lua_string(bs):
    return '"' + "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else "\\%03d" % b for b in bs) + '"'


class Gen:
    """Lua statements building one object graph in a table V."""

    def __init__(self, rng, nn):
        self.rng, self.nn = rng, nn
        self.lines, self.n = [], 0
        self.tables, self.tensors, self.storages, self.others = [], [], [], []
        self.hashed = False     # a table with non-sequence keys (pairs order is LuaJIT's)

    def var(self, expr, pool=None):
        self.n += 1
        v = f"V[{self.n}]"
        self.lines.append(f"{v} = {expr}")
        if pool is not None:
            pool.append(v)
        return v

    def number(self):
        r = self.rng.random()
        if r < 0.6:
            return self.rng.choice(NUMBERS)
        if r < 0.8:
            return str(self.rng.randint(-10 ** 6, 10 ** 6))
        return repr(self.rng.uniform(-1, 1) * 10 ** self.rng.randint(-30, 30))

    def string(self):
        rng = self.rng
        r = rng.random()
        if r < 0.15:
            return '""'
        if r < 0.4:
            return lua_string(bytes(rng.randrange(256) for _ in range(rng.randint(1, 12))))
        if r < 0.5:
            return f"string.rep({lua_string(bytes(rng.randrange(256) for _ in range(3)))}, {rng.choice([100, 1000, 5000])})"
        if r < 0.6:
            return lua_string(b"line one\nline two\n")
        return lua_string(rng.choice([b"a", b"weight", b"x y", b"1", b"true", b"V 1", b"torch.DoubleTensor", b"\n"]))

    def key(self):
        rng = self.rng
        r = rng.random()
        if r < 0.4:
            return self.string()
        if r < 0.8:
            return rng.choice(["1", "2", "3", "-1", "0", "0.5", "2^40", "1e300", "-0.25", "NEGZERO", "7"])
        return rng.choice(["true", "false"])

    def tensor(self, T=None):
        rng = self.rng
        T = T or rng.choice(TYPES + ["Half"] if rng.random() < 0.1 else TYPES)
        seed = rng.randint(1, 50)
        r = rng.random()
        if self.tensors and r < 0.45:
            base = rng.choice(self.tensors)
            view = rng.choice([
                f"{base}:t()",
                f"{base}:narrow(1, 1, math.max(1, {base}:size(1) - 1))",
                f"{base}:select(1, 1)", f"{base}:transpose(1, {base}:dim())",
                f"{base}:unfold(1, 1, 1)", f"{base}[1]", f"{base}:sub(1, 1)",
                f"{base}.new({base})",
                f"{base}.new({base}:storage(), 2, math.max(1, {base}:nElement() - 2))",
                f"{base}.new({base}:storage(), 1, 2, 2, 2, 1)",   # overlapping strides
                f"{base}:narrow(1, 1, 1):expand({rng.randint(2, 3)}, {base}:size(1))",
            ])
            # a view of an empty or 1-d tensor may not exist: fall back to the base
            return self.var(f"(function() local b = {base}; if b:dim() < 1 or b:nElement() < 4 then return b end "
                            f"local ok, v = pcall(function() return {view} end) "
                            f"return ok and torch.isTensor(v) and v or b end)()", self.tensors)
        if r < 0.5:
            return self.var(f"torch.{T}Tensor()", self.tensors)
        if self.storages and r < 0.6:
            st = rng.choice(self.storages)
            return self.var(f"(function() local s = {st}; local T = torch.typename(s):match('torch%.(.*)Storage') "
                            f"if T == 'Half' or s:size() < 3 then return torch.{T}Tensor() end "
                            f"return torch[T .. 'Tensor'](s, 2, s:size() - 2) end)()", self.tensors)
        if rng.random() < 0.03:   # past the bulk sizes (ascii blocks of 4096 numbers, 64 KB reads)
            n = rng.choice([4097, 9000, 70000])
            return self.var(f"fillT(torch.{T}Tensor({n}), '{T}', {seed})", self.tensors)
        dims = rng.choice([0, 1, 1, 2, 2, 3, 4])
        sizes = [rng.choice([1, 2, 3, 4, 1, 2, 3, 0] if rng.random() < 0.1 else [1, 2, 3, 4]) for _ in range(dims)]
        if dims == 0:
            return self.var(f"torch.{T}Tensor()", self.tensors)
        expr = f"fillT(torch.{T}Tensor({', '.join(map(str, sizes))}), '{T}', {seed})"
        if rng.random() < 0.15:   # smaller than its storage
            expr = f"(function() local t = {expr}; t:resize({max(1, sizes[0] - 1) if sizes[0] else 0}); return t end)()"
        return self.var(expr, self.tensors)

    def storage(self):
        rng = self.rng
        if self.tensors and rng.random() < 0.4:
            t = rng.choice(self.tensors)
            return self.var(f"({t}:storage() or torch.ByteStorage())", self.storages)
        T = rng.choice(TYPES + ["Half"])
        n = rng.choice([0, 1, 2, 5, 9])
        return self.var(f"fillS(torch.{T}Storage({n}), '{T}', {rng.randint(1, 50)})", self.storages)

    def function(self):
        """a closure, made by loadstring under a fixed chunk name (the bytecode
        holds it: the batch file's name differs between runs)"""
        rng = self.rng
        self.hashed = True   # (the upvalues are tables {name, id, value})
        u = self.number() if rng.random() < 0.7 else "'s'"

        def made(src):
            return f"loadstring({lua_string(src.encode())}, '=fz')()"
        r = rng.random()
        if r < 0.15 and self.tables:   # a closure over a table of the graph
            src = lua_string(b"local t = ... return function(x) return t end")
            return self.var(f"loadstring({src}, '=fz')({rng.choice(self.tables)})", self.others)
        if r < 0.3:
            return self.var(made("return function(x) return x * 2 + 1 end"), self.others)
        if r < 0.6:
            return self.var(made(f"local u = {u} return function(x) if x and type(u) == 'number' then u = u + x end "
                                 f"return u end"), self.others)
        # two closures sharing an upvalue
        self.n += 2
        a, b = f"V[{self.n - 1}]", f"V[{self.n}]"
        self.lines.append(f"{a}, {b} = " + made(
            f"local u = {u} "
            f"local function f(x) if x and type(u) == 'number' then u = u + x end return u end "
            f"local function g(x) if x and type(u) == 'number' then u = u * 10 + x end return u end "
            f"return f, g"))
        self.others += [a, b]
        return self.var(f"{{{a}, {b}}}", self.tables)

    def module(self):
        rng = self.rng
        self.hashed = True   # (a module's fields)
        seed = rng.randint(1, 30)
        a, b = rng.randint(1, 4), rng.randint(1, 4)
        m, inp = rng.choice([
            (f"nn.Linear({a}, {b})", f"torch.DoubleTensor(2, {a}):fill(0.5)"),
            (f"nn.Sequential():add(nn.Linear({a}, {b})):add(nn.Tanh()):add(nn.Linear({b}, {a}))",
             f"torch.DoubleTensor(2, {a}):fill(0.5)"),
            (f"nn.SpatialConvolution({a}, {b}, 3, 3)", f"torch.DoubleTensor(2, {a}, 4, 4):fill(0.25)"),
            (f"nn.Sequential():add(nn.SpatialConvolution(1, {b}, 2, 2)):add(nn.ReLU()):add(nn.View(-1))",
             "torch.DoubleTensor(1, 4, 4):fill(0.25)"),
            (f"nn.Linear({a}, {b}, false)", f"torch.DoubleTensor({a}):fill(-1)"),
        ])
        expr = f"fillNN({m}, {seed})"
        if rng.random() < 0.5:
            expr = f"(function() local m = {expr}; m:forward({inp}); return m end)()"
        if rng.random() < 0.3:
            expr = f"(function() local m = {expr}; m:training(); return m end)()"
        return self.var(expr, self.others)

    def torchobj(self, depth):
        rng = self.rng
        r = rng.random()
        if r < 0.4:
            v = self.var(f"fz.Thing({self.value(depth + 1)})", self.tables)
        elif r < 0.7:
            v = self.var(f"fz.Custom({self.number()})", self.tables)
            if rng.random() < 0.6:
                self.lines.append(f"{v}.extra = {self.value(depth + 1)}")
            return v
        else:
            v = self.var("fz.Sub()", self.tables)
        for _ in range(rng.randint(0, 3)):
            self.hashed = True
            self.lines.append(f"{v}[{self.key()}] = {self.value(depth + 1)}")
        return v

    def table(self, depth, least=0):
        rng = self.rng
        v = self.var("{}", self.tables)
        r = rng.random()
        if r < 0.35:   # a sequence
            for i in range(rng.randint(least, 5)):
                self.lines.append(f"{v}[{i + 1}] = {self.value(depth + 1)}")
        else:
            n = rng.randint(least, 5)
            if n > 1:
                self.hashed = True
            for _ in range(n):
                self.lines.append(f"{v}[{self.key()}] = {self.value(depth + 1)}")
            if rng.random() < 0.05 and self.tables[:-1]:
                self.hashed = True
                self.lines.append(f"{v}[{rng.choice(self.tables[:-1])}] = {self.value(depth + 1)}")
        return v

    def value(self, depth=0):
        rng = self.rng
        r = rng.random()
        if depth > 3:
            r = r * 0.4
        if r < 0.12:
            return self.number()
        if r < 0.22:
            return self.string()
        if r < 0.26:
            return rng.choice(["true", "false"])
        if r < 0.4:
            pools = self.tables + self.tensors + self.storages + self.others
            if pools:
                return rng.choice(pools)   # a shared reference
        if r < 0.58:
            return self.tensor()
        if r < 0.64:
            return self.storage()
        if r < 0.7:
            return self.torchobj(depth)
        if r < 0.74:
            return self.function()
        if r < 0.78 and self.nn:
            return self.module()
        return self.table(depth)

    def build(self):
        root = self.value() if self.rng.random() < 0.2 else self.table(0, least=2)
        for _ in range(self.rng.choice([0, 0, 1, 2])):   # cycles
            if len(self.tables) > 0:
                a, b = self.rng.choice(self.tables), self.rng.choice(self.tables)
                self.hashed = True
                self.lines.append(f"{a}.cyc = {b}")
        body = "local V = {} " + " ".join(self.lines) + f" return {root}"
        return body


# raw File scripts -----------------------------------------------------------

RAW_VALUES = {
    "Int": ["0", "1", "-1", "2^31 - 1", "-2^31", "65536", "42"],
    "Long": ["0", "-1", "2^40 + 3", "2^53", "-2^53", "123456789012", "7"],
    "Short": ["0", "-1", "32767", "-32768", "300"],
    "Char": ["0", "65", "-1", "127", "-128", "10", "32"],
    "Byte": ["0", "65", "255", "10", "32", "128"],
    "Double": NUMBERS[:28],
    "Float": ["0", "1", "-1", "0.1", "1/3", "3.4e38", "1e-45", "0/0", "1/0", "-1/0", "NEGZERO", "16777217", "1e39"],
}


def raw_case(rng):
    """-> (writer kind, reader kind, write ops, read ops): Lua bodies over f, out"""
    wk, rk = rng.choice(["disk", "mem"]), rng.choice(["disk", "mem"])
    binary = rng.random() < 0.5
    start = "f:binary()" if binary else "f:ascii()"
    w, r = [start], [start]
    last_read = None
    for _ in range(rng.randint(1, 12)):
        c = rng.random()
        if c < 0.45:
            T = rng.choice(list(RAW_VALUES))
            v = rng.choice(RAW_VALUES[T])
            w.append(f"f:write{T}({v})")
            last_read = f"f:read{T}()"
        elif c < 0.6:
            T = rng.choice(list(RAW_VALUES))
            vals = [rng.choice(RAW_VALUES[T]) for _ in range(rng.randint(0, 5))]
            w.append(f"f:write{T}(torch.{T}Storage({{{', '.join(vals)}}}))")
            how = rng.random()
            if how < 0.5:
                last_read = f"f:read{T}({len(vals)})"
            elif how < 0.8:
                last_read = f"(function() local s = torch.{T}Storage({len(vals)}); local n = f:read{T}(s); return {{n, s}} end)()"
            else:
                last_read = f"f:read{T}({len(vals) + rng.randint(1, 3)})"   # more than there is
        elif c < 0.7:
            s = bytes(rng.choice(b"abc xyz019;:-") for _ in range(rng.choice([0, 1, 3, 8, 1500])))
            w.append(f"f:writeString({lua_string(s + bytes([10]))})")
            last_read = "f:readString('*l')"
        elif c < 0.75:
            s = bytes(rng.randrange(256) for _ in range(rng.randint(1, 6)))
            w.append(f"f:writeString({lua_string(s)})")
            last_read = f"(function() local c = f:readChar({len(s)}); return c:string() end)()"
        elif c < 0.77:
            b = rng.choice(["true", "false"])
            w.append(f"f:writeBool({b})")
            last_read = "f:readBool()"
        elif c < 0.8:
            o = rng.choice(["{1, 'a', {x = 2}}", "'xyz'", "-0.5", "torch.IntTensor({{1, 2}, {3, 4}}):t()", "true",
                            "string.rep('ab\\n', 700)", "torch.ByteStorage({10, 32})"])
            w.append(f"f:writeObject({o})")
            last_read = "f:readObject()"
        elif c < 0.88:
            sw = rng.choice(["f:noAutoSpacing()", "f:autoSpacing()", "f:binary()", "f:ascii()", "f:longSize(4)",
                             "f:longSize(8)", "f:longSize(0)"]
                            + (["f:bigEndianEncoding()", "f:littleEndianEncoding()", "f:nativeEndianEncoding()"]
                               if wk == rk == "disk" else []))
            w.append(sw)
            r.append(sw)
            continue
        elif c < 0.94 and last_read:
            # seek back to before the last read and read it again
            r.append(f"do local p = f:position(); {rd_call(last_read)}; f:seek(p); {rd_call(last_read)} end")
            continue
        else:
            r.append(f"out[#out + 1] = 'pos' .. f:position()")
            w.append(f"out[#out + 1] = 'pos' .. f:position()")
            continue
        w.append("out[#out + 1] = f:position()")
        r.append(rd_call(last_read))
    # past the end: pedantic, then quiet, then the rest of the file
    tail = rng.choice(["f:readInt()", "f:readDouble()", "f:readLong(2)", "f:readByte()", "f:readString('*l')",
                       "f:readFloat(torch.FloatStorage(2))", "f:readBool()"])
    r.append(rd_call(tail))
    r.append(f"f:quiet(); {rd_call(tail)}; f:clearError(); f:pedantic()")
    r.append(rd_call("f:readString('*a')"))
    if rng.random() < 0.3:
        r.append(rd_call("f:seek(1) and f:readString('*a')"))
    if rng.random() < 0.2:
        r.append(rd_call("f:seekEnd() and f:position()"))
    if rng.random() < 0.2:
        r.append(rd_call("f:seek(10^6)"))
    return wk, rk, "; ".join(w), "; ".join(r)


def rd_call(expr):
    return f"rd(out, f, function() return {expr} end)"


# the run ------------------------------------------------------------------------

def make_cases(seed, count, nn):
    rng = random.Random(seed)
    cases = []
    for k in range(count):
        if rng.random() < 0.3:
            wk, rk, w, r = raw_case(rng)
            cases.append({"kind": "raw", "write": f"return RAWW({k}, '{wk}', function(f, out) {w} end)",
                          "read": f"return RAWR({k}, '{rk}', function(f, out) {r} end)", "text": w + "  ||  " + r,
                          "bytes": True})
        else:
            g = Gen(rng, nn)
            body = g.build()
            cases.append({"kind": "obj", "write": f"return W({k}, function() {body} end)",
                          "read": f"return R({k})", "text": body, "bytes": not g.hashed})
    return cases


DUMP = int(os.environ.get("FUZZ_T7_DUMP", "0"))
ERR = re.compile(r"ERR\{[^}]*\}")


def norm(s):
    return ERR.sub("ERR", s or "missing")


def phase(cmd, cases, key, start, d, timeout):
    got, failures = run_all(cmd, [c[key] for c in cases], start, timeout, PRELUDE + f"\nDIR = {d!r}\n")
    for k, status in failures.items():
        got[k] = status.upper()
    return got


CUT = re.compile(r"^[a-z]+[1-6]:")


def uncut(s):
    """an object case's reads without those of the files cut short"""
    if s is None:
        return s
    return " || ".join(f for f in s.split(" || ") if not CUT.match(f))


def compare(cases, start, wref, wth, rr, rt, tr, tt, dref, dth):
    diffs = []
    for i, c in enumerate(cases):
        k = start + i
        # (a file cut short is compared only by the readers of that same file:
        # th's and the original's cut at other objects when their key orders differ)
        checks = [("build", wref.get(k), wth.get(k)), ("ref->th", rr.get(k), rt.get(k)),
                  ("th->ref", uncut(rr.get(k)), uncut(tr.get(k))), ("th->th", uncut(rr.get(k)), uncut(tt.get(k))),
                  ("th file", tr.get(k), tt.get(k))]
        for what, want, have in checks:
            if want and have and "CORRUPTED" in want.split(" ;; "):   # compare what came before
                n = want.split(" ;; ").index("CORRUPTED")
                want, have = " ;; ".join(want.split(" ;; ")[:n]), " ;; ".join(have.split(" ;; ")[:n])
            if norm(want) != norm(have):
                # only the formats (or raw steps) that differ
                a, b = (want or "missing").split(" || "), (have or "missing").split(" || ")
                if len(a) == len(b) and c["kind"] == "obj":
                    pairs = [(x, y) for x, y in zip(a, b) if norm(x) != norm(y)]
                    want, have = " || ".join(x for x, _ in pairs), " || ".join(y for _, y in pairs)
                diffs.append((what, k, c, want, have))
        if c["bytes"]:
            for name in sorted(os.listdir(dref)):
                if name.startswith(f"{k}."):
                    a = open(os.path.join(dref, name), "rb").read()
                    p = os.path.join(dth, name)
                    b = open(p, "rb").read() if os.path.exists(p) else None
                    if b is None:
                        diffs.append(("bytes", k, c, name, "no file"))
                    elif a != b:
                        i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                        diffs.append(("bytes", k, c, f"{name} ({len(a)} bytes) at {i}: {a[max(0, i - 40):i + 80]!r}",
                                      f"({len(b)} bytes) {b[max(0, i - 40):i + 80]!r}"))
    return diffs


# differences kept on purpose (README: a truncated or corrupted file is a
# clear error, never a half-built object), counted apart: (name, test(want, have))
KNOWN = [
    # a file cut where a tensor's storage is a back-reference to an object
    # that is no storage: the original made the tensor without storage
    # (its sizes kept: S=nil), th refuses the file (fuzz_t7 seed 8013)
    ("the original's tensor without storage from a corrupted file",
     lambda want, have: re.search(r"Tensor sz=\d[^ ]* st=[^ ]* off=\d+ S=nil", want or "") is not None
     and "ERR{corrupted file: a torch." in (have or "")),
    # a file cut where a function's upvalues are a back-reference to an
    # object that is no table of upvalues (the root table): the original set
    # each upvalue to the `value` field of what it found there (nil for a
    # tensor), th refuses the file (fuzz_t7 seed 8844)
    ("the original's function with another object's upvalues from a corrupted file",
     lambda want, have: "ERR{" not in (want or "ERR{")
     and re.search(r"ERR\{corrupted file: (upvalue \d+ of a function|the upvalues of a function) ", have or "")
     is not None),
]


def known(want, have):
    return next((name for name, test in KNOWN if test(want, have)), None)


def main():
    args = arguments(calls=500)
    nn = os.environ.get("FUZZ_T7_NN", "1") != "0"   # FUZZ_T7_NN=0: no nn modules
    cases = make_cases(args.seed, args.calls, nn)
    diffs, crashes = [], []
    stats = {"byte-compared": sum(c["bytes"] for c in cases), "original's write errors": 0,
             "original's read errors": 0}
    for start in range(0, len(cases), args.batch):
        chunk = cases[start:start + args.batch]
        dref, dth = tempfile.mkdtemp(prefix="t7ref"), tempfile.mkdtemp(prefix="t7th")
        try:
            wref = phase(args.ref, chunk, "write", start, dref, args.timeout)
            wth = phase(args.th, chunk, "write", start, dth, args.timeout)
            rr = phase(args.ref, chunk, "read", start, dref, args.timeout)
            rt = phase(args.th, chunk, "read", start, dref, args.timeout)
            tr = phase(args.ref, chunk, "read", start, dth, args.timeout)
            tt = phase(args.th, chunk, "read", start, dth, args.timeout)
            diffs += compare(chunk, start, wref, wth, rr, rt, tr, tt, dref, dth)
            stats["original's write errors"] += sum("ERR" in (wref.get(k) or "") for k in wref)
            stats["original's read errors"] += sum("ERR" in (rr.get(k) or "") for k in rr)
            for name, got in [("ref write", wref), ("th write", wth), ("ref read", rr), ("th read ref", rt),
                              ("ref read th", tr), ("th read", tt)]:
                crashes += [(name + " " + v.lower(), k, cases[k], "", "") for k, v in got.items()
                            if v in ("CRASH", "HANG")]
            for k in range(start, min(start + len(chunk), DUMP)):   # FUZZ_T7_DUMP=n: what the first n did
                print(f"=== {k}: {cases[k]['text'][:2000]}\n  write: {wref.get(k)}\n  read:  {rr.get(k)}")
        finally:
            shutil.rmtree(dref)
            shutil.rmtree(dth)
    counted = {}
    for d in diffs:
        name = known(d[3], d[4])
        if name:
            counted[name] = counted.get(name, 0) + 1
    diffs = [d for d in diffs if not known(d[3], d[4])]
    for name, n in sorted(counted.items()):
        print(f"known: {n} x {name}")
    kinds = {}
    for d in diffs + crashes:
        kinds[d[0]] = kinds.get(d[0], 0) + 1
    print(f"cases: {len(cases)} (raw {sum(c['kind'] == 'raw' for c in cases)})  differences: {len(diffs)}  "
          f"crashes/hangs: {len(crashes)}  {kinds}\n{stats}")
    for what, k, c, want, have in crashes[:args.show] + diffs[:args.show]:
        print(f"--- {what} {k}: {c['text'][:1500]}\n  ref: {(want or 'missing')[-1500:]}\n  th:  {(have or 'missing')[-1500:]}")


if __name__ == "__main__":
    main()
