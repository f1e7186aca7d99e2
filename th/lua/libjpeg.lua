-- image's libjpeg module (the jpeg files of the image package), provided by th: see image_native/codec.lua
local common = require 'image_native.common'
local codec = require 'image_native.codec'

common.register('libjpeg', codec.make('jpeg', 'libjpeg', true))
return torch.getmetatable('torch.FloatTensor').libjpeg
