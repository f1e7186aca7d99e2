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


def test_memory_kept_for_reuse_is_given_back_when_malloc_refuses(tmp_path):
    # under an address-space limit, 400 MB of dropped 10 MB buffers kept for
    # reuse (their size still in use) must not make a 300 MB tensor fail:
    # before the allocation error, spare buffers of every size go back to malloc
    code = """local ffi = require 'ffi'
ffi.cdef[[ struct th_rlimit { unsigned long cur, max; }; int setrlimit(int, const struct th_rlimit *); ]]
local internal = require 'torch.internal'
local function vm()
   local f = io.open('/proc/self/status')
   local s = f:read('*a')
   f:close()
   return tonumber(s:match('VmSize:%s*(%d+)')) * 1024
end
-- numpy and the helper threads first: their memory is not the test's
local warm = torch.Tensor(10 * 2^17):fill(1)
internal.ndview(internal.tensors[warm])
warm = nil
collectgarbage()
local RLIMIT_AS = 9
local limit = vm() + 600 * 2^20
assert(ffi.C.setrlimit(RLIMIT_AS, ffi.new('struct th_rlimit', limit, limit)) == 0)
-- 400 MB of 10 MB tensors, written and dropped: their buffers stay spare
local t = {}
for i = 1, 40 do t[i] = torch.Tensor(10 * 2^17):fill(1) end
t = nil
collectgarbage()
-- (one more of their size, asked for now: the spare ones are not idle)
local _ = torch.Tensor(10 * 2^17):fill(1)
print(pcall(function() return torch.Tensor(300 * 2^17):fill(2):sum() end))
"""
    (tmp_path / "spare.lua").write_text(code)
    r = run_th([str(tmp_path / "spare.lua")], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["true", str(300 * 2**17 * 2)]


def test_new_tensors_of_every_type_are_zeros_over_recycled_memory(runtime):
    # buffers beyond 1 KB are recycled once their tensor is collected: a new
    # tensor of each type over a buffer another one filled reads as zeros,
    # with its own contiguous sizes, strides and storage
    code = """
local bad = {}
for _, name in ipairs{'Byte', 'Char', 'Short', 'Int', 'Long', 'Float', 'Double', 'Half'} do
   local T = torch[name .. 'Tensor']
   for _, n in ipairs{%s} do
      for i = 1, 40 do
         T(n, 3):fill(5)
         if i %% 10 == 0 then collectgarbage() end
         local t = T(n, 3)
         local ok = t:dim() == 2 and t:size(1) == n and t:size(2) == 3 and t:stride(1) == 3
                    and t:stride(2) == 1 and t:storage():size() == 3 * n and t:storageOffset() == 1
                    and t:storage() ~= nil and t[n][3] == 0 and t:double():sum() == 0
         if not ok then bad[#bad + 1] = name .. ' ' .. n end
      end
   end
end
return table.concat(bad, ',')
""" % ", ".join(map(str, SIZES))
    assert runtime.execute(code) == ""


def test_live_tensors_keep_their_memory_while_others_are_recycled(runtime):
    # tensors kept (a view, a storage, a numpy array the host holds) are never
    # handed to a new tensor, however many of the same size come and go
    runtime.execute("held = torch.range(1, 5000)")
    arr = runtime.to_numpy(runtime.eval("held"))
    code = """
held = nil
local kept, views, storages = {}, {}, {}
for i = 1, 20 do
   kept[i] = torch.Tensor(5000):fill(i)
   views[i] = torch.Tensor(5000):fill(-i):narrow(1, 2, 10)
   storages[i] = torch.Tensor(5000):fill(i + 100):storage()
end
for i = 1, 3000 do
   torch.Tensor(5000):fill(7)
   if i % 500 == 0 then collectgarbage() end
end
collectgarbage(); collectgarbage()
for i = 1, 3000 do torch.Tensor(5000):fill(9) end
local bad = 0
for i = 1, 20 do
   if kept[i]:sum() ~= 5000 * i or views[i]:sum() ~= -10 * i or storages[i][5000] ~= i + 100 then
      bad = bad + 1
   end
end
return bad
"""
    assert runtime.execute(code) == 0
    assert arr.sum() == 5000 * 5001 / 2


def test_closing_a_runtime_releases_its_buffers():
    # buffers still in use when a Lua state closes go back to malloc, as
    # ffi.gc's finalizers gave them: a process making runtimes stays small
    import gc
    from th.runtime import Runtime

    def resident_kb():
        with open("/proc/self/status") as f:
            return int(f.read().split("VmRSS:")[1].split()[0])

    code = "keep = {} for i = 1, 10 do keep[i] = torch.Tensor(2^20):fill(i) end"
    r = Runtime()
    r.execute(code)
    del r
    gc.collect()
    start = resident_kb()
    for _ in range(8):
        r = Runtime()
        r.execute(code)   # 80 MB written and kept each time
        del r
        gc.collect()
    assert resident_kb() - start < 200 * 1024


def test_a_new_tensor_written_whole_is_not_zeroed_first_and_reads_right(runtime):
    # (a copy or fill of all of a new tensor takes its buffer as it is; what
    # is read before it is written still reads as zeros)
    got = runtime.execute("""
        local y = torch.rand(300000)
        local a = torch.Tensor(300000):copy(y)
        local b = torch.Tensor(300000):fill(3)
        local c = torch.Tensor(300000)
        c:narrow(1, 1, 1000):copy(y:narrow(1, 1, 1000))
        local d = torch.Tensor(1000, 300)
        d:t():copy(torch.ones(300, 1000))
        local e = torch.FloatTensor(300000):copy(y)
        local f = torch.Tensor(300000)
        return a:eq(y):all(), b:sum(), c:narrow(1, 1001, 299000):sum(),
               c:narrow(1, 1, 1000):eq(y:narrow(1, 1, 1000)):all(), d:sum(),
               e:double():add(-1, y):abs():max() < 1e-6, f:sum()""")
    assert got == (True, 900000, 0, True, 300000, True, 0)
