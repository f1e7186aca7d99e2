"""The Tensor core: constructors, queries, views and their memory sharing.

Expected values come from the Tensor reference (seeds 001/003) and the
tensor-internals slides (seed 002, translated to 1-based Lua)."""
import pytest


def lua(runtime, code):
    return runtime.execute(code)


def table(t):
    """A Lua array as a Python list."""
    return [t[i] for i in range(1, len(t) + 1)]


def test_sizes_constructor_up_to_4_numbers(runtime):
    assert lua(runtime, "local z = torch.Tensor(4,5,6,2) return z:nDimension(), z:nElement()") == (4, 240)


def test_tensors_made_in_a_row_are_each_their_own(runtime):
    # new tensors come from a stock made 64 at a time: hundreds of them, of
    # types made in turn and views among them, each keeps its own sizes,
    # values and type, and each is garbage once dropped
    code = """
local made, weak = {}, setmetatable({}, {__mode = 'v'})
local names = {'Double', 'Float', 'Long', 'Byte'}
for i = 1, 300 do
   local t = torch[names[i % 4 + 1] .. 'Tensor'](i % 7 + 1):fill(i % 100)
   made[i] = i % 3 == 0 and t:narrow(1, 1, 1) or t
end
for i = 1, 300 do
   local t = made[i]
   local n = i % 3 == 0 and 1 or i % 7 + 1
   if t:nElement() ~= n or t:sum() ~= n * (i % 100)
      or torch.type(t) ~= 'torch.' .. names[i % 4 + 1] .. 'Tensor' then
      return 'tensor ' .. i .. ' is ' .. tostring(t)
   end
   weak[i] = t
end
made = nil
collectgarbage(); collectgarbage()
return next(weak) == nil
"""
    assert lua(runtime, code) is True


def test_empty_tensors_change_shape_each_on_its_own(runtime):
    # new empty tensors (torch.Tensor(), x.new(), nn's buffers) share one
    # pair of size and stride tables until their first change of shape:
    # whatever one of them becomes, by every way a shape changes, the others
    # stay empty, as separate Torch7 tensors did (the expected string is
    # what the original gave for this code)
    code = """
local forms = {
   function(t) t:resize(3, 2) end,
   function(t) t:resizeAs(torch.Tensor(4)) end,
   function(t) t:set(torch.Tensor(5):fill(1)) end,
   function(t) t:set(torch.DoubleStorage(6), 1, 2, 3) end,
   function(t) t:copy(torch.Tensor()) end,
   function(t) t:zeros(2, 2) end,
   function(t) t:rand(1, 3) end,
   function(t) torch.add(t, torch.ones(2), 1) end,
   function(t) t:sum(torch.ones(3, 4), 2) end,
   function(t) t:cat(torch.ones(2), torch.ones(3)) end,
   function(t) t:index(torch.ones(4, 2), 1, torch.LongTensor{1, 3}) end,
   function(t) t:sort(torch.rand(5)) end,
}
local sizes = {}
for i, form in ipairs(forms) do
   local t, other = torch.Tensor(), torch.DoubleTensor():new()
   form(t)
   sizes[#sizes + 1] = table.concat(t:size():totable(), 'x') .. '/' .. other:dim() .. '/' .. torch.Tensor():dim()
end
return table.concat(sizes, ' ')
"""
    assert lua(runtime, code) == ("3x2/0/0 4/0/0 5/0/0 2/0/0 /0/0 2x2/0/0 1x3/0/0 2/0/0 3x1/0/0 "
                                  "5/0/0 2x2/0/0 5/0/0")


def test_longstorage_constructor_any_dimensions(runtime):
    code = """local s = torch.LongStorage({4,5,6,2,7,3})
              local x = torch.Tensor(s)
              return x:nDimension(), x:size(5), x:size(6), x:stride(1)"""
    assert lua(runtime, code) == (6, 7, 3, 5 * 6 * 2 * 7 * 3)


def test_row_major_strides(runtime):
    assert table(lua(runtime, "return torch.Tensor(4, 5):stride():totable()")) == [5, 1]
    assert table(lua(runtime, "return torch.Tensor(torch.LongStorage({4,4,3,2})):stride():totable()")) == [24, 6, 2, 1]


def test_tensor_from_tensor_shares_storage(runtime):
    code = """local x = torch.Tensor(2,5):fill(3.14)
              local y = torch.Tensor(x)
              y:zero()
              return x[{1,1}], torch.pointer(x:storage()) == torch.pointer(y:storage())"""
    assert lua(runtime, code) == (0, True)


def test_zero_stride_tensor_aliases_one_element(runtime):
    code = """local x = torch.Tensor(torch.LongStorage({4}), torch.LongStorage({0})):zero()
              x[1] = 1
              return x[1], x[2], x[3], x[4], x:storage():size()"""
    assert lua(runtime, code) == (1, 1, 1, 1, 1)


def test_storage_offset_constructor(runtime):
    code = """local s = torch.Storage(10):fill(1)
              local x = torch.Tensor(s, 3, torch.LongStorage{2,4})
              x:zero()
              return s[2], s[3], s[10], x:storageOffset()"""
    assert lua(runtime, code) == (1, 0, 0, 3)


def test_storage_offset_sizes_strides_numbers(runtime):
    code = """local s = torch.Storage({1,2,3,4,5,6})
              local x = torch.Tensor(s, 2, 2, 1, 3, 2)
              return x:size(1), x:size(2), x[{1,1}], x[{1,2}], x[{2,1}], s:size()"""
    # offset 2 (1-based), 2 rows of stride 1, 3 columns of stride 2: the view
    # reaches element 7, so the storage grows to 7 (TH's resizeNd)
    assert lua(runtime, code) == (2, 3, 2, 4, 3, 7)


def test_storage_view_grows_storage_when_too_small(runtime):
    code = """local s = torch.Storage(4)
              local x = torch.Tensor(s, 1, torch.LongStorage{3, 3})
              return s:size(), x:nElement()"""
    assert lua(runtime, code) == (9, 9)


def test_nested_table_constructor(runtime):
    code = "local x = torch.Tensor({{1,2,3,4},{5,6,7,8}}) return x:size(1), x:size(2), x[{2,3}]"
    assert lua(runtime, code) == (2, 4, 7)


def test_inconsistent_table_is_an_error(runtime):
    ok, msg = lua(runtime, "return pcall(torch.Tensor, {{1,2},{3}})")
    assert not ok and msg.endswith("invalid tensor sizes")
    ok, msg = lua(runtime, "return pcall(torch.Tensor, {{1,2},3})")
    assert not ok and msg.endswith("invalid tensor definition")
    ok, msg = lua(runtime, "return pcall(torch.Tensor, {1,'a'})")
    assert not ok and msg.endswith("invalid element (not a number)")
    assert lua(runtime, "return torch.Tensor({1, '2.5'})[2]") == 2.5


def test_longtensor_from_longstorage_uses_it_as_storage(runtime):
    code = """local a = torch.LongStorage({1,2})
              local b = torch.FloatTensor(a)
              local c = torch.LongTensor(a)
              return b:nDimension(), b:size(1), b:size(2), c:nDimension(), c[1], c[2]"""
    assert lua(runtime, code) == (2, 1, 2, 1, 1, 2)


@pytest.mark.parametrize("name", ["Byte", "Char", "Short", "Int", "Long", "Float", "Double"])
def test_every_type_constructs_and_converts(runtime, name):
    code = f"""local x = torch.{name}Tensor(2, 3):fill(7)
               local y = x:double()
               return x:type(), torch.type(y), y[{{2,3}}], x:elementSize()"""
    sizes = dict(Byte=1, Char=1, Short=2, Int=4, Long=8, Float=4, Double=8)
    assert lua(runtime, code) == (f"torch.{name}Tensor", "torch.DoubleTensor", 7, sizes[name])


def test_type_same_returns_same_tensor_different_copies(runtime):
    code = """local x = torch.Tensor(3):fill(3.14)
              local same = x:type('torch.DoubleTensor')
              local int = x:type('torch.IntTensor')
              int:fill(1)
              return rawequal(same, x), int[1], x[1]"""
    assert lua(runtime, code) == (True, 1, 3.14)


def test_conversion_truncates_like_c(runtime):
    assert lua(runtime, "local y = torch.Tensor({3.9, -2.7}):int() return y[1], y[2]") == (3, -2)


def test_unknown_type_name_is_an_error(runtime):
    ok, msg = lua(runtime, "return pcall(function() return torch.Tensor(2):type('torch.FooTensor') end)")
    assert not ok and "torch.FooTensor" in msg


def test_default_tensor_type_follows_setdefaulttensortype(runtime):
    code = """torch.setdefaulttensortype('torch.FloatTensor')
              local a, b, c = torch.Tensor(2):type(), torch.getdefaulttensortype(), torch.type(torch.Storage(1))
              torch.setdefaulttensortype('torch.DoubleTensor')
              return a, b, c, torch.Tensor():type()"""
    assert lua(runtime, code) == ("torch.FloatTensor", "torch.FloatTensor", "torch.FloatStorage",
                                  "torch.DoubleTensor")


def test_len_operator_gives_sizes(runtime):
    assert table(lua(runtime, "return (#torch.Tensor(3, 4)):totable()")) == [3, 4]


def test_is_contiguous_and_select_stride(runtime):
    code = """local x = torch.Tensor(4,5)
              local y = x:select(2, 3)
              return x:isContiguous(), y:isContiguous(), y:stride(1), y:storageOffset()"""
    assert lua(runtime, code) == (True, False, 5, 3)


def test_is_size_and_same_size(runtime):
    code = """local x = torch.Tensor(4,5)
              return x:isSize(torch.LongStorage({4,5})), x:isSize(torch.LongStorage({5,4,1})),
                     x:isSameSizeAs(torch.Tensor(4,5)), x:isSameSizeAs(torch.Tensor(4,6))"""
    assert lua(runtime, code) == (True, False, True, False)


def test_element_access_forms(runtime):
    code = """local x = torch.Tensor(7,7,7)
              local s = x:storage()
              for i = 1, s:size() do s[i] = i end
              return x[3][4][5], x[{3,4,5}], x[torch.LongStorage{3,4,5}],
                     s[x:storageOffset() + 2*x:stride(1) + 3*x:stride(2) + 4*x:stride(3)]"""
    assert lua(runtime, code) == (124, 124, 124, 124)


def test_negative_index_counts_from_end(runtime):
    assert lua(runtime, "local x = torch.Tensor({1,2,3}) return x[-1], x[-3]") == (3, 1)


def test_index_out_of_range_is_an_error_and_data_intact(runtime):
    code = """local x = torch.Tensor({1,2,3})
              local ok1 = pcall(function() return x[4] end)
              local ok2 = pcall(function() x[0] = 5 end)
              local ok3 = pcall(function() return x[{1, 1}] end)
              return ok1, ok2, ok3, x[1], x[2], x[3]"""
    assert lua(runtime, code) == (False, False, False, 1, 2, 3)


def test_bracket_ranges_are_views(runtime):
    code = """local x = torch.Tensor(3, 4):zero()
              local v = x[{{2, 3}, {2, 3}}]
              v:fill(9)
              local col = x[{{}, 4}]
              col:fill(-1)
              return x[{2,2}], x[{3,3}], x[{1,1}], x[{1,4}], v:isContiguous(), col:nDimension()"""
    assert lua(runtime, code) == (9, 9, 0, -1, False, 1)


def test_bracket_assignment_forms(runtime):
    code = """local x = torch.Tensor(5, 6):zero()
              x[{1,3}] = 1
              x[{2,{2,4}}] = 2
              x[{{},4}] = -1
              x[{{},2}] = torch.Tensor({1,2,3,4,5})
              x[3] = 8
              return x[{1,3}], x[{2,3}], x[{5,4}], x[{4,2}], x[{3,6}]"""
    assert lua(runtime, code) == (1, 2, -1, 4, 8)


def test_narrow_select_sub_share_storage(runtime):
    code = """local x = torch.Tensor(5, 6):zero()
              x:narrow(1, 2, 3):fill(1)
              x:select(2, 5):fill(5)
              x:sub(2, 4, 3, 4):fill(2)
              return x[{1,1}], x[{2,1}], x[{1,5}], x[{3,3}], x[{5,6}], x:sub(-1, -1, 3, 4):size(1)"""
    assert lua(runtime, code) == (0, 1, 5, 2, 0, 1)


def test_select_on_vector_gives_number(runtime):
    assert lua(runtime, "return torch.Tensor({4,5,6}):select(1, 2)") == 5


def test_transpose_and_t_are_views(runtime):
    code = """local x = torch.Tensor(3,4):zero()
              local y = x:t()
              y[{3, 1}] = 7
              local st = y:stride()
              return x[{1,3}], st[1], st[2], y:isContiguous()"""
    assert lua(runtime, code) == (7, 1, 4, False)


def test_slides_views_with_zero_strides(runtime):
    # seed 002: an expand-like view [[2,3,4]]*3 and a repeated column view, 1-based
    code = """local s = torch.Storage({1,2,3,4})
              local a = torch.Tensor():set(s, 2, torch.LongStorage{3, 3}, torch.LongStorage{0, 1})
              local b = torch.Tensor():set(s, 2, torch.LongStorage{2, 4}, torch.LongStorage{1, 0})
              return a[{3,1}], a[{3,3}], b[{1,4}], b[{2,1}]"""
    assert lua(runtime, code) == (2, 4, 2, 3)


def test_view_and_minus_one(runtime):
    code = """local x = torch.Tensor(4):zero()
              local v = x:view(2, -1)
              v[{2,2}] = 5
              return v:size(1), v:size(2), x[4]"""
    assert lua(runtime, code) == (2, 2, 5)


def test_view_of_non_contiguous_is_an_error(runtime):
    code = """local x = torch.Tensor(10, 10)
              local ok = pcall(function() return x:t():view(-1) end)
              return ok, x:t():contiguous():view(-1):size(1)"""
    assert lua(runtime, code) == (False, 100)


def test_view_size_mismatch_is_an_error(runtime):
    assert lua(runtime, "return pcall(function() return torch.Tensor(4):view(3) end)")[0] is False


def test_resize_keeps_strides_when_sizes_unchanged(runtime):
    code = """local x = torch.Tensor(2, 3):t()
              x:resize(3, 2)
              local st = x:stride()
              return st[1], st[2]"""
    assert lua(runtime, code) == (1, 3)


def test_resize_larger_grows_storage_smaller_keeps_it(runtime):
    code = """local x = torch.Tensor(2, 2)
              x:resize(3, 3)
              local n1 = x:storage():size()
              x:resize(2)
              return n1, x:storage():size(), x:nDimension()"""
    assert lua(runtime, code) == (9, 9, 1)


def test_copy_between_shapes_and_types(runtime):
    code = """local x = torch.IntTensor(4):fill(3)
              local y = torch.Tensor(2,2):copy(x)
              local ok = pcall(function() torch.Tensor(3):copy(x) end)
              return y[{2,2}], y:type(), ok"""
    assert lua(runtime, code) == (3, "torch.DoubleTensor", False)


def test_copy_large_non_contiguous(runtime):
    code = """local x = torch.Tensor(100, 200)
              local s = x:storage()
              for i = 1, s:size() do s[i] = i end
              local y = torch.Tensor(200, 100):copy(x:t())
              return y[{1,1}], y[{1,2}], y[{2,1}], y[{200,100}]"""
    # y is x transposed, read in row-major order: y[1][2] = x[2][1] = 201
    assert lua(runtime, code) == (1, 201, 2, 20000)


def test_clone_and_contiguous(runtime):
    code = """local x = torch.Tensor(2,3):fill(1)
              local same = x:contiguous()
              local z = x:t():contiguous():fill(3)
              local c = x:clone():fill(4)
              return rawequal(same, x), x[{1,1}], z:isContiguous(), c[{1,1}]"""
    assert lua(runtime, code) == (True, 1, True, 4)


def test_set_forms_and_is_set_to(runtime):
    code = """local x = torch.Tensor(2,5)
              local y = torch.Tensor()
              local before = y:isSetTo(x)
              y:set(x)
              local s = torch.Storage(10)
              local z = torch.Tensor():set(s, 1, torch.LongStorage{2,5})
              local w = torch.Tensor():set(s)
              return before, y:isSetTo(x), y:t():isSetTo(x), z:size(2), w:nDimension(), w:size(1)"""
    assert lua(runtime, code) == (False, True, False, 5, 1, 10)


def test_expand_is_a_stride_zero_view(runtime):
    code = """local x = torch.Tensor({{1},{2}})
              local y = x:expand(2, 3)
              local st = y:stride()
              y[{1,3}] = 9
              return st[2], x[{1,1}], y[{1,1}]"""
    assert lua(runtime, code) == (0, 9, 9)


def test_expand_errors(runtime):
    code = """local x = torch.Tensor({{1, 2}})
              local _, m1 = pcall(function() return x:expand(3, 3) end)
              local _, m2 = pcall(function() return x:expand(2, 2, 2) end)
              return m1, m2"""
    m1, m2 = lua(runtime, code)
    assert m1.endswith("incorrect size: only supporting singleton expansion (size=1)")
    assert m2.endswith("the number of dimensions provided must equal tensor:dim()")


def test_squeeze(runtime):
    code = """local x = torch.Tensor(2, 1, 3, 1)
              local a = x:squeeze()
              local b = torch.squeeze(x, 2)
              local n = torch.Tensor({{7}}):squeeze()
              return a:nDimension(), b:nDimension(), x:nDimension(), n"""
    assert lua(runtime, code) == (2, 3, 4, 7)


def test_permute_equals_transposes(runtime):
    code = """local x = torch.Tensor(3,4,2,5)
              return x:permute(2,3,1,4):isSetTo(x:transpose(1,3):transpose(1,2))"""
    assert lua(runtime, code) is True


def test_unfold(runtime):
    code = """local x = torch.Tensor({1,2,3,4,5,6,7})
              local y = x:unfold(1, 2, 2)
              return y:size(1), y:size(2), y[{3,2}], y:stride(1)"""
    assert lua(runtime, code) == (3, 2, 6, 2)


def test_views_keep_working_after_original_dropped(runtime):
    code = """local v
              do local x = torch.Tensor(1000):fill(2); v = x:narrow(1, 10, 5) end
              collectgarbage(); collectgarbage()
              return v[5]"""
    assert lua(runtime, code) == 2


def test_shrunk_storage_makes_stale_view_an_error_not_a_crash(runtime):
    code = """local x = torch.Tensor(10):fill(1)
              x:storage():resize(2)
              local ok1 = pcall(function() return x[9] end)
              local ok2 = pcall(function() return tostring(x) end)
              local ok3 = pcall(function() return x:clone() end)
              return ok1, ok2, ok3"""
    assert lua(runtime, code) == (False, False, False)


@pytest.mark.parametrize("code", [
    "torch.Tensor(2,3):size(3)",
    "torch.Tensor(2,3):narrow(1, 2, 2)",
    "torch.Tensor(2,3):narrow(3, 1, 1)",
    "torch.Tensor(2,3):select(1, 3)",
    "torch.Tensor(2,3):transpose(1, 3)",
    "torch.Tensor(2,3):fill('a')",
    "torch.Tensor(2,3):copy({})",
    "torch.Tensor('x')",
    "torch.Tensor(2):t()",
    "torch.Tensor(2,3):unfold(2, 4, 1)",
    "torch.Tensor(2,3):resize('a')",
    "torch.Tensor(2,3):resize(-1)",
])
def test_bad_arguments_are_lua_errors(runtime, code):
    ok, msg = lua(runtime, f"return pcall(function() return {code} end)")
    assert ok is False
    assert isinstance(msg, str) and msg and "Traceback" not in msg


def test_error_names_the_function(runtime):
    _, msg = lua(runtime, "return pcall(function() local t = torch.Tensor(2,3):narrow(1, 2, 5) return t end)")
    assert "bad argument #3 to 'narrow'" in msg


def test_new_builds_a_tensor_of_the_same_type(runtime):
    code = """local x = torch.FloatTensor(2)
              local y = x.new(3, 4)
              local e = x.new()
              return y:type(), y:size(2), e:nDimension(), torch.IntStorage.new(3):size()"""
    assert lua(runtime, code) == ("torch.FloatTensor", 4, 0, 3)


def test_shrunk_storage_keeps_every_path_in_bounds(runtime):
    code = """local x = torch.Tensor(1000):fill(1)
              local v = x:narrow(1, 990, 10)
              x:storage():resize(2)
              local results = {}
              for _, f in ipairs{function() v:apply(function(e) return e + 1 end) end,
                                 function() return v:sum() end,
                                 function() return v + 1 end,
                                 function() v:fill(3) end,
                                 function() return v:clone() end} do
                 results[#results + 1] = pcall(f)
              end
              return unpack(results)"""
    assert lua(runtime, code) == (False,) * 5


def _msgs(th, code):
    out = th("local function msg(f) local ok, m = pcall(f); print(ok, (tostring(m):gsub('^.-:%d+: ', ''))) end\n" + code)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_view_errors_carry_torch7_messages(th):
    out = _msgs(th, """x = torch.zeros(2, 3)
msg(function() return x:view(4, -1) end)
msg(function() return x:view(-1, -1) end)
msg(function() return x:view(7) end)
msg(function() return x:t():view(6) end)
msg(function() return x:view(3, 2):dim() end)""")
    assert out.splitlines() == [
        "false\tThe number of covered elements is not a multiple of all elements.\t",
        "false\tOnly one of torch.view dimensions can be -1.\t",
        "false\tWrong size for view. Input size: 2x3. Output size: 7\t",
        "false\texpecting a contiguous tensor\t",
        "true\t2\t",
    ]


def test_squeeze_result_form_and_numbers(th):
    out = th("""z = torch.Tensor(1, 3, 1):fill(2)
r = torch.Tensor()
torch.squeeze(r, z)
print(r:dim(), r:size(1), z:dim())
print(torch.Tensor(1):fill(4):squeeze(1))
print(torch.Tensor(1, 1):fill(4):squeeze(1):dim())
print(torch.Tensor(1, 1):fill(5):squeeze())""")
    assert out.stdout.splitlines() == ["1\t3\t3\t", "4\t", "1\t", "5\t"]


def test_typeAs_converts(th):
    out = th("print(torch.Tensor({1.5, -2.5}):typeAs(torch.IntTensor(1)))")
    assert out.stdout.splitlines()[:3] == [" 1", "-2", "[torch.IntTensor of size 2]"]


def test_sizes_are_truncated_like_a_c_long(runtime):
    assert lua(runtime, "return torch.Tensor(2.7):size(1), torch.Tensor(2, 3.9):size(2)") == (2, 3)


def test_full_index_tables_read_and_write_elements(th):
    out = th("""x = torch.range(1, 24):resize(2, 3, 4)
print(x[{2, 3, 4}], x[{-1, -1, -1}], x[{1, 2, -2}])
x[{1, 1, 1}] = 100
print(x[1][1][1])
local ok, m = pcall(function() return x[{1, 4, 1}] end)
print(ok)
local ok2 = pcall(function() x[{3, 1, 1}] = 0 end)
print(ok2, x:sum())""")
    assert out.stdout.splitlines() == ["24\t24\t7\t", "100\t", "false\t", "false\t399\t"]


def test_index_tables_read_numeric_strings_as_numbers(th):
    # as Torch7 read their entries (lua_isnumber); expected: the original's output
    out = th("""local x = torch.range(1, 12):view(3, 4)
for _, k in ipairs{"{'2'}", "{'x'}", "{' 2 '}", "{'0x2'}", "{'2', '3'}", "{'2.7', 1}", "{true}",
                   "{{'1', '2'}}", "{{1, '2'}, 2}", "{'1e0', {}}", "{2, true}", "{'-1'}"} do
  local r = loadstring('local x = ... return x[' .. k .. ']')(x)
  if torch.isTensor(r) then r = table.concat(r:size():totable(), 'x') .. ' first ' .. r:storage()[r:storageOffset()] end
  print(k, r)
end
x[{'3', {'2', '-1'}}] = 0
print(x:sum())""")
    assert out.stdout.splitlines() == [
        "{'2'}\t4 first 5\t", "{'x'}\t3x4 first 1\t", "{' 2 '}\t4 first 5\t", "{'0x2'}\t4 first 5\t",
        "{'2', '3'}\t7\t", "{'2.7', 1}\t5\t", "{true}\t3x4 first 1\t", "{{'1', '2'}}\t2x4 first 1\t",
        "{{1, '2'}, 2}\t2 first 2\t", "{'1e0', {}}\t4 first 1\t", "{2, true}\t4 first 5\t",
        "{'-1'}\t4 first 9\t", "45\t"]


def test_fill_casts_like_c_on_big_and_small_tensors(runtime):
    code = """return torch.ByteTensor(100):fill(-1)[1], torch.ByteTensor(1):fill(-1)[1],
                     torch.CharTensor(100):fill(200)[7], torch.ShortTensor(100):fill(40000)[1],
                     torch.IntTensor(100):fill(-2.7)[1]"""
    assert lua(runtime, code) == (255, 255, -56, -25536, -2)


def test_permute_invalid_is_torch7_assert(th):
    out = th("""for _, p in ipairs({{1, 1}, {1}, {1, 3}}) do
  local ok, m = pcall(function() return torch.Tensor(2, 3):permute(unpack(p)) end)
  print(ok, (tostring(m):gsub('^.-:%d+: ', '')))
end""")
    assert out.stdout == "false\tInvalid permutation\t\n" * 3


def test_copy_between_overlapping_views_small_and_big(runtime):
    # small tensors (LuaJIT) and big ones (numpy) copy overlapping views alike
    for n in (6, 600):
        code = f"""local x = torch.range(1, {n})
                   x:narrow(1, 2, {n} - 2):copy(x:narrow(1, 1, {n} - 2))
                   local y = torch.range(1, {n})
                   y:narrow(1, 1, {n} - 2):copy(y:narrow(1, 2, {n} - 2))
                   return x[2], x[3], x[{n} - 1], x[{n}], y[1], y[{n} - 2], y[{n}]"""
        assert lua(runtime, code) == (1, 2, n - 2, n, 2, n - 1, n)


def test_invalid_storage_offset_is_ths_message(runtime):
    code = """local ok, m = pcall(torch.Tensor, torch.DoubleStorage(4), 0, 2)
              return ok, (tostring(m):gsub('^.-:%d+: ', ''))"""
    assert runtime.execute(code) == (False, "Tensor: invalid storage offset")


def test_set_reads_its_arguments_as_the_constructor(runtime):
    # TH's set: sizes (numbers or a LongStorage) view a new storage; a LongTensor
    # views a LongStorage; no argument empties the tensor
    code = """local x = torch.Tensor(2, 2):fill(1)
              local old = x:storage()
              x:set(3)
              local l = torch.LongTensor():set(torch.LongStorage({4, 5, 6}))
              local y = torch.Tensor():set(torch.LongStorage({2, 3}))
              return x:dim(), x:size(1), x:storage() ~= old, l[3], y:size(1), y:size(2),
                     torch.Tensor(2):set():dim()"""
    assert runtime.execute(code) == (1, 3, True, 6, 2, 3, 0)


def test_fill_takes_numeric_strings_and_retain_free_return_nothing(runtime):
    code = """local x = torch.Tensor(3):fill('7')
              return x[1], x[3], select('#', x:retain()), select('#', x:free())"""
    assert runtime.execute(code) == (7, 7, 0, 0)


def test_torch_fill_and_zero_functions(runtime):
    # TensorMath wrapped fill and zero for the torch table as well as methods
    code = """local x = torch.IntTensor(3)
              local r = torch.fill(x, 4)
              local a = x[2]
              return r == x, a, torch.zero(x) == x, x:sum(), pcall(torch.fill, 3, 1)"""
    assert runtime.execute(code)[:5] == (True, 4, True, 0, False)


def test_resizeAs_isSetTo_isSameSizeAs_take_self_type_only(runtime):
    # luaT_checkudata(L, 2, torch_Tensor): the other tensor must have self's type
    for call in ("resizeAs", "isSetTo", "isSameSizeAs"):
        code = f"""local ok, m = pcall(function() return torch.IntTensor(2, 3):{call}(torch.Tensor(2, 3)) end)
                   return ok, (tostring(m):gsub('^.-:%d+: ', ''))"""
        assert runtime.execute(code) == (   # (a tail call: Lua knew neither the name nor self)
            False, "bad argument #2 to '?' (torch.IntTensor expected, got torch.DoubleTensor)")
    assert runtime.execute("return torch.IntTensor(2, 3):isSameSizeAs(torch.IntTensor(2, 3))") is True


def test_out_of_range_numbers_cast_alike_small_and_big(runtime):
    # (int)1e10 is INT_MIN in TH's x86 build, for the LuaJIT (<= 64 elements) and numpy paths alike
    for n in (3, 100):
        code = f"""local x = torch.Tensor({n}):fill(1e10)
                   local t = torch.IntTensor(1); t[1] = 1e10
                   return x:int()[{n}], x:short()[1], x:long()[1], torch.IntTensor({n}):fill(0/0)[1],
                          torch.ByteTensor({n}):fill(-1)[1], t[1], torch.IntTensor({{1e10}})[1]"""
        assert runtime.execute(code) == (-2147483648, 0, 10000000000, -2147483648, 255, -2147483648, -2147483648)


@pytest.mark.parametrize("code, sizes", [
    # Torch7's view, expand and repeatTensor (Lua functions) took their sizes
    # as a table, which ends at the first nil (sizes from the original)
    ("x:view(2, nil, 1)", "2"),
    ("x:view(1, 2, nil, nil)", "1x2"),
    ("x:repeatTensor(2, nil)", "4"),
    ("torch.repeatTensor(x, 2, nil)", "4"),
    ("x:expand(2, nil, 3)", "2"),
])
def test_view_expand_repeat_sizes_end_at_the_first_nil(runtime, code, sizes):
    got = lua(runtime, f"local x = torch.Tensor{{1, 2}} local r = {code} "
                       "return table.concat(r:size():totable(), 'x')")
    assert got == sizes
