"""Making tensors and storages: a new zeroed buffer reads as zeros however it
is first reached (even when its memory held other numbers before), results of
allocating operations are right in hot loops, and dropped buffers are freed,
touched or not."""

from conftest import run_th

# sizes on both sides of a LuaJIT array (1 KB) and of the loop/numpy limits
SIZES = [3, 128, 129, 1000, 5000, 70000]


def test_new_buffers_read_as_zeros_after_dirty_memory(runtime):
    # fill and drop many buffers so that new ones reuse their memory, then
    # reach each new buffer's first element through every path
    code = """
local bad = 0
for _, n in ipairs{%s} do
   for i = 1, 300 do
      local d = torch.Tensor(n):fill(-7)
      d = nil
      if i %% 50 == 0 then collectgarbage() end
      local t = torch.Tensor(n)
      local s = torch.DoubleStorage(n)
      local ways = {
         function() return t[n] end,
         function() return t:storage()[1] end,
         function() return s[n] end,
         function() return t:sum() end,
         function() return t:data()[n - 1] end,
         function() return t:clone():max() end,
         function() return torch.zeros(n):min() end,
         function() local e = torch.Tensor(); e:resize(n); return e:sum() end,
         function() return torch.Tensor(n):narrow(1, n, 1):sum() end,
      }
      local v = ways[i %% #ways + 1]()
      if v ~= 0 then bad = bad + 1 end
   end
end
return bad
""" % ", ".join(map(str, SIZES))
    assert runtime.execute(code) == 0


def test_shrinking_an_unused_buffer_then_growing_it_keeps_zeros(runtime):
    code = """
local s = torch.DoubleStorage(5000)
s:resize(10)
s:resize(6000)
local nonzero = 0
for i = 1, 6000 do if s[i] ~= 0 then nonzero = nonzero + 1 end end
return nonzero, s:size()
"""
    assert runtime.execute(code) == (0, 6000)


def test_zeros_and_ones_of_every_size(runtime):
    code = """
local out = {}
for _, n in ipairs{%s} do
   local z, o, zi, oi = 0, 0, 0, 0
   for i = 1, 200 do
      z = z + torch.zeros(n):sum()
      o = o + torch.ones(n):sum()
      zi = zi + torch.IntTensor():zeros(n):sum()
      oi = oi + torch.FloatTensor():ones(2, n):sum()
   end
   out[#out + 1] = string.format('%%d %%d %%d %%d %%d', n, z, o, zi, oi)
end
return table.concat(out, ';')
""" % ", ".join(map(str, SIZES))
    expected = ";".join(f"{n} 0 {200 * n} 0 {400 * n}" for n in SIZES)
    assert runtime.execute(code) == expected


def test_allocating_operations_in_hot_loops(runtime):
    # y = 1..n, z = 2: every result element is known
    code = """
local out = {}
for _, n in ipairs{%s} do
   local y = torch.range(1, n)
   local z = torch.Tensor(n):fill(2)
   local c, m, g, e, r = 0, 0, 0, 0, 0
   for i = 1, 300 do
      c = c + y:clone():sum()
      m = m + torch.cmul(y, z):sum() / 2 + torch.cmul(torch.Tensor(), y, z):sum() / 2
      g = g + torch.gt(y, n / 2):sum()
      e = e + torch.exp(torch.mul(y, 0)):sum()
      r = r + y:view(1, n):sum(2)[1][1]
   end
   out[#out + 1] = string.format('%%d %%.17g %%.17g %%.17g %%.17g %%.17g', n, c, m, g, e, r)
end
return table.concat(out, ';')
""" % ", ".join(map(str, SIZES))
    expected = []
    for n in SIZES:
        total = n * (n + 1) // 2
        above = n - n // 2
        expected.append("%d %d %d %d %d %d" % (n, 300 * total, 600 * total, 300 * above,
                                                300 * n, 300 * total))
    assert runtime.execute(code) == ";".join(expected)


def test_dropped_untouched_tensors_are_freed(tmp_path):
    # 16 GB of 8 MB tensors never written: the collector must free them, so
    # the address space stays bounded (the original kept them all mapped
    # until Lua's own heap grew enough)
    code = """
for i = 1, 2000 do
   local x = torch.DoubleTensor(2^20)
end
collectgarbage()
local f = io.open('/proc/self/status')
local status = f:read('*a')
f:close()
print(status:match('VmPeak:%s*(%d+)'), status:match('VmHWM:%s*(%d+)'))
"""
    (tmp_path / "untouched.lua").write_text(code)
    r = run_th([str(tmp_path / "untouched.lua")], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    peak_virtual_kb, peak_resident_kb = map(int, r.stdout.split())
    assert peak_virtual_kb < 4 * 2**20, f"peak virtual memory {peak_virtual_kb} kB"
    assert peak_resident_kb < 500 * 1024, f"peak resident memory {peak_resident_kb} kB"
