"""Large element loops shared with helper threads (th/lua/torch/parallel.lua,
th/native/pool.lua): the same results as one thread, hot, for every type and
kind of work; a forked child and a second runtime of the process still work;
Ctrl-C in a shared job leaves the helpers usable.  (The original's bits at
these sizes: tests/fixtures/bits_simd, bits_cadd, fill_values.)"""
import os
import signal
import subprocess
import threading
import time

from conftest import th_command

# run(T, n, reps) -> a list of results, for each type and size, `reps`
# times on one thread then on two: prints whether each type's results agree
ONE_AND_TWO = r"""
for _, T in ipairs{TYPES} do
   for _, n in ipairs{SIZES} do
      local reps = n < 2e5 and REPS or REPS // 10
      torch.setnumthreads(1)
      local one = run(T, n, reps)
      torch.setnumthreads(2)
      local two = run(T, n, reps)
      local same = true
      for i = 1, #one do same = same and one[i]:eq(two[i]):all() end
      print(T, n, same)
   end
end
"""


def one_and_two(th, run, types, sizes, reps):
    """-> the lines of each type and size, after checking that th ran"""
    harness = (ONE_AND_TWO.replace("TYPES", ", ".join(f"'{t}'" for t in types))
               .replace("SIZES", ", ".join(map(str, sizes))).replace("REPS // 10", str(reps // 10))
               .replace("REPS", str(reps)))
    proc = th(run + harness)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(types) * len(sizes)
    return lines


# every operation shared with helpers, at sizes past the thresholds (512 KB
# of result; 1 MB for fill)
SHARED = r"""
local function run(T, n, reps)
   torch.manualSeed(n)
   local x = torch[T .. 'Tensor'](n):random(1, 50)
   local y = torch[T .. 'Tensor'](n):random(1, 3)
   local floating = T == 'Double' or T == 'Float'
   if floating then x:uniform(0.5, 2); y:uniform(0.9, 1.1) end
   local r = x:clone()
   for _ = 1, reps do
      r:add(y):mul(3):add(-2):csub(y):cmul(y)
      if floating then r:div(2.9):add(0.5, y):cdiv(y) else r:fill(7):add(x) end
   end
   local f, z = x:clone():fill(floating and -1.25 or 9), x:clone():zero()
   return {r, torch.add(x, y), torch.cmul(x, y), f, z}
end
"""


def test_helpers_give_one_threads_results(th):
    lines = one_and_two(th, SHARED, ['Double', 'Float', 'Long', 'Int', 'Short', 'Byte'],
                        [140003, 600001], 300)
    assert all(line.endswith("\ttrue\t") for line in lines), lines


# th's own LuaJIT loops run by helper states (pool.lua's kind kernel), hot,
# with a number and a tensor operand, converting types, in place, and copies
# between types
KERNELS = r"""
local function run(T, n, reps)
   torch.manualSeed(n)
   local x = torch[T .. 'Tensor'](n):uniform(0.5, 3)
   local y = torch[T .. 'Tensor'](n):uniform(-2, 2)
   local r = x:clone()
   local d = torch.DoubleTensor(n)
   for _ = 1, reps do
      r:fmod(x, 0.7):add(1):cpow(x):remainder(1.3):exp():cfmod(x):atan2(y)
      torch.pow(d, x:double(), 1.5)
   end
   local big = y * 2e9   -- (beyond int32 in part: INT_MIN, as TH's cast)
   return {r, d, torch.sigmoid(y), torch.cremainder(y, x), torch.log(x), torch.IntTensor(n):copy(big),
           torch.ByteTensor(n):copy(x * 90), torch.DoubleTensor(n):copy(torch.IntTensor(n):copy(big)),
           torch.FloatTensor(n):copy(d)}
end
"""


def test_helpers_run_lua_loops_as_one_thread(th):
    lines = one_and_two(th, KERNELS, ['Double', 'Float'], [20001, 300007], 100)
    assert all(line.endswith("\ttrue\t") for line in lines), lines


# index along the first dimension: rows copied by helpers (pool.lua's kind
# rows), repeated and in any order, from a contiguous and a strided index
ROWS = r"""
local function run(T, n, reps)
   torch.manualSeed(n)
   local rows = math.floor(n / 1000)
   local A = torch[T .. 'Tensor'](rows, 1000):random(1, 100)
   local idx = torch.LongTensor(2 * rows):random(1, rows)
   local out = {}
   for k = 1, reps do out[k % 3 + 1] = A:index(1, k % 2 == 0 and idx or idx:narrow(1, 1, rows)) end
   out[4] = A:index(1, torch.LongTensor(rows, 2):random(1, rows):select(2, 1))
   return out
end
"""


def test_helpers_copy_index_rows_as_one_thread(th):
    lines = one_and_two(th, ROWS, ['Double', 'Float', 'Long', 'Byte'], [140003, 600001], 100)
    assert all(line.endswith("\ttrue\t") for line in lines), lines


# gather and scatter split along their outer level (dimension 2 of a
# matrix) or their inner one (dimension 1), from a transposed source too
GATHER = r"""
local function run(T, n, reps)
   torch.manualSeed(n)
   local m = math.floor(math.sqrt(n))
   local A = torch[T .. 'Tensor'](m, m):random(1, 100)
   local B = torch[T .. 'Tensor'](m, m):random(1, 100)
   local idx = torch.LongTensor(m, m):random(1, m)
   local out = {}
   for k = 1, reps do
      local dim = k % 2 + 1
      out[dim] = A:gather(dim, idx)
      out[dim + 2] = B:clone():scatter(dim, idx, A)
   end
   out[5] = A:t():gather(2, idx)
   out[6] = B:clone():scatter(1, idx, A:t())
   return out
end
"""


def test_helpers_gather_and_scatter_as_one_thread(th):
    lines = one_and_two(th, GATHER, ['Double', 'Float', 'Long', 'Short'], [140003, 600001], 40)
    assert all(line.endswith("\ttrue\t") for line in lines), lines


# sorts of lines from 2^17 elements: TH's loop down to parts, which the
# threads sort apart; ties (integers, floats) and both directions, hot
SORT = r"""
local function run(T, n, reps)
   torch.manualSeed(n)
   local x = torch[T .. 'Tensor'](n):random(1, 3000)
   if T == 'Float' then x:uniform() end
   local out = {}
   for k = 1, reps do
      local desc = k % 2 == 0
      out[desc and 1 or 2], out[desc and 3 or 4] = torch.sort(x, desc)
   end
   return out
end
"""


def test_helpers_sort_as_one_thread(th):
    lines = one_and_two(th, SORT, ['Double', 'Float', 'Int'], [140003], 100)
    assert all(line.endswith("\ttrue\t") for line in lines), lines


def test_a_forked_child_works_alone(runtime):
    # the helpers are threads of the parent: the child must not wait for them
    assert runtime.execute("x = torch.ones(1e6) x:add(x) return x:sum()") == 2e6
    pid = os.fork()
    if pid == 0:                                  # pragma: no cover - the child
        signal.alarm(30)
        ok = runtime.execute("x:mul(3) x:fill(2) x:add(x) return x:sum()") == 4e6
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def test_two_runtimes_at_once():
    # one set of helpers per process, one job at a time: the other runtime's
    # operations run on their own thread meanwhile
    from th.runtime import Runtime
    results, errors = [], []

    def work(seed):
        try:
            rt = Runtime()
            results.append(rt.execute(f"""
                local x = torch.Tensor(1e6):fill({seed})
                for _ = 1, 200 do x:add(1):mul(1):cmul(torch.ones(1e6)) end
                return x:sum()"""))
        except Exception as e:                     # pragma: no cover - reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    assert sorted(results) == [201e6, 202e6]


def test_ctrl_c_in_shared_jobs_leaves_them_usable(tmp_path):
    (tmp_path / "spin.lua").write_text(
        "local x, y = torch.zeros(1e6), torch.ones(1e6)\n"
        "print('started') io.stdout:flush()\n"
        "print(pcall(function() while true do x:add(y):mul(0.5) end end))\n"
        "x:fill(1) x:add(x):cmul(y)\n"
        "print(x:sum())\n")
    child = subprocess.Popen(th_command() + ["spin.lua"], cwd=str(tmp_path),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout.readline() == b"started\t\n"
    time.sleep(1)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=20)
    assert child.returncode == 0, err
    assert out == b"false\tinterrupted\t\n2000000\t\n"
