-- libimage's geometric functions for tensor type T (the arithmetic is th/ops/image_geometry.py):
-- scaleSimple/scaleBilinear/scaleBicubic(src, dst), rotate/rotateBilinear(src, dst, theta),
-- polar/polarBilinear/logPolar/logPolarBilinear(src, dst, full), translate(src, dst, x, y),
-- cropNoScale(src, dst, x, y), warp(dst, src, field, mode, offset, clamp_mode, pad_value),
-- hflip/vflip(dst, src), flip(dst, src, dim of a 5-D view).
local common = require 'image_native.common'

local py, call, nd, fail = common.py, common.call, common.nd, common.fail

return function(T, lib)
   local function pair(fname, a, b)
      return nd(a, 1, fname, T), nd(b, 2, fname, T)
   end
   local function number(v, argn, fname)
      if type(v) ~= 'number' then
         fail("bad argument #%d to '%s' (number expected, got %s)", argn, fname, type(v))
      end
      return v
   end

   for name, pyf in pairs{scaleSimple = py.img_scale_simple, scaleBilinear = py.img_scale_bilinear,
                          scaleBicubic = py.img_scale_bicubic} do
      lib[name] = function(src, dst)
         local s, d = pair('image.' .. name, src, dst)
         call(pyf, d, s)
      end
   end

   for name, bilinear in pairs{rotate = false, rotateBilinear = true} do
      lib[name] = function(src, dst, theta)
         local s, d = pair('image.' .. name, src, dst)
         call(py.img_rotate, s, d, number(theta, 3, 'image.' .. name), bilinear)
      end
   end

   for name, how in pairs{polar = {false, false}, polarBilinear = {false, true},
                          logPolar = {true, false}, logPolarBilinear = {true, true}} do
      lib[name] = function(src, dst, full)
         local s, d = pair('image.' .. name, src, dst)
         call(py.img_polar, s, d, full == 1, how[1], how[2])
      end
   end

   function lib.translate(src, dst, x, y)
      local s, d = pair('image.translate', src, dst)
      call(py.img_translate, s, d, number(x, 3, 'image.translate'), number(y, 4, 'image.translate'))
   end

   function lib.cropNoScale(src, dst, x, y)
      local s, d = pair('image.crop', src, dst)
      call(py.img_crop, s, d, number(x, 3, 'image.crop'), number(y, 4, 'image.crop'))
   end

   function lib.warp(dst, src, field, mode, offset, clamp_mode, pad_value)
      local d, s = pair('image.warp', dst, src)
      call(py.img_warp, d, s, nd(field, 3, 'image.warp'), mode, offset and true or false,
           clamp_mode == 1, pad_value or 0)
   end

   for name, dim in pairs{hflip = 2, vflip = 1} do
      lib[name] = function(dst, src)
         local d, s = pair('image.' .. name, dst, src)
         if src:dim() ~= 3 then
            fail("bad argument #1 to 'image.%s' (2D or 3D image expected, got %dD)", name, src:dim())
         end
         call(py.img_flip, d, s, dim)
      end
   end

   function lib.flip(dst, src, dim)
      local d, s = pair('image.flip', dst, src)
      call(py.img_flip, d, s, number(dim, 3, 'image.flip') - 1)
   end
end
