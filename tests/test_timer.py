"""torch.Timer: real, user and sys times; stop, resume, reset."""


def test_timer_measures_and_pauses(th):
    r = th("""
local t = torch.Timer()
local x = 0 for i = 1, 3e7 do x = x + math.sin(i) end
local a = t:time()
print(a.real > 0, a.user > 0, a.sys >= 0, a.user + a.sys <= a.real * 1.5 + 0.05)
print(t:stop() == t)
local b = t:time().real
for i = 1, 1e7 do x = x + i end
print(t:time().real == b)
t:resume()
for i = 1, 1e7 do x = x + math.sin(i) end
print(t:time().real > b)
t:reset()
print(t:time().real < b, torch.type(t), tostring(t):match('^torch.Timer') ~= nil)
t:stop() t:reset()
print(t:time().real, t:time().user, t:time().sys)""")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("true\ttrue\ttrue\ttrue\t\ntrue\t\ntrue\t\ntrue\t\n"
                        "true\ttorch.Timer\ttrue\t\n0\t0\t0\t\n")


def test_timer_cpu_times_agree_with_os_clock(th):
    # (read through the FFI's getrusage: its layout read right)
    r = th("""
local c0, t = os.clock(), torch.Timer()
local x = 0 for i = 1, 5e7 do x = x + math.sin(i) end
local a, c = t:time(), os.clock() - c0
print(c > 0.05, math.abs(a.user + a.sys - c) < 0.02 + c * 0.05, a.real >= a.user * 0.5)""")
    assert r.stdout == "true\ttrue\ttrue\t\n", r.stderr
