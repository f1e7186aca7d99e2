"""Memory follows Lua's garbage collector: dropped tensors free their numpy buffers."""

from conftest import run_th


def test_dropping_tensors_frees_memory(tmp_path):
    # 1 GB allocated in 10 MB tensors, each dropped at once: the process must stay small
    code = """
for i = 1, 100 do
   local x = torch.DoubleTensor(10 * 2^20 / 8)
   x:fill(i)
end
collectgarbage()
local f = io.open('/proc/self/status')
local status = f:read('*a')
f:close()
print(status:match('VmHWM:%s*(%d+)'))
"""
    (tmp_path / "alloc.lua").write_text(code)
    r = run_th([str(tmp_path / "alloc.lua")], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    peak_kb = int(r.stdout.split()[0])
    assert peak_kb < 500 * 1024, f"peak resident memory {peak_kb} kB"


def test_storage_freed_when_last_view_goes(runtime):
    code = """
local x = torch.Tensor(1000)
local weak = setmetatable({x:storage()}, {__mode = 'v'})
local v = x:narrow(1, 1, 10)
x = nil
collectgarbage(); collectgarbage()
local alive_with_view = weak[1] ~= nil
v = nil
collectgarbage(); collectgarbage()
return alive_with_view, weak[1] == nil
"""
    assert runtime.execute(code) == (True, True)


# a script's setup, then its loop, printing how many MB the resident peak grew by in the loop
PEAK_GROWTH = """
local function peak()
   local f = io.open('/proc/self/status')
   local status = f:read('*a')
   f:close()
   return tonumber(status:match('VmHWM:%s*(%d+)'))
end
{setup}
local base = peak()
{loop}
print(math.floor((peak() - base) / 1024))
"""


def peak_growth_mb(tmp_path, setup, loop):
    (tmp_path / "growth.lua").write_text(PEAK_GROWTH.format(setup=setup, loop=loop))
    r = run_th([str(tmp_path / "growth.lua")], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    return int(r.stdout.split()[0])


def test_new_results_reuse_dropped_buffers_before_taking_new_memory(tmp_path):
    # 24 clones of 8 MB, each dropped at once: new memory (a page fault a page
    # when first written) waits for a collection to free a buffer of the size,
    # where it waited for 256 MB to be written (all 192 MB were new)
    grown_mb = peak_growth_mb(tmp_path, "local x = torch.rand(2^20)",
                              "for i = 1, 24 do local r = x:clone() end")
    assert grown_mb < 150, f"resident memory grew by {grown_mb} MB"


def test_loaded_tensors_reuse_dropped_buffers(tmp_path):
    # 24 loads of an 8 MB tensor, each dropped at once: as for clones, the
    # buffer read into is new memory only until a collection frees a dropped
    # one (it was zeroed and then read, and the file that read it kept it
    # for another collection cycle: all 192 MB were new)
    grown_mb = peak_growth_mb(tmp_path, "torch.save('x.t7', torch.rand(2^20)) local sum = 0",
                              "for i = 1, 24 do sum = sum + torch.load('x.t7')[2^20] end")
    assert grown_mb < 150, f"resident memory grew by {grown_mb} MB"


def test_a_closed_file_lets_go_of_what_it_read(runtime):
    code = """
local f = torch.MemoryFile():binary()
f:writeObject(torch.Tensor(1000))
f:seek(1)
local t = f:readObject()
f:close()
local weak = setmetatable({t}, {__mode = 'v'})
t = nil
collectgarbage(); collectgarbage()
return f ~= nil, weak[1] == nil
"""
    assert runtime.execute(code) == (True, True)
