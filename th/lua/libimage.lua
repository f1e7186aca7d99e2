-- image's libimage module, provided by th: it creates the global `image` table (which the
-- package's init.lua fills) and the `image` table of functions on each tensor class
-- (torch.FloatTensor.image.scaleBilinear...), see image_native/transform.lua and colour.lua.
local common = require 'image_native.common'
local transform = require 'image_native.transform'
local colour = require 'image_native.colour'

common.register('image', function(T)
   local lib = {}
   transform(T, lib)
   colour(T, lib)
   return lib
end)

image = rawget(_G, 'image') or {}
return image
