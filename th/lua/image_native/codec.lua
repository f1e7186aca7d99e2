-- The Lua faces of image's libpng, libjpeg and libppm: per tensor type,
--   load(load_from_file, filename | ByteTensor of the file's bytes) -> C x H x W tensor, bit depth
--   (libppm: load(filename), save(filename, tensor))
--   save(filename, tensor, save_to_file, [quality], [ByteTensor to receive the bytes])
--   size(filename) -> channels, height, width
-- Tensors hold 0..255 (0..65535 for a 16-bit PNG loaded into a Float or Double tensor;
-- a ByteTensor receives its top 8 bits).  Decoding is th/ops/image_codec.py.
local torch = require 'torch'
local common = require 'image_native.common'

local py, call, nd, fail = common.py, common.call, common.nd, common.fail

local codec = {}

-- the functions of one file kind ('png', 'jpeg', 'ppm') for tensor type T
function codec.make(kind, fname, hasquality)
   return function(T)
      local lib = {}
      function lib.load(load_from_file, source)
         local filename, blob
         if load_from_file == 1 then
            if type(source) ~= 'string' then
               fail("bad argument #2 to '%s.load' (file name expected, got %s)", fname, torch.type(source))
            end
            filename = source
         else
            blob = nd(source, 2, fname .. '.load', 'Byte')
         end
         local arr, c, h, w, depth = call(py.img_load, kind, filename, blob)
         local t = torch[T .. 'Tensor'](c, h, w)
         call(py.img_copy_into, nd(t, 1, fname .. '.load'), arr, depth == 16 and T == 'Byte')
         return t, depth
      end
      function lib.save(filename, tensor, save_to_file, quality, bytes)
         if not hasquality then bytes = quality end
         local arr = nd(tensor, 2, fname .. '.save')
         if save_to_file == 1 then
            call(py.img_save, kind, filename, arr, quality or 75)
         else
            local data, n = call(py.img_save, kind, nil, arr, quality or 75)
            bytes:resize(n)
            call(py.img_bytes_into, nd(bytes, 5, fname .. '.save', 'Byte'), data)
         end
      end
      function lib.size(filename)
         return call(py.img_size, kind, filename)
      end
      if kind == 'ppm' then
         local load, save = lib.load, lib.save
         function lib.load(filename) return load(1, filename) end
         function lib.save(filename, tensor) return save(filename, tensor, 1) end
      end
      return lib
   end
end

return codec
