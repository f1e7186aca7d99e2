-- libimage's pixel-wise functions for tensor type T (th/ops/image_colour.py, image_draw.py):
-- colour spaces (input, output), rgb2y(input, outputY), saturate(t), colorize(out, idx, map),
-- gaussian(t, amplitude, normalize, sigma_h, sigma_v, mean_h, mean_v),
-- text(img, text, x, y, size, r, g, b, bg_r, bg_g, bg_b, wrap), drawRect(img, x1, y1, x2, y2, width, r, g, b).
local common = require 'image_native.common'

local py, call, nd, fail = common.py, common.call, common.nd, common.fail

return function(T, lib)
   for _, name in ipairs{'rgb2hsv', 'hsv2rgb', 'rgb2hsl', 'hsl2rgb', 'rgb2lab', 'lab2rgb', 'rgb2y'} do
      local pyf = py['img_' .. name]
      local fname = 'image.' .. name
      lib[name] = function(input, output)
         local x = nd(input, 1, fname, T)
         if input:dim() ~= 3 or input:size(1) < 3 then
            fail("bad argument #1 to '%s' (3xHxW image expected)", fname)
         end
         call(pyf, x, nd(output, 2, fname, T))
      end
   end

   function lib.saturate(t)
      call(py.img_saturate, nd(t, 1, 'image.saturate', T))
   end

   function lib.colorize(output, input, colormap)
      local fname = 'image.colorize'
      local idx = nd(input, 2, fname, T)
      if input:dim() ~= 2 then fail("bad argument #2 to '%s' (HxW tensor expected)", fname) end
      output:resize(3, input:size(1), input:size(2))
      call(py.img_colorize, nd(output, 1, fname, T), idx, nd(colormap, 3, fname, T))
   end

   function lib.gaussian(t, amplitude, normalize, sigma_h, sigma_v, mean_h, mean_v)
      local d = nd(t, 1, 'image.gaussian', T)
      if t:dim() ~= 2 then fail("bad argument #1 to 'image.gaussian' (2D tensor expected)") end
      call(py.img_gaussian, d, amplitude, normalize and true or false, sigma_h, sigma_v, mean_h, mean_v)
   end

   function lib.text(img, text, x, y, size, r, g, b, bg_r, bg_g, bg_b, wrap)
      call(py.img_text, nd(img, 1, 'image.drawText', T), text, x, y, size,
           r, g, b, bg_r, bg_g, bg_b, wrap == 1)
   end

   function lib.drawRect(img, x1, y1, x2, y2, width, r, g, b)
      call(py.img_draw_rect, nd(img, 1, 'image.drawRect', T), x1, y1, x2, y2, width, r, g, b)
   end
end
