-- The C part of the image package as th provides it (libimage, libjpeg, libpng), called
-- directly, on a 3x512x512 FloatTensor image.  No Torch7 figures: the reference install
-- has no image package.
package.path = arg[0]:match('^(.*[/\\])') .. '?.lua;' .. package.path
local bench = require 'bench'
require 'libimage'
require 'libjpeg'
require 'liblua_png'

local img = torch.FloatTensor(3, 512, 512):uniform()
local lib = img.image
local big, small = img.new(3, 1024, 1024), img.new(3, 256, 256)
local out = img.new(3, 512, 512)
local field = img.new(2, 512, 512):uniform(-2, 2)

bench.run('image_scale_bilinear_x2', 1, function() lib.scaleBilinear(img, big) end)
bench.run('image_scale_bilinear_/2', 1, function() lib.scaleBilinear(img, small) end)
bench.run('image_scale_bicubic_x2', 1, function() lib.scaleBicubic(img, big) end)
bench.run('image_scale_simple_x2', 1, function() lib.scaleSimple(img, big) end)
bench.run('image_rotate', 1, function() lib.rotate(img, out, 0.3) end)
bench.run('image_rotate_bilinear', 1, function() lib.rotateBilinear(img, out, 0.3) end)
bench.run('image_warp_bilinear', 1, function() lib.warp(out, img, field, 1, true, 0, 0) end)
bench.run('image_warp_bicubic', 1, function() lib.warp(out, img, field, 2, true, 0, 0) end)
bench.run('image_rgb2hsv', 1, function() lib.rgb2hsv(img, out) end)
bench.run('image_rgb2lab', 1, function() lib.rgb2lab(img, out) end)
bench.run('image_hflip', 1, function() lib.hflip(out, img) end)

local bytes = torch.ByteTensor()
local pixels = img:clone():mul(255)
img.libjpeg.save('', pixels, 0, 90, bytes)
bench.run('image_jpeg_decode_512', 1, function() img.libjpeg.load(0, bytes) end)
bench.run('image_jpeg_encode_512', 1, function() img.libjpeg.save('', pixels, 0, 90, torch.ByteTensor()) end)
img.libpng.save('', pixels, 0, bytes)
bench.run('image_png_decode_512', 1, function() img.libpng.load(0, bytes) end)
