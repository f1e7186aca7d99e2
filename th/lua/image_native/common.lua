-- What the Lua faces of image's C modules (libimage, libpng, libjpeg, libppm) share:
-- their tables hang on the tensor classes (torch.FloatTensor.image.scaleBilinear,
-- torch.ByteTensor.libpng.load...), one table per tensor type, as luaT registered them.
-- The pixel work is in th/ops/image_*.py, reached with one call per operation.
local torch = require 'torch'
local internal = require 'torch.internal'

local common = {}

common.py = internal.py
common.fail = internal.fail

-- the tensor types image's C part was compiled for
common.types = {'Byte', 'Float', 'Double'}

-- register(field, make): torch.<T>Tensor.<field> = make(T) for each type
function common.register(field, make)
   for _, T in ipairs(common.types) do
      torch.getmetatable('torch.' .. T .. 'Tensor')[field] = make(T)
   end
end

-- tensor(v, argn, fname, T): v's data, checking it is a tensor (of type T when given)
function common.tensor(v, argn, fname, T)
   local d = internal.checktensor(v, argn, fname)
   if T and d.T.name ~= T then
      common.fail("bad argument #%d to '%s' (torch.%sTensor expected, got %s)",
                  argn, fname, T, torch.type(v))
   end
   return d
end

-- nd(v, argn, fname, T): the numpy view of a tensor argument (checked)
function common.nd(v, argn, fname, T)
   local d = common.tensor(v, argn, fname, T)
   if internal.nelement(d) == 0 then
      common.fail("bad argument #%d to '%s' (empty tensor)", argn, fname)
   end
   return internal.ndview(d)
end

-- call(f, ...): a Python function of th/ops; its exception becomes a Lua error
common.call = internal.pycall

return common
