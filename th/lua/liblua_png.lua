-- image's libpng module (the png files of the image package), provided by th: see image_native/codec.lua
local common = require 'image_native.common'
local codec = require 'image_native.codec'

common.register('libpng', codec.make('png', 'libpng', false))
return torch.getmetatable('torch.FloatTensor').libpng
