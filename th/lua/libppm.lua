-- image's libppm module (the ppm files of the image package), provided by th: see image_native/codec.lua
local common = require 'image_native.common'
local codec = require 'image_native.codec'

common.register('libppm', codec.make('ppm', 'libppm', false))
return torch.getmetatable('torch.FloatTensor').libppm
