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
