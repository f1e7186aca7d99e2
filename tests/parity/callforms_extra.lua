-- call forms the declared-forms check does not reach: in-place gels on over- and
-- under-determined systems, reshape forms, Storage copy across types and sizes,
-- integer division of an empty tensor by 0 (a no-op).  (A shorter source of
-- another type, which Torch7 read past its end, and division of a non-empty
-- integer tensor by 0, a SIGFPE in Torch7, are errors in th: test_callforms.py.)
local function show(...) local t = {} for i = 1, select('#', ...) do local v = select(i, ...) t[i] = torch.isTensor(v) and (torch.type(v) .. '[' .. table.concat(v:size():totable(), 'x') .. ']{' .. table.concat(v:clone():view(-1):totable(), ',') .. '}') or tostring(v) end print(table.concat(t, ' ')) end
-- gels in place, over- and under-determined
local a = torch.Tensor({{1, 2}, {3, 4}, {5, 7}})
local b = torch.Tensor({{1}, {2}, {4}})
local A, B = a:clone(), b:clone()
print(pcall(function() show(torch.gels(B, A, B, A)) show(B, A) end))
local a2 = torch.Tensor({{1, 2, 3}, {4, 5, 7}})
local b2 = torch.Tensor({{1}, {2}})
local A2, B2 = a2:clone(), b2:clone()
print(pcall(function() show(torch.gels(B2, A2, B2, A2)) show(B2, A2) end))
show(torch.gels(b2, a2))
show(torch.gels(b, a))
-- reshape forms
local x = torch.range(1, 6)
for _, f in ipairs{
  function() return torch.reshape(x, 2, 3) end,
  function() return torch.reshape(x, torch.LongStorage{3, 2}) end,
  function() return x:reshape(3, 2) end,
  function() return x:reshape(torch.LongStorage{2, 3}) end,
  function() local r = torch.Tensor() torch.reshape(r, x, 2, 3) return r end,
  function() local r = torch.Tensor(7) return r:reshape(x, 3, 2) end,
  function() return torch.reshape(x, 6) end,
  function() return torch.reshape(x, 4) end,
  function() return x:reshape(2, -1) end,
} do print((pcall(function() show(f()) end))) end
-- storage copy between storages of different sizes
for _, f in ipairs{
  function() local s = torch.DoubleStorage{1, 2, 3} s:copy(torch.DoubleStorage{9, 8}) return s end,
  function() local s = torch.DoubleStorage{1, 2} s:copy(torch.DoubleStorage{9, 8, 7}) return s end,
  function() local s = torch.IntStorage{1, 2} s:copy(torch.DoubleStorage{9.5, 8, 7}) return s end,
  function() local s = torch.ByteStorage{1, 2} s:copy(torch.ByteStorage()) return s end,
} do print((pcall(function() local s = f() print(s:size(), table.concat(s:totable(), ',')) end))) end
-- integer division by zero on an empty tensor
for _, T in ipairs{'IntTensor', 'LongTensor', 'ByteTensor'} do
  for _, op in ipairs{'div', 'fmod', 'remainder'} do
    print(T, op, pcall(function() return torch[T]()[op](torch[T](), 0):dim() end))
  end
  print(T, 'cdiv', pcall(function() return torch[T]():cdiv(torch[T]()):dim() end))
end
