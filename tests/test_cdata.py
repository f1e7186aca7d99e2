"""t:cdata() and s:cdata(): Torch7's C structures (THRealTensor, THRealStorage)
as its torch/ffi.lua declared them, for FFI code written against the original."""


def test_tensor_cdata_describes_the_view(runtime):
    code = """local x = torch.Tensor(3, 4):fill(2)
              local c = x:t():cdata()
              return c.nDimension, tonumber(c.size[0]), tonumber(c.size[1]), tonumber(c.stride[0]),
                     tonumber(c.stride[1]), tonumber(c.storageOffset), tonumber(c.storage.size)"""
    assert runtime.execute(code) == (2, 4, 3, 1, 4, 0, 12)


def test_data_pointer_of_cdata_is_live(runtime):
    code = """local x = torch.Tensor(3, 4):zero()
              local c = x:narrow(1, 2, 1):cdata()
              c.storage.data[c.storageOffset + 1] = 7
              return x[{2, 2}]"""
    assert runtime.execute(code) == 7


def test_cdata_types_follow_torch7_names(runtime):
    code = """local ffi = require 'ffi'
              return tostring(ffi.typeof(torch.IntTensor(2):cdata())),
                     tostring(ffi.typeof(torch.ByteStorage(2):cdata())),
                     torch.Tensor():cdata().storage == nil"""
    assert runtime.execute(code) == ("ctype<struct THIntTensor *>", "ctype<struct THByteStorage *>", True)


def test_cdata_survives_collection_while_the_tensor_lives(runtime):
    code = """local x = torch.LongTensor({5, 6})
              local c = x:cdata()
              collectgarbage(); collectgarbage()
              return tonumber(c.size[0]), tonumber(c.storage.data[1])"""
    assert runtime.execute(code) == (2, 6)


def test_torch_cdata_function(runtime):
    code = """local ffi = require 'ffi'
              local x = torch.FloatTensor(2, 5)
              local c = torch.cdata(x)
              return c.nDimension, tostring(ffi.typeof(torch.cdata(x, true))),
                     tonumber(torch.cdata(x, true)) == tonumber(ffi.cast('intptr_t', c))"""
    assert runtime.execute(code) == (2, "ctype<int64_t>", True)
